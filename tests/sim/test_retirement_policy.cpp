// Which schedules give their records back as the run goes
// (sim/schedule_retirement.hpp, retires_schedule): every repeated one; one run
// once when it has at least kStreamedFrom messages and no step holds more than
// a kStepShareDivisor-th of them; never a traced run or a multicast schedule.
#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

#include "schedules/schedule.hpp"
#include "sim/schedule_retirement.hpp"

namespace wormsim {
namespace {

ScheduledMessage unicast() {
  ScheduledMessage m;
  m.src = 0;
  m.dst = 1;
  m.packet = 0;
  return m;
}

// A schedule of `steps` steps of `per_step` unicast messages each.
Schedule even_schedule(size_t steps, size_t per_step) {
  Schedule s;
  s.add_packet("0", 0);
  s.steps.assign(steps, std::vector<ScheduledMessage>(per_step, unicast()));
  return s;
}

TEST(RetirementPolicy, ALargeScheduleOfSmallStepsRunOnceGivesItsRecordsBack) {
  ASSERT_EQ(std::getenv("WORMSIM_RETIRE_BATCH"), nullptr) << "the tests' override would decide instead";
  const size_t steps = 2 * kStepShareDivisor;
  Schedule s = even_schedule(steps, kStreamedFrom / steps);
  ASSERT_EQ(s.num_messages(), kStreamedFrom);
  EXPECT_TRUE(retires_schedule(s, 1, false));
  EXPECT_FALSE(retires_schedule(s, 1, true)) << "a trace names every message";
  // One message fewer: small enough to keep.
  s.steps.back().pop_back();
  EXPECT_FALSE(retires_schedule(s, 1, false));
  // As many messages, one step holding a sixteenth of them: still retired.
  s.steps.back().push_back(unicast());
  s.steps[0].insert(s.steps[0].end(), s.steps[1].begin(), s.steps[1].end());
  s.steps[1].clear();
  ASSERT_EQ(s.steps[0].size() * kStepShareDivisor, kStreamedFrom);
  EXPECT_TRUE(retires_schedule(s, 1, false));
  // One message more in that step, one fewer elsewhere: more than a sixteenth (a broadcast's last steps hold half).
  s.steps[0].push_back(unicast());
  s.steps.back().pop_back();
  ASSERT_EQ(s.num_messages(), kStreamedFrom);
  EXPECT_FALSE(retires_schedule(s, 1, false));
}

TEST(RetirementPolicy, ARepeatedScheduleAlwaysGivesItsRecordsBackUnlessTracedOrMulticast) {
  Schedule s = even_schedule(2, 3);
  EXPECT_FALSE(retires_schedule(s, 1, false));
  EXPECT_TRUE(retires_schedule(s, 2, false));
  EXPECT_FALSE(retires_schedule(s, 2, true));
  s.steps[1][0].dst = -1;
  s.steps[1][0].set_multicast("tree", {1, 2});
  EXPECT_FALSE(retires_schedule(s, 2, false)) << "a multidestination worm keeps its copies' records";
}

}  // namespace
}  // namespace wormsim

// The figures over a repeated schedule's repetitions (sim/repetition_metrics.hpp),
// folded one repetition at a time into counts per value: nearest-rank
// percentiles, the mean and the sample standard deviation, whatever the order
// the repetitions come in; and only the completed ones in the distributions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "sim/repetition_metrics.hpp"

namespace wormsim {
namespace {

LatencyHistogram histogram_of(const std::vector<uint64_t>& values) {
  LatencyHistogram h;
  for (uint64_t v : values) h.add(v);
  return h;
}

TEST(RepetitionDistribution, GivesTheSampleFiguresOfItsValues) {
  // Sum of squared deviations from the mean 5: 9+1+1+1+0+0+4+16 = 32, over n - 1 = 7.
  const Distribution d = distribution(histogram_of({2, 4, 4, 4, 5, 5, 7, 9}));
  EXPECT_EQ(d.min, 2u);
  EXPECT_EQ(d.max, 9u);
  EXPECT_EQ(d.p50, 4u);  // the 4th of 8 sorted values
  EXPECT_EQ(d.p95, 9u);  // the 8th
  EXPECT_EQ(d.mean, 5.0);
  EXPECT_DOUBLE_EQ(d.stdev, std::sqrt(32.0 / 7.0));
}

TEST(RepetitionDistribution, DoesNotDependOnTheOrderOfTheRepetitions) {
  std::vector<uint64_t> values;
  for (uint64_t i = 0; i < 997; ++i) values.push_back((i * 7919) % 5003 + (i % 3 == 0 ? 100000 : 0));
  const Distribution a = distribution(histogram_of(values));
  std::reverse(values.begin(), values.end());
  std::rotate(values.begin(), values.begin() + 311, values.end());
  const Distribution b = distribution(histogram_of(values));
  EXPECT_EQ(a.stdev, b.stdev);  // bit for bit
  EXPECT_EQ(a.mean, b.mean);
  EXPECT_EQ(a.p95, b.p95);
  EXPECT_GT(a.stdev, 0.0);
}

TEST(RepetitionDistribution, OfOneValueOrNoneIsFlat) {
  const Distribution one = distribution(histogram_of({42}));
  EXPECT_EQ(one.min, 42u);
  EXPECT_EQ(one.p95, 42u);
  EXPECT_EQ(one.stdev, 0.0);
  const Distribution none = distribution(LatencyHistogram{});
  EXPECT_EQ(none.max, 0u);
  EXPECT_EQ(none.mean, 0.0);
}

RepetitionRow row(uint64_t due, uint64_t start, uint64_t end, int64_t step_cycles, bool under_load = false) {
  RepetitionRow r;
  r.times = RepetitionTimes{due, start, end, under_load};
  r.step_contention.cycles = step_cycles;
  return r;
}

TEST(RepetitionTally, CountsStartedLateAndCompletedRepetitionsAndOnlyCompletedOnesFigures) {
  RepetitionTally t;
  t.add(row(0, 0, 100, 7));
  t.add(row(50, 100, 180, 3, true));       // late by 50, ended under load
  t.add(row(150, 180, kNever, 1000));      // stopped: started, late, not completed
  t.add(row(250, kNever, kNever, 0));      // never began
  EXPECT_EQ(t.started, 3u);
  EXPECT_EQ(t.late, 2u);
  EXPECT_EQ(t.completed, 2u);
  EXPECT_EQ(t.under_load, 1u);
  EXPECT_EQ(t.completion.counts(), (std::vector<std::pair<uint64_t, uint64_t>>{{80, 1}, {100, 1}}));
  EXPECT_EQ(t.step_contention.max(), 7u);  // the stopped one's 1000 cycles are not a completed repetition's
}

}  // namespace
}  // namespace wormsim

// HelperThread (models/helper_thread.hpp): each job runs both parts, the one
// given to the helper on another thread, and returns only once both are done;
// an exception from either part reaches the caller, and the thread serves the
// next job all the same.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "models/helper_thread.hpp"

namespace {

using wormsim::HelperThread;

TEST(HelperThread, RunsBothPartsOfEveryJobTheirsOnAnotherThread) {
  HelperThread helper(false);  // on any machine (the express loop's asks for a second CPU)
  ASSERT_TRUE(helper.available());
  std::vector<int> sums(2000);
  const std::thread::id caller = std::this_thread::get_id();
  for (int job = 0; job < 1000; ++job) {
    std::thread::id theirs_on;
    helper.run_beside([&] { theirs_on = std::this_thread::get_id(), sums[2 * job + 1] = job; },
                      [&] { sums[2 * job] = job; });
    // Both parts are done when run_beside returns: what the helper wrote is visible here.
    ASSERT_EQ(sums[2 * job], job);
    ASSERT_EQ(sums[2 * job + 1], job);
    ASSERT_NE(theirs_on, caller);
  }
}

TEST(HelperThread, WaitsForTheHelpersPartHoweverLongItTakes) {
  HelperThread helper(false);
  ASSERT_TRUE(helper.available());
  std::atomic<bool> theirs_done{false};
  helper.run_beside(
      [&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        theirs_done = true;
      },
      [] {});
  EXPECT_TRUE(theirs_done.load());
}

TEST(HelperThread, AnExceptionFromEitherPartReachesTheCallerAndTheThreadGoesOn) {
  HelperThread helper(false);
  ASSERT_TRUE(helper.available());
  bool mine_ran = false;
  EXPECT_THROW(helper.run_beside([] { throw std::runtime_error("theirs"); }, [&] { mine_ran = true; }),
               std::runtime_error);
  EXPECT_TRUE(mine_ran) << "the caller's part runs even when the helper's throws";
  std::atomic<bool> theirs_ran{false};
  EXPECT_THROW(helper.run_beside([&] { theirs_ran = true; }, [] { throw std::logic_error("mine"); }),
               std::logic_error);
  EXPECT_TRUE(theirs_ran.load()) << "the helper's part is waited for before the caller's exception goes up";
  int after = 0;
  helper.run_beside([&] { after += 1; }, [] {});
  EXPECT_EQ(after, 1) << "an exception leaves the thread serving the next job";
}

}  // namespace

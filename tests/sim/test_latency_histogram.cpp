// LatencyHistogram as the hop-count distribution uses it (sim/router_stats.hpp):
// counts per value, smallest and largest, across its dense and sparse ranges,
// and merged from two tallies (records retired during a run, then the rest).
#include <gtest/gtest.h>

#include "sim/latency_histogram.hpp"

namespace wormsim {
namespace {

TEST(LatencyHistogram, CountsEveryValueInOrderAcrossDenseAndSparseRanges) {
  LatencyHistogram a, b;
  for (uint64_t v : {5, 3, 5, 9000, 3, 5}) a.add(v);
  for (uint64_t v : {2, 9000, 100000}) b.add(v);
  EXPECT_EQ(a.min(), 3u);
  EXPECT_EQ(a.max(), 9000u);
  a.merge(b);
  const std::vector<std::pair<uint64_t, uint64_t>> want = {{2, 1}, {3, 2}, {5, 3}, {9000, 2}, {100000, 1}};
  EXPECT_EQ(a.counts(), want);
  EXPECT_EQ(a.count(), 9u);
  EXPECT_EQ(a.min(), 2u);
  EXPECT_EQ(a.max(), 100000u);
  EXPECT_EQ(a.percentile(50), 5u);  // the 5th of 9 sorted values: 2 3 3 5 [5] 5 9000 9000 100000
}

TEST(LatencyHistogram, AnEmptyOneHasNoValues) {
  const LatencyHistogram h;
  EXPECT_TRUE(h.counts().empty());
  EXPECT_EQ(h.min(), 0u);
  EXPECT_EQ(h.max(), 0u);
  LatencyHistogram sparse;
  sparse.add(50000);
  EXPECT_EQ(sparse.min(), 50000u);
}

}  // namespace
}  // namespace wormsim

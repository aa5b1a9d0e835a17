#include <gtest/gtest.h>

#include <random>
#include <set>
#include <utility>

#include "sim/held_packets.hpp"

using namespace wormsim;

// A broadcast (one packet to every node) or a total exchange fills most of the
// table: bits. A permutation of a big network would need a huge table for a few pairs: a set.
TEST(HeldPackets, BitsWhenTheTableIsNoBiggerThanTheSetCouldGrow) {
  EXPECT_TRUE(HeldPackets(1, 2097152, 2097152).dense());
  EXPECT_TRUE(HeldPackets(256, 256, 256 * 256).dense());
  EXPECT_TRUE(HeldPackets(256, 256, 256).dense());       // 65,536 bits against 256 pairs x 256 bits
  EXPECT_FALSE(HeldPackets(257, 256, 256).dense());
  EXPECT_FALSE(HeldPackets(1 << 20, 1 << 20, 2 << 20).dense());  // 2^40 bits: never allocated
  EXPECT_FALSE(HeldPackets(1, 16, 0).dense());           // nothing asked (barrier mode)
}

// Both forms answer as a set of (node, packet) pairs would, across clears.
TEST(HeldPackets, BothFormsAnswerLikeASetOfPairs) {
  for (const uint64_t pairs : {uint64_t{1000}, uint64_t{1}}) {
    HeldPackets held(40, 50, pairs);
    SCOPED_TRACE(held.dense() ? "bits" : "set");
    std::set<std::pair<int, int>> ref;
    std::mt19937 rng(7);
    for (int i = 0; i < 20000; ++i) {
      const int node = static_cast<int>(rng() % 50), packet = static_cast<int>(rng() % 40);
      if (i % 5000 == 4999) {
        held.clear();
        ref.clear();
      } else if (rng() % 2) {
        held.give(node, packet);
        ref.insert({node, packet});
      }
      ASSERT_EQ(held.holds(node, packet), ref.count({node, packet}) == 1) << "step " << i;
    }
    for (int n = 0; n < 50; ++n)
      for (int p = 0; p < 40; ++p) ASSERT_EQ(held.holds(n, p), ref.count({n, p}) == 1);
  }
}

// Traffic patterns and injection processes on their own (no network): each
// pattern's destinations on small meshes, tori and hypercubes, checked by hand
// against the definitions in docs/config-reference.md; the patterns a network
// cannot take, with the reason; and the arrival times of each injection process.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

#include "sim/background_traffic.hpp"
#include "tests/thrown_message.hpp"

namespace wormsim::test {
namespace {

BackgroundSpec spec_of(const std::string& pattern, double rate = 0.1) {
  BackgroundSpec b;
  b.pattern = pattern;
  b.rate = rate;
  b.cycles = 100;
  b.lengths = {{4, 1.0}};
  b.seed = 7;
  return b;
}

// The destination of every endpoint under a deterministic pattern.
std::vector<int> mapping(const TopologySpec& net, const BackgroundSpec& b) {
  const Topology topo(net);
  const auto pattern = make_pattern(topo, b);
  TrafficRng rng(1);
  std::vector<int> out;
  for (int src = 0; src < topo.num_endpoints(); ++src) out.push_back(pattern->destination(src, rng));
  return out;
}
std::vector<int> mapping(const TopologySpec& net, const std::string& pattern) { return mapping(net, spec_of(pattern)); }

const TopologySpec kMesh4{"mesh", {4, 4}};    // endpoint x + 4y
const TopologySpec kTorus5{"torus", {5, 5}};  // endpoint x + 5y
const TopologySpec kCube4{"hypercube", {4}};  // endpoint = label

TEST(TrafficPatterns, BitReverseReadsTheIdBackwards) {
  const std::vector<int> m = mapping(kMesh4, "bit-reverse");
  EXPECT_EQ(m[1], 8);    // 0001 -> 1000: (1,0) -> (0,2)
  EXPECT_EQ(m[3], 12);   // 0011 -> 1100
  EXPECT_EQ(m[11], 13);  // 1011 -> 1101
  EXPECT_EQ(m[6], 6);    // 0110 is a palindrome: silent
  const std::vector<int> c = mapping(kCube4, "bit-reverse");
  EXPECT_EQ(c[2], 4);  // 0010 -> 0100
  EXPECT_EQ(c[7], 14);
}

TEST(TrafficPatterns, ShuffleRotatesLeftOneBit) {
  const std::vector<int> m = mapping(kMesh4, "shuffle");
  EXPECT_EQ(m[1], 2);
  EXPECT_EQ(m[8], 1);    // 1000 -> 0001
  EXPECT_EQ(m[9], 3);    // 1001 -> 0011
  EXPECT_EQ(m[10], 5);   // 1010 -> 0101
  EXPECT_EQ(m[15], 15);  // silent
  EXPECT_EQ(mapping(TopologySpec{"torus", {2, 4}}, "shuffle")[5], 3);  // 101 -> 011
}

TEST(TrafficPatterns, TornadoShiftsJustUnderHalfWayRound) {
  // k = 5: ceil(5/2) - 1 = 2 places in each dimension.
  const std::vector<int> t = mapping(kTorus5, "tornado");
  EXPECT_EQ(t[0], 12);       // (0,0) -> (2,2)
  EXPECT_EQ(t[9], 1 + 5 * 3);  // (4,1) -> (1,3)
  // k = 4 on a mesh: 1 place, wrapping back across the mesh.
  const std::vector<int> m = mapping(kMesh4, "tornado");
  EXPECT_EQ(m[0], 5);        // (0,0) -> (1,1)
  EXPECT_EQ(m[11], 0 + 4 * 3);  // (3,2) -> (0,3)
  // k = 2 does not move: a 2x6 mesh shifts only y (by 2).
  EXPECT_EQ(mapping(TopologySpec{"mesh", {2, 6}}, "tornado")[1], 1 + 2 * 2);
}

TEST(TrafficPatterns, NeighborMovesEveryCoordinateOnePlace) {
  const std::vector<int> t = mapping(kTorus5, "neighbor");
  EXPECT_EQ(t[0], 6);        // (0,0) -> (1,1)
  EXPECT_EQ(t[9], 0 + 5 * 2);  // (4,1) -> (0,2)
  EXPECT_EQ(t[24], 0);       // (4,4) -> (0,0)
  // Hypercube: radix 2 in every dimension, so every bit flips.
  const std::vector<int> c = mapping(kCube4, "neighbor");
  EXPECT_EQ(c[5], 10);
  EXPECT_EQ(c[0], 15);
  // Concentrated mesh: the router moves, the local index stays.
  const std::vector<int> cm = mapping(TopologySpec{"cmesh", {2, 2}, {{"concentration", 2}}}, "neighbor");
  EXPECT_EQ(cm[1], 7);  // router (0,0) endpoint 1 -> router (1,1) endpoint 1
  EXPECT_EQ(cm[4], 2);  // router (0,1) endpoint 0 -> router (1,0) endpoint 0
}

TEST(TrafficPatterns, TransposeAndBitComplement) {
  EXPECT_EQ(mapping(kMesh4, "transpose")[1 + 4 * 2], 2 + 4 * 1);  // (1,2) -> (2,1)
  EXPECT_EQ(mapping(kCube4, "transpose")[7], 13);                 // 01|11 -> 11|01
  EXPECT_EQ(mapping(kMesh4, "bit-complement")[5], 10);            // (1,1) -> (2,2)
  EXPECT_EQ(mapping(TopologySpec{"mesh", {3, 3}}, "bit-complement")[4], 4);  // the centre is silent
}

TEST(TrafficPatterns, RandomPermutationIsAFixedPermutationOfTheSeed) {
  const TopologySpec mesh8{"mesh", {8, 8}};
  BackgroundSpec b = spec_of("random-permutation");
  const std::vector<int> p = mapping(mesh8, b);
  std::vector<int> sorted = p;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> ids(64);
  std::iota(ids.begin(), ids.end(), 0);
  EXPECT_EQ(sorted, ids) << "a permutation";
  EXPECT_EQ(mapping(mesh8, b), p) << "the same seed, the same permutation";
  b.seed = 8;
  EXPECT_NE(mapping(mesh8, b), p) << "another seed, another permutation";
  int fixed = 0;
  for (int i = 0; i < 64; ++i) fixed += p[i] == i;
  EXPECT_LT(fixed, 64 / 4) << "a shuffled permutation has about one fixed point";
}

TEST(TrafficPatterns, DiagonalHalfToTheNextNodeHalfSilent) {
  const Topology topo(kMesh4);
  const auto pattern = make_pattern(topo, spec_of("diagonal"));
  TrafficRng rng(3);
  int next = 0;
  const int draws = 20000;
  for (int i = 0; i < draws; ++i) {
    const int src = i % 16;
    const int d = pattern->destination(src, rng);
    ASSERT_TRUE(d == src || d == (src + 1) % 16) << src << " -> " << d;
    next += d != src;
  }
  EXPECT_NEAR(next / static_cast<double>(draws), 0.5, 0.02);  // sd 0.0035
}

TEST(TrafficPatterns, HotspotWeightsShareTheHotspotTraffic) {
  const Topology topo(kMesh4);
  BackgroundSpec b = spec_of("hotspot");
  b.hotspots = {0, 5};
  b.hotspot_weights = {1.0, 3.0};
  b.hotspot_fraction = 1.0;
  const auto pattern = make_pattern(topo, b);
  TrafficRng rng(5);
  std::map<int, int> count;
  for (int i = 0; i < 20000; ++i) ++count[pattern->destination(10, rng)];
  EXPECT_EQ(count.size(), 2u);
  EXPECT_NEAR(count[5] / 20000.0, 0.75, 0.02);  // sd 0.003
  // A hotspot drawn by itself goes to a uniform other node instead.
  std::map<int, int> from5;
  for (int i = 0; i < 3000; ++i) ++from5[pattern->destination(5, rng)];
  EXPECT_EQ(from5.count(5), 0u);
  EXPECT_GT(from5[0], 0);
}

TEST(TrafficPatterns, RefusedWithTheReason) {
  auto why = [](const TopologySpec& net, const BackgroundSpec& b) {
    const Topology topo(net);
    return thrown_message([&] { check_background(b, topo); });
  };
  const TopologySpec mesh3{"mesh", {3, 3}};
  EXPECT_EQ(why(mesh3, spec_of("bit-reverse")),
            "bit-reverse permutes the bits of endpoint ids, so it needs a power-of-two number of endpoints (e.g. a "
            "4x4 or 8x8 mesh, or a hypercube); mesh 3x3 has 9");
  EXPECT_EQ(why(TopologySpec{"torus", {6}}, spec_of("shuffle")),
            "shuffle permutes the bits of endpoint ids, so it needs a power-of-two number of endpoints (e.g. a 4x4 or "
            "8x8 mesh, or a hypercube); torus 6 has 6");
  EXPECT_EQ(why(kCube4, spec_of("tornado")),
            "tornado moves each coordinate ceil(k/2) - 1 places, which is 0 for radix k <= 2, so it needs a dimension "
            "of radix 3 or more; on hypercube d=4 every node would map to itself");
  EXPECT_EQ(why(TopologySpec{"mesh", {4, 3}}, spec_of("transpose")), "transpose needs the same radix in every dimension");
  BackgroundSpec hot = spec_of("hotspot");
  hot.hotspots = {1, 2};
  hot.hotspot_weights = {1.0};
  EXPECT_EQ(why(kMesh4, hot), "hotspot weights must be one per hotspot node: 2 nodes, 1 weights");
  EXPECT_EQ(why(kMesh4, spec_of("zigzag")), "unknown traffic pattern \"zigzag\"");
  // Every pattern that fits runs on a 4x4 mesh, a 5x5 torus (but the bit patterns) and a hypercube (but tornado).
  for (const std::string& name : pattern_names()) {
    BackgroundSpec b = spec_of(name);
    b.hotspots = {3};
    b.hotspot_fraction = 0.5;
    EXPECT_EQ(why(kMesh4, b), "(nothing thrown)") << name;
    if (name != "bit-reverse" && name != "shuffle" && name != "transpose") {
      EXPECT_EQ(why(TopologySpec{"torus", {5, 3}}, b), "(nothing thrown)") << name;
    }
    if (name != "tornado") {
      EXPECT_EQ(why(kCube4, b), "(nothing thrown)") << name;
    }
  }
}

// --- injection processes ----------------------------------------------------

// Every arrival of one node in [0, horizon).
std::vector<uint64_t> arrivals(InjectionProcess& p, int node, uint64_t horizon, TrafficRng& rng) {
  std::vector<uint64_t> out;
  for (uint64_t t = p.next(node, 0, rng); t < horizon; t = p.next(node, t + 1, rng)) out.push_back(t);
  return out;
}

TEST(InjectionProcesses, PeriodicSpreadsThePhases) {
  BackgroundSpec b = spec_of("uniform", 0.25);
  b.injection = "periodic";
  const auto p = make_injection(4, b);
  TrafficRng rng(1);
  EXPECT_EQ(arrivals(*p, 0, 16, rng), (std::vector<uint64_t>{0, 4, 8, 12}));
  EXPECT_EQ(arrivals(*p, 1, 16, rng), (std::vector<uint64_t>{1, 5, 9, 13}));
  EXPECT_EQ(arrivals(*p, 3, 16, rng), (std::vector<uint64_t>{3, 7, 11, 15}));
  // 1/rate not a whole number: every 2.5 cycles; node 1 of 2 half a period after node 0.
  b.rate = 0.4;
  const auto q = make_injection(2, b);
  EXPECT_EQ(arrivals(*q, 0, 12, rng), (std::vector<uint64_t>{0, 2, 5, 7, 10}));
  EXPECT_EQ(arrivals(*q, 1, 12, rng), (std::vector<uint64_t>{1, 3, 6, 8, 11}));
  // Rounding: 0.1 is not exact in binary, yet node 0 sends at every tenth cycle.
  b.rate = 0.1;
  const auto r = make_injection(1, b);
  const std::vector<uint64_t> tenth = arrivals(*r, 0, 1000, rng);
  ASSERT_EQ(tenth.size(), 100u);
  for (size_t k = 0; k < tenth.size(); ++k) EXPECT_EQ(tenth[k], 10 * k);
  // Asked from a later cycle: the first arrival at or after it.
  EXPECT_EQ(r->next(0, 31, rng), 40u);
  EXPECT_EQ(r->next(0, 40, rng), 40u);
}

// Packets per window of `w` cycles: mean and variance / mean (1 - rate for Bernoulli).
std::pair<double, double> window_counts(const std::vector<uint64_t>& at, uint64_t horizon, uint64_t w) {
  std::vector<double> n(horizon / w, 0.0);
  for (uint64_t t : at) n[t / w] += 1;
  const double mean = std::accumulate(n.begin(), n.end(), 0.0) / n.size();
  double var = 0;
  for (double x : n) var += (x - mean) * (x - mean);
  return {mean, var / n.size() / mean};
}

TEST(InjectionProcesses, BernoulliAndOnOffOfferTheRateOnOffInBursts) {
  const uint64_t horizon = 2'000'000;
  BackgroundSpec b = spec_of("uniform", 0.05);
  TrafficRng rng(9);
  const auto bern = make_injection(1, b);
  const auto [bern_mean, bern_dispersion] = window_counts(arrivals(*bern, 0, horizon, rng), horizon, 100);
  b.injection = "on-off";
  b.burst_alpha = 0.02;
  b.burst_beta = 0.06;  // on a quarter of the time, at 0.2 packets per cycle
  const auto onoff = make_injection(1, b);
  const std::vector<uint64_t> at = arrivals(*onoff, 0, horizon, rng);
  const auto [onoff_mean, onoff_dispersion] = window_counts(at, horizon, 100);
  // 100'000 packets expected; the on-off count's sd is about 5x Bernoulli's (~300 packets).
  EXPECT_NEAR(bern_mean, 5.0, 0.05);
  EXPECT_NEAR(onoff_mean, 5.0, 0.15);
  EXPECT_NEAR(bern_dispersion, 0.95, 0.03);
  // Bursts of mean length 1/beta ~ 17 cycles at 0.2: counts per window far more variable.
  EXPECT_GT(onoff_dispersion, 3.0);
  // Within a burst, gaps are geometric with 0.2: a share of the gaps is 1 cycle near 0.2.
  int back_to_back = 0;
  for (size_t i = 1; i < at.size(); ++i) back_to_back += at[i] == at[i - 1] + 1;
  EXPECT_NEAR(back_to_back / static_cast<double>(at.size()), 0.2 * (1 - 0.06), 0.02);
}

TEST(InjectionProcesses, OnOffRefusesAnOnRateAboveOne) {
  BackgroundSpec b = spec_of("uniform", 0.5);
  b.injection = "on-off";
  b.burst_alpha = 0.1;
  b.burst_beta = 0.3;
  const Topology topo(kMesh4);
  EXPECT_EQ(thrown_message([&] { check_background(b, topo); }),
            "on-off injection sends rate * (burst_alpha + burst_beta) / burst_alpha = 2 packets per cycle "
            "while on, more than 1: lower rate or burst_beta, or raise burst_alpha");
  b.burst_alpha = 0.0;
  EXPECT_EQ(thrown_message([&] { check_background(b, topo); }), "on-off injection needs burst_alpha in (0, 1]");
  b.burst_alpha = 0.3;  // on half the time at 1 packet per cycle: allowed
  EXPECT_EQ(thrown_message([&] { check_background(b, topo); }), "(nothing thrown)");
}

}  // namespace
}  // namespace wormsim::test

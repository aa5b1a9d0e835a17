// Static step contention (schedules/analysis.*) counted without listing every
// pair: the count and the listed pairs must equal a brute-force enumeration,
// for dimension-order routes on meshes, tori (radix 2, odd and even) and
// hypercubes, and for explicit routes (which may share links in several runs).
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <vector>

#include "models/routing.hpp"
#include "models/topology.hpp"
#include "schedules/analysis.hpp"
#include "schedules/schedule.hpp"

using namespace wormsim;

namespace {

// Every pair of one step sharing a link, in the order analyze_schedule lists them.
std::vector<ContentionPair> brute_force(const Schedule& s, const Topology& topo) {
  std::vector<ContentionPair> out;
  for (size_t st = 0; st < s.steps.size(); ++st) {
    const auto& msgs = s.steps[st];
    std::vector<std::vector<int>> routes;
    for (const auto& m : msgs) routes.push_back(message_route(topo, m).links);
    for (size_t i = 0; i < msgs.size(); ++i) {
      std::set<size_t> seen;
      for (int link : routes[i])
        for (size_t j = i + 1; j < msgs.size(); ++j) {
          bool shares = false;
          for (int l : routes[j]) shares = shares || l == link;
          if (shares && seen.insert(j).second)
            out.push_back({static_cast<int>(st), static_cast<int>(i), static_cast<int>(j), link});
        }
    }
  }
  // Listing order: by step, first message, position along its route, then second message.
  return out;
}

uint64_t next_random(uint64_t& x) {
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  return x;
}

// A random walk from src that never revisits a node: an explicit route.
std::vector<int> random_route(const Topology& topo, int src, int steps, uint64_t& rng) {
  std::vector<int> nodes{src};
  std::set<int> visited{src};
  for (int k = 0; k < steps; ++k) {
    std::vector<int> next;
    for (int p = 0; p < topo.num_ports(); ++p) {
      const int n = topo.neighbor(nodes.back(), p);
      if (n >= 0 && !visited.count(n)) next.push_back(n);
    }
    if (next.empty()) break;
    nodes.push_back(next[next_random(rng) % next.size()]);
    visited.insert(nodes.back());
  }
  return nodes;
}

void expect_like_brute_force(const TopologySpec& spec, int messages, bool explicit_routes) {
  SCOPED_TRACE(spec.describe() + (explicit_routes ? " with explicit routes" : ""));
  const Topology topo(spec);
  uint64_t rng = 0x9e3779b97f4a7c15ULL + static_cast<uint64_t>(topo.num_nodes());
  Schedule s;
  s.topology = spec;
  s.steps.resize(3);
  for (auto& step : s.steps)
    for (int i = 0; i < messages; ++i) {
      ScheduledMessage m;
      m.src = static_cast<int>(next_random(rng) % static_cast<uint64_t>(topo.num_nodes()));
      if (explicit_routes && next_random(rng) % 2) {
        m.set_route(random_route(topo, m.src, 1 + static_cast<int>(next_random(rng) % 8), rng));
        if (m.route().size() < 2) continue;
        m.dst = m.route().back();
      } else {
        m.dst = static_cast<int>(next_random(rng) % static_cast<uint64_t>(topo.num_nodes()));
        if (m.dst == m.src) continue;
      }
      step.push_back(m);
    }
  const StaticAnalysis a = analyze_schedule(s, topo);
  const std::vector<ContentionPair> all = brute_force(s, topo);
  EXPECT_EQ(a.step_contention_pairs(), static_cast<int64_t>(all.size()));
  ASSERT_EQ(a.contention.size(), std::min(all.size(), StaticAnalysis::kMaxListedContentionPairs));
  for (size_t k = 0; k < a.contention.size(); ++k) {
    EXPECT_EQ(a.contention[k].step, all[k].step) << k;
    EXPECT_EQ(a.contention[k].first, all[k].first) << k;
    EXPECT_EQ(a.contention[k].second, all[k].second) << k;
    EXPECT_EQ(a.contention[k].link, all[k].link) << k;
  }
}

}  // namespace

TEST(StepContention, CountsLikeBruteForceOnDimensionOrderRoutes) {
  expect_like_brute_force({"mesh", {8, 8}}, 150, false);
  expect_like_brute_force({"mesh", {5, 3, 4}}, 120, false);
  expect_like_brute_force({"torus", {6, 5}}, 150, false);
  expect_like_brute_force({"torus", {2, 4, 3}}, 120, false);
  expect_like_brute_force({"torus", {8}}, 60, false);
  expect_like_brute_force({"hypercube", {6}}, 150, false);
}

// Steps of more than 16,384 hops are grouped by link with a counting sort.
TEST(StepContention, CountsLikeBruteForceOnALongStep) {
  expect_like_brute_force({"mesh", {16, 16}}, 2200, false);
}

TEST(StepContention, CountsLikeBruteForceWithExplicitRoutes) {
  expect_like_brute_force({"mesh", {6, 6}}, 120, true);
  expect_like_brute_force({"torus", {5, 4}}, 120, true);
  expect_like_brute_force({"hypercube", {5}}, 100, true);
}

// The list stops at kMaxListedContentionPairs; the count does not.
TEST(StepContention, ListsTheFirstPairsAndCountsThemAll) {
  const Topology topo(TopologySpec{"mesh", {16}});
  Schedule s;
  s.topology = topo.spec();
  s.steps.resize(1);
  for (int i = 0; i < 100; ++i) s.steps[0].push_back(ScheduledMessage{0, 15, -1, 0, {}});
  const StaticAnalysis a = analyze_schedule(s, topo);
  EXPECT_EQ(a.step_contention_pairs(), 100 * 99 / 2);
  ASSERT_EQ(a.contention.size(), StaticAnalysis::kMaxListedContentionPairs);
  EXPECT_EQ(a.contention[0].first, 0);
  EXPECT_EQ(a.contention[0].second, 1);
  EXPECT_EQ(a.contention.back().first, 10);  // 99 + 98 + ... + 90 = 945 pairs from messages 0..9, then 55 of message 10
  EXPECT_EQ(a.contention.back().second, 65);
}

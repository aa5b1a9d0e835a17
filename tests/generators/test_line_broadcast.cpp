// Line broadcasting, Kane (M.Sc. thesis, SFU 1993): the optimal Gray-code
// scheme on 2^k-cycles (Section 2.4.2, Fig. 2.9, Eqs. 2.2, 2.9) and the product
// method on 2^k x 2^k tori (Section 3.2, Fig. 3.2, Claim 1 / Eq. 3.1).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "schedules/analysis.hpp"
#include "schedules/generators/generators.hpp"
#include "generation_error.hpp"
#include "schedules/generators/line_broadcast_schemes.hpp"

namespace wormsim {
namespace {

int64_t sign(int k) { return k % 2 ? -1 : 1; }  // (-1)^k

TopologySpec ring(int n) { return TopologySpec{"torus", {n}}; }
TopologySpec torus(int n) { return TopologySpec{"torus", {n, n}}; }

Schedule generate(const std::string& algorithm, const TopologySpec& topo, int source) {
  GeneratorOptions o;
  o.source = source;
  return generate_schedule(algorithm, topo, o);
}

int call_length(const ScheduledMessage& m) { return static_cast<int>(m.route().size()) - 1; }

// Checks a line broadcast against the thesis's model (Sections 1.1, 1.2): each
// phase every informed node makes at most one call, to an uninformed node; a
// call is a simple path of links from sender to receiver; the calls of a phase
// are edge-disjoint (undirected links); every node is informed exactly once.
// Returns the phase each node is informed in (0 for the originator).
std::vector<int> check_line_scheme(const Schedule& s, const Topology& topo) {
  const int n = topo.num_nodes();
  std::vector<int> informed(n, -1);
  informed[s.source] = 0;
  for (size_t t = 0; t < s.steps.size(); ++t) {
    const int phase = static_cast<int>(t) + 1;
    std::set<int> senders;
    std::set<int64_t> edges;
    for (const auto& m : s.steps[t]) {
      EXPECT_EQ(m.packet, 0);
      EXPECT_GE(m.route().size(), 2u) << "phase " << phase << ": a call needs an explicit route";
      if (m.route().size() < 2) continue;
      EXPECT_EQ(m.route().front(), m.src);
      EXPECT_EQ(m.route().back(), m.dst);
      EXPECT_TRUE(informed[m.src] >= 0 && informed[m.src] < phase) << "phase " << phase << ": sender " << m.src;
      EXPECT_TRUE(senders.insert(m.src).second) << "phase " << phase << ": " << m.src << " calls twice";
      std::set<int> visited(m.route().begin(), m.route().end());
      EXPECT_EQ(visited.size(), m.route().size()) << "phase " << phase << ": the path is not simple";
      for (size_t i = 0; i + 1 < m.route().size(); ++i) {
        const int a = std::min(m.route()[i], m.route()[i + 1]), b = std::max(m.route()[i], m.route()[i + 1]);
        EXPECT_GE(topo.link_between(a, b), 0) << "phase " << phase << ": " << a << "-" << b << " is no link";
        EXPECT_TRUE(edges.insert(int64_t{a} * n + b).second)
            << "phase " << phase << ": link " << a << "-" << b << " used by two calls";
      }
    }
    for (const auto& m : s.steps[t]) {
      EXPECT_EQ(informed[m.dst], -1) << "phase " << phase << ": " << m.dst << " informed twice";
      informed[m.dst] = phase;
    }
  }
  for (int x = 0; x < n; ++x) EXPECT_GE(informed[x], 0) << "node " << x << " never informed";
  return informed;
}

// ---- 2^k cycle ------------------------------------------------------------------

// Fig. 2.9: Gray code labels and positions of the 16-cycle scheme, the originator
// (label 0000) at position 10. Each call as (sender, receiver) positions.
TEST(LineCycle, Fig29SixteenCycle) {
  const std::vector<std::vector<std::pair<int, int>>> fig29 = {
      {{10, 5}},
      {{10, 13}, {5, 2}},
      {{10, 9}, {5, 6}, {13, 14}, {2, 1}},
      {{10, 11}, {5, 4}, {13, 12}, {2, 3}, {9, 8}, {6, 7}, {14, 15}, {1, 0}},
  };
  const std::vector<std::vector<std::pair<int, int>>> labels = {  // G(s) -> G(r)
      {{0b0000, 0b1000}},
      {{0b0000, 0b0100}, {0b1000, 0b1100}},
      {{0b0000, 0b0010}, {0b1000, 0b1010}, {0b0100, 0b0110}, {0b1100, 0b1110}},
      {{0b0000, 0b0001}, {0b1000, 0b1001}, {0b0100, 0b0101}, {0b1100, 0b1101},
       {0b0010, 0b0011}, {0b1010, 0b1011}, {0b0110, 0b0111}, {0b1110, 0b1111}},
  };
  const Schedule s = generate("line-cycle", ring(16), 10);
  ASSERT_EQ(s.steps.size(), fig29.size());
  for (size_t p = 0; p < fig29.size(); ++p) {
    ASSERT_EQ(s.steps[p].size(), fig29[p].size());
    for (size_t c = 0; c < fig29[p].size(); ++c) {
      const auto& m = s.steps[p][c];
      EXPECT_EQ(std::make_pair(m.src, m.dst), fig29[p][c]) << "phase " << p + 1 << " call " << c + 1;
      EXPECT_EQ(std::make_pair(line::gray_label(m.src, 4), line::gray_label(m.dst, 4)), labels[p][c]);
    }
  }
}

TEST(LineCycle, GrayLabelsAreABijection) {
  for (int k = 0; k <= 12; ++k)
    for (int p = 0; p < (1 << k); ++p) ASSERT_EQ(line::gray_position(line::gray_label(p, k), k), p) << k;
}

// Eq. 2.2 and the total length (1/9)[2^k(3k+1) - (-1)^k], k phases, 2^k - 1 calls,
// first call of length beta(k) = [2^k - (-1)^k]/3 (Eq. 2.9), from any source.
TEST(LineCycle, OptimalTotalLength) {
  for (int k = 1; k <= 10; ++k) {
    const int n = 1 << k;
    for (int source : {0, n - 1, n / 3}) {
      SCOPED_TRACE("k=" + std::to_string(k) + " source=" + std::to_string(source));
      const Schedule s = generate("line-cycle", ring(n), source);
      const Topology topo(ring(n));
      EXPECT_TRUE(s.broadcast);
      EXPECT_EQ(s.source, source);
      ASSERT_EQ(static_cast<int>(s.steps.size()), k);
      EXPECT_EQ(static_cast<int>(s.num_messages()), n - 1);
      const auto a = analyze_schedule(s, topo);
      const int64_t total = (int64_t{n} * (3 * k + 1) - sign(k)) / 9;
      EXPECT_EQ(a.tcd, total);
      const int64_t extra = (int64_t{n} * (3 * k - 8) - sign(k)) / 9 + 1;  // Eq. 2.2
      EXPECT_EQ(a.tcd - (n - 1), extra);
      EXPECT_EQ(call_length(s.steps[0][0]), (n - sign(k)) / 3);  // Eq. 2.9
      EXPECT_EQ(a.step_contention_pairs(), 0);
      check_line_scheme(s, topo);
    }
  }
}

// The published small totals: 1, 3, 9, 23 for the 2-, 4-, 8-, 16-cycles
// (extra lengths 0, 0, 2, 8 by Eq. 2.2).
TEST(LineCycle, SmallCycleTotals) {
  const std::vector<int64_t> want = {1, 3, 9, 23, 57};
  for (int k = 1; k <= 5; ++k)
    EXPECT_EQ(analyze_schedule(generate("line-cycle", ring(1 << k), 0), Topology(ring(1 << k))).tcd, want[k - 1]);
}

// Section 2.3: optimal cycle schemes are nested (no call passes through an
// informed node), calls of a phase are node-disjoint as well (path
// broadcasting), and exactly one link of the cycle is never used.
TEST(LineCycle, NestedPathBroadcastWithOneUnusedLink) {
  for (int k = 2; k <= 10; ++k) {
    const int n = 1 << k;
    SCOPED_TRACE("k=" + std::to_string(k));
    const Schedule s = generate("line-cycle", ring(n), 3 % n);
    const Topology topo(ring(n));
    const auto informed = check_line_scheme(s, topo);
    std::set<int> used_links;
    for (size_t t = 0; t < s.steps.size(); ++t) {
      std::set<int> phase_nodes;
      for (const auto& m : s.steps[t]) {
        for (size_t i = 1; i + 1 < m.route().size(); ++i)
          EXPECT_GT(informed[m.route()[i]], static_cast<int>(t) + 1) << "call passes an informed node";
        for (int v : m.route()) EXPECT_TRUE(phase_nodes.insert(v).second) << "phase " << t + 1 << " node " << v;
        for (size_t i = 0; i + 1 < m.route().size(); ++i)
          used_links.insert(std::min(m.route()[i], m.route()[i + 1]) * n + std::max(m.route()[i], m.route()[i + 1]));
      }
    }
    EXPECT_EQ(static_cast<int>(used_links.size()), n - 1);
  }
}

// ---- 2^k x 2^k torus: product method ---------------------------------------

// Fig. 3.2: the 4x4 torus scheme is 15 local calls in 4 phases.
TEST(LineTorus, Fig32FourByFourIsLocal) {
  for (int source : {0, 5, 15}) {
    const Schedule s = generate("line-torus", torus(4), source);
    const Topology topo(torus(4));
    ASSERT_EQ(s.steps.size(), 4u);
    EXPECT_EQ(s.num_messages(), 15u);
    for (const auto& step : s.steps)
      for (const auto& m : step) EXPECT_EQ(call_length(m), 1);
    EXPECT_EQ(analyze_schedule(s, topo).tcd, 15);
    check_line_scheme(s, topo);
  }
}

// Claim 1 (Eq. 3.1): extra length E = (4^k + (-1)^(k-1))/5 - 2^k + 1, and the
// total E + 4^k - 1 equals the 2-D eye optimal TCD of Cang & Wu: 3, 15, 69, 291, 1197.
TEST(LineTorus, ExtraLengthAndEyeOptimalTcd) {
  const std::vector<int64_t> eye_tcd = {3, 15, 69, 291, 1197};
  for (int k = 1; k <= 7; ++k) {
    const int side = 1 << k;
    const int64_t n = int64_t{side} * side;
    SCOPED_TRACE("k=" + std::to_string(k));
    const Schedule s = generate("line-torus", torus(side), static_cast<int>(n / 2 + 1));
    const Topology topo(torus(side));
    ASSERT_EQ(static_cast<int>(s.steps.size()), 2 * k);
    EXPECT_EQ(static_cast<int64_t>(s.num_messages()), n - 1);
    const auto a = analyze_schedule(s, topo);
    const int64_t extra = (n - sign(k)) / 5 - side + 1;  // Eq. 3.1: (-1)^(k-1) = -(-1)^k
    EXPECT_EQ(a.tcd - (n - 1), extra);
    if (k <= 5) {
      EXPECT_EQ(a.tcd, eye_tcd[k - 1]);
    }
    EXPECT_EQ(a.step_contention_pairs(), 0);
  }
}

// The proof of Claim 1: each of the first three calls has extra length
// p(k) = (2^k - 3 + (-1)^(k-1))/3, so D(k) = 2^k - 3 + (-1)^(k-1).
TEST(LineTorus, FirstThreeCallsOfClaim1) {
  for (int k = 1; k <= 8; ++k) {
    const int side = 1 << k;
    const Schedule s = generate("line-torus", torus(side), 0);
    const int64_t p = (side - 3 - sign(k)) / 3;
    ASSERT_GE(s.steps.size(), 2u);
    EXPECT_EQ(call_length(s.steps[0][0]) - 1, p) << k;
    for (const auto& m : s.steps[1]) EXPECT_EQ(call_length(m) - 1, p) << k;
  }
}

TEST(LineTorus, ValidFromAnySource) {
  for (int k = 1; k <= 5; ++k) {
    const int side = 1 << k;
    for (int source : {0, side * side - 1, side + 1, side * side / 3}) {
      SCOPED_TRACE("k=" + std::to_string(k) + " source=" + std::to_string(source));
      const Schedule s = generate("line-torus", torus(side), source);
      const Topology topo(torus(side));
      EXPECT_EQ(s.source, source);
      const auto informed = check_line_scheme(s, topo);
      // Calls alternate between the dimensions, x first: all calls of a phase are straight
      // lines in one dimension.
      for (size_t t = 0; t < s.steps.size(); ++t)
        for (const auto& m : s.steps[t]) {
          const int along = t % 2 == 0 ? 0 : 1;
          EXPECT_EQ(topo.coord(m.src, 1 - along), topo.coord(m.dst, 1 - along));
        }
      EXPECT_EQ(*std::max_element(informed.begin(), informed.end()), 2 * k);
    }
  }
}

// ---- bad options -------------------------------------------------------------

TEST(LineOptions, BadInputsNameTheOption) {
  const GeneratorOptions none;
  EXPECT_EQ(generation_error("line-cycle", ring(12), none),
            "topology: line-cycle expects a ring of 2^k nodes, k >= 1 (torus with one dimension), got torus 12");
  EXPECT_NE(generation_error("line-cycle", TopologySpec{"mesh", {8}}, none).find("expects a ring"), std::string::npos);
  EXPECT_NE(generation_error("line-cycle", TopologySpec{"hypercube", {3}}, none).find("got hypercube d=3"),
            std::string::npos);
  EXPECT_NE(generation_error("line-cycle", torus(4), none).find("expects a ring"), std::string::npos);
  EXPECT_NE(generation_error("line-cycle", ring(1), none).find("expects a ring"), std::string::npos);
  EXPECT_EQ(generation_error("line-torus", TopologySpec{"torus", {4, 8}}, none),
            "topology: line-torus expects a square 2^k x 2^k torus, k >= 1, got torus 4x8");
  EXPECT_NE(generation_error("line-torus", torus(6), none).find("expects a square 2^k x 2^k torus"), std::string::npos);
  EXPECT_NE(generation_error("line-torus", TopologySpec{"mesh", {4, 4}}, none).find("got mesh 4x4"),
            std::string::npos);
  EXPECT_NE(generation_error("line-torus", TopologySpec{"torus", {4, 4, 4}}, none).find("got torus 4x4x4"),
            std::string::npos);
  GeneratorOptions o;
  o.source = 16;
  EXPECT_EQ(generation_error("line-cycle", ring(16), o), "source: 16 is not a node of the torus 16 (expected 0..15)");
  EXPECT_EQ(generation_error("line-torus", torus(4), o), "source: 16 is not a node of the torus 4x4 (expected 0..15)");
  o = GeneratorOptions{};
  o.params["variant"] = "fast";
  EXPECT_EQ(generation_error("line-torus", torus(4), o), "params: unknown key \"variant\" (line-torus takes no params)");
  EXPECT_EQ(generation_error("line-cycle", ring(4), o), "params: unknown key \"variant\" (line-cycle takes no params)");
}

}  // namespace
}  // namespace wormsim

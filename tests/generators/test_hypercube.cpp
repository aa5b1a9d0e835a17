// Hypercube collectives: the one-port binomial broadcast and the all-port (MLA)
// algorithms of Bertsekas, Özveren, Stamoulis, Tseng and Tsitsiklis, "Optimal
// Communication Algorithms for Hypercubes" (JPDC 1991): Table 1 step and
// transmission counts, the Fig. 6 order and the construction properties the
// paper proves (distinct link types per step, perfect balance, 100% link use).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "schedules/analysis.hpp"
#include "schedules/generators/generators.hpp"
#include "generation_error.hpp"
#include "schedules/generators/hypercube_constructions.hpp"

namespace wormsim {
namespace {

using hypercube::CubeTree;

int popcount(int x) { return __builtin_popcount(static_cast<unsigned>(x)); }
int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

TopologySpec cube(int d) { return TopologySpec{"hypercube", {d}}; }

Schedule generate(const std::string& algorithm, int d, int source = 0) {
  GeneratorOptions o;
  o.source = source;
  return generate_schedule(algorithm, cube(d), o);
}

// Who received which packet when, checked against the schedule semantics: a node
// holds a packet from the step after a message carrying it arrives (its origin
// from the start) and may only send it then; all-port: one message per directed
// link per step; every message is a single hop between neighbours.
class Delivery {
 public:
  Delivery(const Schedule& s, const Topology& topo) : nodes_(topo.num_nodes()) {
    for (size_t t = 0; t < s.steps.size(); ++t)
      for (const auto& m : s.steps[t]) receipts_.push_back({key(m.packet, m.dst), static_cast<int>(t)});
    std::sort(receipts_.begin(), receipts_.end());
    for (size_t i = 1; i < receipts_.size(); ++i)
      if (receipts_[i].key == receipts_[i - 1].key) ++duplicate_receipts_;
    check_messages(s, topo);
  }

  // Step at which `node` received `packet`, or -1.
  int received(int packet, int node) const {
    const auto it = std::lower_bound(receipts_.begin(), receipts_.end(), Receipt{key(packet, node), -1});
    return it != receipts_.end() && it->key == key(packet, node) ? it->step : -1;
  }
  int64_t receipts() const { return static_cast<int64_t>(receipts_.size()); }
  int64_t duplicate_receipts() const { return duplicate_receipts_; }
  int64_t sends_before_receipt() const { return early_sends_; }
  int64_t non_neighbour_messages() const { return far_messages_; }
  int64_t link_reuses() const { return link_reuses_; }  // same directed link twice in a step
  int64_t receipts_at_origin() const { return at_origin_; }

 private:
  struct Receipt {
    int64_t key;
    int step;
    bool operator<(const Receipt& o) const { return key != o.key ? key < o.key : step < o.step; }
  };
  int64_t key(int packet, int node) const { return static_cast<int64_t>(packet) * nodes_ + node; }

  void check_messages(const Schedule& s, const Topology& topo) {
    std::vector<int> link_step(topo.num_links(), -1);
    for (size_t t = 0; t < s.steps.size(); ++t) {
      for (const auto& m : s.steps[t]) {
        const int link = topo.link_between(m.src, m.dst);
        if (link < 0) {
          ++far_messages_;
          continue;
        }
        if (link_step[link] == static_cast<int>(t)) ++link_reuses_;
        link_step[link] = static_cast<int>(t);
        const bool origin = s.packets[m.packet].origin == m.src;
        const int got = origin ? -1 : received(m.packet, m.src);
        if (!origin && (got < 0 || got >= static_cast<int>(t))) ++early_sends_;
        if (s.packets[m.packet].origin == m.dst) ++at_origin_;
      }
    }
  }

  int nodes_;
  std::vector<Receipt> receipts_;
  int64_t duplicate_receipts_ = 0, early_sends_ = 0, far_messages_ = 0, link_reuses_ = 0, at_origin_ = 0;
};

void expect_sound(const Delivery& del) {
  EXPECT_EQ(del.non_neighbour_messages(), 0);
  EXPECT_EQ(del.sends_before_receipt(), 0);
  EXPECT_EQ(del.duplicate_receipts(), 0);
  EXPECT_EQ(del.receipts_at_origin(), 0);
  EXPECT_EQ(del.link_reuses(), 0);
}

// Messages per step, and how many distinct directed links they use.
std::vector<std::pair<int64_t, int64_t>> link_use(const Schedule& s, const Topology& topo) {
  std::vector<std::pair<int64_t, int64_t>> out;
  for (const auto& step : s.steps) {
    std::vector<bool> used(topo.num_links(), false);
    int64_t distinct = 0;
    for (const auto& m : step) {
      const int link = topo.link_between(m.src, m.dst);
      if (link >= 0 && !used[link]) used[link] = true, ++distinct;
    }
    out.push_back({static_cast<int64_t>(step.size()), distinct});
  }
  return out;
}

// ---- registry ----------------------------------------------------------------

TEST(HypercubeRegistry, ListsTheFamily) {
  std::vector<std::string> names;
  for (const auto& g : generator_registry()) names.push_back(g.name);
  for (const char* want : {"hypercube-binomial", "multinode-broadcast", "scatter", "total-exchange"})
    EXPECT_NE(std::find(names.begin(), names.end(), want), names.end()) << want;
}

// ---- one-port binomial broadcast ---------------------------------------------

TEST(HypercubeBinomial, OnePortBroadcastInDSteps) {
  for (int d = 1; d <= 10; ++d) {
    for (int source : {0, 1, (1 << d) - 1, (1 << d) / 3}) {
      SCOPED_TRACE("d=" + std::to_string(d) + " source=" + std::to_string(source));
      const Schedule s = generate("hypercube-binomial", d, source);
      const Topology topo(cube(d));
      EXPECT_TRUE(s.broadcast);
      EXPECT_EQ(s.source, source);
      ASSERT_EQ(static_cast<int>(s.steps.size()), d);
      EXPECT_EQ(s.num_messages(), static_cast<size_t>((1 << d) - 1));
      const Delivery del(s, topo);
      expect_sound(del);
      for (int x = 0; x < (1 << d); ++x) EXPECT_EQ(del.received(0, x) >= 0, x != source) << x;
      // One-port: a node sends at most one message per step (and receives at most one).
      for (const auto& step : s.steps) {
        std::vector<int> senders, receivers;
        for (const auto& m : step) senders.push_back(m.src), receivers.push_back(m.dst);
        std::sort(senders.begin(), senders.end());
        std::sort(receivers.begin(), receivers.end());
        EXPECT_EQ(std::adjacent_find(senders.begin(), senders.end()), senders.end());
        EXPECT_EQ(std::adjacent_find(receivers.begin(), receivers.end()), receivers.end());
      }
      EXPECT_EQ(analyze_schedule(s, topo).lower_bound_steps, d);
    }
  }
}

// ---- multinode broadcast (Section 2) -----------------------------------------

// The single node broadcast A_1..A_q the multinode broadcast is built from.
TEST(HypercubeMultinodeTree, DistinctLinkTypesAndFullSets) {
  for (int d = 1; d <= 16; ++d) {
    SCOPED_TRACE("d=" + std::to_string(d));
    const CubeTree tree = hypercube::multinode_broadcast_tree(d);
    const int n = 1 << d;
    const int q = static_cast<int>(ceil_div(n - 1, d));
    std::vector<std::vector<int>> types(q + 1);  // A_i's link types
    for (int x = 1; x < n; ++x) {
      ASSERT_GE(tree.step[x], 1);
      ASSERT_LE(tree.step[x], q);
      ASSERT_EQ(popcount(x ^ tree.parent[x]), 1);
      EXPECT_EQ(x ^ tree.parent[x], 1 << tree.m[x]);  // the reversed bit is position m(x)
      // The parent already holds the packet: t' is in E_1 .. E_(i-1) (or is the root).
      EXPECT_LT(tree.step[tree.parent[x]], tree.step[x]) << "x=" << x;
      types[tree.step[x]].push_back(tree.m[x]);
    }
    for (int i = 1; i <= q; ++i) {
      auto t = types[i];
      std::sort(t.begin(), t.end());
      EXPECT_EQ(std::adjacent_find(t.begin(), t.end()), t.end()) << "A_" << i << " repeats a link type";
      // |A_1| = ... = |A_(q-1)| = d; A_q holds the rest.
      EXPECT_EQ(static_cast<int>(t.size()), i < q ? d : (n - 1) - (q - 1) * d) << "A_" << i;
    }
  }
}

// Fig. 3 (missing from the text) for d = 4, rederived by hand from the rules of
// Section 2: the order (0000) R_11 R_21 R_22 R_31 (1111), each class starting
// with the member whose bit in position m(t) is a 1 (for R_k1 also with a 0 just
// below it), then rotating left; m cycles 1, 2, 3, 4. R_11 = E_1 and R_21 = E_2.
TEST(HypercubeMultinodeTree, Fig3OrderForD4) {
  const CubeTree tree = hypercube::multinode_broadcast_tree(4);
  const std::vector<int> order = {0b0001, 0b0010, 0b0100, 0b1000,   // R_11, n = 1..4
                                  0b0011, 0b0110, 0b1100, 0b1001,   // R_21, n = 5..8
                                  0b0101, 0b1010,                   // R_22, n = 9, 10
                                  0b1101, 0b1011, 0b0111, 0b1110,   // R_31, n = 11..14
                                  0b1111};                          // n = 15
  for (size_t i = 0; i < order.size(); ++i) EXPECT_EQ(tree.number[order[i]], static_cast<int>(i) + 1) << order[i];
  const std::vector<int> parents = {0, 0, 0, 0, 0b0010, 0b0100, 0b1000, 0b0001, 0b0100, 0b1000,
                                    0b1001, 0b0011, 0b0110, 0b1100, 0b1011};
  for (size_t i = 0; i < order.size(); ++i) EXPECT_EQ(tree.parent[order[i]], parents[i]) << order[i];
}

// Section 2's argument for 11..1: its parent is the second element of R_(d-1)1,
// and since 2^d - 1 is not divisible by d (appendix), E_q has at most d-1 elements.
TEST(HypercubeMultinodeTree, AllOnesHangsBelowSecondElementOfLastClass) {
  for (int d = 2; d <= 16; ++d) {
    const CubeTree tree = hypercube::multinode_broadcast_tree(d);
    const int all = (1 << d) - 1;
    EXPECT_EQ(tree.number[all], all);
    EXPECT_EQ(tree.number[tree.parent[all]], all - d + 1) << "d=" << d;  // R_(d-1)1 holds n = 2^d-1-d .. 2^d-2
    EXPECT_NE(all % d, 0) << "d=" << d;
  }
}

TEST(HypercubeMultinodeBroadcast, Table1CountsAndFullLinkUse) {
  for (int d = 1; d <= 10; ++d) {
    SCOPED_TRACE("d=" + std::to_string(d));
    const Schedule s = generate("multinode-broadcast", d);
    const Topology topo(cube(d));
    const int64_t n = 1 << d;
    const int64_t q = ceil_div(n - 1, d);
    EXPECT_FALSE(s.broadcast);
    ASSERT_EQ(static_cast<int64_t>(s.steps.size()), q);                  // Table 1: ceil((2^d-1)/d)
    EXPECT_EQ(static_cast<int64_t>(s.num_messages()), n * (n - 1));      // Table 1: 2^d (2^d - 1)
    ASSERT_EQ(static_cast<int64_t>(s.packets.size()), n);
    const Delivery del(s, topo);
    expect_sound(del);
    // Every packet reaches every node but its origin, exactly once (no duplicates, count).
    EXPECT_EQ(del.receipts(), n * (n - 1));
    for (int p : {0, static_cast<int>(n) - 1, static_cast<int>(n) / 3})
      for (int x = 0; x < n; ++x) EXPECT_EQ(del.received(p, x) >= 0, x != p) << p << "->" << x;
    // No directed link twice in a step; all d 2^d links busy in every step but the last.
    const auto use = link_use(s, topo);
    for (int64_t t = 0; t < q; ++t) {
      EXPECT_EQ(use[t].first, use[t].second) << "step " << t + 1;
      if (t + 1 < q) {
        EXPECT_EQ(use[t].first, d * n) << "step " << t + 1;
      }
    }
    const auto a = analyze_schedule(s, topo);
    EXPECT_EQ(a.step_contention_pairs(), 0);
    EXPECT_EQ(a.max_hops, 1);
  }
}

// Each step's links, seen from one packet, are of distinct types (Section 2's key observation).
TEST(HypercubeMultinodeBroadcast, EachPacketUsesDistinctTypesPerStep) {
  for (int d = 2; d <= 8; ++d) {
    const Schedule s = generate("multinode-broadcast", d);
    for (size_t t = 0; t < s.steps.size(); ++t) {
      std::map<int, std::vector<int>> types;  // packet -> dimensions crossed in this step
      for (const auto& m : s.steps[t]) types[m.packet].push_back(__builtin_ctz(static_cast<unsigned>(m.src ^ m.dst)));
      for (auto& [packet, dims] : types) {
        std::sort(dims.begin(), dims.end());
        EXPECT_EQ(std::adjacent_find(dims.begin(), dims.end()), dims.end())
            << "d=" << d << " step " << t + 1 << " packet " << packet;
      }
    }
  }
}

// ---- single node scatter (Section 3) -----------------------------------------

TEST(HypercubeBalancedTree, PerfectlyBalancedShortestPathTree) {
  for (int d = 1; d <= 16; ++d) {
    SCOPED_TRACE("d=" + std::to_string(d));
    const CubeTree tree = hypercube::balanced_spanning_tree(d);
    const int n = 1 << d;
    std::vector<int> size(d, 0);
    for (int x = 1; x < n; ++x) {
      // Shortest paths: every parent has one 1 bit fewer.
      ASSERT_EQ(popcount(x ^ tree.parent[x]), 1) << x;
      ASSERT_EQ(tree.parent[x] & ~x, 0) << x;
      // x lies in the subtree T_m(x) of the root's neighbour 2^m(x).
      int top = x;
      while (tree.parent[top] != 0) top = tree.parent[top];
      EXPECT_EQ(top, 1 << tree.m[x]) << x;
      ++size[tree.m[x]];
    }
    const int lo = (n - 1) / d, hi = static_cast<int>(ceil_div(n - 1, d));
    for (int j = 0; j < d; ++j) {
      EXPECT_GE(size[j], lo) << "subtree " << j;
      EXPECT_LE(size[j], hi) << "subtree " << j;
    }
  }
}

// Fig. 4 is missing from the text; its d = 3 and d = 4 trees have subtrees of
// sizes {2, 2, 3} and {4, 4, 4, 3} by the paper's counting argument.
TEST(HypercubeBalancedTree, SmallCubesSubtreeSizes) {
  for (auto [d, want] : std::vector<std::pair<int, std::vector<int>>>{{3, {3, 2, 2}}, {4, {4, 4, 4, 3}}}) {
    const CubeTree tree = hypercube::balanced_spanning_tree(d);
    std::vector<int> size(d, 0);
    for (int x = 1; x < (1 << d); ++x) ++size[tree.m[x]];
    std::sort(size.rbegin(), size.rend());
    EXPECT_EQ(size, want) << "d=" << d;
  }
}

TEST(HypercubeScatter, Table1CountsAndShortestPaths) {
  for (int d = 1; d <= 10; ++d) {
    for (int source : {0, (1 << d) - 1, 5 % (1 << d)}) {
      SCOPED_TRACE("d=" + std::to_string(d) + " source=" + std::to_string(source));
      const Schedule s = generate("scatter", d, source);
      const Topology topo(cube(d));
      const int n = 1 << d;
      EXPECT_FALSE(s.broadcast);
      EXPECT_EQ(static_cast<int64_t>(s.steps.size()), ceil_div(n - 1, d));              // Table 1
      EXPECT_EQ(static_cast<int64_t>(s.num_messages()), int64_t{d} << (d - 1));         // Eq. (2)
      const Delivery del(s, topo);
      expect_sound(del);
      // Packet "toX" starts at the source and reaches X; its hops equal the Hamming distance.
      ASSERT_EQ(static_cast<int>(s.packets.size()), n - 1);
      std::vector<int> hops(s.packets.size(), 0);
      for (const auto& step : s.steps)
        for (const auto& m : step) ++hops[m.packet];
      for (size_t p = 0; p < s.packets.size(); ++p) {
        const int dest = std::stoi(s.packets[p].name.substr(2));
        EXPECT_EQ(s.packets[p].origin, source);
        EXPECT_GE(del.received(static_cast<int>(p), dest), 0) << s.packets[p].name;
        EXPECT_EQ(hops[p], popcount(dest ^ source)) << s.packets[p].name;
      }
      // The root keeps all d of its links busy until its smallest subtree is served.
      const auto use = link_use(s, topo);
      for (int t = 0; t < (n - 1) / d; ++t) {
        int root_sends = 0;
        for (const auto& m : s.steps[t]) root_sends += m.src == source;
        EXPECT_EQ(root_sends, d) << "step " << t + 1;
      }
      for (const auto& [messages, links] : use) EXPECT_EQ(messages, links);
    }
  }
}

// ---- total exchange (Section 4) --------------------------------------------

// Fig. 6: the order in which node 0000 sends its own packets on each link.
// The extracted text keeps the header, column 1 (0001), column 2 (0011, 0010)
// and the tail of column 4 (1111, 1110, 1100, 1000 at times 5-8); the rest of
// the table is garbled. The full table follows from the construction the text
// states next to it (each column: the earlier columns' rows with bit k set,
// row by row, left to right, e_k last), and its legible entries agree.
TEST(HypercubeTotalExchange, Fig6OrderForD4) {
  const auto own = hypercube::own_packet_table(hypercube::total_exchange_table(4));
  const int _ = -1;
  const std::vector<std::vector<int>> fig6 = {
      // Link 1  Link 2  Link 3  Link 4
      {0b0001, 0b0011, 0b0101, 0b1001},  // time 1
      {_, 0b0010, 0b0111, 0b1011},       // time 2
      {_, _, 0b0110, 0b1101},            // time 3
      {_, _, 0b0100, 0b1010},            // time 4
      {_, _, _, 0b1111},                 // time 5
      {_, _, _, 0b1110},                 // time 6
      {_, _, _, 0b1100},                 // time 7
      {_, _, _, 0b1000},                 // time 8
  };
  EXPECT_EQ(own, fig6);
}

// The rules the paper states for any d: in time units 1..2^(k-1) node 0 sends
// over link k exactly its packets for the nodes (0..0 1 x_(k-1)..x_1), the one
// for e_k last; and the inductive hypothesis (6): N_d(0, n) <= 2^(d-1) + n - 1.
TEST(HypercubeTotalExchange, OwnPacketRulesAndEq6) {
  for (int d = 1; d <= 12; ++d) {
    SCOPED_TRACE("d=" + std::to_string(d));
    const auto own = hypercube::own_packet_table(hypercube::total_exchange_table(d));
    ASSERT_EQ(static_cast<int>(own.size()), 1 << (d - 1));
    for (int k = 0; k < d; ++k) {
      std::vector<int> column;
      for (size_t t = 0; t < own.size(); ++t) {
        if (own[t][k] < 0) continue;
        EXPECT_LT(static_cast<int>(t), 1 << k) << "link " << k + 1 << " sends an own packet late";
        column.push_back(own[t][k]);
      }
      ASSERT_EQ(static_cast<int>(column.size()), 1 << k);
      EXPECT_EQ(column.back(), 1 << k);
      std::sort(column.begin(), column.end());
      for (int x = 0; x < (1 << k); ++x) EXPECT_EQ(column[x], (1 << k) | x);
    }
    int sent = 0;
    for (size_t t = 0; t < own.size(); ++t) {
      for (int dest : own[t]) sent += dest >= 0;
      EXPECT_LE(sent, (1 << (d - 1)) + static_cast<int>(t));  // N_d(0, t+1) <= 2^(d-1) + t
    }
    EXPECT_EQ(sent, (1 << d) - 1);
  }
}

TEST(HypercubeTotalExchange, Table1CountsAndFullLinkUse) {
  for (int d = 1; d <= 10; ++d) {
    SCOPED_TRACE("d=" + std::to_string(d));
    const Schedule s = generate("total-exchange", d);
    const Topology topo(cube(d));
    const int64_t n = 1 << d;
    EXPECT_FALSE(s.broadcast);
    ASSERT_EQ(static_cast<int64_t>(s.steps.size()), n / 2);                            // 2^(d-1)
    EXPECT_EQ(static_cast<int64_t>(s.num_messages()), int64_t{d} << (2 * d - 1));      // d 2^(2d-1)
    ASSERT_EQ(static_cast<int64_t>(s.packets.size()), n * (n - 1));
    // 100% link use: every one of the d 2^d directed links carries a packet in every step.
    for (const auto& [messages, links] : link_use(s, topo)) {
      EXPECT_EQ(messages, d * n);
      EXPECT_EQ(links, d * n);
    }
    const Delivery del(s, topo);
    expect_sound(del);
    // Every packet "OtoX" reaches X over a shortest path (the hop total is already the minimum
    // d 2^(2d-1) of Eq. (3), so each packet's hop count equals the Hamming distance).
    int64_t missing = 0;
    for (size_t p = 0; p < s.packets.size(); ++p) {
      const auto& name = s.packets[p].name;
      const int dest = std::stoi(name.substr(name.find("to") + 2));
      missing += del.received(static_cast<int>(p), dest) < 0;
    }
    EXPECT_EQ(missing, 0);
  }
}

// ---- bad options -------------------------------------------------------------

TEST(HypercubeOptions, BadInputsNameTheOption) {
  const std::vector<std::string> all = {"hypercube-binomial", "multinode-broadcast", "scatter", "total-exchange"};
  for (const auto& alg : all) {
    SCOPED_TRACE(alg);
    GeneratorOptions o;
    EXPECT_NE(generation_error(alg, TopologySpec{"mesh", {4, 4}}, o).find("topology: " + alg + " expects a hypercube, got mesh 4x4"),
              std::string::npos);
    EXPECT_NE(generation_error(alg, TopologySpec{"torus", {8}}, o).find("expects a hypercube"), std::string::npos);
    o.params["variant"] = "x";
    EXPECT_NE(generation_error(alg, cube(3), o).find("params: unknown key \"variant\""), std::string::npos);
    o = GeneratorOptions{};
    o.source_eye = true;
    EXPECT_NE(generation_error(alg, cube(3), o).find("source: \"eye\""), std::string::npos);
    o = GeneratorOptions{};
    o.orientation = "best";
    EXPECT_NE(generation_error(alg, cube(3), o).find("orientation: \"best\""), std::string::npos);
    o = GeneratorOptions{};
    o.flits = 0;
    EXPECT_NE(generation_error(alg, cube(3), o).find("flits: expected a positive"), std::string::npos);
  }
  for (const std::string alg : {"hypercube-binomial", "scatter"}) {
    GeneratorOptions o;
    o.source = 16;
    EXPECT_EQ(generation_error(alg, cube(4), o), "source: 16 is not a node of the hypercube d=4 (expected 0..15)");
    o.source = -1;
    EXPECT_NE(generation_error(alg, cube(4), o).find("source: -1 is not a node"), std::string::npos);
  }
  for (const std::string alg : {"multinode-broadcast", "total-exchange"}) {
    GeneratorOptions o;
    o.source = 3;
    EXPECT_NE(generation_error(alg, cube(4), o).find("source: " + alg + " starts from every node"), std::string::npos);
  }
  // Too large to hold: the message names the topology and the bound.
  EXPECT_NE(generation_error("total-exchange", cube(12), GeneratorOptions{}).find("topology: total-exchange on the hypercube d=12 needs 100663296 messages"),
            std::string::npos);
}

}  // namespace
}  // namespace wormsim

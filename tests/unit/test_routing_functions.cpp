// Routing functions (models/routing/): the registry, the refusals of networks
// and VC counts a function cannot run deadlock-free on, and, for every pair of
// routers, that what each function allows is minimal, connected and obeys its
// turn rules. The same rules are checked on routes actually taken by runs in
// tests/cli/test_cli_routing.cpp.
#include <gtest/gtest.h>

#include <functional>
#include <set>

#include "models/routing.hpp"
#include "models/routing/minimal_directions.hpp"
#include "models/routing/routing_function.hpp"
#include "tests/thrown_message.hpp"

namespace wormsim {
namespace {

Topology mesh(std::vector<int> dims) { return Topology(TopologySpec{"mesh", std::move(dims)}); }
Topology torus(std::vector<int> dims) { return Topology(TopologySpec{"torus", std::move(dims)}); }
Topology cube(int d) { return Topology(TopologySpec{"hypercube", {d}}); }

// Why `routing` is refused on the network with `vcs` (require_deadlock_free's message).
std::string refusal(const std::string& routing, const TopologySpec& topology, int vcs) {
  return thrown_message([&] { require_deadlock_free(routing, topology, vcs); });
}

std::vector<RouteOutput> outputs_of(const RoutingFunction& f, const RouteQuery& q) {
  std::vector<RouteOutput> out;
  f.outputs(q, out);
  return out;
}

TEST(RoutingRegistry, ListsEveryShippedFunctionByName) {
  std::vector<std::string> names;
  for (const RoutingInfo& i : routing_registry()) names.push_back(i.name);
  EXPECT_EQ(names, (std::vector<std::string>{"dimension-order", "west-first", "north-last", "negative-first",
                                             "odd-even", "minimal-adaptive"}));
  EXPECT_FALSE(find_routing("dimension-order:yx")->adaptive);
  EXPECT_TRUE(find_routing("odd-even")->adaptive);
  EXPECT_EQ(find_routing("xy"), nullptr);
  EXPECT_EQ(refusal("adaptive", TopologySpec{"mesh", {4, 4}}, 2),
            "unknown routing function \"adaptive\" (expected one of: dimension-order, west-first, north-last, "
            "negative-first, odd-even, minimal-adaptive)");
}

TEST(RoutingRefusals, SayWhatIsNeeded) {
  const TopologySpec mesh2{"mesh", {4, 4}}, mesh3{"mesh", {4, 4, 4}};
  const TopologySpec torus2{"torus", {4, 4}}, cube4{"hypercube", {4}};
  const TopologySpec cmesh{"cmesh", {4, 4}};
  EXPECT_EQ(refusal("minimal-adaptive", torus2, 2),
            "minimal-adaptive on a torus needs vcs >= 3: 2 dateline + 1 adaptive (got network.vcs = 2)");
  EXPECT_NO_THROW(require_deadlock_free("minimal-adaptive", torus2, 3));
  EXPECT_EQ(refusal("minimal-adaptive", mesh2, 1),
            "minimal-adaptive on a mesh needs vcs >= 2: 1 escape + 1 adaptive (got network.vcs = 1)");
  EXPECT_EQ(refusal("minimal-adaptive", cube4, 1),
            "minimal-adaptive on a hypercube needs vcs >= 2: 1 escape + 1 adaptive (got network.vcs = 1)");
  EXPECT_NO_THROW(require_deadlock_free("minimal-adaptive", cube4, 2));
  for (const char* turn : {"west-first", "north-last", "negative-first", "odd-even"}) {
    SCOPED_TRACE(turn);
    EXPECT_NE(refusal(turn, torus2, 4).find(" is a turn model for meshes: on a torus its wrap-around links close a cycle"),
              std::string::npos);
    EXPECT_NO_THROW(require_deadlock_free(turn, mesh2, 1));
    EXPECT_NE(refusal(std::string(turn) + ":x", mesh2, 1).find("takes no option"), std::string::npos);
  }
  for (const char* two_d : {"west-first", "north-last", "odd-even"}) {
    EXPECT_NE(refusal(two_d, mesh3, 1).find("needs a 2-D grid of routers (a 2-D mesh or cmesh), got mesh 4x4x4"),
              std::string::npos);
    EXPECT_NE(refusal(two_d, cube4, 1).find("needs a 2-D grid of routers (a 2-D mesh or cmesh), got hypercube d=4"),
              std::string::npos);
    EXPECT_NO_THROW(require_deadlock_free(two_d, cmesh, 1));
  }
  EXPECT_NO_THROW(require_deadlock_free("negative-first", mesh3, 1));
  EXPECT_NO_THROW(require_deadlock_free("negative-first", cube4, 1));
  EXPECT_NO_THROW(require_deadlock_free("dimension-order:yx", mesh2, 1));
  EXPECT_NO_THROW(require_deadlock_free("dimension-order:zyx", mesh3, 1));
  EXPECT_NO_THROW(require_deadlock_free("dimension-order:3,1,0,2", cube4, 1));
  EXPECT_EQ(refusal("dimension-order:xyz", mesh2, 1),
            "dimension-order:ORDER must name each of the 2 dimensions once, as letters (xy, yx, zyx, ...) or numbers "
            "(1,0,2), got \"xyz\"");
  EXPECT_THROW(require_deadlock_free("dimension-order:xx", mesh2, 1), std::invalid_argument);
  EXPECT_THROW(require_deadlock_free("dimension-order:1,,0", mesh2, 1), std::invalid_argument);
}

// Dimension order, walked hop by hop through outputs() as any deterministic
// function would be, gives the route it computes directly (the fast path), in
// every order, dateline classes included.
TEST(DimensionOrderRouting, WalkingTheFunctionGivesTheComputedRoute) {
  struct Case {
    Topology topo;
    int vcs;
    std::vector<std::string> orders;
  };
  std::vector<Case> cases;
  cases.push_back({mesh({4, 3}), 1, {"", "xy", "yx", "1,0"}});
  cases.push_back({torus({4, 4}), 2, {"", "yx"}});
  cases.push_back({torus({5, 2, 3}), 4, {"", "zyx", "yxz"}});
  cases.push_back({torus({2, 2}), 2, {""}});
  cases.push_back({cube(4), 1, {"", "3,2,1,0", "1,3,0,2"}});
  for (const Case& c : cases)
    for (const std::string& order : c.orders) {
      const std::string name = order.empty() ? "dimension-order" : "dimension-order:" + order;
      SCOPED_TRACE(c.topo.spec().describe() + " " + name);
      ASSERT_NO_THROW(require_deadlock_free(name, c.topo.spec(), c.vcs));
      const auto f = make_routing(name, c.topo, c.vcs);
      for (int s = 0; s < c.topo.num_nodes(); ++s)
        for (int d = 0; d < c.topo.num_nodes(); ++d) {
          if (s == d) continue;
          const Route fast = f->route(s, d);
          Route walked;
          f->RoutingFunction::route(s, d, walked);  // the base's walk through outputs(), not the override
          ASSERT_EQ(fast.links, walked.links) << s << " -> " << d;
          ASSERT_EQ(fast.vc_class, walked.vc_class) << s << " -> " << d;
          ASSERT_EQ(fast.hops(), c.topo.distance(s, d));
          ASSERT_TRUE(fast.simple);
          ASSERT_FALSE(walked.simple) << "the generic walk knows nothing of the function's routes";
        }
    }
  // The default order is today's dimension order, byte for byte.
  const Topology t = torus({4, 4});
  const auto f = make_routing("dimension-order", t, 2);
  for (int s = 0; s < 16; ++s)
    for (int d = 0; d < 16; ++d)
      if (s != d) {
        ASSERT_EQ(f->route(s, d).links, dimension_order_route(t, s, d).links);
      }
}

TEST(DimensionOrderRouting, OrderChangesWhichDimensionGoesFirst) {
  const Topology t = mesh({4, 4});
  const auto yx = make_routing("dimension-order:yx", t, 1);
  const Route r = yx->route(t.node_at({0, 0}), t.node_at({2, 1}));
  EXPECT_EQ(route_nodes(t, 0, r), (std::vector<int>{0, 4, 5, 6}));  // y first, then x
  const Topology c = cube(3);
  const auto high_first = make_routing("dimension-order:2,1,0", c, 1);
  EXPECT_EQ(route_nodes(c, 0b000, high_first->route(0b000, 0b101)), (std::vector<int>{0b000, 0b100, 0b101}));
}

// Which way a port moves a header from `node` (+1/-1), hypercube included.
int direction(const Topology& t, int node, int port) {
  return t.link_dir(t.link_id(node, port));
}

// The directions the adaptive functions start from: every link out of the
// router that brings the header one hop closer, dimension by dimension, "+"
// before "-" (both ways round on a torus ring whose two ways are equally
// short), each with its link's dimension and direction; on meshes and tori of
// unequal radices, whose coordinates the function takes apart itself.
TEST(MinimalDirections, AreTheLinksOneHopCloserInDimensionOrder) {
  for (const Topology& t : {mesh({5, 4}), mesh({3, 4, 2}), torus({4, 5}), torus({6, 3, 4}), cube(4)}) {
    SCOPED_TRACE(t.spec().describe());
    for (int node = 0; node < t.num_nodes(); ++node)
      for (int dst = 0; dst < t.num_nodes(); ++dst) {
        if (node == dst) continue;
        Directions dirs;
        productive_directions(t, node, dst, dirs);
        std::vector<std::pair<int, int>> expected;  // (dimension, port): ports of a dimension "+" first
        for (int p = 0; p < t.num_ports(); ++p) {
          const int next = t.neighbor(node, p);
          if (next >= 0 && t.distance(next, dst) == t.distance(node, dst) - 1) expected.push_back({t.port_dim(p), p});
        }
        std::stable_sort(expected.begin(), expected.end(), [&](const auto& a, const auto& b) {
          return a.first != b.first ? a.first < b.first : direction(t, node, a.second) > direction(t, node, b.second);
        });
        ASSERT_EQ(dirs.size(), expected.size()) << node << " -> " << dst;
        for (size_t i = 0; i < dirs.size(); ++i) {
          EXPECT_EQ(dirs[i].dim, expected[i].first) << node << " -> " << dst;
          EXPECT_EQ(dirs[i].port, expected[i].second) << node << " -> " << dst;
          EXPECT_EQ(dirs[i].dir, direction(t, node, dirs[i].port)) << node << " -> " << dst;
        }
      }
  }
}

// A turn model's filter keeps the directions its rule allows, in their order,
// or all of them when it allows none.
TEST(MinimalDirections, KeepIfAnyKeepsTheAllowedInOrderOrAll) {
  Directions dirs{{0, 1, 0}, {1, -1, 3}, {2, -1, 5}, {3, 1, 6}};
  keep_if_any(dirs, [](const Direction& d) { return d.dir > 1; });
  ASSERT_EQ(dirs.size(), 4u);
  keep_if_any(dirs, [](const Direction& d) { return d.dir < 0; });
  ASSERT_EQ(dirs.size(), 2u);
  EXPECT_EQ(dirs[0].port, 3);
  EXPECT_EQ(dirs[1].port, 5);
}

// A rule on two consecutive hops: (dim, dir) into `node`, then (dim, dir) out of it.
using TurnRule = std::function<bool(const Topology&, int node, int in_dim, int in_dir, int out_dim, int out_dir)>;

// Follows every choice an adaptive function offers from every source (depth-first,
// all paths on small networks): each output is minimal, one exists at every
// router short of the destination, every VC range is valid, and `allowed` holds
// for every turn. Returns how many distinct (router, output port) choices it saw.
size_t explore(const RoutingFunction& f, const Topology& t, int vcs, const TurnRule& allowed) {
  std::set<std::pair<int, int>> seen;
  for (int src = 0; src < t.num_nodes(); ++src)
    for (int dst = 0; dst < t.num_nodes(); ++dst) {
      if (src == dst) continue;
      std::function<void(int, int, int)> walk = [&](int node, int in_port, int hops) {
        if (node == dst) {
          EXPECT_EQ(hops, t.distance(src, dst));
          return;
        }
        const auto outs = outputs_of(f, RouteQuery{node, src, dst, in_port, 0});
        ASSERT_FALSE(outs.empty()) << "no output at " << node << " for " << src << " -> " << dst;
        for (const RouteOutput& o : outs) {
          ASSERT_GE(o.vc_first, 0);
          ASSERT_LE(o.vc_last, vcs);
          ASSERT_LT(o.vc_first, o.vc_last);
          const int next = t.neighbor(node, o.port);
          ASSERT_GE(next, 0);
          ASSERT_EQ(t.distance(next, dst), t.distance(node, dst) - 1) << "not minimal at " << node;
          if (in_port != kInjectedHeader) {
            const int in_link_src = t.neighbor(node, in_port);
            const int in_dim = t.port_dim(in_port);
            const int in_dir = direction(t, in_link_src, t.opposite_port(in_port));
            ASSERT_TRUE(allowed(t, node, in_dim, in_dir, t.port_dim(o.port), direction(t, node, o.port)))
                << "forbidden turn at " << t.node_name(node) << " for " << src << " -> " << dst;
          }
          seen.insert({node, o.port});
          walk(next, t.link_input_port(t.link_id(node, o.port)), hops + 1);
        }
      };
      walk(src, kInjectedHeader, 0);
    }
  return seen.size();
}

const TurnRule kAnyTurn = [](const Topology&, int, int, int, int, int) { return true; };

TEST(TurnModelRouting, WestFirstNeverTurnsIntoWest) {
  const Topology t = mesh({5, 4});
  const auto f = make_routing("west-first", t, 1);
  EXPECT_TRUE(f->adaptive());
  const size_t choices = explore(*f, t, 1, [](const Topology&, int, int in_dim, int in_dir, int out_dim, int out_dir) {
    return !(out_dim == 0 && out_dir < 0) || (in_dim == 0 && in_dir < 0);
  });
  EXPECT_GT(choices, static_cast<size_t>(t.num_links()) / 2);  // adaptive: many more than one way
}

TEST(TurnModelRouting, NorthLastNeverTurnsOutOfNorth) {
  const Topology t = mesh({4, 5});
  const auto f = make_routing("north-last", t, 2);
  explore(*f, t, 2, [](const Topology&, int, int in_dim, int in_dir, int out_dim, int out_dir) {
    return !(in_dim == 1 && in_dir > 0) || (out_dim == 1 && out_dir > 0);
  });
}

TEST(TurnModelRouting, NegativeFirstNeverTurnsFromPositiveToNegative) {
  const TurnRule rule = [](const Topology&, int, int, int in_dir, int, int out_dir) {
    return !(in_dir > 0 && out_dir < 0);
  };
  for (const Topology& t : {mesh({4, 4}), mesh({3, 3, 3}), cube(4)}) {
    SCOPED_TRACE(t.spec().describe());
    explore(*make_routing("negative-first", t, 1), t, 1, rule);
  }
}

// Chiu's rules: no east-to-north/south turn in an even column, no
// north/south-to-west turn in an odd column.
TEST(TurnModelRouting, OddEvenObeysChiusRules) {
  const Topology t = mesh({6, 5});
  const auto f = make_routing("odd-even", t, 1);
  const size_t choices =
      explore(*f, t, 1, [](const Topology& topo, int node, int in_dim, int in_dir, int out_dim, int out_dir) {
        const bool even = topo.coord(node, 0) % 2 == 0;
        if (even && in_dim == 0 && in_dir > 0 && out_dim == 1) return false;
        if (!even && in_dim == 1 && out_dim == 0 && out_dir < 0) return false;
        return true;
      });
  EXPECT_GT(choices, static_cast<size_t>(t.num_links()) / 2);
}

// Duato: adaptive VCs in every productive direction, and always an escape VC
// (a higher tier) along dimension order, with its dateline class on a torus.
TEST(MinimalAdaptiveRouting, OffersEveryMinimalDirectionAndAnEscape) {
  for (const Topology& t : {mesh({4, 4}), torus({4, 5}), torus({3, 3, 2}), cube(3)}) {
    SCOPED_TRACE(t.spec().describe());
    const bool is_torus = t.kind() == "torus";
    const int vcs = is_torus ? 4 : 3;
    const auto f = make_routing("minimal-adaptive", t, vcs);
    explore(*f, t, vcs, kAnyTurn);
    for (int s = 0; s < t.num_nodes(); ++s)
      for (int d = 0; d < t.num_nodes(); ++d) {
        if (s == d) continue;
        const auto outs = outputs_of(*f, RouteQuery{s, s, d, kInjectedHeader, 0});
        const RouteOutput& escape = outs.back();
        EXPECT_EQ(escape.tier, 1);
        EXPECT_EQ(escape.vc_last - escape.vc_first, 1);
        EXPECT_EQ(escape.port, dimension_order_route(t, s, d).hops() ? t.link_port(dimension_order_route(t, s, d).links[0]) : -1);
        EXPECT_LT(escape.vc_first, is_torus ? 2 : 1);
        for (size_t i = 0; i + 1 < outs.size(); ++i) {
          EXPECT_EQ(outs[i].tier, 0);
          EXPECT_EQ(outs[i].vc_first, is_torus ? 2 : 1);
          EXPECT_EQ(outs[i].vc_last, vcs);
        }
      }
  }
}

// The escape class on a torus: 0 while the rest of the way round still crosses
// the wrap-around link, 1 once it does not.
TEST(MinimalAdaptiveRouting, TorusEscapeClassFollowsTheDateline) {
  const Topology t = torus({6});
  const auto f = make_routing("minimal-adaptive", t, 3);
  auto escape_vc = [&](int node, int dst) { return outputs_of(*f, RouteQuery{node, node, dst, kInjectedHeader, 0}).back().vc_first; };
  EXPECT_EQ(escape_vc(4, 1), 0);  // 4 -> 5 -> 0 -> 1: crosses 5 -> 0
  EXPECT_EQ(escape_vc(0, 1), 1);  // past the dateline
  EXPECT_EQ(escape_vc(1, 3), 1);  // never crosses it
  EXPECT_EQ(escape_vc(1, 5), 0);  // 1 -> 0 -> 5 going "-": crosses 0 -> 5
}

}  // namespace
}  // namespace wormsim

// Multicast schemes (models/multicast/): the Hamiltonian-path labelling, the
// worms of dual-path, multi-path, column-path and tree on hand-checked small
// cases, and over every source of several networks the invariants every plan
// must keep: each destination reached exactly once, each worm a tree of real
// links from the source's router (a path for path schemes, label-monotone for
// the Hamiltonian ones), destinations listed in the order the worm reaches them.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <random>
#include <set>

#include "models/multicast/hamiltonian_path.hpp"
#include "models/multicast/multicast_route.hpp"
#include "models/multicast/multicast_scheme.hpp"
#include "models/routing.hpp"
#include "models/routing/routing_function.hpp"
#include "tests/thrown_message.hpp"

namespace wormsim {
namespace {

// A network with its routing function, as a run builds them.
struct Net {
  explicit Net(TopologySpec spec, const std::string& routing = "dimension-order", int vcs = 2)
      : topo(std::move(spec)), route(make_routing(routing, topo, vcs)) {}
  MulticastSetting setting() const { return MulticastSetting{&topo, route.get(), 2}; }
  std::vector<MulticastWorm> plan(const std::string& scheme, int src, const std::vector<int>& dsts) const {
    return make_multicast(scheme, setting())->plan(src, dsts);
  }
  std::vector<int> all_but(int src) const {
    std::vector<int> d;
    for (int e = 0; e < topo.num_endpoints(); ++e)
      if (e != src) d.push_back(e);
    return d;
  }
  Topology topo;
  std::unique_ptr<RoutingFunction> route;
};

TEST(MulticastRegistry, ListsTheSchemesAndRefusesUnknownNames) {
  std::vector<std::string> names;
  for (const MulticastInfo& i : multicast_registry()) names.push_back(i.name);
  EXPECT_EQ(names, (std::vector<std::string>{"dual-path", "multi-path", "column-path", "tree"}));
  EXPECT_TRUE(find_multicast("dual-path")->path_based);
  EXPECT_FALSE(find_multicast("tree")->path_based);
  Net net(TopologySpec{"mesh", {4, 4}});
  EXPECT_EQ(thrown_message([&] { make_multicast("dual", net.setting()); }),
            "unknown multicast scheme \"dual\" (expected one of: dual-path, multi-path, column-path, tree)");
}

TEST(HamiltonianPath, BoustrophedonOnA4x3Mesh) {
  const Topology t(TopologySpec{"mesh", {4, 3}});
  const HamiltonianPath p(t);
  std::vector<int> labels;
  for (int r = 0; r < t.num_nodes(); ++r) labels.push_back(p.label(r));
  // Routers numbered x + 4y; row 1 runs right to left.
  EXPECT_EQ(labels, (std::vector<int>{0, 1, 2, 3, 7, 6, 5, 4, 8, 9, 10, 11}));
}

TEST(HamiltonianPath, SnakeOverPlanesAndGrayCode) {
  const Topology mesh3(TopologySpec{"mesh", {2, 2, 2}});
  const HamiltonianPath p(mesh3);
  std::vector<int> order;
  for (int l = 0; l < 8; ++l) order.push_back(p.router_at(l));
  // Plane z=0 forwards (0,0)(1,0)(1,1)(0,1), plane z=1 backwards from above (0,1).
  EXPECT_EQ(order, (std::vector<int>{0, 1, 3, 2, 6, 7, 5, 4}));
  const Topology cube(TopologySpec{"hypercube", {4}});
  const HamiltonianPath g(cube);
  for (int l = 0; l < 16; ++l) EXPECT_EQ(g.router_at(l), l ^ (l >> 1)) << "label " << l;
}

TEST(HamiltonianPath, RoutingTakesTheLargestLabelNotBeyondTheTarget) {
  const Topology t(TopologySpec{"mesh", {4, 4}});
  const HamiltonianPath p(t);
  std::vector<TreeEdge> edges;
  p.append_path(0, 5, edges);  // (0,0) label 0 to (1,1) label 6: east to label 1, then north
  EXPECT_EQ(edges, (std::vector<TreeEdge>{{0, 0, 0}, {1, 2, 0}}));
}

TEST(DualPath, TwoWormsFromTheMiddleOfA4x4Mesh) {
  Net net(TopologySpec{"mesh", {4, 4}});
  const auto worms = net.plan("dual-path", 5, net.all_but(5));  // source (1,1), label 6
  ASSERT_EQ(worms.size(), 2u);
  EXPECT_EQ(worms[0].dsts, (std::vector<int>{4, 8, 9, 10, 11, 15, 14, 13, 12}));
  EXPECT_EQ(worms[0].edges, (std::vector<TreeEdge>{{5, 1, 0}, {4, 2, 0}, {8, 0, 0}, {9, 0, 0}, {10, 0, 0},
                                                   {11, 2, 0}, {15, 1, 0}, {14, 1, 0}, {13, 1, 0}}));
  EXPECT_EQ(worms[1].dsts, (std::vector<int>{6, 7, 3, 2, 1, 0}));
  EXPECT_EQ(worms[1].edges,
            (std::vector<TreeEdge>{{5, 0, 0}, {6, 0, 0}, {7, 3, 0}, {3, 1, 0}, {2, 1, 0}, {1, 1, 0}}));
}

TEST(MultiPath, FourGroupsCutByTheSourcesColumn) {
  Net net(TopologySpec{"mesh", {4, 4}});
  const auto worms = net.plan("multi-path", 5, net.all_but(5));
  ASSERT_EQ(worms.size(), 4u);
  EXPECT_EQ(worms[0].dsts, (std::vector<int>{4, 8, 12}));  // high, x < 1
  EXPECT_EQ(worms[0].edges, (std::vector<TreeEdge>{{5, 1, 0}, {4, 2, 0}, {8, 2, 0}}));
  EXPECT_EQ(worms[1].dsts, (std::vector<int>{9, 10, 11, 15, 14, 13}));  // high, x >= 1
  EXPECT_EQ(worms[2].dsts, (std::vector<int>{0}));  // low, x < 1
  EXPECT_EQ(worms[2].edges, (std::vector<TreeEdge>{{5, 3, 0}, {1, 1, 0}}));
  EXPECT_EQ(worms[3].dsts, (std::vector<int>{6, 7, 3, 2, 1}));  // low, x >= 1
}

// Beyond 2-D, one worm per source channel: each destination joins the worm of
// the channel R leaves the source by toward it.
TEST(MultiPath, OneWormPerSourceChannelOnAHypercube) {
  Net net(TopologySpec{"hypercube", {3}});
  // From router 0 (label 0) every destination is on the high side. Its
  // neighbours 1, 2, 4 have labels 1, 3, 7, so labels 1-2 (routers 1, 3) leave
  // toward 1, labels 3-6 (routers 2, 6, 7, 5) toward 2, label 7 (router 4) toward 4.
  const auto worms = net.plan("multi-path", 0, net.all_but(0));
  ASSERT_EQ(worms.size(), 3u);
  EXPECT_EQ(worms[0].dsts, (std::vector<int>{1, 3}));
  EXPECT_EQ(worms[0].edges, (std::vector<TreeEdge>{{0, 0, 0}, {1, 1, 0}}));
  EXPECT_EQ(worms[1].dsts, (std::vector<int>{2, 6, 7, 5}));
  EXPECT_EQ(worms[1].edges, (std::vector<TreeEdge>{{0, 1, 0}, {2, 2, 0}, {6, 0, 0}, {7, 1, 0}}));
  EXPECT_EQ(worms[2].dsts, (std::vector<int>{4}));
  EXPECT_EQ(worms[2].edges, (std::vector<TreeEdge>{{0, 2, 0}}));
}

TEST(MultiPath, SixWormsFromTheMiddleOfA3DMeshEachOnItsOwnChannel) {
  Net net(TopologySpec{"mesh", {3, 3, 3}});
  const int src = 13;  // (1,1,1): six neighbours, three labelled above it, three below
  const HamiltonianPath labels(net.topo);
  const auto worms = net.plan("multi-path", src, net.all_but(src));
  ASSERT_EQ(worms.size(), 6u);
  std::set<int> first_ports;
  size_t delivered = 0;
  for (const MulticastWorm& w : worms) {
    ASSERT_FALSE(w.edges.empty());
    EXPECT_EQ(w.edges[0].router, src);
    first_ports.insert(w.edges[0].port);
    // The worm's first destination is the neighbour on its channel, and every
    // destination of the worm is one R would reach from the source by that channel.
    EXPECT_EQ(w.dsts[0], net.topo.neighbor(src, w.edges[0].port));
    for (int d : w.dsts) EXPECT_EQ(labels.next_port(src, d), w.edges[0].port) << "destination " << d;
    delivered += w.dsts.size();
  }
  EXPECT_EQ(first_ports.size(), 6u);
  EXPECT_EQ(delivered, 26u);
}

// A ring's routers have one neighbour on each side of the path: dual-path's worms.
TEST(MultiPath, OnARingIsDualPath) {
  Net net(TopologySpec{"torus", {5}});
  for (int src = 0; src < 5; ++src) {
    const auto multi = net.plan("multi-path", src, net.all_but(src));
    const auto dual = net.plan("dual-path", src, net.all_but(src));
    ASSERT_EQ(multi.size(), dual.size()) << "source " << src;
    for (size_t w = 0; w < multi.size(); ++w) {
      EXPECT_EQ(multi[w].dsts, dual[w].dsts) << "source " << src;
      EXPECT_EQ(multi[w].edges, dual[w].edges) << "source " << src;
    }
  }
}

TEST(ColumnPath, TwoWormsPerColumnAroundTheSourcesRow) {
  Net net(TopologySpec{"mesh", {4, 4}});
  const auto worms = net.plan("column-path", 5, net.all_but(5));
  EXPECT_EQ(worms.size(), 8u);  // every column has destinations above and below row 1
  EXPECT_EQ(worms[6].dsts, (std::vector<int>{7, 11, 15}));  // column 3, rows 1..3
  EXPECT_EQ(worms[6].edges, (std::vector<TreeEdge>{{5, 0, 0}, {6, 0, 0}, {7, 2, 0}, {11, 2, 0}}));
  EXPECT_EQ(net.plan("column-path", 0, net.all_but(0)).size(), 4u);  // a corner: only upward worms
}

// Its deadlock argument (docs/multicast.md): every worm is the XY route to its last destination.
TEST(ColumnPath, EveryWormIsTheXyRouteToItsLastDestination) {
  Net net(TopologySpec{"mesh", {4, 3}});
  for (int src = 0; src < net.topo.num_endpoints(); ++src)
    for (const MulticastWorm& w : net.plan("column-path", src, net.all_but(src))) {
      std::vector<int> links;
      for (const TreeEdge& e : w.edges) links.push_back(net.topo.link_id(e.router, e.port));
      EXPECT_EQ(links, dimension_order_route(net.topo, src, w.dsts.back()).links) << "from " << src;
    }
}

TEST(TreeMulticast, DimensionOrderOnAHypercubeIsTheBinomialTree) {
  Net net(TopologySpec{"hypercube", {3}});
  for (int s = 0; s < 8; ++s) {
    const auto worms = net.plan("tree", s, net.all_but(s));
    ASSERT_EQ(worms.size(), 1u);
    ASSERT_EQ(worms[0].edges.size(), 7u);
    std::map<int, int> children;
    for (const TreeEdge& e : worms[0].edges) {
      // Binomial tree: a router relative to the source feeds only the bits above its highest one.
      EXPECT_LT(e.router ^ s, 1 << e.port) << "source " << s << " router " << e.router << " port " << e.port;
      ++children[e.router ^ s];
    }
    EXPECT_EQ(children, (std::map<int, int>{{0, 3}, {1, 2}, {2, 1}, {3, 1}})) << "source " << s;
  }
}

// A deterministic routing function with given routes (router lists), to build unions that are not trees.
class FixedRoutes final : public RoutingFunction {
 public:
  FixedRoutes(const Topology& t, std::map<int, std::vector<int>> to) : RoutingFunction(t, 1), to_(std::move(to)) {}
  bool adaptive() const override { return false; }
  void outputs(const RouteQuery&, std::vector<RouteOutput>&) const override {}
  using RoutingFunction::route;
  void route(int, int dst, Route& out) const override { out = route_from_nodes(topo_, to_.at(dst)); }

 private:
  std::map<int, std::vector<int>> to_;
};

TEST(TreeMulticast, RefusesRoutesWhoseUnionIsNotATree) {
  const Topology t(TopologySpec{"mesh", {2, 2}});
  // To (1,0) the long way round, through (0,1) and (1,1); to (1,1) through (1,0).
  const FixedRoutes routes(t, {{1, {0, 2, 3, 1}}, {3, {0, 1, 3}}});
  const auto tree = make_multicast("tree", MulticastSetting{&t, &routes, 1});
  EXPECT_EQ(thrown_message([&] { tree->plan(0, {1, 3}); }),
            "tree multicast: the unicast routes from (0,0) do not form a tree (the route to (1,1) enters (1,0) by "
            "another link than an earlier route)");
  EXPECT_EQ(tree->plan(0, {1}).at(0).edges.size(), 3u);  // one route alone is a tree
}

// Channel dependencies (link -> next link of one worm) and whether they close a cycle.
struct Dependencies {
  explicit Dependencies(const Topology& t) : topo(t), next(static_cast<size_t>(t.num_links())) {}
  void add(const std::vector<int>& links) {
    for (size_t i = 0; i + 1 < links.size(); ++i) next[static_cast<size_t>(links[i])].insert(links[i + 1]);
  }
  bool cyclic() const {
    std::vector<int> colour(next.size(), 0);  // 0 new, 1 on the stack, 2 done
    std::function<bool(int)> visit = [&](int l) {
      colour[static_cast<size_t>(l)] = 1;
      for (int n : next[static_cast<size_t>(l)]) {
        if (colour[static_cast<size_t>(n)] == 1) return true;
        if (colour[static_cast<size_t>(n)] == 0 && visit(n)) return true;
      }
      colour[static_cast<size_t>(l)] = 2;
      return false;
    };
    for (size_t l = 0; l < next.size(); ++l)
      if (colour[l] == 0 && visit(static_cast<int>(l))) return true;
    return false;
  }
  const Topology& topo;
  std::vector<std::set<int>> next;
};

std::vector<int> links_of(const Topology& t, const MulticastWorm& w) {
  std::vector<int> l;
  for (const TreeEdge& e : w.edges) l.push_back(t.link_id(e.router, e.port));
  return l;
}

// docs/multicast.md, "Deadlock": dual-path worms of one network (high or low)
// beside XY unicast worms close no cycle of channel dependencies; worms of both
// networks do, among themselves they do not. Every source, every set of one or
// two destinations, every XY route, on a 4x4 and a 5x3 mesh.
TEST(DualPath, ChannelDependenciesBesideXyUnicastWorms) {
  for (const TopologySpec& spec : {TopologySpec{"mesh", {4, 4}}, TopologySpec{"mesh", {5, 3}}}) {
    Net net(spec);
    const HamiltonianPath labels(net.topo);
    const auto scheme = make_multicast("dual-path", net.setting());
    Dependencies xy_high(net.topo), xy_low(net.topo), xy_both(net.topo), paths(net.topo);
    const int n = net.topo.num_nodes();
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) {
        if (a == b) continue;
        const std::vector<int> xy = dimension_order_route(net.topo, a, b).links;
        for (Dependencies* d : {&xy_high, &xy_low, &xy_both}) d->add(xy);
      }
    for (int s = 0; s < n; ++s)
      for (int d1 = 0; d1 < n; ++d1)
        for (int d2 = d1; d2 < n; ++d2) {
          if (d1 == s || d2 == s) continue;
          for (const MulticastWorm& w : scheme->plan(s, d1 == d2 ? std::vector<int>{d1} : std::vector<int>{d1, d2})) {
            const bool up = labels.label(net.topo.neighbor(w.edges[0].router, w.edges[0].port)) > labels.label(s);
            (up ? xy_high : xy_low).add(links_of(net.topo, w));
            xy_both.add(links_of(net.topo, w));
            paths.add(links_of(net.topo, w));
          }
        }
    EXPECT_FALSE(paths.cyclic()) << spec.describe();
    EXPECT_FALSE(xy_high.cyclic()) << spec.describe();
    EXPECT_FALSE(xy_low.cyclic()) << spec.describe();
    EXPECT_TRUE(xy_both.cyclic()) << spec.describe();
  }
}

// The cycle of docs/multicast.md on a 4x4 mesh: each worm holds the links the text says and waits for the next one.
TEST(DualPath, TheDocumentedCycleWithXyUnicastWorms) {
  Net net(TopologySpec{"mesh", {4, 4}});
  const Topology& t = net.topo;
  auto at = [&](int x, int y) { return t.node_at({x, y}); };
  auto link = [&](int x1, int y1, int x2, int y2) { return t.link_between(at(x1, y1), at(x2, y2)); };
  const auto high = net.plan("dual-path", at(2, 1), {at(1, 3)});
  const auto low = net.plan("dual-path", at(1, 2), {at(2, 1)});
  ASSERT_EQ(high.size(), 1u);
  ASSERT_EQ(low.size(), 1u);
  EXPECT_EQ(links_of(t, high[0]), (std::vector<int>{link(2, 1, 2, 2), link(2, 2, 2, 3), link(2, 3, 1, 3)}));
  EXPECT_EQ(links_of(t, low[0]), (std::vector<int>{link(1, 2, 1, 1), link(1, 1, 2, 1)}));
  EXPECT_EQ(dimension_order_route(t, at(2, 3), at(1, 0)).links,
            (std::vector<int>{link(2, 3, 1, 3), link(1, 3, 1, 2), link(1, 2, 1, 1), link(1, 1, 1, 0)}));
  EXPECT_EQ(dimension_order_route(t, at(1, 1), at(2, 3)).links,
            (std::vector<int>{link(1, 1, 2, 1), link(2, 1, 2, 2), link(2, 2, 2, 3)}));
}

TEST(MulticastSchemes, RefuseNetworksTheyCannotRunOn) {
  Net torus(TopologySpec{"torus", {4, 4}});
  EXPECT_EQ(thrown_message([&] { make_multicast("column-path", torus.setting()); }),
            "column-path needs a 2-D mesh or cmesh (its worms are XY routes), got a torus 4x4");
  Net adaptive(TopologySpec{"mesh", {4, 4}}, "west-first", 1);
  EXPECT_EQ(thrown_message([&] { make_multicast("tree", adaptive.setting()); }),
            "tree multicast follows the unicast routes, which need a deterministic network.routing "
            "(dimension-order); the network's routing is adaptive");
}

TEST(MulticastSchemes, RefuseBadDestinationsNamingThem) {
  Net net(TopologySpec{"mesh", {4, 4}});
  for (const MulticastInfo& i : multicast_registry()) {
    EXPECT_EQ(thrown_message([&] { net.plan(i.name, 5, {3, 16}); }),
              "destination 16 is not a node of the mesh 4x4 (0..15)") << i.name;
    EXPECT_EQ(thrown_message([&] { net.plan(i.name, 5, {3, 5}); }),
              "destination (1,1) is the source of the multicast") << i.name;
    EXPECT_EQ(thrown_message([&] { net.plan(i.name, 5, {3, 9, 3}); }),
              "destination (3,0) comes twice in the multicast") << i.name;
  }
}

TEST(MulticastSchemes, DeadlockRisks) {
  Net xy(TopologySpec{"mesh", {4, 4}});
  Net yx(TopologySpec{"mesh", {4, 4}}, "dimension-order:yx");
  MulticastSetting alone = xy.setting();
  alone.shared_with_unicast = false;
  alone.destinations_shared = false;
  EXPECT_FALSE(find_multicast("dual-path")->deadlock_risk(alone));
  MulticastSetting separate = xy.setting();  // beside unicast worms, no destination shared
  separate.destinations_shared = false;
  EXPECT_TRUE(find_multicast("dual-path")->deadlock_risk(separate));
  EXPECT_FALSE(find_multicast("column-path")->deadlock_risk(separate));
  MulticastSetting yx_separate = yx.setting();
  yx_separate.destinations_shared = false;
  EXPECT_TRUE(find_multicast("column-path")->deadlock_risk(yx_separate));
  EXPECT_TRUE(find_multicast("tree")->deadlock_risk(alone));
}

// Path worms of two messages to a common destination, on ejection channels any
// link's worm may take: each may hold the channel the other waits for, unless
// the channels are per link (all-port, one endpoint per router).
TEST(MulticastSchemes, PathWormsToCommonDestinationsRiskTheirEjectionChannels) {
  Net xy(TopologySpec{"mesh", {4, 4}});
  for (const char* scheme : {"dual-path", "multi-path", "column-path"}) {
    MulticastSetting s = xy.setting();
    s.shared_with_unicast = false;
    s.destinations_shared = true;
    const auto risk = find_multicast(scheme)->deadlock_risk(s);
    ASSERT_TRUE(risk) << scheme;
    EXPECT_NE(risk->find("ejection channel"), std::string::npos) << *risk;
    s.ejection_per_link = true;
    EXPECT_FALSE(find_multicast(scheme)->deadlock_risk(s)) << scheme;
    s.ejection_per_link = false;
    s.alone = true;
    EXPECT_FALSE(find_multicast(scheme)->deadlock_risk(s)) << scheme;
  }
}

// Checks one plan against the invariants; `path` for path schemes, `labels` when label-monotone.
void check_plan(const Topology& t, const std::string& scheme, int src, const std::vector<int>& dsts,
                const std::vector<MulticastWorm>& worms, const HamiltonianPath* labels) {
  const std::string where = scheme + " on " + t.spec().describe() + " from " + std::to_string(src);
  std::multiset<int> got;
  const int s = t.endpoint_router(src);
  for (const MulticastWorm& w : worms) {
    EXPECT_EQ(w.src, src) << where;
    std::map<int, int> depth{{s, 0}};  // routers the worm reaches, hops from s
    std::map<int, int> leaves;         // edges leaving each router
    std::vector<int> order{s};
    for (const TreeEdge& e : w.edges) {
      const int link = t.link_id(e.router, e.port);
      ASSERT_GE(link, 0) << where << ": no link at router " << e.router << " port " << e.port;
      ASSERT_TRUE(depth.count(e.router)) << where << ": edge leaves a router the worm has not reached";
      const int to = t.link_dst(link);
      EXPECT_TRUE(depth.emplace(to, depth[e.router] + 1).second) << where << ": router " << to << " entered twice";
      ++leaves[e.router];
      order.push_back(to);
      if (labels) {
        EXPECT_EQ(labels->label(to) > labels->label(e.router), labels->label(order[1]) > labels->label(s)) << where;
      }
    }
    size_t at = 0;  // path worms: the destinations' routers in path order
    for (int d : w.dsts) {
      got.insert(d);
      const int r = t.endpoint_router(d);
      EXPECT_TRUE(depth.count(r)) << where << ": destination " << d << " off the worm";
      if (find_multicast(scheme)->path_based) {
        const auto found = std::find(order.begin() + static_cast<long>(at), order.end(), r);
        EXPECT_NE(found, order.end()) << where << ": destination " << d << " out of order";
        at = static_cast<size_t>(found - order.begin());
      }
    }
    if (find_multicast(scheme)->path_based) {
      for (const auto& [router, n] : leaves) EXPECT_EQ(n, 1) << where << ": a path worm forks at " << router;
    }
    // The routers read every planned worm (no router entered only to pass nowhere).
    EXPECT_EQ(thrown_message([&] { encode_multicast_route(t, w); }), "(nothing thrown)") << where;
  }
  EXPECT_EQ(got, std::multiset<int>(dsts.begin(), dsts.end())) << where;
}

TEST(MulticastSchemes, EveryPlanDeliversOnceAlongATreeOfRealLinks) {
  const std::vector<TopologySpec> specs = {
      {"mesh", {4, 3}}, {"mesh", {3, 3, 2}}, {"torus", {4, 4}}, {"torus", {5}},
      {"hypercube", {3}}, {"cmesh", {3, 2}, {{"concentration", 2}}}, {"torus", {2, 3}}};
  std::mt19937 rng(16);
  for (const TopologySpec& spec : specs) {
    Net net(spec);
    const HamiltonianPath labels(net.topo);
    for (const MulticastInfo& info : multicast_registry()) {
      std::unique_ptr<MulticastScheme> scheme;
      try {
        scheme = make_multicast(info.name, net.setting());
      } catch (const std::invalid_argument&) {
        continue;  // refused on this network (RefuseNetworksTheyCannotRunOn)
      }
      const bool monotone = info.name == "dual-path" || info.name == "multi-path";
      for (int src = 0; src < net.topo.num_endpoints(); ++src) {
        const std::vector<int> all = net.all_but(src);
        check_plan(net.topo, info.name, src, all, scheme->plan(src, all), monotone ? &labels : nullptr);
        std::vector<int> some;
        for (int d : all)
          if (rng() % 3 == 0) some.push_back(d);
        std::shuffle(some.begin(), some.end(), rng);
        check_plan(net.topo, info.name, src, some, scheme->plan(src, some), monotone ? &labels : nullptr);
      }
    }
  }
}

}  // namespace
}  // namespace wormsim

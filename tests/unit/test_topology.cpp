#include <gtest/gtest.h>

#include <algorithm>

#include <boost/graph/breadth_first_search.hpp>

#include "models/node_id.hpp"
#include "models/routing.hpp"
#include "models/topology.hpp"
#include "models/topology_graph.hpp"
#include "tests/thrown_message.hpp"

using namespace wormsim;

namespace {
Topology make(const std::string& k, std::vector<int> dims) { return Topology(TopologySpec{k, std::move(dims)}); }

// Hop distances from `src` by breadth-first search on the Boost graph.
std::vector<int> bfs_distances(const Topology& t, int src) {
  std::vector<int> dist(t.num_nodes(), 0);
  boost::breadth_first_search(
      t.graph(), boost::vertex(src, t.graph()),
      boost::visitor(boost::make_bfs_visitor(boost::record_distances(dist.data(), boost::on_tree_edge()))));
  return dist;
}
}  // namespace

TEST(Topology, MeshCountsAndNeighbours) {
  Topology t = make("mesh", {4, 3});
  EXPECT_EQ(t.num_nodes(), 12);
  EXPECT_EQ(t.num_ports(), 4);
  // 2-D mesh a x b has 2[(a-1)b + a(b-1)] directed links.
  EXPECT_EQ(t.num_links(), 2 * (3 * 3 + 4 * 2));
  EXPECT_EQ(t.node_at({1, 2}), 9);  // x fastest
  EXPECT_EQ(t.coords(9), (std::vector<int>{1, 2}));
  EXPECT_EQ(t.neighbor(0, 1), -1);  // no "-x" neighbour at the edge
  EXPECT_EQ(t.neighbor(0, 0), 1);
  EXPECT_EQ(t.neighbor(0, 2), 4);
  EXPECT_EQ(t.node_name(9), "(1,2)");
}

TEST(Topology, TorusWrapLinksAndDistances) {
  Topology t = make("torus", {5, 4});
  EXPECT_EQ(t.num_links(), 20 * 4);
  EXPECT_EQ(t.neighbor(t.node_at({4, 0}), 0), t.node_at({0, 0}));
  EXPECT_TRUE(t.link_is_wrap(t.link_id(t.node_at({4, 0}), 0)));
  EXPECT_FALSE(t.link_is_wrap(t.link_id(t.node_at({3, 0}), 0)));
  EXPECT_EQ(t.distance(t.node_at({0, 0}), t.node_at({4, 2})), 3);
}

TEST(Topology, HypercubeLabelsAndLinks) {
  Topology t = make("hypercube", {4});
  EXPECT_EQ(t.num_nodes(), 16);
  EXPECT_EQ(t.num_links(), 16 * 4);
  EXPECT_EQ(t.neighbor(5, 1), 7);
  EXPECT_EQ(t.distance(0, 15), 4);
  EXPECT_EQ(t.node_name(5), "0101");
}

TEST(Topology, ClosedFormDistanceMatchesBfsOnEveryKind) {
  for (const auto& t : {make("mesh", {4, 3, 2}), make("torus", {5, 4, 3}),
                        make("torus", {2, 6}), make("hypercube", {5}),
                        make("torus", {7}), make("mesh", {9})}) {
    for (int s = 0; s < t.num_nodes(); ++s) {
      auto dist = bfs_distances(t, s);
      for (int d = 0; d < t.num_nodes(); ++d) ASSERT_EQ(t.distance(s, d), dist[d]) << t.spec().describe();
    }
  }
}

TEST(Topology, RejectsBadSpecs) {
  EXPECT_THROW(make("mesh", {}), std::invalid_argument);
  EXPECT_THROW(make("mesh", {4, 0}), std::invalid_argument);
  EXPECT_THROW(make("hypercube", {17}), std::invalid_argument);
  EXPECT_THROW(make("hypercube", {2, 2}), std::invalid_argument);
  EXPECT_THROW(make("mesh", {100000, 100000}), std::invalid_argument);
}

TEST(Routing, DimensionOrderIsMinimalAndOrdered) {
  for (const auto& t : {make("mesh", {5, 4}), make("torus", {5, 4}),
                        make("hypercube", {4}), make("torus", {4, 4, 2})}) {
    for (int s = 0; s < t.num_nodes(); ++s)
      for (int d = 0; d < t.num_nodes(); ++d) {
        if (s == d) continue;
        Route r = dimension_order_route(t, s, d);
        ASSERT_EQ(r.hops(), t.distance(s, d));
        int last_dim = -1;
        for (int link : r.links) {
          int dim = t.port_dim(t.link_port(link));
          ASSERT_GE(dim, last_dim);  // dimensions in increasing order
          last_dim = dim;
        }
        ASSERT_EQ(route_nodes(t, s, r).back(), d);
        // It says it uses no link twice (the express loop then skips its check), and it does not.
        ASSERT_TRUE(r.simple);
        std::vector<int> links = r.links;
        std::sort(links.begin(), links.end());
        ASSERT_EQ(std::adjacent_find(links.begin(), links.end()), links.end());
      }
  }
}

TEST(Routing, TorusTiesGoPlusAndDatelineClasses) {
  Topology t = make("torus", {4});
  Route r = dimension_order_route(t, 1, 3);  // distance 2 both ways: "+"
  ASSERT_EQ(r.hops(), 2);
  EXPECT_EQ(t.port_dir(t.link_port(r.links[0])), 1);
  Route w = dimension_order_route(t, 3, 1);  // 3 -> 0 (wrap) -> 1
  ASSERT_EQ(w.hops(), 2);
  EXPECT_EQ(w.vc_class, (std::vector<uint8_t>{0, 1}));
  Topology t2 = make("torus", {4, 4});
  Route x = dimension_order_route(t2, t2.node_at({3, 3}), t2.node_at({0, 0}));  // wrap in x then y
  EXPECT_EQ(x.vc_class, (std::vector<uint8_t>{0, 0}));
  Route y = dimension_order_route(t2, t2.node_at({3, 2}), t2.node_at({1, 3}));
  // x: 3 -> 0 (wrap) -> 1, then y: 2 -> 3
  EXPECT_EQ(y.vc_class, (std::vector<uint8_t>{0, 1, 0}));
}

TEST(Routing, ExplicitRoutesMustFollowLinks) {
  Topology t = make("mesh", {4, 4});
  EXPECT_EQ(route_from_nodes(t, {0, 4, 5, 6}).hops(), 3);
  // An explicit route may come back through a link: nothing claims it does not.
  EXPECT_FALSE(route_from_nodes(t, {0, 4, 5, 6}).simple);
  EXPECT_FALSE(route_from_nodes(t, {0, 1, 0, 1}).simple);
  EXPECT_NE(thrown_message([&] { route_from_nodes(t, {0, 5}); }).find("not a neighbour"), std::string::npos);
}

TEST(NodeId, ParsesAndResolvesBothForms) {
  Topology t = make("mesh", {4, 4});
  NodeRef ref;
  auto why = [&] { return thrown_message([&] { resolve_node(t, ref); }); };
  ASSERT_TRUE(parse_node_text("(1,2)", ref));
  EXPECT_EQ(resolve_node(t, ref), 9);
  ASSERT_TRUE(parse_node_text("9", ref));
  EXPECT_EQ(resolve_node(t, ref), 9);
  ASSERT_TRUE(parse_node_text("1, 2", ref));
  EXPECT_EQ(resolve_node(t, ref), 9);
  ASSERT_TRUE(parse_node_text("16", ref));
  EXPECT_NE(why().find("out of range"), std::string::npos);
  ASSERT_TRUE(parse_node_text("[4,0]", ref));
  EXPECT_THROW(resolve_node(t, ref), std::invalid_argument);
  ASSERT_TRUE(parse_node_text("[1,2,3]", ref));
  EXPECT_THROW(resolve_node(t, ref), std::invalid_argument);
  EXPECT_FALSE(parse_node_text("x1", ref));
  EXPECT_FALSE(parse_node_text("", ref));
  EXPECT_FALSE(parse_node_text("1,,2", ref));
}

// The concentrated mesh: a topology with several endpoints per router, and the
// registry it is found in.
#include <gtest/gtest.h>

#include "models/node_id.hpp"
#include "models/routing.hpp"
#include "models/topology.hpp"
#include "tests/thrown_message.hpp"
#include "models/topology_shape.hpp"

using namespace wormsim;

namespace {
Topology cmesh(std::vector<int> dims, int c) { return Topology(TopologySpec{"cmesh", std::move(dims), {{"concentration", c}}}); }
}  // namespace

TEST(TopologyRegistry, FindsEveryTopologyByNameAndAlias) {
  for (const char* name : {"mesh", "torus", "hypercube", "cmesh"}) {
    ASSERT_NE(find_topology(name), nullptr) << name;
    EXPECT_EQ(find_topology(name)->name(), name);
  }
  std::string kind;
  ASSERT_TRUE(parse_topology_kind("line", kind));
  EXPECT_EQ(kind, "mesh");
  ASSERT_TRUE(parse_topology_kind("ring", kind));
  EXPECT_EQ(kind, "torus");
  EXPECT_FALSE(parse_topology_kind("donut", kind));
  EXPECT_EQ(topology_names_text(), "cmesh, hypercube, mesh, torus, line or ring");
  EXPECT_THROW(Topology(TopologySpec{"donut", {4}}), std::invalid_argument);
}

TEST(ConcentratedMesh, RoutersAreAMeshAndEndpointsAreNumberedByRouter) {
  const Topology t = cmesh({4, 3}, 4);
  const Topology mesh(TopologySpec{"mesh", {4, 3}});
  EXPECT_EQ(t.num_nodes(), 12);  // routers
  EXPECT_EQ(t.num_endpoints(), 48);
  EXPECT_EQ(t.max_endpoints_per_router(), 4);
  EXPECT_FALSE(t.one_endpoint_per_router());
  ASSERT_EQ(t.num_links(), mesh.num_links());
  for (int l = 0; l < t.num_links(); ++l) {
    EXPECT_EQ(t.link_src(l), mesh.link_src(l));
    EXPECT_EQ(t.link_dst(l), mesh.link_dst(l));
    EXPECT_FALSE(t.link_is_wrap(l));
  }
  EXPECT_FALSE(t.dateline_classes());
  EXPECT_EQ(t.min_vcs(), 1);
  for (int e = 0; e < t.num_endpoints(); ++e) {
    EXPECT_EQ(t.endpoint_router(e), e / 4);
    EXPECT_EQ(t.endpoint_index(e), e % 4);
    EXPECT_EQ(t.endpoint_at(e / 4, e % 4), e);
  }
  EXPECT_EQ(t.first_endpoint(5), 20);
  EXPECT_EQ(t.endpoints_at(5), 4);
}

TEST(ConcentratedMesh, NamesAndCoordinatesRoundTrip) {
  const Topology t = cmesh({4, 3}, 4);
  const int e = t.endpoint_at(t.node_at({1, 2}), 3);
  EXPECT_EQ(t.node_name(e), "(1,2).3");
  EXPECT_EQ(t.router_name(t.node_at({1, 2})), "(1,2)");
  EXPECT_EQ(endpoint_coords(t, e), (std::vector<int>{1, 2, 3}));
  NodeRef ref;
  auto why = [&] { return thrown_message([&] { resolve_node(t, ref); }); };
  for (const char* text : {"(1,2).3", "[1,2,3]", "(1,2,3)", "39"}) {
    ASSERT_TRUE(parse_node_text(text, ref)) << text;
    EXPECT_EQ(resolve_node(t, ref), e) << text;
  }
  ASSERT_TRUE(parse_node_text("(1,2).4", ref));
  EXPECT_NE(why().find("endpoint index 4 is out of range 0..3 at router (1,2)"), std::string::npos) << why();
  ASSERT_TRUE(parse_node_text("(1,2)", ref));
  // a router, not an endpoint
  EXPECT_NE(why().find("followed by its index at the router"), std::string::npos) << why();
  EXPECT_EQ(resolve_router(t, ref), t.node_at({1, 2}));
  EXPECT_FALSE(parse_node_text("(1,2).", ref));
  EXPECT_FALSE(parse_node_text("(1,2).x", ref));
  EXPECT_EQ(t.spec().describe(), "cmesh 4x3 concentration=4");
}

TEST(ConcentratedMesh, EndpointsOfOneRouterHaveAZeroHopRoute) {
  const Topology t = cmesh({4, 4}, 2);
  const Route same = dimension_order_route(t, t.endpoint_router(10), t.endpoint_router(11));
  EXPECT_EQ(same.hops(), 0);
  // Between routers: the mesh's dimension-order route.
  const Topology mesh(TopologySpec{"mesh", {4, 4}});
  for (int a = 0; a < t.num_endpoints(); ++a)
    for (int b = 0; b < t.num_endpoints(); b += 3) {
      const Route r = dimension_order_route(t, t.endpoint_router(a), t.endpoint_router(b));
      EXPECT_EQ(r.links, dimension_order_route(mesh, a / 2, b / 2).links);
      EXPECT_EQ(r.hops(), t.distance(t.endpoint_router(a), t.endpoint_router(b)));
    }
}

TEST(ConcentratedMesh, ConcentrationOneIsAMesh) {
  const Topology t = cmesh({3, 3}, 1);
  EXPECT_TRUE(t.one_endpoint_per_router());
  EXPECT_EQ(t.num_endpoints(), 9);
  EXPECT_EQ(t.node_name(4), "(1,1)");
  EXPECT_EQ(endpoint_coords(t, 4), (std::vector<int>{1, 1}));
}

TEST(ConcentratedMesh, DefaultsAndRefusals) {
  const TopologySpec plain{"cmesh", {4, 4}};
  EXPECT_EQ(plain.option("concentration"), 4);
  EXPECT_EQ(plain, (TopologySpec{"cmesh", {4, 4}, {{"concentration", 4}}}));  // the default, spelt out
  EXPECT_NE(plain, (TopologySpec{"cmesh", {4, 4}, {{"concentration", 2}}}));
  EXPECT_EQ(Topology::endpoints_of(plain), 64);
  EXPECT_THROW(cmesh({4, 4}, 0), std::invalid_argument);
  EXPECT_THROW(cmesh({4, 4}, 17), std::invalid_argument);
  EXPECT_THROW(Topology(TopologySpec{"cmesh", {4, 4}, {{"radix", 2}}}), std::invalid_argument);
  EXPECT_THROW(Topology(TopologySpec{"mesh", {4, 4}, {{"concentration", 2}}}), std::invalid_argument);
  // 2^22 routers of 16 endpoints: too many endpoints, refused before anything is built.
  EXPECT_THROW(Topology::validate(TopologySpec{"cmesh", {2048, 2048}, {{"concentration", 16}}}), std::invalid_argument);
}

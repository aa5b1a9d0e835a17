#include "models/routing.hpp"

#include <stdexcept>

#include "models/limits.hpp"

namespace wormsim {

namespace {

// Dateline classes for a sequence of links on a torus (see header).
void assign_vc_classes(const Topology& topo, Route& r) {
  r.vc_class.assign(r.links.size(), 0);
  if (!topo.dateline_classes()) return;
  int dim = -1;
  uint8_t cls = 0;
  for (size_t i = 0; i < r.links.size(); ++i) {
    const int d = topo.port_dim(topo.link_port(r.links[i]));
    if (d != dim) {
      dim = d;
      cls = 0;
    }
    r.vc_class[i] = cls;
    if (topo.link_is_wrap(r.links[i])) cls = 1;
  }
}

// Dimension d's leg of a dimension-order route from router `from` toward `to`: its port and hops.
struct Leg {
  int port, steps;
};
Leg dimension_leg(const Topology& topo, int d, int from, int to) {
  const int k = topo.radix(d);
  const int a = topo.coord(from, d), b = topo.coord(to, d);
  if (a == b) return Leg{-1, 0};
  if (topo.wraps(d)) {
    const int plus = ((b - a) % k + k) % k;
    const int minus = k - plus;
    return plus <= minus ? Leg{topo.port_for(d, 1), plus} : Leg{topo.port_for(d, -1), minus};  // ties go "+"
  }
  // A line (a hypercube's dimension is a line of two).
  return b > a ? Leg{topo.port_for(d, 1), b - a} : Leg{topo.port_for(d, -1), a - b};
}

}  // namespace

Route dimension_order_route(const Topology& topo, int src, int dst, const std::vector<int>& order) {
  Route r;
  dimension_order_route(topo, src, dst, order, r);
  return r;
}

void dimension_order_route(const Topology& topo, int src, int dst, const std::vector<int>& order, Route& r) {
  // The legs first, so that the route is allocated once. A leg of one hop or
  // more spans a dimension of radix 2 or more, and those multiply to at most
  // kMaxNodes = 2^24 routers: never more than 24 legs.
  Leg legs[32];
  static_assert(kMaxNodes <= (1LL << 32), "a route has at most log2(kMaxNodes) legs");
  int n_legs = 0, hops = 0;
  for (int i = 0; i < topo.num_dims(); ++i) {
    const Leg leg = dimension_leg(topo, order.empty() ? i : order[static_cast<size_t>(i)], src, dst);
    if (leg.steps == 0) continue;
    legs[n_legs++] = leg;
    hops += leg.steps;
  }
  r.links.clear();
  r.links.reserve(static_cast<size_t>(hops));
  r.chosen_in_router = 0;
  r.simple = true;  // each dimension corrected once, never past its target: no router twice
  int cur = src;
  for (int l = 0; l < n_legs; ++l)
    for (int s = 0; s < legs[l].steps; ++s) {
      const int link = topo.link_id(cur, legs[l].port);
      r.links.push_back(link);
      cur = topo.link_dst(link);
    }
  assign_vc_classes(topo, r);
}

Route route_from_nodes(const Topology& topo, const std::vector<int>& nodes) {
  Route out;
  for (size_t i = 0; i + 1 < nodes.size(); ++i) {
    const int link = topo.link_between(nodes[i], nodes[i + 1]);
    if (link < 0)
      throw std::invalid_argument("entry " + std::to_string(i + 2) + " = " + topo.node_name(nodes[i + 1]) +
                                  " is not a neighbour of entry " + std::to_string(i + 1) + " = " +
                                  topo.node_name(nodes[i]));
    out.links.push_back(link);
  }
  assign_vc_classes(topo, out);
  return out;
}

std::vector<int> route_nodes(const Topology& topo, int src, const Route& route) {
  std::vector<int> nodes{src};
  for (int link : route.links) nodes.push_back(topo.link_dst(link));
  return nodes;
}

}  // namespace wormsim

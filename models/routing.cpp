#include "models/routing.hpp"

#include <stdexcept>

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

}  // namespace

Route dimension_order_route(const Topology& topo, int src, int dst, const std::vector<int>& order) {
  Route r;
  int cur = src;
  for (int i = 0; i < topo.num_dims(); ++i) {
    const int d = order.empty() ? i : order[static_cast<size_t>(i)];
    const int k = topo.radix(d);
    const int from = topo.coord(cur, d);
    const int to = topo.coord(dst, d);
    if (from == to) continue;
    int dir, steps;
    if (topo.wraps(d)) {
      const int plus = ((to - from) % k + k) % k;
      const int minus = k - plus;
      dir = plus <= minus ? 1 : -1;  // ties go "+"
      steps = plus <= minus ? plus : minus;
    } else {  // a line (a hypercube's dimension is a line of two)
      dir = to > from ? 1 : -1;
      steps = to > from ? to - from : from - to;
    }
    const int port = topo.port_for(d, dir);
    for (int s = 0; s < steps; ++s) {
      const int link = topo.link_id(cur, port);
      r.links.push_back(link);
      cur = topo.link_dst(link);
    }
  }
  assign_vc_classes(topo, r);
  return r;
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

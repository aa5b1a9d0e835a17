// Routes: the directed links a worm takes from its source to its destination,
// with the virtual-channel class it must use on each hop.
//
// Dimension-order routing: mesh, dimension 0 first (or in a given order); torus,
// the shorter way round in each dimension, ties to "+"; hypercube, e-cube (lowest
// differing bit first, or in a given order).
// On a torus the VC class is the dateline class: 0 until the worm crosses the
// wrap-around link of the dimension it is travelling in, 1 after it; it goes back
// to 0 when the worm turns into the next dimension. This makes dimension-order
// routing on tori deadlock-free with two VCs (Dally & Seitz).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/topology.hpp"

namespace wormsim {

struct Route {
  std::vector<int> links;           // directed link ids, in order
  std::vector<uint8_t> vc_class;    // dateline class per hop (always 0 off tori)
  // Hops an adaptive routing function chooses in the router as the header goes
  // (models/routing/routing_function.hpp); `links` is empty then.
  int chosen_in_router = 0;
  // Known to use no directed link twice (a dimension-order route never comes
  // back to a router); false when nothing says so (explicit routes, other
  // functions), which the express loop then checks (ExpressWorms::join).
  bool simple = false;
  int hops() const { return links.empty() ? chosen_in_router : static_cast<int>(links.size()); }
  bool adaptive() const { return links.empty() && chosen_in_router > 0; }
};

// Dimension-order route between two routers (routes join routers, not endpoints:
// two endpoints of one router have a route of no hops), correcting the
// dimensions in `order` (every dimension once; empty: 0, 1, ...).
Route dimension_order_route(const Topology& topo, int src, int dst, const std::vector<int>& order = {});
// The same into `out`, its storage reused.
void dimension_order_route(const Topology& topo, int src, int dst, const std::vector<int>& order, Route& out);

// The route along an explicit list of routers (src first, dst last). Throws
// std::invalid_argument saying which entries when two consecutive nodes are not
// neighbours.
Route route_from_nodes(const Topology& topo, const std::vector<int>& nodes);

// Routers visited by a route, source first.
std::vector<int> route_nodes(const Topology& topo, int src, const Route& route);

}  // namespace wormsim

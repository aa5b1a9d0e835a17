// A multidestination worm's tree (models/multicast/multicast_worm.hpp) as the
// routers read it: visits of branch entries (models/flit.hpp, RouteHop), with
// the visit each link branch's head copy goes to.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/flit.hpp"
#include "models/multicast/multicast_worm.hpp"
#include "models/topology.hpp"

namespace wormsim {

// A head copy indexes its visit with Flit::hop: a worm's route has at most this many entries.
constexpr size_t kMaxMulticastRouteEntries = 0xffff;

struct MulticastRoute {
  std::vector<RouteHop> hops;   // visits, the source router's first, then breadth first
  std::vector<uint16_t> next;   // per entry: the visit a link branch leads to (0 for ejections)
  int links = 0;                // link branches (the worm's channels)
  std::vector<int> depth;       // per destination of the worm (its order): links from the source to it
};

// Lays the worm's tree out as visits. Throws std::invalid_argument when the
// tree is malformed (an edge that is not a link, leaves a router the worm has
// not entered, enters one twice or enters the source's router; a router it
// enters without ejecting there or going on; a destination it never visits)
// or has more entries than a header can index (65,535).
MulticastRoute encode_multicast_route(const Topology& topo, const MulticastWorm& worm);

}  // namespace wormsim

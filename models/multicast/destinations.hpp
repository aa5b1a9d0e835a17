// What every multicast scheme does with its destination set first: check it
// (endpoints of the network, distinct, not the source) and group it by router,
// since one visit to a router delivers to all its endpoints (a concentrated
// mesh has several).
#pragma once

#include <map>
#include <vector>

#include "models/multicast/multicast_worm.hpp"
#include "models/topology.hpp"

namespace wormsim {

// Destination endpoints by router (ascending), each router's in ascending
// order. Throws std::invalid_argument naming the destination that is not an
// endpoint, is the source, or comes twice.
std::map<int, std::vector<int>> destinations_by_router(const Topology& topo, int src, const std::vector<int>& dsts);

// Moves the destinations at the source's own router (other endpoints of it)
// into a worm of no links that only ejects there, appended to `worms`.
void add_local_worm(const Topology& topo, int src, std::map<int, std::vector<int>>& by_router,
                    std::vector<MulticastWorm>& worms);

}  // namespace wormsim

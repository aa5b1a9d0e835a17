// Baseline broadcasts the eye algorithms are compared with.
#pragma once

#include "models/topology.hpp"
#include "schedules/generators/mesh_broadcast_support.hpp"

namespace wormsim::mesh_broadcast {

// U-mesh (McKinley, Xu, Esfahanian & Ni, IEEE TPDS 1994) with every node a
// destination. The nodes are listed in the dimension-ordered chain: for
// dimension-order routing that corrects dimension 0 first, the chain compares
// the highest dimension first, which is node-id order (x fastest). Each holder
// owns an interval of the chain; it splits the interval at its centre, keeps
// the half it is in and sends to a node of the other half, which takes that
// half over. The source sends to the far end of the other half, every other
// holder (always at an end of its interval) to the near end: so intervals right
// of the source's are served right-to-left, those left of it left-to-right, and
// no two concurrent messages point away from each other - the case in which
// dimension-order routes of disjoint chain intervals can share a link. Any
// mesh size; ceil(log2 N) steps.
BroadcastPlan umesh_plan(const Topology& topo, int source);

// Recursive doubling to the same relative position of each submesh: at every
// level the holder sends across dimension 0, 1, ... in turn to the node at its
// own offset in the facing half. From a corner this is Cang & Wu's first 8x8
// example (TCD 84). Sides must be powers of two (they may differ: a side stops
// splitting once it reaches 1).
BroadcastPlan corner_plan(const Topology& topo, int source);

// MPI-style binomial tree (as MPICH's MPIR_Bcast_binomial) on ranks
// r = (node - source) mod N: in step s every holder r with r mod 2^(L-s) = 0
// sends to r + 2^(L-1-s) if that rank exists, L = ceil(log2 N). Any topology.
BroadcastPlan binomial_plan(const Topology& topo, int source);

}  // namespace wormsim::mesh_broadcast

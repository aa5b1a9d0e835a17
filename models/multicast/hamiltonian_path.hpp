// Hamiltonian-path labelling of a network's routers (Lin, McKinley & Ni,
// "Deadlock-free multicast wormhole routing in 2-D mesh multicomputers", IEEE
// TPDS 5(8), 1994), the ground of the path-based multicast schemes.
//
// The labels follow the reflected mixed-radix Gray code of the router
// coordinates, dimension 0 fastest: on a 2-D mesh the boustrophedon (row y even:
// label y*X + x; odd: y*X + X-1-x); on a 3-D mesh a snake over the z planes,
// each plane a boustrophedon run forwards on even planes and backwards on odd
// ones; on a hypercube (radix 2 in every dimension) the reflected binary Gray
// code. Consecutive labels are neighbours over links that do not wrap around
// (tori use their mesh links; a ring, its line), checked when built.
//
// R, the routing between two labelled routers u and v: from u take the
// neighbour w with the largest label <= label(v) (label(v) > label(u)), or the
// smallest >= label(v) (label(v) < label(u)). Labels only grow on the way up
// (the "high" network) and only shrink on the way down (the "low" network), so
// each network's channel dependencies are acyclic: path worms on them cannot
// deadlock each other with one VC.
#pragma once

#include <vector>

#include "models/multicast/multicast_worm.hpp"
#include "models/topology.hpp"

namespace wormsim {

class HamiltonianPath {
 public:
  // Throws std::invalid_argument naming the network when its routers have no
  // such path over non-wrap links.
  explicit HamiltonianPath(const Topology& topo);

  int label(int router) const { return label_[static_cast<size_t>(router)]; }
  int router_at(int label) const { return router_[static_cast<size_t>(label)]; }
  // The output port R takes at router `at` toward router `to` (distinct).
  int next_port(int at, int to) const;
  // Appends R's links from router `from` to router `to` (in VC class 0).
  void append_path(int from, int to, std::vector<TreeEdge>& edges) const;

 private:
  const Topology& topo_;
  std::vector<int> label_;
  std::vector<int> router_;
};

}  // namespace wormsim

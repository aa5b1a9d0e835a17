// What the minimal routing functions share: the directions that bring a header
// closer to its destination, and the refusals they have in common.
#pragma once

#include <string>
#include <vector>

#include "models/routing/routing_function.hpp"

namespace wormsim {

// One productive hop: dimension, direction (+1/-1; hypercube: +1 sets the bit,
// -1 clears it) and the link port that takes it.
struct Direction {
  int dim, dir, port;
};

// Appends the productive hops from `node` towards `dst`, by dimension, "+"
// before "-". A torus dimension whose two ways round are equally short gives both.
inline void productive_directions(const Topology& topo, int node, int dst, std::vector<Direction>& out) {
  for (int d = 0; d < topo.num_dims(); ++d) {
    const int from = topo.coord(node, d), to = topo.coord(dst, d);
    if (from == to) continue;
    if (topo.kind() == TopologyKind::Torus) {
      const int k = topo.radix(d);
      const int plus = ((to - from) % k + k) % k, minus = k - plus;
      if (plus <= minus) out.push_back({d, 1, topo.port_for(d, 1)});
      if (minus <= plus) out.push_back({d, -1, topo.port_for(d, -1)});
    } else {
      const int dir = to > from ? 1 : -1;
      out.push_back({d, dir, topo.port_for(d, dir)});
    }
  }
}

// Refusals shared by the functions below; each returns "" when there is nothing to refuse.
inline std::string refuse_option(const RoutingSetting& s, const std::string& name) {
  return s.option.empty() ? std::string() : name + " takes no option (got \"" + name + ":" + s.option + "\")";
}

// Turn models are deadlock-free on meshes only: a wrap-around link closes the
// turns they forbid into a cycle of the other turns.
inline std::string refuse_unless_mesh(const RoutingSetting& s, const std::string& name, int dims, bool hypercube_ok) {
  const TopologyKind kind = s.topology.kind;
  if (kind == TopologyKind::Torus)
    return name + " is a turn model for meshes: on a torus its wrap-around links close a cycle of allowed turns "
                  "and it can deadlock (use dimension-order or minimal-adaptive on a torus)";
  if (kind == TopologyKind::Hypercube && !hypercube_ok)
    return name + " needs a 2-D mesh, not a hypercube (use negative-first, dimension-order or minimal-adaptive)";
  if (kind == TopologyKind::Mesh && dims > 0 && static_cast<int>(s.topology.dims.size()) != dims)
    return name + " needs a 2-D mesh (network.dims with two radices), got " + s.topology.describe();
  return refuse_option(s, name);
}

}  // namespace wormsim

namespace wormsim {

// A turn model: adaptive among the productive directions its rule keeps, on
// every VC of their ports (with one VC as well as with several: the turns it
// forbids already break every cycle). `keep` filters the productive directions
// of a header in place; it never leaves none.
template <class Keep>
void turn_model_outputs(const Topology& topo, int vcs, const RouteQuery& q, Keep keep, std::vector<RouteOutput>& out) {
  std::vector<Direction> dirs;
  productive_directions(topo, q.node, q.dst, dirs);
  keep(dirs);
  for (const Direction& d : dirs) out.push_back({d.port, 0, vcs, 1, 0});
}

// Keeps only the directions `pred` accepts, if there are any.
template <class Pred>
void keep_if_any(std::vector<Direction>& dirs, Pred pred) {
  std::vector<Direction> kept;
  for (const Direction& d : dirs)
    if (pred(d)) kept.push_back(d);
  if (!kept.empty()) dirs.swap(kept);
}

}  // namespace wormsim

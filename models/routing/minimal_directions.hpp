// What the minimal routing functions share: the directions that bring a header
// closer to its destination, and the refusals they have in common.
#pragma once

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/container/static_vector.hpp>

#include "models/limits.hpp"

#include "models/routing/routing_function.hpp"
#include "models/topology_shape.hpp"

namespace wormsim {

// One productive hop: dimension, direction (+1/-1; hypercube: +1 sets the bit,
// -1 clears it) and the link port that takes it.
struct Direction {
  int dim, dir, port;
};
// Adaptive functions are asked at every try of a blocked header, so their
// directions live on the stack, not in a heap block per ask (docs/performance.md,
// "Adaptive routing without heap blocks"): at most two per dimension of radix
// 2 or more, of which a network of kMaxNodes routers has at most 24.
constexpr int kMaxDirections = 2 * 24;
static_assert(kMaxNodes <= (1LL << (kMaxDirections / 2)));
using Directions = boost::container::static_vector<Direction, kMaxDirections>;

// Appends the productive hops from `node` towards `dst`, by dimension, "+"
// before "-". A torus dimension whose two ways round are equally short gives both.
inline void productive_directions(const Topology& topo, int node, int dst, Directions& out) {
  // Coordinates dimension by dimension, dimension 0 fastest (Topology::coord), one division each.
  for (int d = 0, n = node, t = dst; d < topo.num_dims(); ++d) {
    const int k = topo.radix(d);
    const int from = n % k, to = t % k;
    n /= k;
    t /= k;
    if (from == to) continue;
    if (topo.wraps(d)) {
      const int plus = ((to - from) % k + k) % k, minus = k - plus;
      if (plus <= minus) out.push_back({d, 1, topo.port_for(d, 1)});
      if (minus <= plus) out.push_back({d, -1, topo.port_for(d, -1)});
    } else {
      const int dir = to > from ? 1 : -1;
      out.push_back({d, dir, topo.port_for(d, dir)});
    }
  }
}

// Checks shared by the functions' check(): each returns when there is nothing to
// refuse, else throws std::invalid_argument saying why.
inline void require_no_option(const RoutingSetting& s, const std::string& name) {
  if (!s.option.empty())
    throw std::invalid_argument(name + " takes no option (got \"" + name + ":" + s.option + "\")");
}

// What the refusals need to know of a network, from its spec (nothing is built).
struct RouterGrid {
  int dims = 0;           // dimensions of the grid of routers (a hypercube: d dimensions of 2)
  bool wraps = false;     // some dimension closes into a ring (a torus)
  bool datelines = false; // its worms take dateline VC classes
};
inline RouterGrid router_grid(const TopologySpec& spec) {
  const TopologyShape& shape = topology_shape(spec);
  RouterGrid g;
  g.dims = static_cast<int>(shape.router_radices(spec).size());
  for (int d = 0; d < g.dims; ++d) g.wraps = g.wraps || shape.wraps(spec, d);
  g.datelines = shape.dateline_classes();
  return g;
}

// Turn models are deadlock-free on grids without wrap-around links only: a
// wrap-around link closes the turns they forbid into a cycle of the other
// turns. `dims` > 0: the model needs that many dimensions (of routers).
inline void require_mesh(const RoutingSetting& s, const std::string& name, int dims) {
  const RouterGrid g = router_grid(s.topology);
  if (g.wraps)
    throw std::invalid_argument(name + " is a turn model for meshes: on a " + s.topology.kind +
                                " its wrap-around links close a cycle of allowed turns and it can deadlock (use "
                                "dimension-order or minimal-adaptive there)");
  if (dims > 0 && g.dims != dims)
    throw std::invalid_argument(name + " needs a 2-D grid of routers (a 2-D mesh or cmesh), got " +
                                s.topology.describe());
  require_no_option(s, name);
}

}  // namespace wormsim

namespace wormsim {

// A turn model: adaptive among the productive directions its rule keeps, on
// every VC of their ports (with one VC as well as with several: the turns it
// forbids already break every cycle). `keep` filters the productive directions
// of a header in place; it never leaves none.
template <class Keep>
void turn_model_outputs(const Topology& topo, int vcs, const RouteQuery& q, Keep keep, std::vector<RouteOutput>& out) {
  Directions dirs;
  productive_directions(topo, q.node, q.dst, dirs);
  keep(dirs);
  for (const Direction& d : dirs) out.push_back({d.port, 0, vcs, 1, 0});
}

// Keeps only the directions `pred` accepts, if there are any.
template <class Pred>
void keep_if_any(Directions& dirs, Pred pred) {
  if (std::none_of(dirs.begin(), dirs.end(), pred)) return;
  dirs.erase(std::remove_if(dirs.begin(), dirs.end(), [&](const Direction& d) { return !pred(d); }), dirs.end());
}

}  // namespace wormsim

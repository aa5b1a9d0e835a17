// column-path (Boppana, Chalasani & Raghavendra, "Resource deadlocks and
// performance of wormhole multicast routing algorithms", IEEE TPDS 9(6), 1998):
// the destinations are grouped by column (x, the dimension-0 coordinate); each
// column gets at most two path worms, one for the destinations at or above the
// source's row (y >= y0) and one for those below (y < y0). A worm runs along the
// source's row to its column, then along the column away from the source's row,
// delivering on the way: an XY route with absorb points. Worms come column by
// column (ascending x), the upper worm first. 2-D meshes (and cmeshes): the
// worms are XY routes, so they share XY routing's acyclic channel dependencies.
#include <map>
#include <stdexcept>

#include "models/multicast/destinations.hpp"
#include "models/multicast/multicast_scheme.hpp"
#include "models/routing.hpp"

namespace wormsim {

namespace {

// Appends the links from `at` straight along dimension `dim` to coordinate `to`; returns the router reached.
int walk(const Topology& topo, int at, int dim, int to, std::vector<TreeEdge>& edges) {
  while (topo.coord(at, dim) != to) {
    const int port = topo.port_for(dim, to > topo.coord(at, dim) ? 1 : -1);
    edges.push_back({at, port, 0});
    at = topo.neighbor(at, port);
  }
  return at;
}

// The unicast routes are XY: a probe from one corner to the opposite one goes x first.
bool unicast_is_xy(const MulticastSetting& s) {
  if (!s.routing || s.routing->adaptive()) return false;
  const Topology& t = *s.topology;
  const int far = t.node_at({t.radix(0) - 1, t.radix(1) - 1});
  return far == 0 || s.routing->route(0, far).links == dimension_order_route(t, 0, far, {0, 1}).links;
}

}  // namespace

class ColumnPath final : public MulticastScheme {
 public:
  static constexpr bool kPathBased = true;
  static void check(const MulticastSetting& s) {
    const Topology& t = *s.topology;
    if (t.num_dims() != 2 || t.wraps(0) || t.wraps(1) || t.kind() == "hypercube")
      throw std::invalid_argument("column-path needs a 2-D mesh or cmesh (its worms are XY routes), got a " +
                                  t.spec().describe());
  }
  static std::optional<std::string> deadlock_risk(const MulticastSetting& s) {
    if (s.alone) return std::nullopt;
    if (auto risk = absorbing_risk("column-path", s)) return risk;
    if (!s.shared_with_unicast || unicast_is_xy(s)) return std::nullopt;
    return std::string("column-path worms are XY routes: deadlock-free among themselves and beside XY unicast "
                       "worms, but the network's unicast routing is not dimension-order xy, and the two sets of "
                       "channel dependencies together may close a cycle: route unicast worms with "
                       "dimension-order, run without unicast traffic, or set network.allow_deadlock");
  }

  explicit ColumnPath(const MulticastSetting& s) : MulticastScheme(s) {}

  std::vector<MulticastWorm> plan(int src, const std::vector<int>& dsts) const override {
    auto by_router = destinations_by_router(topo(), src, dsts);
    std::vector<MulticastWorm> worms;
    add_local_worm(topo(), src, by_router, worms);
    const int s = topo().endpoint_router(src), y0 = topo().coord(s, 1);
    // (column, 0 up / 1 down) -> routers in the order the worm meets them.
    std::map<std::pair<int, int>, std::map<int, int>> groups;
    for (const auto& entry : by_router) {
      const int r = entry.first, y = topo().coord(r, 1);
      groups[{topo().coord(r, 0), y >= y0 ? 0 : 1}][y >= y0 ? y - y0 : y0 - y] = r;
    }
    for (const auto& [key, routers] : groups) {
      MulticastWorm worm{src, {}, {}};
      int at = walk(topo(), s, 0, key.first, worm.edges);
      for (const auto& [dist, r] : routers) {
        at = walk(topo(), at, 1, topo().coord(r, 1), worm.edges);
        const std::vector<int>& here = by_router.at(r);
        worm.dsts.insert(worm.dsts.end(), here.begin(), here.end());
      }
      worms.push_back(std::move(worm));
    }
    return worms;
  }
};

}  // namespace wormsim

WORMSIM_MULTICAST_SCHEME(column_path, "column-path", ColumnPath,
                         "per column two XY path worms, above and below the source's row (2-D meshes)")

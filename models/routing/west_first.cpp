// west-first (Glass & Ni 1992), minimal adaptive on 2-D meshes: a header that
// must go west (-x) goes west first and only west; after that it chooses among
// the productive directions east, north and south. No turn into west is ever
// made, which breaks every cycle of turns with one VC.
#include "models/routing/minimal_directions.hpp"

namespace wormsim {

class WestFirst final : public RoutingFunction {
 public:
  static constexpr bool kAdaptive = true;
  static void check(const RoutingSetting& s) { require_mesh(s, "west-first", 2); }
  WestFirst(const Topology& topo, const RoutingSetting& s) : RoutingFunction(topo, s.vcs) {}
  bool adaptive() const override { return true; }
  void outputs(const RouteQuery& q, std::vector<RouteOutput>& out) const override {
    turn_model_outputs(topo_, vcs_, q, [](Directions& dirs) {
      keep_if_any(dirs, [](const Direction& d) { return d.dim == 0 && d.dir < 0; });
    }, out);
  }
};

}  // namespace wormsim

WORMSIM_ROUTING_FUNCTION(west_first, "west-first", WestFirst,
                         "turn model, minimal adaptive, 2-D meshes and cmeshes: all westward hops first")

// north-last (Glass & Ni 1992), minimal adaptive on 2-D meshes: a header goes
// north (+y) only when nothing else is left to do, and then only north. No turn
// out of north is ever made, which breaks every cycle of turns with one VC.
#include "models/routing/minimal_directions.hpp"

namespace wormsim {

class NorthLast final : public RoutingFunction {
 public:
  static constexpr bool kAdaptive = true;
  static void check(const RoutingSetting& s) { require_mesh(s, "north-last", 2); }
  NorthLast(const Topology& topo, const RoutingSetting& s) : RoutingFunction(topo, s.vcs) {}
  bool adaptive() const override { return true; }
  void outputs(const RouteQuery& q, std::vector<RouteOutput>& out) const override {
    turn_model_outputs(topo_, vcs_, q, [](Directions& dirs) {
      keep_if_any(dirs, [](const Direction& d) { return !(d.dim == 1 && d.dir > 0); });
    }, out);
  }
};

}  // namespace wormsim

WORMSIM_ROUTING_FUNCTION(north_last, "north-last", NorthLast,
                         "turn model, minimal adaptive, 2-D meshes and cmeshes: northward hops last")

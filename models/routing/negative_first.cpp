// negative-first (Glass & Ni 1992), minimal adaptive on n-D meshes and
// hypercubes: a header first takes, in any order, every hop that lowers a
// coordinate (hypercube: clears a bit), then every hop that raises one. No turn
// from a positive into a negative direction is ever made, which breaks every
// cycle of turns with one VC.
#include "models/routing/minimal_directions.hpp"

namespace wormsim {

class NegativeFirst final : public RoutingFunction {
 public:
  static constexpr bool kAdaptive = true;
  static void check(const RoutingSetting& s) { require_mesh(s, "negative-first", 0); }
  NegativeFirst(const Topology& topo, const RoutingSetting& s) : RoutingFunction(topo, s.vcs) {}
  bool adaptive() const override { return true; }
  void outputs(const RouteQuery& q, std::vector<RouteOutput>& out) const override {
    turn_model_outputs(topo_, vcs_, q, [](Directions& dirs) {
      keep_if_any(dirs, [](const Direction& d) { return d.dir < 0; });
    }, out);
  }
};

}  // namespace wormsim

WORMSIM_ROUTING_FUNCTION(negative_first, "negative-first", NegativeFirst,
                         "turn model, minimal adaptive, meshes of any dimension, cmeshes, hypercubes: all negative hops first")

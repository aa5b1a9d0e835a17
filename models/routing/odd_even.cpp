// odd-even (Chiu 2000), minimal adaptive on 2-D meshes, one VC or more. Columns
// are x coordinates, column 0 even. Two rules break every cycle of turns
// without forbidding a turn everywhere: no east-to-north or east-to-south turn
// in an even column, no north-to-west or south-to-west turn in an odd column.
// The outputs are Chiu's ROUTE function, which also avoids reaching a column
// from which only a forbidden turn would remain.
#include "models/routing/minimal_directions.hpp"

namespace wormsim {

class OddEven final : public RoutingFunction {
 public:
  static constexpr bool kAdaptive = true;
  static void check(const RoutingSetting& s) { require_mesh(s, "odd-even", 2); }
  OddEven(const Topology& topo, const RoutingSetting& s) : RoutingFunction(topo, s.vcs) {}
  bool adaptive() const override { return true; }

  void outputs(const RouteQuery& q, std::vector<RouteOutput>& out) const override {
    const int cx = topo_.coord(q.node, 0), cy = topo_.coord(q.node, 1);
    const int dx = topo_.coord(q.dst, 0) - cx, dy = topo_.coord(q.dst, 1) - cy;
    const int sx = topo_.coord(q.src, 0);
    const int vertical = topo_.port_for(1, dy > 0 ? 1 : -1);
    auto allow = [&](int port) { out.push_back({port, 0, vcs_, 1, 0}); };
    if (dx == 0) {
      allow(vertical);
    } else if (dx > 0) {
      if (dy == 0) {
        allow(topo_.port_for(0, 1));
        return;
      }
      // East first when allowed: ports in increasing order, as the router's tie-break expects.
      if ((cx + dx) % 2 == 1 || dx != 1) allow(topo_.port_for(0, 1));
      if (cx % 2 == 1 || cx == sx) allow(vertical);
    } else {
      allow(topo_.port_for(0, -1));
      if (cx % 2 == 0 && dy != 0) allow(vertical);
    }
  }
};

}  // namespace wormsim

WORMSIM_ROUTING_FUNCTION(odd_even, "odd-even", OddEven,
                         "turn model, minimal adaptive, 2-D meshes and cmeshes: Chiu's odd-even turn rules")

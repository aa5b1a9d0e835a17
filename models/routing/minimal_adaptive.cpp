// minimal-adaptive: fully adaptive minimal routing with Duato's protocol, on
// meshes, tori and hypercubes. The escape VCs form a deadlock-free network of
// their own, dimension order (x first): VC 0 on meshes and hypercubes; VCs 0
// and 1 on tori, as dateline classes (class 0 while the rest of the way in the
// dimension still crosses the wrap-around link, class 1 after it, or when it
// does not: a class that depends only on where the header is and where it goes,
// so a header may enter the escape network anywhere). The other VCs are
// adaptive: any productive direction, any of them. The router takes an adaptive
// VC when one is free (tier 0) and the escape VC otherwise (tier 1); a header
// can always fall back to the escape network, so the whole is deadlock-free.
#include "models/routing/minimal_directions.hpp"

namespace wormsim {

class MinimalAdaptive final : public RoutingFunction {
 public:
  static constexpr bool kAdaptive = true;

  static void check(const RoutingSetting& s) {
    const bool datelines = router_grid(s.topology).datelines;
    if (s.vcs < (datelines ? 3 : 2))
      throw std::invalid_argument(
          "minimal-adaptive on a " + s.topology.kind +
          (datelines ? " needs vcs >= 3: 2 dateline + 1 adaptive" : " needs vcs >= 2: 1 escape + 1 adaptive") +
          " (got network.vcs = " + std::to_string(s.vcs) + ")");
    require_no_option(s, "minimal-adaptive");
  }

  MinimalAdaptive(const Topology& topo, const RoutingSetting& s)
      : RoutingFunction(topo, s.vcs), escape_vcs_(topo.dateline_classes() ? 2 : 1) {}

  bool adaptive() const override { return true; }
  bool needs_empty_vcs() const override { return true; }

  void outputs(const RouteQuery& q, std::vector<RouteOutput>& out) const override {
    Directions dirs;
    productive_directions(topo_, q.node, q.dst, dirs);
    for (const Direction& d : dirs) out.push_back({d.port, escape_vcs_, vcs_, 1, 0});
    out.push_back(escape(q.node, q.dst, dirs.front()));
  }

 private:
  // The escape hop: the first productive dimension ("+" on a torus tie, as dimension-order).
  RouteOutput escape(int node, int dst, const Direction& first) const {
    if (escape_vcs_ == 1) return {first.port, 0, 1, 1, 1};
    const int from = topo_.coord(node, first.dim), to = topo_.coord(dst, first.dim);
    const bool crosses_wrap = first.dir > 0 ? to < from : to > from;
    const int cls = crosses_wrap ? 0 : 1;
    return {first.port, cls, cls + 1, 1, 1};
  }

  const int escape_vcs_;
};

}  // namespace wormsim

WORMSIM_ROUTING_FUNCTION(minimal_adaptive, "minimal-adaptive", MinimalAdaptive,
                         "minimal, fully adaptive with Duato's escape VCs (dimension order), meshes, tori and hypercubes")

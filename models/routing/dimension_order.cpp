// dimension-order[:ORDER]: deterministic, minimal. Corrects one dimension after
// the other, in ORDER ("yx", "zyx", or dimension numbers "2,0,1"; default x, y,
// z, ...). Mesh: straight along each dimension. Torus: the shorter way round,
// ties to "+", with the dateline classes of Dally & Seitz (class 0 until the
// worm crosses the wrap-around link of the dimension it travels in, class 1
// after; VC v serves class v % 2). Hypercube: e-cube, bits in ORDER.
#include <algorithm>
#include <numeric>

#include "models/routing/minimal_directions.hpp"

namespace wormsim {

namespace {

// "yx" -> {1, 0}; "2,0,1" -> {2, 0, 1}. False unless every dimension comes once.
bool parse_order(const std::string& text, int dims, std::vector<int>& order) {
  order.clear();
  if (!text.empty() && text.find_first_not_of("xyz") == std::string::npos) {
    for (char c : text) order.push_back(c - 'x');
  } else {
    size_t at = 0;
    while (at <= text.size()) {
      const size_t comma = std::min(text.find(',', at), text.size());
      const std::string field = text.substr(at, comma - at);
      if (field.empty() || field.size() > 2 || field.find_first_not_of("0123456789") != std::string::npos) return false;
      order.push_back(std::stoi(field));
      at = comma + 1;
    }
  }
  std::vector<int> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> every(static_cast<size_t>(dims));
  std::iota(every.begin(), every.end(), 0);
  return sorted == every;
}

int dims_of(const TopologySpec& spec) { return router_grid(spec).dims; }

}  // namespace

class DimensionOrder final : public RoutingFunction {
 public:
  static constexpr bool kAdaptive = false;

  // Runs everywhere; a torus (or ring) with too few VCs for its dateline classes
  // can deadlock, which runs refuse unless told (deadlock studies and the
  // watchdog's tests build one on purpose).
  static std::optional<std::string> deadlock_risk(const RoutingSetting& s) {
    const int needed = topology_shape(s.topology).min_vcs();
    if (s.vcs >= needed) return std::nullopt;
    return "dimension-order on a " + s.topology.kind + " needs vcs >= " + std::to_string(needed) +
           " (a dateline pair), got " + std::to_string(s.vcs) + ": its wrap-around links close a cycle of channel " +
           "dependencies";
  }

  static void check(const RoutingSetting& s) {
    std::vector<int> order;
    if (s.option.empty() || parse_order(s.option, dims_of(s.topology), order)) return;
    throw std::invalid_argument("dimension-order:ORDER must name each of the " + std::to_string(dims_of(s.topology)) +
                                " dimensions once, as letters (xy, yx, zyx, ...) or numbers (1,0,2), got \"" +
                                s.option + "\"");
  }

  DimensionOrder(const Topology& topo, const RoutingSetting& s) : RoutingFunction(topo, s.vcs) {
    if (!s.option.empty()) parse_order(s.option, topo.num_dims(), order_);
    dateline_ = topo.dateline_classes() && s.vcs >= 2;
  }

  bool adaptive() const override { return false; }

  // The computed route (the same as walking outputs(), which a test checks), without a call per hop.
  using RoutingFunction::route;
  void route(int src, int dst, Route& out) const override { dimension_order_route(topo_, src, dst, order_, out); }
  // Two routes that part differ for good in the coordinate one has just changed: they change them in the same order.
  bool routes_part_once() const override { return true; }

  void outputs(const RouteQuery& q, std::vector<RouteOutput>& out) const override {
    for (int i = 0; i < topo_.num_dims(); ++i) {
      const int d = order_.empty() ? i : order_[static_cast<size_t>(i)];
      const int from = topo_.coord(q.node, d), to = topo_.coord(q.dst, d);
      if (from == to) continue;
      int dir = to > from ? 1 : -1;
      if (topo_.wraps(d)) {
        const int k = topo_.radix(d), plus = ((to - from) % k + k) % k;
        dir = plus <= k - plus ? 1 : -1;
      }
      const int port = topo_.port_for(d, dir);
      if (!dateline_) {
        out.push_back({port, 0, vcs_, 1, 0});
        return;
      }
      // Still in the dimension it arrived in: its class, raised if it came over the wrap-around link.
      int cls = 0;
      if (q.in_port != kInjectedHeader && topo_.port_dim(q.in_port) == d) {
        const int in_link = topo_.link_id(topo_.neighbor(q.node, q.in_port), topo_.opposite_port(q.in_port));
        cls = (q.in_vc % 2) | (topo_.link_is_wrap(in_link) ? 1 : 0);
      }
      out.push_back({port, cls, vcs_, 2, 0});
      return;
    }
  }

 private:
  std::vector<int> order_;
  bool dateline_ = false;
};

}  // namespace wormsim

WORMSIM_ROUTING_FUNCTION(dimension_order, "dimension-order", DimensionOrder,
                         "deterministic, minimal: one dimension after the other (ORDER, e.g. dimension-order:yx)")

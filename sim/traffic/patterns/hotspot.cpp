// hotspot: with probability traffic.hotspot.fraction a hotspot endpoint (all
// equally likely, or by traffic.hotspot.weights), else a uniform other
// endpoint; a hotspot drawn by itself sends to a uniform other endpoint instead.
// Draws: one for the share, one for the hotspot, one for a uniform endpoint.
#include "sim/background_traffic.hpp"
#include "sim/traffic/pattern.hpp"

#include <stdexcept>

namespace wormsim {

class Hotspot final : public TrafficPattern {
 public:
  static void check(const Topology&, const BackgroundSpec& s) {
    if (s.hotspots.empty()) throw std::invalid_argument("hotspot traffic needs hotspot nodes");
    if (!(s.hotspot_fraction >= 0.0 && s.hotspot_fraction <= 1.0))
      throw std::invalid_argument("hotspot fraction must be in [0, 1]");
    if (!s.hotspot_weights.empty() && s.hotspot_weights.size() != s.hotspots.size())
      throw std::invalid_argument("hotspot weights must be one per hotspot node: " +
                                  std::to_string(s.hotspots.size()) + " nodes, " +
                                  std::to_string(s.hotspot_weights.size()) + " weights");
    for (double w : s.hotspot_weights)
      if (!(w > 0.0)) throw std::invalid_argument("hotspot weights must be positive");
  }
  Hotspot(const Topology& topo, const BackgroundSpec& s)
      : endpoints_(topo.num_endpoints()), hotspots_(s.hotspots), weights_(s.hotspot_weights),
        fraction_(s.hotspot_fraction) {
    for (double w : weights_) total_weight_ += w;
  }
  int destination(int src, TrafficRng& rng) const override {
    if (uniform01(rng) < fraction_) {
      const int h = hotspot(rng);
      if (h != src) return h;
    }
    return uniform_other(src, endpoints_, rng);
  }

 private:
  int hotspot(TrafficRng& rng) const {
    if (weights_.empty()) return hotspots_[static_cast<size_t>(uniform01(rng) * hotspots_.size())];
    double u = uniform01(rng) * total_weight_;
    for (size_t i = 0; i + 1 < hotspots_.size(); ++i) {
      if (u < weights_[i]) return hotspots_[i];
      u -= weights_[i];
    }
    return hotspots_.back();
  }

  const int endpoints_;
  const std::vector<int> hotspots_;
  const std::vector<double> weights_;  // empty: equally likely
  const double fraction_;
  double total_weight_ = 0.0;
};

}  // namespace wormsim

WORMSIM_TRAFFIC_PATTERN(hotspot, "hotspot", Hotspot,
                        "share traffic.hotspot.fraction to the hotspot nodes (optionally weighted), the rest uniform")

// neighbor: every router coordinate moves one place forward, modulo its
// radix k ((x, y) -> (x+1 mod k, y+1 mod k)). On a hypercube (radix 2) that
// flips every bit, as bit-complement does.
#include "sim/background_traffic.hpp"
#include "sim/traffic/pattern.hpp"

namespace wormsim {

class Neighbor final : public TrafficPattern {
 public:
  static void check(const Topology&, const BackgroundSpec&) {}
  Neighbor(const Topology& topo, const BackgroundSpec&) : topo_(topo), shift_(topo.num_dims(), 1) {}
  int destination(int src, TrafficRng&) const override {
    return same_index_at(topo_, src, shift_coordinates(topo_, topo_.endpoint_router(src), shift_));
  }

 private:
  const Topology& topo_;
  const std::vector<int> shift_;
};

}  // namespace wormsim

WORMSIM_TRAFFIC_PATTERN(neighbor, "neighbor", Neighbor, "every coordinate + 1 mod k")

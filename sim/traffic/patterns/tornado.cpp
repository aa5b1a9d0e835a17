// tornado: every router coordinate moves ceil(k/2) - 1 places forward,
// modulo its radix k: just under half way round a ring, the worst case for
// tori with minimal routing. A radix of 1 or 2 does not move; a network whose
// every radix is below 3 (a hypercube) would send nothing and is refused.
#include "sim/background_traffic.hpp"
#include "sim/traffic/pattern.hpp"

#include <stdexcept>

namespace wormsim {

class Tornado final : public TrafficPattern {
 public:
  static void check(const Topology& topo, const BackgroundSpec&) {
    for (int d = 0; d < topo.num_dims(); ++d)
      if (topo.radix(d) >= 3) return;
    throw std::invalid_argument("tornado moves each coordinate ceil(k/2) - 1 places, which is 0 for radix k <= 2, so "
                                "it needs a dimension of radix 3 or more; on " + topo.spec().describe() +
                                " every node would map to itself");
  }
  Tornado(const Topology& topo, const BackgroundSpec&) : topo_(topo) {
    for (int d = 0; d < topo.num_dims(); ++d) shift_.push_back((topo.radix(d) + 1) / 2 - 1);
  }
  int destination(int src, TrafficRng&) const override {
    return same_index_at(topo_, src, shift_coordinates(topo_, topo_.endpoint_router(src), shift_));
  }

 private:
  const Topology& topo_;
  std::vector<int> shift_;  // per dimension
};

}  // namespace wormsim

WORMSIM_TRAFFIC_PATTERN(tornado, "tornado", Tornado,
                        "every coordinate + ceil(k/2) - 1 mod k; needs a radix >= 3 (not hypercubes)")

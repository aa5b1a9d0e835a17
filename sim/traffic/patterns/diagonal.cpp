// diagonal (BookSim's): with probability 1/2 the next endpoint, (src + 1) mod N,
// else src itself; that half stays silent (wormsim does not send a packet to
// its own source), so each node offers rate/2 packets per cycle. One draw.
#include "sim/background_traffic.hpp"
#include "sim/traffic/pattern.hpp"

namespace wormsim {

class Diagonal final : public TrafficPattern {
 public:
  static void check(const Topology&, const BackgroundSpec&) {}
  Diagonal(const Topology& topo, const BackgroundSpec&) : endpoints_(topo.num_endpoints()) {}
  int destination(int src, TrafficRng& rng) const override {
    return uniform01(rng) < 0.5 ? (src + 1) % endpoints_ : src;
  }

 private:
  const int endpoints_;
};

}  // namespace wormsim

WORMSIM_TRAFFIC_PATTERN(diagonal, "diagonal", Diagonal,
                        "half the packets to endpoint (src + 1) mod N, half not sent")

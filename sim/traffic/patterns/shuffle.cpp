// shuffle (perfect shuffle): src's b-bit id (N = 2^b endpoints) rotated left by
// one bit: the top bit becomes bit 0.
#include "sim/background_traffic.hpp"
#include "sim/traffic/pattern.hpp"

namespace wormsim {

class Shuffle final : public TrafficPattern {
 public:
  static void check(const Topology& topo, const BackgroundSpec&) { endpoint_bits(topo, "shuffle"); }
  Shuffle(const Topology& topo, const BackgroundSpec&)
      : bits_(endpoint_bits(topo, "shuffle")), mask_(topo.num_endpoints() - 1) {}
  int destination(int src, TrafficRng&) const override { return ((src << 1) & mask_) | (src >> (bits_ - 1)); }

 private:
  const int bits_;
  const int mask_;
};

}  // namespace wormsim

WORMSIM_TRAFFIC_PATTERN(shuffle, "shuffle", Shuffle,
                        "endpoint id rotated left one bit; needs a power-of-two endpoint count")

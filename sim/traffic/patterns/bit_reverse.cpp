// bit-reverse: the endpoint whose b-bit id (N = 2^b endpoints) is src's read
// backwards: bit i of the destination is bit b-1-i of the source.
#include "sim/background_traffic.hpp"
#include "sim/traffic/pattern.hpp"

namespace wormsim {

class BitReverse final : public TrafficPattern {
 public:
  static void check(const Topology& topo, const BackgroundSpec&) { endpoint_bits(topo, "bit-reverse"); }
  BitReverse(const Topology& topo, const BackgroundSpec&) : bits_(endpoint_bits(topo, "bit-reverse")) {}
  int destination(int src, TrafficRng&) const override {
    int dst = 0;
    for (int i = 0; i < bits_; ++i) dst |= ((src >> i) & 1) << (bits_ - 1 - i);
    return dst;
  }

 private:
  const int bits_;
};

}  // namespace wormsim

WORMSIM_TRAFFIC_PATTERN(bit_reverse, "bit-reverse", BitReverse,
                        "endpoint id's bits reversed; needs a power-of-two endpoint count")

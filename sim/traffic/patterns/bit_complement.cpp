// bit-complement: endpoint N-1-src. On a mesh or torus with one endpoint per
// router that mirrors every coordinate (x -> k-1-x); when N is a power of two
// it complements every bit of the id (on a hypercube, the label).
#include "sim/background_traffic.hpp"
#include "sim/traffic/pattern.hpp"

namespace wormsim {

class BitComplement final : public TrafficPattern {
 public:
  static void check(const Topology&, const BackgroundSpec&) {}
  BitComplement(const Topology& topo, const BackgroundSpec&) : last_(topo.num_endpoints() - 1) {}
  int destination(int src, TrafficRng&) const override { return last_ - src; }

 private:
  const int last_;
};

}  // namespace wormsim

WORMSIM_TRAFFIC_PATTERN(bit_complement, "bit-complement", BitComplement,
                        "endpoint N-1-src: every coordinate mirrored, every bit complemented")

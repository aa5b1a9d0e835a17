// uniform: every endpoint other than the source equally likely (one draw).
#include "sim/background_traffic.hpp"
#include "sim/traffic/pattern.hpp"

namespace wormsim {

class Uniform final : public TrafficPattern {
 public:
  static void check(const Topology&, const BackgroundSpec&) {}
  Uniform(const Topology& topo, const BackgroundSpec&) : endpoints_(topo.num_endpoints()) {}
  int destination(int src, TrafficRng& rng) const override { return uniform_other(src, endpoints_, rng); }

 private:
  const int endpoints_;
};

}  // namespace wormsim

WORMSIM_TRAFFIC_PATTERN(uniform, "uniform", Uniform, "any other endpoint, uniformly")

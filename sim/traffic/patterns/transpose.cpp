// transpose: the router with its coordinates reversed ((x,y) -> (y,x)); on a
// hypercube, the router whose label has its two halves swapped. The topology
// defines the partner (TopologyShape::transpose) and says when there is none.
#include "sim/background_traffic.hpp"
#include "sim/traffic/pattern.hpp"
#include "models/topology_shape.hpp"

namespace wormsim {

class Transpose final : public TrafficPattern {
 public:
  static void check(const Topology& topo, const BackgroundSpec&) { topo.shape().check_transpose(topo); }
  Transpose(const Topology& topo, const BackgroundSpec&) : topo_(topo) {}
  int destination(int src, TrafficRng&) const override {
    return same_index_at(topo_, src, topo_.shape().transpose(topo_, topo_.endpoint_router(src)));
  }

 private:
  const Topology& topo_;
};

}  // namespace wormsim

WORMSIM_TRAFFIC_PATTERN(transpose, "transpose", Transpose,
                        "coordinates reversed; hypercube: label halves swapped; needs equal radices (even d)")

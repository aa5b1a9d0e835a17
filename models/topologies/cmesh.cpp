// Concentrated mesh: a mesh of routers (network.dims gives the router grid) with
// `concentration` endpoints on every router (network.concentration, default 4).
// Endpoint e sits on router e / c as its local endpoint e % c, so the endpoints
// of one router are numbered together; it is named "(x,y).k" and written in
// schedule files as its router's coordinates followed by k ([x, y, k]); with
// concentration 1 the endpoint is named and written as its router is.
// Routers route among themselves as in a mesh; two endpoints of the same router
// talk through it without taking a link (a 0-hop route).
#include <stdexcept>

#include "models/topologies/grid.hpp"

namespace wormsim {

class ConcentratedMesh : public GridShape {
 public:
  std::vector<TopologyOption> options() const override {
    return {{"concentration", 4, 1, 16, "endpoints (network interfaces) per router"}};
  }
  int endpoints_per_router(const TopologySpec& spec) const override { return spec.option("concentration"); }
  // One picture node per router cannot show which of its endpoints a message leaves or enters.
  void check_drawable(const TopologySpec&) const override {
    throw std::invalid_argument("drawings show one node per router, and a concentrated mesh has several endpoints on each");
  }

 protected:
  bool wrap_around() const override { return false; }
};

WORMSIM_REGISTER_TOPOLOGY(ConcentratedMesh, "cmesh");

}  // namespace wormsim

// k-ary n-dimensional mesh: routers on a grid, linked to their neighbours along
// each dimension, no wrap-around. A 1-D mesh is a line.
#include "models/topologies/grid.hpp"

namespace wormsim {

class Mesh : public GridShape {
 protected:
  bool wrap_around() const override { return false; }
};

WORMSIM_REGISTER_TOPOLOGY(Mesh, "mesh", "line");

}  // namespace wormsim

// k-ary n-dimensional torus: a mesh whose every dimension closes into a ring.
// The wrap-around link of each ring crosses its dimension's dateline: a worm
// takes VC class 0 until it crosses it and class 1 after (models/routing.hpp),
// which makes dimension-order routing deadlock-free with two VCs (Dally & Seitz).
// A 1-D torus is a ring.
#include "models/topologies/grid.hpp"

namespace wormsim {

class Torus : public GridShape {
 public:
  bool dateline_classes() const override { return true; }
  int min_vcs() const override { return 2; }

 protected:
  bool wrap_around() const override { return true; }
};

WORMSIM_REGISTER_TOPOLOGY(Torus, "torus", "ring");

}  // namespace wormsim

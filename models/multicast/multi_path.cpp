// multi-path (Lin, McKinley & Ni 1994): dual-path's two destination sets, each
// cut in two by the source's column, so that up to four path worms leave the
// source at once. Convention here (the paper splits by the column of the
// source; which half takes the source's own column is ours): on each side,
// routers with x < x0 form one worm, routers with x >= x0 the other (x: the
// dimension-0 coordinate). Each worm stays label-monotone on its network, so the
// deadlock argument of dual-path holds unchanged. 2-D networks only (meshes,
// tori, concentrated meshes): the paper defines the cut for the 2-D mesh and a
// 3-D mesh or hypercube would need a cut of its own.
#include "models/multicast/label_paths.hpp"

#include <stdexcept>

namespace wormsim {

class MultiPath final : public MulticastScheme {
 public:
  static constexpr bool kPathBased = true;
  static void check(const MulticastSetting& s) {
    if (s.topology->num_dims() != 2 || s.topology->kind() == "hypercube")
      throw std::invalid_argument("multi-path needs a 2-D mesh, torus or cmesh (it cuts the destinations by the "
                                  "source's column), got a " + s.topology->spec().describe() +
                                  "; dual-path runs there");
    require_hamiltonian_path("multi-path", s);
  }
  static std::optional<std::string> deadlock_risk(const MulticastSetting& s) {
    return label_path_risk("multi-path", s);
  }

  explicit MultiPath(const MulticastSetting& s) : MulticastScheme(s), path_(topo()) {}

  std::vector<MulticastWorm> plan(int src, const std::vector<int>& dsts) const override {
    const int x0 = topo().coord(topo().endpoint_router(src), 0);
    return label_path_worms(topo(), path_, src, dsts,
                            [&](int router) { return topo().coord(router, 0) < x0 ? 0 : 1; });
  }

 private:
  HamiltonianPath path_;
};

}  // namespace wormsim

WORMSIM_MULTICAST_SCHEME(multi_path, "multi-path", MultiPath,
                         "up to four path worms: dual-path's two sets, each cut by the source's column (2-D)")

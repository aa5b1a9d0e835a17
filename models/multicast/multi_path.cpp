// multi-path (Lin, McKinley & Ni 1994): dual-path's two destination sets, each
// cut in groups that get a path worm each, so that several worms leave the
// source at once.
// - 2-D networks (meshes, tori, concentrated meshes): the paper's cut, by the
//   source's column. Which half takes the source's own column is ours: on each
//   side, routers with x < x0 form one worm, routers with x >= x0 the other
//   (x: the dimension-0 coordinate), so up to four worms.
// - Other networks (3-D and higher meshes and tori, hypercubes, rings): the
//   paper defines no cut there, so each destination joins the worm of the
//   source channel R leaves by toward it (one worm per channel: up to six on a
//   3-D mesh, n on an n-cube; on a ring this is dual-path). A group's first
//   destination is its lowest (highest) label, so its worm leaves by that
//   channel and no two worms share one.
// Each worm stays label-monotone on its network, so the deadlock argument of
// dual-path holds unchanged for either cut.
#include "models/multicast/label_paths.hpp"

namespace wormsim {

class MultiPath final : public MulticastScheme {
 public:
  static constexpr bool kPathBased = true;
  static void check(const MulticastSetting& s) { require_hamiltonian_path("multi-path", s); }
  static std::optional<std::string> deadlock_risk(const MulticastSetting& s) {
    return label_path_risk("multi-path", s);
  }

  explicit MultiPath(const MulticastSetting& s)
      : MulticastScheme(s), path_(topo()), column_cut_(topo().num_dims() == 2 && topo().kind() != "hypercube") {}

  std::vector<MulticastWorm> plan(int src, const std::vector<int>& dsts) const override {
    const int src_router = topo().endpoint_router(src);
    if (column_cut_) {
      const int x0 = topo().coord(src_router, 0);
      return label_path_worms(topo(), path_, src, dsts,
                              [&](int router) { return topo().coord(router, 0) < x0 ? 0 : 1; });
    }
    return label_path_worms(topo(), path_, src, dsts,
                            [&](int router) { return path_.next_port(src_router, router); });
  }

 private:
  HamiltonianPath path_;
  bool column_cut_;  // the paper's cut (2-D); otherwise one worm per source channel
};

}  // namespace wormsim

WORMSIM_MULTICAST_SCHEME(multi_path, "multi-path", MultiPath,
                         "path worms on a Hamiltonian path: dual-path's two sets, each cut by the source's column "
                         "(2-D) or by the source's channel toward each destination (3-D and more, hypercubes)")

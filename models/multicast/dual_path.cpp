// dual-path (Lin, McKinley & Ni 1994): at most two path worms, one through the
// destinations labelled above the source, in ascending label order, on the high
// network, one through those below, in descending order, on the low network
// (models/multicast/hamiltonian_path.hpp). Any network with a Hamiltonian path:
// meshes, tori and rings (their mesh links), hypercubes, concentrated meshes.
#include "models/multicast/label_paths.hpp"

namespace wormsim {

class DualPath final : public MulticastScheme {
 public:
  static constexpr bool kPathBased = true;
  static void check(const MulticastSetting& s) { require_hamiltonian_path("dual-path", s); }
  static std::optional<std::string> deadlock_risk(const MulticastSetting& s) {
    return label_path_risk("dual-path", s);
  }

  explicit DualPath(const MulticastSetting& s) : MulticastScheme(s), path_(topo()) {}

  std::vector<MulticastWorm> plan(int src, const std::vector<int>& dsts) const override {
    return label_path_worms(topo(), path_, src, dsts, [](int) { return 0; });
  }

 private:
  HamiltonianPath path_;
};

}  // namespace wormsim

WORMSIM_MULTICAST_SCHEME(dual_path, "dual-path", DualPath,
                         "two path worms on a Hamiltonian path: labels above the source, then below")

// The worms of the Hamiltonian-path schemes (dual-path, multi-path): the
// destination routers with labels above the source's, visited in ascending
// label order, and those below, in descending order, each side cut into groups
// that get one worm each; every worm follows R (models/multicast/hamiltonian_path.hpp)
// from the source through its destinations.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "models/multicast/hamiltonian_path.hpp"
#include "models/multicast/multicast_scheme.hpp"

namespace wormsim {

// `group(router)`: which worm of its side (high or low) a destination router
// joins, 0, 1, ...; worms come high side first, then low, each side by group.
std::vector<MulticastWorm> label_path_worms(const Topology& topo, const HamiltonianPath& path, int src,
                                            const std::vector<int>& dsts, const std::function<int(int)>& group);

// What holds for label-monotone path worms beside unicast worms on shared VCs
// (nothing when none share them): see docs/multicast.md.
std::optional<std::string> label_path_risk(const std::string& scheme, const MulticastSetting& s);

// Throws std::invalid_argument when the network has no Hamiltonian-path labelling.
void require_hamiltonian_path(const std::string& scheme, const MulticastSetting& s);

}  // namespace wormsim

#include "models/multicast/label_paths.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "models/multicast/destinations.hpp"

namespace wormsim {

namespace {

// One worm from the source's router through `routers` in order (already label-sorted).
MulticastWorm path_worm(const HamiltonianPath& path, int src, int src_router, const std::vector<int>& routers,
                        const std::map<int, std::vector<int>>& by_router) {
  MulticastWorm worm{src, {}, {}};
  int at = src_router;
  for (int r : routers) {
    path.append_path(at, r, worm.edges);
    const std::vector<int>& here = by_router.at(r);
    worm.dsts.insert(worm.dsts.end(), here.begin(), here.end());
    at = r;
  }
  return worm;
}

}  // namespace

std::vector<MulticastWorm> label_path_worms(const Topology& topo, const HamiltonianPath& path, int src,
                                            const std::vector<int>& dsts, const std::function<int(int)>& group) {
  auto by_router = destinations_by_router(topo, src, dsts);
  std::vector<MulticastWorm> worms;
  add_local_worm(topo, src, by_router, worms);
  const int src_router = topo.endpoint_router(src);
  const int src_label = path.label(src_router);
  // side 0: high (ascending labels), side 1: low (descending); then group.
  std::map<std::pair<int, int>, std::vector<int>> routers;
  for (const auto& entry : by_router) {
    const int r = entry.first;
    routers[{path.label(r) > src_label ? 0 : 1, group(r)}].push_back(r);
  }
  for (auto& [key, list] : routers) {
    const bool up = key.first == 0;
    std::sort(list.begin(), list.end(), [&](int a, int b) {
      return up ? path.label(a) < path.label(b) : path.label(a) > path.label(b);
    });
    worms.push_back(path_worm(path, src, src_router, list, by_router));
  }
  return worms;
}

std::optional<std::string> label_path_risk(const std::string& scheme, const MulticastSetting& s) {
  if (s.alone) return std::nullopt;
  if (auto risk = absorbing_risk(scheme, s)) return risk;
  if (!s.shared_with_unicast) return std::nullopt;
  return scheme + " worms are deadlock-free among themselves (labels only grow on the high network and only " +
         "shrink on the low one), but beside unicast worms or another scheme's worms on the same VCs a high " +
         "worm, a low worm and two dimension-order worms (unicast, or column-path's) can close a cycle of channel " +
         "dependencies (docs/multicast.md, \"Multicast schemes\"): run them without unicast traffic or other " +
         "schemes beside them, or with network.allow_deadlock";
}

void require_hamiltonian_path(const std::string& scheme, const MulticastSetting& s) {
  try {
    HamiltonianPath check(*s.topology);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(scheme + " needs a Hamiltonian path of the routers: " + e.what());
  }
}

}  // namespace wormsim

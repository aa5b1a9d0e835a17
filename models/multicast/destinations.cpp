#include "models/multicast/destinations.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace wormsim {

std::map<int, std::vector<int>> destinations_by_router(const Topology& topo, int src, const std::vector<int>& dsts) {
  std::map<int, std::vector<int>> by_router;
  for (int d : dsts) {
    if (!topo.valid_endpoint(d))
      throw std::invalid_argument("destination " + std::to_string(d) + " is not a node of the " +
                                  topo.spec().describe() + " (0.." + std::to_string(topo.num_endpoints() - 1) + ")");
    if (d == src)
      throw std::invalid_argument("destination " + topo.node_name(d) + " is the source of the multicast");
    by_router[topo.endpoint_router(d)].push_back(d);
  }
  for (auto& [router, endpoints] : by_router) {
    std::sort(endpoints.begin(), endpoints.end());
    const auto twice = std::adjacent_find(endpoints.begin(), endpoints.end());
    if (twice != endpoints.end())
      throw std::invalid_argument("destination " + topo.node_name(*twice) + " comes twice in the multicast");
  }
  return by_router;
}

void add_local_worm(const Topology& topo, int src, std::map<int, std::vector<int>>& by_router,
                    std::vector<MulticastWorm>& worms) {
  const auto here = by_router.find(topo.endpoint_router(src));
  if (here == by_router.end()) return;
  worms.push_back(MulticastWorm{src, here->second, {}});
  by_router.erase(here);
}

}  // namespace wormsim

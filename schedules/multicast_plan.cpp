#include "schedules/multicast_plan.hpp"

#include <algorithm>
#include <unordered_map>

namespace wormsim {

MulticastPlanner::MulticastPlanner(const Topology& topo, const RoutingFunction* routing, int vcs)
    : setting_{&topo, routing, vcs} {}

const MulticastScheme& MulticastPlanner::scheme(const std::string& name) {
  auto it = schemes_.find(name);
  if (it == schemes_.end()) it = schemes_.emplace(name, make_multicast(name, setting_)).first;
  return *it->second;
}

std::vector<MulticastWorm> MulticastPlanner::plan(const ScheduledMessage& m) {
  return scheme(m.scheme()).plan(m.src, m.dsts());
}

std::vector<int> worm_links(const Topology& topo, const MulticastWorm& worm) {
  std::vector<int> links;
  links.reserve(worm.edges.size());
  for (const TreeEdge& e : worm.edges) links.push_back(topo.link_id(e.router, e.port));
  return links;
}

int worm_longest_path(const Topology& topo, const MulticastWorm& worm) {
  std::unordered_map<int, int> depth{{topo.endpoint_router(worm.src), 0}};
  for (const TreeEdge& e : worm.edges) depth[topo.neighbor(e.router, e.port)] = depth[e.router] + 1;
  int longest = 0;
  for (int d : worm.dsts) longest = std::max(longest, depth[topo.endpoint_router(d)]);
  return longest;
}

}  // namespace wormsim

#include "models/multicast/multicast_route.hpp"

#include <limits>
#include <stdexcept>
#include <string>
#include <unordered_map>

namespace wormsim {

namespace {

std::string edge_text(const Topology& topo, const TreeEdge& e) {
  return "edge " + topo.router_name(e.router) + " port " + std::to_string(e.port);
}

struct Tree {
  std::unordered_map<int, std::vector<const TreeEdge*>> out;  // router -> edges leaving it
  std::unordered_map<int, std::vector<int>> absorb;            // router -> local endpoint indices it ejects to
};

Tree tree_of(const Topology& topo, const MulticastWorm& w) {
  Tree t;
  const int root = topo.endpoint_router(w.src);
  std::unordered_map<int, bool> entered{{root, true}};
  for (const TreeEdge& e : w.edges) {
    if (!topo.valid_node(e.router) || e.port < 0 || e.port >= topo.num_ports() || topo.neighbor(e.router, e.port) < 0)
      throw std::invalid_argument("multicast worm: " + edge_text(topo, e) + " is not a link");
    if (!entered.count(e.router))
      throw std::invalid_argument("multicast worm: " + edge_text(topo, e) + " leaves a router the worm has not entered");
    const int to = topo.neighbor(e.router, e.port);
    if (entered.count(to))
      throw std::invalid_argument("multicast worm: " + edge_text(topo, e) + " enters " + topo.router_name(to) +
                                  ", which the worm has entered already");
    entered[to] = true;
    t.out[e.router].push_back(&e);
  }
  for (int d : w.dsts) {
    const int r = topo.endpoint_router(d);
    if (!entered.count(r))
      throw std::invalid_argument("multicast worm: destination " + topo.node_name(d) + " is on no branch of its tree");
    t.absorb[r].push_back(topo.endpoint_index(d));
  }
  return t;
}

}  // namespace

MulticastRoute encode_multicast_route(const Topology& topo, const MulticastWorm& w) {
  const Tree t = tree_of(topo, w);
  MulticastRoute r;
  std::vector<int> queue{topo.endpoint_router(w.src)};
  std::unordered_map<int, int> depth_of{{queue.front(), 0}};  // router -> links from the source
  std::unordered_map<int, uint32_t> visit_of;          // router -> index of its visit's first entry
  std::vector<std::pair<size_t, int>> pending;         // link entry -> router it enters
  for (size_t q = 0; q < queue.size(); ++q) {
    const int router = queue[q];
    visit_of[router] = static_cast<uint32_t>(r.hops.size());
    const size_t first = r.hops.size();
    if (auto a = t.absorb.find(router); a != t.absorb.end())
      for (int local : a->second) r.hops.push_back(RouteHop{kEjectBranch, static_cast<uint8_t>(local), 1});
    if (auto o = t.out.find(router); o != t.out.end())
      for (const TreeEdge* e : o->second) {
        pending.emplace_back(r.hops.size(), topo.neighbor(router, e->port));
        depth_of[topo.neighbor(router, e->port)] = depth_of.at(router) + 1;
        r.hops.push_back(RouteHop{static_cast<uint16_t>(e->port), static_cast<uint8_t>(e->vc_class), 1});
        queue.push_back(topo.neighbor(router, e->port));
        ++r.links;
      }
    if (r.hops.size() == first)
      throw std::invalid_argument("multicast worm: its tree enters " + topo.router_name(router) +
                                  " but neither ejects there nor goes on");
    r.hops.back().more = 0;
  }
  if (r.hops.size() > kMaxMulticastRouteEntries)
    throw std::invalid_argument("multicast worm from " + topo.node_name(w.src) + ": its route has " +
                                std::to_string(r.hops.size()) + " entries, more than a header can index (" +
                                std::to_string(kMaxMulticastRouteEntries) + ")");
  r.next.assign(r.hops.size(), 0);
  for (const auto& [entry, router] : pending) r.next[entry] = static_cast<uint16_t>(visit_of.at(router));
  for (int d : w.dsts) r.depth.push_back(depth_of.at(topo.endpoint_router(d)));
  return r;
}

}  // namespace wormsim

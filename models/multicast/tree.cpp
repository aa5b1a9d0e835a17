// tree: one worm along the union of the network's unicast routes (its
// deterministic network.routing) from the source's router to each destination's,
// with their VC classes, replicated where the routes part (lock step: a flit
// moves only when every branch can take it). With dimension-order routing this
// is the dimension-order tree on meshes and tori, and on hypercubes (e-cube) the
// binomial tree realised in hardware.
#include <algorithm>
#include <map>
#include <stdexcept>

#include "models/multicast/destinations.hpp"
#include "models/multicast/multicast_scheme.hpp"

namespace wormsim {

class TreeScheme final : public MulticastScheme {
 public:
  static constexpr bool kPathBased = false;
  static void check(const MulticastSetting& s) {
    if (!s.routing) throw std::invalid_argument("tree multicast follows the unicast routes: it needs the network's "
                                                "routing function");
    if (s.routing->adaptive())
      throw std::invalid_argument("tree multicast follows the unicast routes, which need a deterministic "
                                  "network.routing (dimension-order); the network's routing is adaptive");
  }
  // Boppana, Chalasani & Raghavendra (1998): lock-step replication holds the
  // links of every branch while one branch waits, whatever the VC count.
  static std::optional<std::string> deadlock_risk(const MulticastSetting& s) {
    if (s.alone) return std::nullopt;
    return std::string("tree worms replicate in lock step: a flit leaves only when every branch has a credit, "
                       "so a worm blocked on one branch holds the links of the others (hold and wait), and two "
                       "tree worms, or a tree worm and a unicast worm, can wait on each other for good whatever "
                       "the VC count; run each tree worm alone (barrier mode, a step of its own, no background "
                       "traffic), or set network.allow_deadlock to run them (the watchdog reports a deadlock)");
  }

  explicit TreeScheme(const MulticastSetting& s) : MulticastScheme(s) {}

  std::vector<MulticastWorm> plan(int src, const std::vector<int>& dsts) const override {
    auto by_router = destinations_by_router(topo(), src, dsts);
    std::vector<MulticastWorm> worms;
    add_local_worm(topo(), src, by_router, worms);
    if (by_router.empty()) return worms;
    const int s = topo().endpoint_router(src);
    std::map<int, TreeEdge> entered;  // router -> the link that enters it
    for (const auto& entry : by_router) add_route(s, entry.first, entered);
    worms.push_back(tree_worm(src, s, entered, by_router));
    return worms;
  }

 private:
  // Merges the unicast route from router s to router d into `entered`; throws
  // when it enters a router by another link (or class) than an earlier route.
  void add_route(int s, int d, std::map<int, TreeEdge>& entered) const {
    const Route route = setting_.routing->route(s, d);
    for (size_t h = 0; h < route.links.size(); ++h) {
      const int link = route.links[h];
      const TreeEdge edge{topo().link_src(link), topo().link_port(link), route.vc_class[h]};
      const int to = topo().link_dst(link);
      const auto [at, inserted] = entered.emplace(to, edge);
      if (to == s || (!inserted && !(at->second == edge)))
        throw std::invalid_argument("tree multicast: the unicast routes from " + topo().router_name(s) +
                                    " do not form a tree (the route to " + topo().router_name(d) + " enters " +
                                    topo().router_name(to) + " by another link than an earlier route)");
    }
  }

  // The edges in breadth-first order from s (parents before children) and the
  // destinations by depth, the order the header's copies reach them.
  MulticastWorm tree_worm(int src, int s, const std::map<int, TreeEdge>& entered,
                          const std::map<int, std::vector<int>>& by_router) const {
    std::map<int, std::vector<int>> children;  // router -> routers it feeds, in port order
    for (const auto& [router, edge] : entered) children[edge.router].push_back(router);
    MulticastWorm worm{src, {}, {}};
    std::vector<int> frontier{s};
    for (size_t i = 0; i < frontier.size(); ++i) {
      const int r = frontier[i];
      const auto here = by_router.find(r);
      if (here != by_router.end()) worm.dsts.insert(worm.dsts.end(), here->second.begin(), here->second.end());
      const auto kids = children.find(r);
      if (kids == children.end()) continue;
      std::vector<int> next = kids->second;
      std::sort(next.begin(), next.end(),
                [&](int a, int b) { return entered.at(a).port < entered.at(b).port; });
      for (int c : next) {
        worm.edges.push_back(entered.at(c));
        frontier.push_back(c);
      }
    }
    return worm;
  }
};

}  // namespace wormsim

WORMSIM_MULTICAST_SCHEME(tree, "tree", TreeScheme,
                         "one worm replicated along the union of the unicast routes (deterministic routing)")

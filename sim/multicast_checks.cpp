#include "sim/multicast_checks.hpp"

#include <algorithm>
#include <map>

#include "models/multicast/multicast_route.hpp"
#include "schedules/multicast_plan.hpp"

namespace wormsim {

namespace {

// Unicast worms may be in the network with multicast ones: background traffic,
// eager or repeated schedules that have unicast messages, or a barrier step mixing both.
bool shared_with_unicast(const Config& cfg, const Schedule& s) {
  if (cfg.has_traffic) return true;
  bool unicast = false, mixed = false;
  for (const auto& step : s.steps) {
    bool u = false, m = false;
    for (const auto& msg : step) (msg.is_multicast() ? m : u) = true;
    unicast = unicast || u;
    mixed = mixed || (u && m);
  }
  if (!unicast) return false;
  return mixed || cfg.mode != ExecutionMode::Barrier || cfg.repeat.count > 1;
}

// A message's worms that take links. The one that reaches the endpoints of the
// source's own router (a cmesh's, through it without a link) holds nothing
// but their ejection channels, which no other worm of its message takes.
size_t worms_on_links(const std::vector<MulticastWorm>& worms) {
  return static_cast<size_t>(
      std::count_if(worms.begin(), worms.end(), [](const MulticastWorm& w) { return !w.edges.empty(); }));
}

struct SchemeUse {
  int step = -1, index = -1;  // its first message
  bool alone = true;          // every worm of it alone in the network
};

}  // namespace

std::vector<std::string> multicast_deadlock_risks(const Config& cfg, const Schedule& s, const Topology& topo) {
  bool any = false;
  for (const auto& step : s.steps)
    for (const auto& m : step) any = any || m.is_multicast();
  if (!any) return {};
  const bool lone_steps = cfg.mode == ExecutionMode::Barrier && !cfg.has_traffic && cfg.repeat.count <= 1;
  const auto routing = make_routing(cfg.routing, topo, cfg.vcs);
  MulticastPlanner planner(topo, routing.get(), cfg.vcs);
  std::map<std::string, SchemeUse> uses;
  for (size_t st = 0; st < s.steps.size(); ++st)
    for (size_t i = 0; i < s.steps[st].size(); ++i) {
      const ScheduledMessage& m = s.steps[st][i];
      if (!m.is_multicast()) continue;
      auto [it, first] = uses.try_emplace(m.scheme());
      if (first) it->second = SchemeUse{static_cast<int>(st), static_cast<int>(i), true};
      it->second.alone = it->second.alone && lone_steps && s.steps[st].size() == 1 && worms_on_links(planner.plan(m)) <= 1;
    }
  std::vector<std::string> risks;
  const bool shared = shared_with_unicast(cfg, s);
  for (const auto& [name, use] : uses) {
    MulticastSetting setting{&topo, routing.get(), cfg.vcs};
    setting.shared_with_unicast = shared;
    setting.alone = use.alone;
    if (const auto risk = find_multicast(name)->deadlock_risk(setting))
      risks.push_back("step " + std::to_string(use.step + 1) + ", message " + std::to_string(use.index + 1) + " (multicast: " +
                      name + "): " + *risk);
  }
  return risks;
}

// A tree's entries are its links and its ejections: on a network with fewer of
// both together than the limit no worm can reach it, and nothing is planned twice.
std::string multicast_route_too_long(const Config& cfg, const Schedule& s, const Topology& topo) {
  if (static_cast<size_t>(topo.num_links()) + static_cast<size_t>(topo.num_endpoints()) <= kMaxMulticastRouteEntries)
    return {};
  const auto routing = make_routing(cfg.routing, topo, cfg.vcs);
  MulticastPlanner planner(topo, routing.get(), cfg.vcs);
  for (size_t st = 0; st < s.steps.size(); ++st)
    for (size_t i = 0; i < s.steps[st].size(); ++i) {
      const ScheduledMessage& m = s.steps[st][i];
      if (!m.is_multicast()) continue;
      try {
        for (const MulticastWorm& w : planner.plan(m)) encode_multicast_route(topo, w);
      } catch (const std::invalid_argument& e) {
        return "step " + std::to_string(st + 1) + ", message " + std::to_string(i + 1) + " (multicast: " + m.scheme() +
               "): " + e.what();
      }
    }
  return {};
}

}  // namespace wormsim

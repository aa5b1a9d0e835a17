#include "sim/multicast_checks.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

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
  int step = -1, index = -1;           // its first message
  bool alone = true;                   // every worm of it alone in the network
  bool destinations_shared = false;    // with another multicast message that may be in the network with it
};

// The groups of multicast messages (step, index) that may be in the network
// together: each barrier step's, or, in eager mode, all of them (repetitions
// never overlap: one due while the previous runs starts when it completes).
using MessageAt = std::pair<size_t, size_t>;
std::vector<std::vector<MessageAt>> coexisting_multicasts(const Config& cfg, const Schedule& s) {
  std::vector<std::vector<MessageAt>> groups;
  for (size_t st = 0; st < s.steps.size(); ++st) {
    if (cfg.mode == ExecutionMode::Barrier || groups.empty()) groups.emplace_back();
    for (size_t i = 0; i < s.steps[st].size(); ++i)
      if (s.steps[st][i].is_multicast()) groups.back().emplace_back(st, i);
  }
  return groups;
}

// Whether a message of another scheme may be in the network with each
// scheme's. To a scheme, another's worms are worms it does not order its
// channels with, as unicast worms are (column-path worms are XY routes).
std::map<std::string, bool> beside_other_schemes(const Schedule& s, const std::vector<std::vector<MessageAt>>& groups) {
  std::map<std::string, bool> beside;
  for (const auto& group : groups) {
    std::set<std::string> schemes;
    for (const auto& [st, i] : group) schemes.insert(s.steps[st][i].scheme());
    for (const auto& name : schemes) beside[name] = beside[name] || schemes.size() > 1;
  }
  return beside;
}

// Whether each multicast message shares a destination with another of its group.
std::vector<std::vector<bool>> shares_destinations(const Schedule& s, const std::vector<std::vector<MessageAt>>& groups) {
  std::vector<std::vector<bool>> shared(s.steps.size());
  for (size_t st = 0; st < s.steps.size(); ++st) shared[st].assign(s.steps[st].size(), false);
  for (const auto& group : groups) {
    std::map<int, int> uses;  // destination -> messages of the group to it
    for (const auto& [st, i] : group)
      for (int d : s.steps[st][i].dsts()) ++uses[d];
    for (const auto& [st, i] : group)
      for (int d : s.steps[st][i].dsts()) shared[st][i] = shared[st][i] || uses[d] > 1;
  }
  return shared;
}

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
  const std::vector<std::vector<MessageAt>> groups = coexisting_multicasts(cfg, s);
  const std::vector<std::vector<bool>> shared_dsts = shares_destinations(s, groups);
  for (size_t st = 0; st < s.steps.size(); ++st)
    for (size_t i = 0; i < s.steps[st].size(); ++i) {
      const ScheduledMessage& m = s.steps[st][i];
      if (!m.is_multicast()) continue;
      auto [it, first] = uses.try_emplace(m.scheme());
      if (first) it->second = SchemeUse{static_cast<int>(st), static_cast<int>(i), true, false};
      it->second.alone = it->second.alone && lone_steps && s.steps[st].size() == 1 && worms_on_links(planner.plan(m)) <= 1;
      it->second.destinations_shared = it->second.destinations_shared || shared_dsts[st][i];
    }
  std::vector<std::string> risks;
  const bool shared = shared_with_unicast(cfg, s);
  const std::map<std::string, bool> others = beside_other_schemes(s, groups);
  for (const auto& [name, use] : uses) {
    MulticastSetting setting{&topo, routing.get(), cfg.vcs};
    setting.shared_with_unicast = shared || others.at(name);
    setting.alone = use.alone;
    // With several endpoints on a router a worm may eject at two of them in one visit, holding one while it
    // waits for the other; a worm that never left its router takes channel 0, the one of link 0.
    setting.ejection_per_link = cfg.ports.kind == PortKind::AllPort && topo.max_endpoints_per_router() == 1;
    setting.destinations_shared = use.destinations_shared;
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

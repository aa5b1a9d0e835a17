#include "schedules/analysis.hpp"

#include <algorithm>
#include <unordered_map>

namespace wormsim {

Route message_route(const Topology& topo, const ScheduledMessage& m) {
  if (m.route.empty()) return dimension_order_route(topo, m.src, m.dst);
  Route r;
  route_from_nodes(topo, m.route, r, nullptr);
  return r;
}

namespace {

int ceil_log2(int64_t n) {
  int k = 0;
  while ((int64_t{1} << k) < n) ++k;
  return k;
}

// Pairs of messages in one step that share a directed link. Each link keeps the
// messages that used it, so the cost is linear in the step's flit-free hop count
// plus the number of pairs reported.
void step_contention(const Topology& topo, const Schedule& s, int step,
                     std::vector<ContentionPair>& out) {
  const auto& msgs = s.steps[step];
  std::unordered_map<int, std::vector<int>> users;  // link -> messages
  std::vector<std::vector<int>> routes(msgs.size());
  for (size_t i = 0; i < msgs.size(); ++i) {
    routes[i] = message_route(topo, msgs[i]).links;
    for (int link : routes[i]) users[link].push_back(static_cast<int>(i));
  }
  // Report each pair once, with the first shared link along the first message's route.
  for (size_t i = 0; i < msgs.size(); ++i) {
    std::vector<int> seen;
    for (int link : routes[i]) {
      for (int j : users[link]) {
        if (j <= static_cast<int>(i)) continue;
        if (std::find(seen.begin(), seen.end(), j) != seen.end()) continue;
        seen.push_back(j);
        out.push_back({step, static_cast<int>(i), j, link});
      }
    }
  }
}

}  // namespace

StaticAnalysis analyze_schedule(const Schedule& s, const Topology& topo) {
  StaticAnalysis a;
  a.steps = static_cast<int>(s.steps.size());
  for (int st = 0; st < a.steps; ++st) {
    int64_t step_tcd = 0;
    for (const auto& m : s.steps[st]) {
      const int h = message_route(topo, m).hops();
      ++a.messages;
      step_tcd += h;
      a.flit_hops += static_cast<int64_t>(h) * s.message_flits(m);
      a.max_hops = std::max(a.max_hops, h);
    }
    a.step_tcd.push_back(step_tcd);
    a.tcd += step_tcd;
    step_contention(topo, s, st, a.contention);
  }
  a.mean_hops = a.messages ? static_cast<double>(a.tcd) / static_cast<double>(a.messages) : 0.0;
  if (s.broadcast) a.lower_bound_steps = ceil_log2(topo.num_nodes());
  return a;
}

}  // namespace wormsim

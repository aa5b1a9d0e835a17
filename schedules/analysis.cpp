#include "schedules/analysis.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

#include "schedules/multicast_plan.hpp"

namespace wormsim {

Route message_route(const Topology& topo, const RoutingFunction& routing, const ScheduledMessage& m) {
  if (m.route().empty()) return routing.route(topo.endpoint_router(m.src), topo.endpoint_router(m.dst));
  return route_from_nodes(topo, m.route());
}

Route message_route(const Topology& topo, const ScheduledMessage& m) {
  if (m.route().empty()) return dimension_order_route(topo, topo.endpoint_router(m.src), topo.endpoint_router(m.dst));
  return route_from_nodes(topo, m.route());
}

namespace {

int ceil_log2(int64_t n) {
  int k = 0;
  while ((int64_t{1} << k) < n) ++k;
  return k;
}

int64_t pairs_of(int64_t k) { return k * (k - 1) / 2; }

// Steps with fewer hops than this are sorted by comparison; longer ones by
// counting sort (16-bit digits of the link id), linear in their hops.
constexpr size_t kRadixSortHops = 1 << 14;
constexpr int kDigitBits = 16;

// Hop indices 0..links.size()-1 sorted by their link, stably (so each link's
// users come in message order).
std::vector<uint32_t> sort_by_link(const std::vector<int>& links) {
  std::vector<uint32_t> order(links.size());
  std::iota(order.begin(), order.end(), 0u);
  if (links.size() < kRadixSortHops) {
    std::stable_sort(order.begin(), order.end(), [&links](uint32_t a, uint32_t b) { return links[a] < links[b]; });
    return order;
  }
  const int max_link = *std::max_element(links.begin(), links.end());
  std::vector<uint32_t> sorted(links.size());
  std::vector<uint32_t> start(size_t{1} << kDigitBits);
  for (int shift = 0; shift < 31 && (max_link >> shift) > 0; shift += kDigitBits) {
    const auto digit = [&links, shift](uint32_t k) {
      return static_cast<uint32_t>(links[k] >> shift) & ((1u << kDigitBits) - 1);
    };
    std::fill(start.begin(), start.end(), 0u);
    for (uint32_t k : order) ++start[digit(k)];
    uint32_t sum = 0;
    for (uint32_t& c : start) sum += std::exchange(c, sum);
    for (uint32_t k : order) sorted[start[digit(k)]++] = k;
    order.swap(sorted);
  }
  return order;
}

// The links of one step's messages, message by message (links[first[i] ..
// first[i+1])), and the same hops grouped by link, each link's users in message order.
struct StepRoutes {
  std::vector<int> links;
  std::vector<size_t> first;
  std::vector<uint32_t> msg_of;  // per hop: its message
  std::vector<uint32_t> by_link;  // hop indices sorted by link
  bool all_dimension_order = true;

  std::vector<int> hop_counts;  // per message: its length (an adaptive route has no links here)
  std::vector<int> longest;     // per message: its length, or a multicast message's longest path
  std::vector<int> worms;       // per message: 1, or a multicast message's worms

  StepRoutes(const Topology& topo, const RoutingFunction& routing, MulticastPlanner& planner,
             const std::vector<ScheduledMessage>& msgs) {
    first.reserve(msgs.size() + 1);
    hop_counts.reserve(msgs.size());
    for (size_t i = 0; i < msgs.size(); ++i) {
      first.push_back(links.size());
      const size_t before = links.size();
      if (msgs[i].is_multicast()) {
        add_multicast(topo, planner.plan(msgs[i]));
      } else {
        const Route r = message_route(topo, routing, msgs[i]);
        links.insert(links.end(), r.links.begin(), r.links.end());
        hop_counts.push_back(r.hops());
        longest.push_back(r.hops());
        worms.push_back(1);
      }
      msg_of.insert(msg_of.end(), links.size() - before, static_cast<uint32_t>(i));
      // A pair sharing links shares one unbroken run of them under dimension order only (count_pairs).
      all_dimension_order = all_dimension_order && msgs[i].route().empty() && !msgs[i].is_multicast() &&
                            routing.routes_part_once();
    }
    first.push_back(links.size());
    by_link = sort_by_link(links);
  }
  // A multicast message's links are its worms' (its channel use).
  void add_multicast(const Topology& topo, const std::vector<MulticastWorm>& planned) {
    int use = 0, far = 0;
    for (const MulticastWorm& w : planned) {
      const std::vector<int> l = worm_links(topo, w);
      links.insert(links.end(), l.begin(), l.end());
      use += static_cast<int>(l.size());
      far = std::max(far, worm_longest_path(topo, w));
    }
    hop_counts.push_back(use);
    longest.push_back(far);
    worms.push_back(static_cast<int>(planned.size()));
  }
  int hops(size_t i) const { return hop_counts[i]; }
  // by_link[begin, end) are the hops on `link`, by message.
  std::pair<size_t, size_t> users(int link) const {
    const auto lo = std::lower_bound(by_link.begin(), by_link.end(), link,
                                     [this](uint32_t k, int l) { return links[k] < l; });
    const auto hi = std::upper_bound(lo, by_link.end(), link, [this](int l, uint32_t k) { return l < links[k]; });
    return {static_cast<size_t>(lo - by_link.begin()), static_cast<size_t>(hi - by_link.begin())};
  }
  // The first of by_link[begin, end) whose message comes after message i.
  size_t after(size_t begin, size_t end, size_t i) const {
    const auto it = std::upper_bound(by_link.begin() + static_cast<std::ptrdiff_t>(begin),
                                     by_link.begin() + static_cast<std::ptrdiff_t>(end), i,
                                     [this](size_t m, uint32_t k) { return m < msg_of[k]; });
    return static_cast<size_t>(it - by_link.begin());
  }
};

// Pairs of messages of one step that share a link, counted without listing them.
//
// Dimension-order routes (no explicit route) that share links share one
// unbroken run of them: once two such routes part at a node they differ for
// good in the coordinate (or bit) one of them has just changed, and routes
// change it in the same order. A pair sharing a run of s links is then counted
// s times over links and s - 1 times over the turns from one link to the next,
// so pairs = sum over links C(users, 2) - sum over turns C(routes taking it, 2):
// linear in the step's hops. Explicit routes may share several runs; their
// pairs are enumerated, in time linear in the pairs times the links they share.
int64_t count_pairs(const StepRoutes& r, const Topology& topo, size_t messages) {
  int64_t n = 0;
  const std::vector<uint32_t>& order = r.by_link;
  if (r.all_dimension_order) {
    std::vector<int64_t> turns(static_cast<size_t>(topo.num_ports()), 0);  // per port of the next link
    for (size_t a = 0, b; a < order.size(); a = b) {
      const int link = r.links[order[a]];
      for (b = a; b < order.size() && r.links[order[b]] == link; ++b) {
        const uint32_t k = order[b];
        if (k + 1 < r.first[r.msg_of[k] + 1]) ++turns[static_cast<size_t>(topo.link_port(r.links[k + 1]))];
      }
      n += pairs_of(static_cast<int64_t>(b - a));
      for (int64_t& t : turns) n -= pairs_of(std::exchange(t, 0));
    }
    return n;
  }
  std::vector<size_t> seen_by(messages, messages);  // per message: the last i it was counted against
  for (size_t i = 0; i < messages; ++i)
    for (size_t k = r.first[i]; k < r.first[i + 1]; ++k) {
      const auto [begin, end] = r.users(r.links[k]);
      for (size_t u = r.after(begin, end, i); u < end; ++u) {
        const size_t j = r.msg_of[order[u]];
        if (seen_by[j] == i) continue;
        seen_by[j] = i;
        ++n;
      }
    }
  return n;
}

// Lists pairs of step `step` in order (first message, then the first shared link
// along its route, then the second message) until `out` holds `limit` pairs.
void list_pairs(const StepRoutes& r, size_t messages, int step, size_t limit, std::vector<ContentionPair>& out) {
  if (out.size() >= limit) return;
  std::vector<size_t> seen_by(messages, messages);
  for (size_t i = 0; i < messages; ++i)
    for (size_t k = r.first[i]; k < r.first[i + 1]; ++k) {
      const int link = r.links[k];
      const auto [begin, end] = r.users(link);
      for (size_t u = r.after(begin, end, i); u < end; ++u) {
        const size_t j = r.msg_of[r.by_link[u]];
        if (seen_by[j] == i) continue;
        seen_by[j] = i;
        out.push_back({step, static_cast<int>(i), static_cast<int>(j), link});
        if (out.size() == limit) return;
      }
    }
}

}  // namespace

StaticAnalysis analyze_schedule(const Schedule& s, const Topology& topo) {
  return analyze_schedule(s, topo, *make_routing("dimension-order", topo, 1));
}

StaticAnalysis analyze_schedule(const Schedule& s, const Topology& topo, const RoutingFunction& routing) {
  StaticAnalysis a;
  a.steps = static_cast<int>(s.steps.size());
  a.contention_known = !routing.adaptive();
  constexpr int kAnyVcs = 16;  // no shipped scheme's worms depend on the VC count
  MulticastPlanner planner(topo, &routing, kAnyVcs);
  int64_t path_hops = 0;  // Σ over messages of their (longest) path
  for (int st = 0; st < a.steps; ++st) {
    const auto& msgs = s.steps[st];
    const StepRoutes routes(topo, routing, planner, msgs);
    int64_t step_tcd = 0;
    for (size_t i = 0; i < msgs.size(); ++i) {
      const int h = routes.hops(i);
      ++a.messages;
      step_tcd += h;
      a.flit_hops += static_cast<int64_t>(h) * s.message_flits(msgs[i]);
      a.max_hops = std::max(a.max_hops, routes.longest[i]);
      path_hops += routes.longest[i];
      if (!msgs[i].is_multicast()) continue;
      ++a.multicast_messages;
      a.multicast_worms += routes.worms[i];
      a.multicast_channel_use += h;
      a.multicast_longest_path = std::max(a.multicast_longest_path, routes.longest[i]);
    }
    a.step_tcd.push_back(step_tcd);
    a.tcd += step_tcd;
    if (!a.contention_known) continue;
    a.contention_pairs += count_pairs(routes, topo, msgs.size());
    list_pairs(routes, msgs.size(), st, StaticAnalysis::kMaxListedContentionPairs, a.contention);
  }
  a.mean_hops = a.messages ? static_cast<double>(path_hops) / static_cast<double>(a.messages) : 0.0;
  // The one-port bound is for unicast broadcasts: one multicast message reaches every node in one step.
  if (s.broadcast && !a.multicast_messages) a.lower_bound_steps = ceil_log2(topo.num_endpoints());
  return a;
}

}  // namespace wormsim

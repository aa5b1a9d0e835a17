#include "schedules/validator.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include "schedules/analysis.hpp"
#include "schedules/multicast_plan.hpp"

namespace wormsim {

namespace {

// Whether `routing` may run on `topo` (why not is the config's or the command's to report).
bool routing_allowed(const std::string& routing, const Topology& topo, int vcs) {
  try {
    require_deadlock_free(routing, topo.spec(), vcs);
    return true;
  } catch (const std::invalid_argument&) {
    return false;
  }
}

// The step from which each (packet, node) pair is first held (-1 for origins),
// from every hand-over of the schedule: grouped by packet (a counting sort),
// each packet's holders sorted by node with the earliest step kept. Flat arrays,
// not a hash table: a schedule may hold millions of messages.
class Holdings {
 public:
  explicit Holdings(size_t packets) : start_(packets + 1, 0) {}
  void give(int packet, int node, int step) { given_.push_back({packet, node, step}); }
  void seal() {
    for (const Given& g : given_) ++start_[static_cast<size_t>(g.packet) + 1];
    for (size_t p = 1; p < start_.size(); ++p) start_[p] += start_[p - 1];
    std::vector<size_t> at(start_.begin(), start_.end() - 1);
    held_.resize(given_.size());
    for (const Given& g : given_) held_[at[static_cast<size_t>(g.packet)]++] = {g.node, g.step};
    given_ = {};
    size_t kept = 0;
    for (size_t p = 0; p + 1 < start_.size(); ++p) {
      const auto first = held_.begin() + static_cast<long>(start_[p]);
      const auto last = held_.begin() + static_cast<long>(start_[p + 1]);
      std::sort(first, last);
      const size_t begin = kept;
      for (auto it = first; it != last; ++it)
        if (kept == begin || held_[kept - 1].first != it->first) held_[kept++] = *it;
      start_[p] = begin;
    }
    start_.back() = kept;
    held_.resize(kept);
  }
  // After seal(): the step from which `node` holds `packet`, or kNever.
  int since(int packet, int node) const {
    const auto first = held_.begin() + static_cast<long>(start_[static_cast<size_t>(packet)]);
    const auto last = held_.begin() + static_cast<long>(start_[static_cast<size_t>(packet) + 1]);
    const auto it = std::lower_bound(first, last, std::make_pair(node, -1));
    return it != last && it->first == node ? it->second : kNever;
  }
  static constexpr int kNever = 1 << 30;

 private:
  struct Given {
    int packet, node, step;
  };
  std::vector<Given> given_;
  std::vector<size_t> start_;              // packet p's holders: held_[start_[p], start_[p + 1])
  std::vector<std::pair<int, int>> held_;  // (node, earliest step)
};

// Calls f(d) for each receiver of a message: its destination, or a multicast
// message's destinations (no container: a schedule may hold millions of messages).
template <typename F>
void for_each_receiver(const ScheduledMessage& m, F&& f) {
  if (!m.is_multicast()) return f(m.dst);
  for (int d : m.dsts()) f(d);
}

// A multicast message: its scheme runs on this network and reaches its
// destinations (none of them the source, none twice).
void check_multicast(const ScheduledMessage& m, size_t st, size_t i, MulticastPlanner& planner, Diagnostics& diag) {
  try {
    planner.scheme(m.scheme());
  } catch (const std::invalid_argument& e) {
    diag.error(message_location(st, i, "multicast"), e.what());
    return;
  }
  try {
    planner.plan(m);
  } catch (const std::invalid_argument& e) {
    diag.error(message_location(st, i, "dst"), std::string(e.what()) + " (multicast " + m.scheme() + ")");
  }
}

void check_basic(const Schedule& s, const Topology& topo, MulticastPlanner& planner, Diagnostics& diag) {
  for (size_t st = 0; st < s.steps.size(); ++st)
    for (size_t i = 0; i < s.steps[st].size(); ++i) {
      const auto& m = s.steps[st][i];
      if (m.is_multicast())
        check_multicast(m, st, i, planner, diag);
      else if (m.src == m.dst)
        diag.error(message_location(st, i, "dst"), "src and dst are the same node " + topo.node_name(m.src));
    }
}

// A node sends a packet only from the step after it first holds it. Whether a
// send at step st is allowed depends only on whether some hand-over before st
// exists, so the earliest hand-over of each pair over the whole schedule
// decides it (later ones are >= st either way).
void check_packets(const Schedule& s, const Topology& topo, Diagnostics& diag) {
  Holdings held(s.packets.size());
  for (size_t p = 0; p < s.packets.size(); ++p)
    if (s.packets[p].origin >= 0) held.give(static_cast<int>(p), s.packets[p].origin, -1);
  for (size_t st = 0; st < s.steps.size(); ++st)
    for (const auto& m : s.steps[st]) {
      if (m.packet < 0) continue;
      for_each_receiver(m, [&](int d) {
        if (d != m.src && topo.valid_endpoint(d)) held.give(m.packet, d, static_cast<int>(st));
      });
    }
  held.seal();
  for (size_t st = 0; st < s.steps.size(); ++st)
    for (size_t i = 0; i < s.steps[st].size(); ++i) {
      const auto& m = s.steps[st][i];
      if (m.packet < 0 || held.since(m.packet, m.src) < static_cast<int>(st)) continue;
      const std::string& name = s.packets[m.packet].name;
      diag.error(message_location(st, i, "src"),
                 topo.node_name(m.src) + " sends packet " + (name.empty() ? std::string("(unnamed)") : "\"" + name + "\"") +
                     " before it holds it (a node holds a packet from the step after it receives it)");
    }
}

void check_broadcast(const Schedule& s, const Topology& topo, Diagnostics& diag) {
  if (!s.broadcast) return;
  std::vector<int> received(topo.num_endpoints(), 0);
  // Each destination of a multicast message is one delivery of its packet.
  for (size_t st = 0; st < s.steps.size(); ++st)
    for (size_t i = 0; i < s.steps[st].size(); ++i) {
      const auto& m = s.steps[st][i];
      if (m.packet != 0) continue;
      for_each_receiver(m, [&](int d) {
        if (!topo.valid_endpoint(d)) return;  // a multicast destination out of range: reported by check_multicast
        if (d == s.source)
          diag.error(message_location(st, i, "dst"), "sends the broadcast back to its source " + topo.node_name(s.source));
        else if (++received[d] == 2)
          diag.error(message_location(st, i, "dst"), topo.node_name(d) + " is informed twice");
      });
    }
  int never = 0;
  std::string first;
  for (int n = 0; n < topo.num_endpoints(); ++n) {
    if (n == s.source || received[n]) continue;
    if (never++ < 8) first += (first.empty() ? "" : ", ") + topo.node_name(n);
  }
  if (never)
    diag.error("broadcast", std::to_string(never) + " node(s) never informed: " + first + (never > 8 ? ", ..." : ""));
}

// The ports of the first links a multicast message's worms take (none if it
// cannot be planned: reported elsewhere), each once: its worms sharing a first
// link are one send on it.
std::vector<int> multicast_first_ports(MulticastPlanner& planner, const ScheduledMessage& m) {
  std::vector<int> ports;
  try {
    for (const MulticastWorm& w : planner.plan(m))
      if (!w.edges.empty()) ports.push_back(w.edges.front().port);
  } catch (const std::invalid_argument&) {
  }
  std::sort(ports.begin(), ports.end());
  ports.erase(std::unique(ports.begin(), ports.end()), ports.end());
  return ports;
}

// The port of the first link a unicast message takes, or -1 when it takes none
// (its endpoints share a router) or its hops are chosen in the router (adaptive).
// One query of the routing function, not the whole route: a schedule may hold
// millions of messages.
int unicast_first_port(const Topology& topo, const RoutingFunction& route_fn, const ScheduledMessage& m,
                       std::vector<RouteOutput>& outs) {
  if (!m.route().empty()) {
    const Route r = message_route(topo, route_fn, m);
    return r.links.empty() ? -1 : topo.link_port(r.links[0]);
  }
  const int src = topo.endpoint_router(m.src), dst = topo.endpoint_router(m.dst);
  if (src == dst || route_fn.adaptive()) return -1;
  outs.clear();
  route_fn.outputs(RouteQuery{src, src, dst, kInjectedHeader, 0}, outs);
  return outs.empty() ? -1 : outs.front().port;
}

// Per step: each node's sends, and under all-port each (node, first link port)'s
// starts, in arrays reset after the step (only the entries it touched).
void check_ports(const Schedule& s, const Topology& topo, const PortModel& ports, const RoutingFunction& route_fn,
                 MulticastPlanner& planner, Diagnostics& diag) {
  const bool all_port = ports.kind == PortKind::AllPort;
  std::vector<int> sends(static_cast<size_t>(topo.num_endpoints()), 0);
  std::vector<int> first_links(all_port ? static_cast<size_t>(topo.num_endpoints()) * topo.num_ports() : 0, 0);
  std::vector<int> senders, started;
  std::vector<RouteOutput> outs;
  for (size_t st = 0; st < s.steps.size(); ++st) {
    for (const auto& m : s.steps[st]) {
      if (sends[static_cast<size_t>(m.src)]++ == 0) senders.push_back(m.src);  // a multicast message is one send
      if (!all_port || m.src == m.dst) continue;
      auto first_link = [&](int port) {
        const int at = m.src * topo.num_ports() + port;
        if (first_links[static_cast<size_t>(at)]++ == 0) started.push_back(at);
        if (first_links[static_cast<size_t>(at)] == 2)
          diag.warning("step " + std::to_string(st + 1),
                       topo.node_name(m.src) + " starts two messages on the same link in one step; the all-port "
                                               "model gives each link one injection channel, so they will be serialised");
      };
      if (m.is_multicast()) {
        for (int port : multicast_first_ports(planner, m)) first_link(port);
        continue;
      }
      const int port = unicast_first_port(topo, route_fn, m, outs);
      if (port >= 0) first_link(port);
    }
    std::sort(senders.begin(), senders.end());
    for (int node : senders) {
      const int n = sends[static_cast<size_t>(node)];
      const int allowed = ports.sends_per_step(topo, node);
      if (n > allowed)
        diag.warning("step " + std::to_string(st + 1),
                     topo.node_name(node) + " sends " + std::to_string(n) + " messages but the " + ports.describe() +
                         " model allows " + std::to_string(allowed) + " at once; they will be serialised");
      sends[static_cast<size_t>(node)] = 0;
    }
    senders.clear();
    for (int at : started) first_links[static_cast<size_t>(at)] = 0;
    started.clear();
  }
}

}  // namespace

void validate_schedule(const Schedule& s, const TopologySpec& network, const PortModel& ports, Diagnostics& diag,
                       const std::string& routing) {
  if (s.topology != network) {
    diag.error("field \"topology\"", "schedule is for " + s.topology.describe() + " but the network is " +
                                         network.describe());
    return;
  }
  validate_schedule(s, Topology(network), ports, diag, routing);
}

void validate_schedule(const Schedule& s, const Topology& topo, const PortModel& ports, Diagnostics& diag,
                       const std::string& routing) {
  if (s.topology != topo.spec()) {
    diag.error("field \"topology\"", "schedule is for " + s.topology.describe() + " but the network is " +
                                         topo.spec().describe());
    return;
  }
  // A routing function refused on this network is reported elsewhere; dimension order stands in for it here.
  constexpr int kAnyVcs = 16;
  const auto route_fn = make_routing(routing_allowed(routing, topo, kAnyVcs) ? routing : "dimension-order", topo, kAnyVcs);
  MulticastPlanner planner(topo, route_fn.get(), kAnyVcs);
  check_basic(s, topo, planner, diag);
  check_packets(s, topo, diag);
  check_broadcast(s, topo, diag);
  check_ports(s, topo, ports, *route_fn, planner, diag);
}

}  // namespace wormsim

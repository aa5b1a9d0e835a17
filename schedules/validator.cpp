#include "schedules/validator.hpp"

#include <algorithm>
#include <stdexcept>
#include <unordered_map>

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

// Step in which each (packet, node) pair is first held: -1 for origins.
class Holdings {
 public:
  explicit Holdings(int nodes) : nodes_(nodes) {}
  void give(int packet, int node, int step) {
    held_.emplace(key(packet, node), step);  // keeps the earliest
  }
  // The step from which `node` holds `packet`, or INT_MAX if never.
  int since(int packet, int node) const {
    auto it = held_.find(key(packet, node));
    return it == held_.end() ? kNever : it->second;
  }
  static constexpr int kNever = 1 << 30;

 private:
  uint64_t key(int packet, int node) const { return static_cast<uint64_t>(packet) * nodes_ + node; }
  int nodes_;
  std::unordered_map<uint64_t, int> held_;
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

void check_packets(const Schedule& s, const Topology& topo, Diagnostics& diag) {
  Holdings held(topo.num_endpoints());
  for (size_t p = 0; p < s.packets.size(); ++p)
    if (s.packets[p].origin >= 0) held.give(static_cast<int>(p), s.packets[p].origin, -1);
  for (size_t st = 0; st < s.steps.size(); ++st) {
    for (size_t i = 0; i < s.steps[st].size(); ++i) {
      const auto& m = s.steps[st][i];
      if (m.packet < 0) continue;
      if (held.since(m.packet, m.src) >= static_cast<int>(st)) {
        const std::string& name = s.packets[m.packet].name;
        diag.error(message_location(st, i, "src"),
                   topo.node_name(m.src) + " sends packet " + (name.empty() ? std::string("(unnamed)") : "\"" + name + "\"") +
                       " before it holds it (a node holds a packet from the step after it receives it)");
      }
      // Held from the next step: a send of it later in this step is still refused above.
      for_each_receiver(m, [&](int d) {
        if (d != m.src) held.give(m.packet, d, static_cast<int>(st));
      });
    }
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

void check_ports(const Schedule& s, const Topology& topo, const PortModel& ports, const RoutingFunction& route_fn,
                 MulticastPlanner& planner, Diagnostics& diag) {
  for (size_t st = 0; st < s.steps.size(); ++st) {
    std::unordered_map<int, int> sends;
    std::unordered_map<int64_t, int> first_links;  // all-port: a node's channel is tied to its first link (by port)
    for (const auto& m : s.steps[st]) {
      ++sends[m.src];  // a multicast message is one send, whatever its worms
      if (ports.kind != PortKind::AllPort || m.src == m.dst) continue;
      auto first_link = [&](int port) {
        if (++first_links[int64_t{m.src} * topo.num_ports() + port] == 2)
          diag.warning("step " + std::to_string(st + 1),
                       topo.node_name(m.src) + " starts two messages on the same link in one step; the all-port "
                                               "model gives each link one injection channel, so they will be serialised");
      };
      if (m.is_multicast()) {
        for (int port : multicast_first_ports(planner, m)) first_link(port);
        continue;
      }
      const Route r = message_route(topo, route_fn, m);
      if (!r.links.empty()) first_link(topo.link_port(r.links[0]));
    }
    for (const auto& [node, n] : sends) {
      const int allowed = ports.sends_per_step(topo, node);
      if (n > allowed)
        diag.warning("step " + std::to_string(st + 1),
                     topo.node_name(node) + " sends " + std::to_string(n) + " messages but the " + ports.describe() +
                         " model allows " + std::to_string(allowed) + " at once; they will be serialised");
    }
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

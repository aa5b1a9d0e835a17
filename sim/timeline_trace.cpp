#include "sim/timeline_trace.hpp"

#include <algorithm>
#include <map>
#include <sstream>
#include <tuple>

#include <nlohmann/json.hpp>

#include "models/topology_shape.hpp"

namespace wormsim {

using ojson = nlohmann::ordered_json;

bool parse_trace_kind(const std::string& text, TraceKind& out) {
  if (text == "none") out = TraceKind::None;
  else if (text == "perfetto") out = TraceKind::Perfetto;
  else if (text == "vcd") out = TraceKind::Vcd;
  else return false;
  return true;
}

std::string to_string(TraceKind k) {
  switch (k) {
    case TraceKind::None: return "none";
    case TraceKind::Perfetto: return "perfetto";
    case TraceKind::Vcd: return "vcd";
  }
  return "?";
}

namespace {

// Track ids inside a router's process: link ports 1.. (VC v > 0 of a link: 1000 v + 1 + port),
// ejection channels 100+k, injection 200+k. A trace-event track must hold
// slices that nest, and worms on different VCs of one link overlap in time,
// so each VC of a link has its own track.
constexpr int kVcTrackStride = 1000;

int track_of(const Topology& topo, int port, int vc) {
  if (port <= kInjectionPort) return 200 + (kInjectionPort - port);
  if (port >= topo.num_ports()) return 100 + (port - topo.num_ports());
  return kVcTrackStride * vc + 1 + port;
}

std::string track_name(const Topology& topo, int port, int vc, int vcs) {
  if (port <= kInjectionPort) return "inject " + std::to_string(kInjectionPort - port);
  if (port >= topo.num_ports()) return "eject " + std::to_string(port - topo.num_ports());
  const std::string name = topo.shape().port_label(port);
  return vcs > 1 ? name + " vc" + std::to_string(vc) : name;
}

// Steps are numbered from 1 on the timeline, as the step markers are.
std::string worm_name(const Topology& topo, const MessageRecord& m, uint32_t id) {
  std::string s = "m" + std::to_string(id);
  if (m.step >= 0) s += " s" + std::to_string(m.step + 1);
  return s + " " + topo.node_name(m.src) + "->" + topo.node_name(m.dst);
}

void add_metadata(const Topology& topo, int vcs, const std::vector<ChannelUse>& uses, std::vector<ojson>& out) {
  std::map<int, std::map<int, std::string>> tracks;  // router -> track -> name
  for (const ChannelUse& u : uses) tracks[u.node][track_of(topo, u.port, u.vc)] = track_name(topo, u.port, u.vc, vcs);
  for (const auto& [node, ts] : tracks) {
    out.push_back({{"ph", "M"}, {"name", "process_name"}, {"pid", node}, {"args", {{"name", "node " + topo.router_name(node)}}}});
    out.push_back({{"ph", "M"}, {"name", "process_sort_index"}, {"pid", node}, {"args", {{"sort_index", node}}}});
    for (const auto& [tid, name] : ts)
      out.push_back({{"ph", "M"}, {"name", "thread_name"}, {"pid", node}, {"tid", tid}, {"args", {{"name", name}}}});
  }
}

// A counter per router: how many of its output links are held by worms.
void add_busy_counters(const Topology& topo, const std::vector<ChannelUse>& uses, std::vector<ojson>& out) {
  std::map<int, std::map<uint64_t, int>> delta;  // router -> cycle -> change
  for (const ChannelUse& u : uses) {
    if (u.port < 0 || u.port >= topo.num_ports()) continue;
    ++delta[u.node][u.from];
    --delta[u.node][u.to];
  }
  for (const auto& [node, changes] : delta) {
    int busy = 0;
    for (const auto& [t, d] : changes) {
      busy += d;
      out.push_back({{"ph", "C"}, {"name", "busy links"}, {"pid", node}, {"ts", t}, {"args", {{"busy", busy}}}});
    }
  }
}

}  // namespace

std::string perfetto_trace_json(const Network& net, int vcs, const std::vector<ChannelUse>& uses,
                                const Schedule& schedule) {
  const Topology& topo = net.topology();
  const auto& msgs = net.context().msgs;
  std::vector<ojson> events;
  add_metadata(topo, vcs, uses, events);
  for (const ChannelUse& u : uses) {
    const MessageRecord& m = msgs[u.msg];
    ojson args{{"message", u.msg}, {"step", m.step}, {"src", topo.node_name(m.src)}, {"dst", topo.node_name(m.dst)},
               {"flits", m.flits}};
    if (u.port >= 0 && u.port < topo.num_ports()) args["vc"] = u.vc;
    events.push_back({{"ph", "X"}, {"cat", "worm"}, {"name", worm_name(topo, m, u.msg)}, {"pid", u.node},
                      {"tid", track_of(topo, u.port, u.vc)}, {"ts", u.from}, {"dur", u.to - u.from}, {"args", args}});
  }
  // Flow arrows from the injection slice to the ejection slice of every delivered message.
  for (const ChannelUse& u : uses) {
    const MessageRecord& m = msgs[u.msg];
    if (u.port <= kInjectionPort) {
      events.push_back({{"ph", "s"}, {"cat", "message"}, {"name", "m" + std::to_string(u.msg)}, {"id", u.msg},
                        {"pid", u.node}, {"tid", track_of(topo, u.port, u.vc)}, {"ts", u.from}});
    } else if (u.port >= topo.num_ports() && m.delivered != kNever) {
      events.push_back({{"ph", "f"}, {"bp", "e"}, {"cat", "message"}, {"name", "m" + std::to_string(u.msg)},
                        {"id", u.msg}, {"pid", u.node}, {"tid", track_of(topo, u.port, u.vc)}, {"ts", m.delivered}});
    }
  }
  // Step markers: the first release of each step (of every repetition: step r * S + s).
  int32_t steps = static_cast<int32_t>(schedule.steps.size());
  for (const MessageRecord& m : msgs) steps = std::max(steps, m.step + 1);
  std::vector<uint64_t> first(static_cast<size_t>(steps), kNever);
  for (const MessageRecord& m : msgs)
    if (m.step >= 0 && m.release != kNever) first[m.step] = std::min(first[m.step], m.release);
  for (size_t s = 0; s < first.size(); ++s)
    if (first[s] != kNever)
      events.push_back({{"ph", "i"}, {"s", "g"}, {"name", "step " + std::to_string(s + 1)}, {"ts", first[s]},
                        {"pid", 0}, {"tid", 0}});
  add_busy_counters(topo, uses, events);
  std::ostringstream os;
  os << "{\"displayTimeUnit\": \"ns\",\n \"otherData\": " << ojson{{"wormsim", "1 us on the timeline = 1 cycle"},
                                                                    {"topology", topo.spec().describe()},
                                                                    {"schedule", schedule.name}}
                                                                 .dump()
     << ",\n \"traceEvents\": [\n";
  for (size_t i = 0; i < events.size(); ++i) os << (i ? ",\n  " : "  ") << events[i].dump();
  os << "\n ]\n}\n";
  return os.str();
}

}  // namespace wormsim

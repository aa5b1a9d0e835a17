#include "schedules/schedule_json.hpp"
#include "schedules/json_repeated_key.hpp"

#include "schedules/input_file.hpp"

#include <algorithm>
#include <climits>
#include <fstream>
#include <iterator>
#include <memory>
#include <set>
#include <stdexcept>
#include <sstream>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "models/limits.hpp"
#include "models/multicast/multicast_scheme.hpp"
#include "models/node_id.hpp"
#include "models/routing.hpp"
#include "models/topology_shape.hpp"

namespace wormsim {

using nlohmann::json;

namespace {

constexpr int kFormatVersion = 1;

std::string type_name(const json& j) { return j.type_name(); }

// Reads a node reference (integer or list of integers); throws
// std::invalid_argument saying why when `j` is neither.
NodeRef node_ref_from_json(const json& j) {
  NodeRef ref;
  // Integers past the signed 64-bit range would wrap; they are out of any network's range anyway.
  auto too_big = [](const json& v) {
    return v.is_number_unsigned() && v.get<unsigned long long>() > static_cast<unsigned long long>(LLONG_MAX);
  };
  if (j.is_number_integer()) {
    if (too_big(j)) throw std::invalid_argument("node id " + j.dump() + " is out of range");
    ref.id = j.get<long long>();
    return ref;
  }
  if (!j.is_array()) throw std::invalid_argument("expected a node id (integer) or a coordinate list, got " + type_name(j));
  ref.is_coords = true;
  for (const auto& c : j) {
    if (!c.is_number_integer()) throw std::invalid_argument("coordinates must be integers, got " + type_name(c));
    if (too_big(c)) throw std::invalid_argument("coordinate " + c.dump() + " is out of range");
    ref.coords.push_back(c.get<long long>());
  }
  return ref;
}

// Messages the document lists (before any is read), for the memory check.
size_t count_messages(const json& root) {
  const auto it = root.find("steps");
  if (it == root.end() || !it->is_array()) return 0;
  size_t n = 0;
  for (const json& step : *it) n += step.is_array() ? step.size() : 0;
  return n;
}

struct Parser {
  Schedule& s;
  Diagnostics& diag;
  const ScheduleMemoryCheck& memory;
  size_t text_bytes;
  std::unique_ptr<Topology> topo;  // built on first use: a file that names no node needs none

  const Topology& net() {
    if (!topo) topo = std::make_unique<Topology>(s.topology);
    return *topo;
  }
  std::unordered_map<std::string, int> packet_index;

  // An endpoint (src, dst, origins, the source), or a router (route entries).
  int node(const json& j, const std::string& where, bool router = false) {
    if (j.is_number_unsigned() && j.get<unsigned long long>() > static_cast<unsigned long long>(LLONG_MAX)) {
      const int count = router ? net().num_nodes() : net().num_endpoints();
      diag.error(where, "node id " + j.dump() + " is out of range 0.." + std::to_string(count - 1) + " for " +
                            s.topology.describe());
      return -1;
    }
    try {
      const NodeRef ref = node_ref_from_json(j);
      return router ? resolve_router(net(), ref) : resolve_node(net(), ref);
    } catch (const std::invalid_argument& e) {  // one finding among the file's many
      diag.error(where, e.what());
      return -1;
    }
  }

  bool topology(const json& root) {
    if (!root.contains("topology")) {
      diag.error("field \"topology\"", "missing; expected {\"kind\": \"mesh\"|\"torus\"|\"hypercube\", \"dims\": [...]}");
      return false;
    }
    const json& t = root["topology"];
    if (!t.is_object()) {
      diag.error("field \"topology\"", "expected an object, got " + type_name(t));
      return false;
    }
    if (!t.contains("kind") || !t["kind"].is_string() ||
        !parse_topology_kind(t["kind"].get<std::string>(), s.topology.kind)) {
      diag.error("field \"topology.kind\"", "expected one of " + topology_names_text(", "));
      return false;
    }
    const std::vector<TopologyOption> own = topology_shape(s.topology).options();
    std::string expected = "kind, dims";
    for (const TopologyOption& o : own) expected += ", " + o.key;
    for (auto it = t.begin(); it != t.end(); ++it) {
      const bool declared = std::any_of(own.begin(), own.end(), [&](const TopologyOption& o) { return o.key == it.key(); });
      if (it.key() != "kind" && it.key() != "dims" && !declared)
        diag.error("field \"topology." + it.key() + "\"", "unknown field (expected " + expected + ")");
    }
    for (const TopologyOption& o : own) {
      if (!t.contains(o.key)) continue;
      const json& v = t[o.key];
      if (!v.is_number_integer() || v.get<long long>() < o.min || v.get<long long>() > o.max) {
        diag.error("field \"topology." + o.key + "\"", "expected an integer " + std::to_string(o.min) + ".." +
                                                          std::to_string(o.max) + " (" + o.description + "), got " + v.dump());
        return false;
      }
      s.topology.options[o.key] = v.get<int>();
    }
    if (!t.contains("dims") || !t["dims"].is_array() || t["dims"].empty()) {
      diag.error("field \"topology.dims\"", "expected a non-empty list of positive integers");
      return false;
    }
    for (const auto& d : t["dims"]) {
      if (!d.is_number_integer() || d.get<long long>() < 1 || d.get<long long>() > kMaxRadix) {
        diag.error("field \"topology.dims\"", "expected positive integers, got " + d.dump());
        return false;
      }
      s.topology.dims.push_back(d.get<int>());
    }
    try {
      Topology::validate(s.topology);
    } catch (const std::exception& e) {
      diag.error("field \"topology\"", e.what());
      return false;
    }
    memory(&s.topology, count_messages(root), text_bytes, diag.file());
    return true;
  }

  int packet(const std::string& name, int sender) {
    auto it = packet_index.find(name);
    if (it != packet_index.end()) return it->second;
    // A packet not declared in "packets" originates at its first sender.
    const int id = s.add_packet(name, sender);
    packet_index.emplace(name, id);
    return id;
  }

  void message(const json& m, size_t step, size_t idx) {
    const std::string where = message_location(step, idx);
    if (!m.is_object()) {
      diag.error(where, "expected an object {\"src\", \"dst\", ...}, got " + type_name(m));
      return;
    }
    for (auto it = m.begin(); it != m.end(); ++it) {
      const std::string& k = it.key();
      if (k != "src" && k != "dst" && k != "packet" && k != "flits" && k != "route" && k != "multicast")
        diag.error(message_location(step, idx, k), "unknown field (expected src, dst, packet, flits, route, multicast)");
    }
    ScheduledMessage msg;
    for (const char* f : {"src", "dst"}) {
      if (!m.contains(f)) {
        diag.error(message_location(step, idx, f), "missing");
        return;
      }
    }
    msg.src = node(m["src"], message_location(step, idx, "src"));
    if (!destinations(m, step, idx, msg)) return;
    if (m.contains("flits")) {
      const json& f = m["flits"];
      if (!f.is_number_integer() || f.get<long long>() < 1 || f.get<long long>() > kMaxMessageFlits) {
        diag.error(message_location(step, idx, "flits"),
                   "expected an integer from 1 to " + std::to_string(kMaxMessageFlits) + ", got " + f.dump());
      } else {
        msg.flits = f.get<int>();
      }
    }
    if (m.contains("packet")) {
      const json& p = m["packet"];
      if (p.is_string()) {
        msg.packet = msg.src >= 0 ? packet(p.get<std::string>(), msg.src) : -1;
      } else if (p.is_number_integer()) {
        msg.packet = msg.src >= 0 ? packet(std::to_string(p.get<long long>()), msg.src) : -1;
      } else {
        diag.error(message_location(step, idx, "packet"), "expected a string or integer name, got " + type_name(p));
      }
    } else if (msg.src >= 0) {
      // Broadcasts carry their one packet; other messages carry a fresh packet of their sender.
      msg.packet = s.broadcast ? 0 : s.add_packet("", msg.src);
    }
    if (m.contains("route")) {
      const json& r = m["route"];
      // Routes join routers: with several endpoints per router, src and dst may share one (a route of one entry).
      const size_t fewest = r.is_array() && !r.empty() && !net().one_endpoint_per_router() ? 1 : 2;
      if (!r.is_array() || r.size() < fewest) {
        diag.error(message_location(step, idx, "route"),
                   fewest == 2 ? "expected a list of at least two nodes (src first, dst last)"
                               : "expected a list of routers (src's router first, dst's router last)");
      } else {
        bool ok = true;
        std::vector<int> nodes;
        for (size_t i = 0; i < r.size(); ++i) {
          const int n = node(r[i], message_location(step, idx, "route") + " entry " + std::to_string(i + 1), true);
          ok = ok && n >= 0;
          nodes.push_back(n);
        }
        msg.set_route(std::move(nodes));
        if (ok && msg.src >= 0 && msg.dst >= 0) check_route(msg, step, idx);
      }
    }
    s.steps[step].push_back(std::move(msg));
  }

  // "dst": one node, or with "multicast": SCHEME a list of nodes (docs/schedule-format.md).
  // False when the message cannot be kept (its error is reported).
  bool destinations(const json& m, size_t step, size_t idx, ScheduledMessage& msg) {
    const json& d = m["dst"];
    const std::string where = message_location(step, idx, "dst");
    if (!m.contains("multicast")) {
      // A list of lists is a list of destinations (a flat list of integers is one node's coordinates).
      if (d.is_array() && !d.empty() && d[0].is_array()) {
        diag.error(where, "a list of destinations needs \"multicast\": SCHEME (one of: " + multicast_names() + ")");
        return false;
      }
      msg.dst = node(d, where);
      return true;
    }
    const json& scheme = m["multicast"];
    if (!scheme.is_string() || scheme.get<std::string>().empty()) {
      diag.error(message_location(step, idx, "multicast"),
                 "expected a scheme name (one of: " + multicast_names() + "), got " + scheme.dump());
      return false;
    }
    if (m.contains("route")) {
      diag.error(message_location(step, idx, "route"), "a multicast message takes no route: its scheme routes its worms");
      return false;
    }
    if (!d.is_array() || d.empty()) {
      diag.error(where, "with \"multicast\" expected a non-empty list of nodes, got " + d.dump());
      return false;
    }
    std::vector<int> dsts;
    for (size_t i = 0; i < d.size(); ++i) dsts.push_back(node(d[i], where + " entry " + std::to_string(i + 1)));
    msg.set_multicast(scheme.get<std::string>(), std::move(dsts));
    return true;
  }

  void check_route(const ScheduledMessage& msg, size_t step, size_t idx) {
    const std::string where = message_location(step, idx, "route");
    const Topology& t = net();
    // "src (1,2)" or, when routers have several endpoints, "src (1,2).3's router (1,2)".
    auto router_of = [&t](const char* what, int endpoint) {
      const std::string name = std::string(what) + " " + t.node_name(endpoint);
      return t.one_endpoint_per_router() ? name : name + "'s router " + t.router_name(t.endpoint_router(endpoint));
    };
    const std::vector<int>& nodes = msg.route();
    if (nodes.front() != t.endpoint_router(msg.src)) {
      diag.error(where, "must start at " + router_of("src", msg.src) + ", starts at " + t.router_name(nodes.front()));
      return;
    }
    if (nodes.back() != t.endpoint_router(msg.dst)) {
      diag.error(where, "must end at " + router_of("dst", msg.dst) + ", ends at " + t.router_name(nodes.back()));
      return;
    }
    try {
      route_from_nodes(net(), nodes);
    } catch (const std::invalid_argument& e) {
      diag.error(where, e.what());
    }
  }

  void parse(const json& root) {
    if (!root.is_object()) {
      diag.error("", "expected a JSON object at the top level, got " + type_name(root));
      return;
    }
    static const std::set<std::string> known = {"wormsim_schedule", "name", "algorithm", "topology", "flits",
                                                "broadcast", "packets", "steps", "meta"};
    for (auto it = root.begin(); it != root.end(); ++it)
      if (!known.count(it.key()))
        diag.error("field \"" + it.key() + "\"",
                   "unknown field (expected wormsim_schedule, name, algorithm, topology, flits, broadcast, packets, steps, meta)");
    if (root.contains("wormsim_schedule")) {
      const json& v = root["wormsim_schedule"];
      if (!v.is_number_integer() || v.get<long long>() != kFormatVersion)
        diag.error("field \"wormsim_schedule\"", "format version must be " + std::to_string(kFormatVersion) + ", got " + v.dump());
    }
    for (const char* f : {"name", "algorithm"}) {
      if (!root.contains(f)) continue;
      if (!root[f].is_string()) diag.error(std::string("field \"") + f + "\"", "expected a string");
      else (std::string(f) == "name" ? s.name : s.algorithm) = root[f].get<std::string>();
    }
    if (!topology(root)) return;
    if (root.contains("flits")) {
      const json& f = root["flits"];
      if (!f.is_number_integer() || f.get<long long>() < 1 || f.get<long long>() > kMaxMessageFlits)
        diag.error("field \"flits\"", "expected an integer from 1 to " + std::to_string(kMaxMessageFlits) + ", got " + f.dump());
      else
        s.flits = f.get<int>();
    }
    if (root.contains("broadcast")) {
      const json& b = root["broadcast"];
      if (!b.is_object() || !b.contains("source")) {
        diag.error("field \"broadcast\"", "expected {\"source\": node}");
      } else {
        for (auto it = b.begin(); it != b.end(); ++it)
          if (it.key() != "source")
            diag.error("field \"broadcast." + it.key() + "\"", "unknown field (expected source)");
        s.source = node(b["source"], "field \"broadcast.source\"");
        if (s.source >= 0) {
          s.broadcast = true;
          packet_index.emplace("0", s.add_packet("0", s.source));
        }
      }
    }
    if (root.contains("packets")) {
      const json& p = root["packets"];
      if (!p.is_object()) {
        diag.error("field \"packets\"", "expected an object mapping packet names to origin nodes");
      } else {
        for (auto it = p.begin(); it != p.end(); ++it) {
          const int origin = node(it.value(), "field \"packets." + it.key() + "\"");
          if (origin < 0) continue;
          if (packet_index.count(it.key())) {
            diag.error("field \"packets." + it.key() + "\"", "packet declared twice (the broadcast packet is \"0\")");
            continue;
          }
          packet_index.emplace(it.key(), s.add_packet(it.key(), origin));
        }
      }
    }
    if (!root.contains("steps") || !root["steps"].is_array()) {
      diag.error("field \"steps\"", "missing or not a list of steps (each a list of messages)");
      return;
    }
    const json& steps = root["steps"];
    s.steps.resize(steps.size());
    for (size_t i = 0; i < steps.size(); ++i) {
      if (!steps[i].is_array()) {
        diag.error("step " + std::to_string(i + 1), "expected a list of messages, got " + type_name(steps[i]));
        continue;
      }
      for (size_t j = 0; j < steps[i].size(); ++j) message(steps[i][j], i, j);
    }
  }
};

nlohmann::ordered_json node_json(const Topology& topo, int node) {
  if (topo.shape().writes_endpoint_ids()) return node;
  return endpoint_coords(topo, node);
}

nlohmann::ordered_json router_json(const Topology& topo, int router) {
  if (topo.shape().writes_endpoint_ids()) return router;
  return topo.coords(router);
}

// {"kind": ..., "dims": [...]} and the topology's own keys.
nlohmann::ordered_json topology_json(const TopologySpec& spec) {
  nlohmann::ordered_json t{{"kind", spec.kind}, {"dims", spec.dims}};
  for (const TopologyOption& o : topology_shape(spec).options()) t[o.key] = spec.option(o.key);
  return t;
}

}  // namespace

bool parse_schedule_json(const std::string& text, Schedule& out, Diagnostics& diag, const ScheduleMemoryCheck& memory) {
  static const ScheduleMemoryCheck load_check = schedule_memory_check(ScheduleCommand::Load);
  out = Schedule{};
  json root;
  const ScheduleMemoryCheck& check = memory ? memory : load_check;
  check(nullptr, 0, text.size(), diag.file());
  try {
    root = json::parse(text);
  } catch (const json::exception& e) {  // parse_error, and out_of_range for a number too big for a double (1e999)
    diag.error("", std::string("not valid JSON: ") + e.what());
    return false;
  }
  const std::string repeated = first_repeated_key(text);
  if (!repeated.empty()) {
    diag.error("field \"" + repeated + "\"", "given twice in one object");
    return false;
  }
  const long long before = diag.errors();
  Parser p{out, diag, check, text.size(), nullptr, {}};
  p.parse(root);
  return diag.errors() == before;
}

bool load_schedule_file(const std::string& path, Schedule& out, Diagnostics& diag, const ScheduleMemoryCheck& memory) {
  std::string text;
  try {
    text = read_input_file(path);
  } catch (const InputFileError& e) {
    diag.error("", std::string("cannot open schedule file: ") + e.what());
    return false;
  }
  return parse_schedule_json(text, out, diag, memory);
}

std::string schedule_to_json(const Schedule& s) {
  using ojson = nlohmann::ordered_json;
  const Topology topo(s.topology);
  std::ostringstream os;
  os << "{\n  \"wormsim_schedule\": " << kFormatVersion << ",\n";
  os << "  \"name\": " << json(s.name).dump() << ",\n";
  if (!s.algorithm.empty()) os << "  \"algorithm\": " << json(s.algorithm).dump() << ",\n";
  os << "  \"topology\": " << topology_json(s.topology).dump() << ",\n";
  os << "  \"flits\": " << s.flits << ",\n";
  if (s.broadcast) os << "  \"broadcast\": " << ojson{{"source", node_json(topo, s.source)}}.dump() << ",\n";
  // Named packets other than the broadcast packet are declared with their origin.
  ojson packets = ojson::object();
  for (size_t i = 0; i < s.packets.size(); ++i) {
    if (s.packets[i].name.empty() || (s.broadcast && i == 0)) continue;
    packets[s.packets[i].name] = node_json(topo, s.packets[i].origin);
  }
  if (!packets.empty()) os << "  \"packets\": " << packets.dump() << ",\n";
  os << "  \"steps\": [";
  for (size_t i = 0; i < s.steps.size(); ++i) {
    os << (i ? ",\n    [" : "\n    [");
    for (size_t j = 0; j < s.steps[i].size(); ++j) {
      const ScheduledMessage& m = s.steps[i][j];
      ojson jm = ojson::object();
      jm["src"] = node_json(topo, m.src);
      if (m.is_multicast()) {
        ojson dsts = ojson::array();
        for (int d : m.dsts()) dsts.push_back(node_json(topo, d));
        jm["dst"] = dsts;
        jm["multicast"] = m.scheme();
      } else {
        jm["dst"] = node_json(topo, m.dst);
      }
      const bool named = m.packet >= 0 && !s.packets[m.packet].name.empty() && !(s.broadcast && m.packet == 0);
      if (named) jm["packet"] = s.packets[m.packet].name;
      if (m.flits > 0) jm["flits"] = m.flits;
      if (!m.route().empty()) {
        ojson r = ojson::array();
        for (int n : m.route()) r.push_back(router_json(topo, n));
        jm["route"] = r;
      }
      os << (j ? ",\n      " : "\n      ") << jm.dump();
    }
    os << (s.steps[i].empty() ? "]" : "\n    ]");
  }
  os << "\n  ]\n}\n";
  return os.str();
}

}  // namespace wormsim

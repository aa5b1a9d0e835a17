#include "sim/config.hpp"

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "models/topology_shape.hpp"
#include "schedules/input_file.hpp"
#include "sim/did_you_mean.hpp"

namespace wormsim {

namespace {

namespace fs = std::filesystem;

// Walks the YAML tree, reading typed values and remembering which keys were
// understood, so that everything else can be reported as unknown.
class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& path, const std::string& what, const YAML::Node& at = YAML::Node()) const {
    std::string where = file_ + ": " + path;
    if (from_command_line(path)) where += " (from --set)";
    else if (at.IsDefined() && !at.IsNull() && at.Mark().line >= 0)
      where += " (line " + std::to_string(at.Mark().line + 1) + ")";
    throw ConfigError(where + ": " + what);
  }

  // Paths set with --set: their line numbers would point into the --set text, not the file.
  void mark_overridden(const std::string& path) { overridden_.insert(path); }
  bool from_command_line(const std::string& path) const {
    for (const auto& o : overridden_)
      if (path == o || path.rfind(o + ".", 0) == 0 || path.rfind(o + "[", 0) == 0) return true;
    return false;
  }

  void allow_only(const YAML::Node& map, const std::string& path, const std::set<std::string>& keys) const {
    if (!map) return;
    if (!map.IsMap()) fail(path.empty() ? "(top level)" : path, "expected a mapping of keys", map);
    std::set<std::string> seen;
    for (const auto& kv : map) {
      const std::string key = this->key(kv.first, path);
      // yaml-cpp keeps the first of repeated keys; a repeated key is almost always a mistake.
      if (!seen.insert(key).second) fail(join(path, key), "key given twice", kv.first);
      if (!keys.count(key)) {
        std::string list;
        for (const auto& k : keys) list += (list.empty() ? "" : ", ") + k;
        const std::string hint = did_you_mean(key, std::vector<std::string>(keys.begin(), keys.end()));
        fail(join(path, key), "unknown key" + hint + " (expected one of: " + list + ")", kv.first);
      }
    }
  }

  static std::string join(const std::string& a, const std::string& b) { return a.empty() ? b : a + "." + b; }

  // A mapping key as text; YAML also allows lists and mappings as keys (`? [a, b] : 1`).
  std::string key(const YAML::Node& k, const std::string& map_path) const {
    if (!k.IsScalar())
      fail(map_path.empty() ? "(top level)" : map_path, "keys must be plain names, not a list or mapping", k);
    return k.Scalar();
  }

  long long integer(const YAML::Node& n, const std::string& path, long long lo, long long hi) const {
    if (!n.IsScalar()) fail(path, "expected an integer, got a " + kind(n), n);
    long long v;
    try {
      size_t used = 0;
      const std::string text = n.Scalar();
      v = std::stoll(text, &used, 10);
      if (used != text.size()) throw std::invalid_argument(text);
    } catch (const std::exception&) {
      fail(path, "expected an integer, got \"" + n.Scalar() + "\"", n);
    }
    if (v < lo || v > hi)
      fail(path, "expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got " +
                     std::to_string(v), n);
    return v;
  }

  std::string string(const YAML::Node& n, const std::string& path) const {
    if (!n.IsScalar()) fail(path, "expected a string, got a " + kind(n), n);
    return n.Scalar();
  }

  bool boolean(const YAML::Node& n, const std::string& path) const {
    const std::string s = n.IsScalar() ? n.Scalar() : "";
    if (s == "true") return true;
    if (s == "false") return false;
    fail(path, "expected true or false, got " + (n.IsScalar() ? "\"" + s + "\"" : "a " + kind(n)), n);
  }

  static std::string kind(const YAML::Node& n) {
    if (n.IsMap()) return "mapping";
    if (n.IsSequence()) return "list";
    if (n.IsNull()) return "null";
    return "scalar";
  }

 private:
  std::string file_;
  std::set<std::string> overridden_;
};

// Parses a --set value exactly as the same text would parse as a key's value
// in a config file: placed, indented, under a key. A bare YAML::Load would
// take the first node and drop the rest ("[8,8],[4,4]", "[8,8] foo").
YAML::Node parse_override_value(const std::string& text) {
  std::string doc = "value:\n  ";
  for (char c : text) {
    doc += c;
    if (c == '\n') doc += "  ";
  }
  return YAML::Load(doc)["value"];
}

// Applies "a.b.c=value" to the tree, creating maps on the way.
void apply_override(YAML::Node root, const std::string& text, Reader& r) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError("--set " + text + ": expected key.path=value");
  const std::string path = text.substr(0, eq);
  YAML::Node value;
  try {
    value = parse_override_value(text.substr(eq + 1));
  } catch (const YAML::Exception& e) {
    throw ConfigError("--set " + text + ": value is not valid YAML: " + e.msg);
  }
  std::vector<std::string> keys;
  std::stringstream ss(path);
  for (std::string k; std::getline(ss, k, '.');) {
    if (k.empty()) throw ConfigError("--set " + text + ": empty key in path \"" + path + "\"");
    keys.push_back(k);
  }
  // yaml-cpp nodes are handles: walk by reassigning a reference chain.
  r.mark_overridden(path);
  std::vector<YAML::Node> chain{root};
  for (size_t i = 0; i + 1 < keys.size(); ++i) {
    YAML::Node next = chain.back()[keys[i]];
    if (next && !next.IsMap())
      throw ConfigError("--set " + text + ": " + keys[i] + " is not a mapping, cannot set " + path);
    if (!next) {
      chain.back()[keys[i]] = YAML::Node(YAML::NodeType::Map);
      next = chain.back()[keys[i]];
    }
    chain.push_back(next);
  }
  if (value.IsNull()) {
    chain.back().remove(keys.back());  // key=null removes a key (back to its default)
    return;
  }
  chain.back()[keys.back()] = value;
  // schedule.file and schedule.algorithm are alternatives: setting one drops the other.
  if (keys.size() == 2 && keys[0] == "schedule" && (keys[1] == "file" || keys[1] == "algorithm"))
    chain.back().remove(keys[1] == "file" ? "algorithm" : "file");
}

// Routers track their input ports (links + their endpoints' injection channels) in one 64-bit mask.
void check_router_ports(const YAML::Node& n, const Config& c, const Reader& r) {
  const int links = Topology::ports_of(c.topology);
  const int endpoints = std::max(1, topology_shape(c.topology).endpoints_per_router(c.topology));
  const int per_endpoint = c.ports.kind == PortKind::OnePort ? 1 : c.ports.kind == PortKind::AllPort ? links : c.ports.k;
  const int channels = endpoints * per_endpoint;
  if (links + channels <= kMaxRouterPorts) return;
  const std::string what = "a router would need " + std::to_string(links + channels) + " input ports (" +
                           std::to_string(links) + " link ports + " + std::to_string(channels) +
                           " injection channels" +
                           (endpoints > 1 ? " of " + std::to_string(endpoints) + " endpoints" : std::string()) +
                           "); at most " + std::to_string(kMaxRouterPorts) + " are supported";
  if (c.ports.kind == PortKind::KPort && per_endpoint > links)
    r.fail(n["ports"] ? "network.ports" : "network.port_model", what, n["ports"] ? n["ports"] : n["port_model"]);
  r.fail("network.dims", what, n["dims"]);
}

// The keys of the topology named by network.topology (none if it names none).
std::vector<TopologyOption> topology_keys(const YAML::Node& n) {
  const YAML::Node t = n ? n["topology"] : YAML::Node();
  const TopologyShape* shape = t && t.IsScalar() ? find_topology(t.Scalar()) : nullptr;
  return shape ? shape->options() : std::vector<TopologyOption>{};
}

void read_network(const YAML::Node& n, Config& c, const Reader& r) {
  std::set<std::string> keys{"topology", "dims", "vcs", "buffer_flits", "port_model", "ports", "routing"};
  const std::vector<TopologyOption> own = topology_keys(n);
  for (const TopologyOption& o : own) keys.insert(o.key);
  r.allow_only(n, "network", keys);
  if (!n) r.fail("network", "missing (expected topology, dims, ...)");
  if (!n["topology"]) r.fail("network.topology", "missing (expected " + topology_names_text() + ")");
  if (!parse_topology_kind(r.string(n["topology"], "network.topology"), c.topology.kind))
    r.fail("network.topology", "expected " + topology_names_text() + ", got \"" + n["topology"].Scalar() + "\"",
           n["topology"]);
  const YAML::Node dims = n["dims"];
  if (!dims) r.fail("network.dims", "missing (expected a list of radices, e.g. [8, 8]; for a hypercube [d])");
  if (dims.IsScalar()) {
    c.topology.dims = {static_cast<int>(r.integer(dims, "network.dims", 1, 1 << 24))};
  } else if (dims.IsSequence() && dims.size() > 0) {
    for (size_t i = 0; i < dims.size(); ++i)
      c.topology.dims.push_back(
          static_cast<int>(r.integer(dims[i], "network.dims[" + std::to_string(i) + "]", 1, 1 << 24)));
  } else {
    r.fail("network.dims", "expected a non-empty list of positive integers", dims);
  }
  for (const TopologyOption& o : own)
    if (n[o.key]) c.topology.options[o.key] = static_cast<int>(r.integer(n[o.key], "network." + o.key, o.min, o.max));
  try {
    Topology::validate(c.topology);  // builds nothing: huge networks are refused later, by size
  } catch (const std::exception& e) {
    r.fail("network.dims", e.what(), dims);
  }
  c.vcs = topology_shape(c.topology).min_vcs();  // e.g. tori need a dateline pair
  if (n["vcs"]) c.vcs = static_cast<int>(r.integer(n["vcs"], "network.vcs", 1, 16));
  if (n["buffer_flits"]) c.buffer_flits = static_cast<int>(r.integer(n["buffer_flits"], "network.buffer_flits", 1, 4096));
  if (n["port_model"]) {
    const std::string pm = r.string(n["port_model"], "network.port_model");
    if (!parse_port_model(pm, c.ports))
      r.fail("network.port_model", "expected one-port, all-port, k-port or N-port (e.g. 2-port), got \"" + pm + "\"",
             n["port_model"]);
  }
  if (n["ports"]) {
    if (c.ports.kind != PortKind::KPort) r.fail("network.ports", "only meaningful with port_model: k-port", n["ports"]);
    c.ports.k = static_cast<int>(r.integer(n["ports"], "network.ports", 1, 64));
  } else if (c.ports.kind == PortKind::KPort && n["port_model"].Scalar() == "k-port") {
    r.fail("network.ports", "missing: port_model k-port needs ports: K (or write port_model: K-port)", n["port_model"]);
  }
  check_router_ports(n, c, r);
  if (n["routing"]) {
    c.routing = r.string(n["routing"], "network.routing");
    if (c.routing != "dimension-order")
      r.fail("network.routing", "expected dimension-order (explicit per-message routes go in the schedule), got \"" +
                                    c.routing + "\"", n["routing"]);
  }
}

void read_timing(const YAML::Node& n, Config& c, const Reader& r) {
  r.allow_only(n, "timing", {"router_delay", "link_delay", "startup", "credit_delay"});
  if (!n) return;
  if (n["router_delay"]) c.timing.router_delay = static_cast<int>(r.integer(n["router_delay"], "timing.router_delay", 1, 1000));
  if (n["link_delay"]) c.timing.link_delay = static_cast<int>(r.integer(n["link_delay"], "timing.link_delay", 0, 1000));
  if (n["startup"]) c.timing.startup = static_cast<int>(r.integer(n["startup"], "timing.startup", 0, 1000000));
  if (n["credit_delay"]) c.timing.credit_delay = static_cast<int>(r.integer(n["credit_delay"], "timing.credit_delay", 1, 1000));
}

void read_schedule(const YAML::Node& n, Config& c, const Reader& r, const fs::path& base) {
  r.allow_only(n, "schedule",
               {"file", "algorithm", "source", "orientation", "params", "flits", "mode", "strict"});
  if (!n) return;
  c.has_schedule = true;
  ScheduleSource& s = c.schedule;
  if (n["file"] && n["algorithm"]) r.fail("schedule", "give either file or algorithm, not both", n);
  if (n["file"]) {
    const fs::path p = r.string(n["file"], "schedule.file");
    if (p.empty()) r.fail("schedule.file", "expected the path of a schedule JSON file, got an empty string", n["file"]);
    s.file = (p.is_absolute() ? p : base / p).lexically_normal().string();
  } else if (n["algorithm"]) {
    s.algorithm = r.string(n["algorithm"], "schedule.algorithm");
  } else {
    r.fail("schedule", "expected file: PATH or algorithm: NAME", n);
  }
  if (n["source"]) {
    const YAML::Node src = n["source"];
    if (src.IsScalar() && src.Scalar() == "eye") {
      s.source_eye = true;
    } else if (src.IsScalar()) {
      s.source.id = r.integer(src, "schedule.source", 0, 1LL << 30);
    } else if (src.IsSequence()) {
      s.source.is_coords = true;
      for (size_t i = 0; i < src.size(); ++i)
        s.source.coords.push_back(r.integer(src[i], "schedule.source[" + std::to_string(i) + "]", 0, 1 << 24));
    } else {
      r.fail("schedule.source", "expected a node id, a coordinate list or \"eye\"", src);
    }
  }
  if (n["orientation"]) {
    s.orientation = r.string(n["orientation"], "schedule.orientation");
    if (s.orientation != "paper" && s.orientation != "best")
      r.fail("schedule.orientation", "expected paper or best, got \"" + s.orientation + "\"", n["orientation"]);
  }
  if (n["params"]) {
    if (!n["params"].IsMap()) r.fail("schedule.params", "expected a mapping of name: value", n["params"]);
    for (const auto& kv : n["params"]) {
      const std::string name = r.key(kv.first, "schedule.params");
      s.params[name] = r.string(kv.second, "schedule.params." + name);
    }
  }
  if (n["flits"]) s.flits = static_cast<int>(r.integer(n["flits"], "schedule.flits", 1, 1 << 24));
  if (n["mode"]) {
    const std::string m = r.string(n["mode"], "schedule.mode");
    if (!parse_execution_mode(m, c.mode)) r.fail("schedule.mode", "expected barrier or eager, got \"" + m + "\"", n["mode"]);
  }
  if (n["strict"]) c.strict = r.boolean(n["strict"], "schedule.strict");
  const bool generator_only = !s.algorithm.empty();
  if (!generator_only && (n["source"] || n["orientation"] || n["params"]))
    r.fail("schedule", "source, orientation and params go with algorithm, not with file", n);
}

NodeRef read_node_ref(const YAML::Node& n, const std::string& path, const Reader& r) {
  NodeRef ref;
  if (n.IsScalar()) {
    ref.id = r.integer(n, path, 0, 1LL << 30);
  } else if (n.IsSequence()) {
    ref.is_coords = true;
    for (size_t i = 0; i < n.size(); ++i)
      ref.coords.push_back(r.integer(n[i], path + "[" + std::to_string(i) + "]", 0, 1 << 24));
  } else {
    r.fail(path, "expected a node id or a coordinate list", n);
  }
  return ref;
}

// A floating-point scalar; `expected` describes the allowed values in the error.
double number(const YAML::Node& n, const std::string& path, const Reader& r, const std::string& expected) {
  try {
    if (!n.IsScalar()) throw std::invalid_argument("");
    size_t used = 0;
    const double v = std::stod(n.Scalar(), &used);
    if (used == n.Scalar().size()) return v;
  } catch (const std::exception&) {
  }
  r.fail(path, "expected " + expected, n);
}

double probability(const YAML::Node& n, const std::string& path, const Reader& r, bool zero_ok) {
  const std::string range = zero_ok ? "[0, 1]" : "(0, 1]";
  const double v = number(n, path, r, "a number in " + range);
  if (!(v >= 0.0 && v <= 1.0) || (!zero_ok && v == 0.0))
    r.fail(path, "expected a number in " + range + ", got " + n.Scalar(), n);
  return v;
}

// A relative weight: any positive number.
double weight(const YAML::Node& n, const std::string& path, const Reader& r) {
  const double v = number(n, path, r, "a positive number (a relative weight)");
  if (!(v > 0.0 && v < 1e12)) r.fail(path, "expected a positive number (a relative weight), got " + n.Scalar(), n);
  return v;
}

void read_traffic(const YAML::Node& n, Config& c, const Reader& r) {
  r.allow_only(n, "traffic", {"pattern", "rate", "flits", "cycles", "hotspot"});
  if (!n) return;
  c.has_traffic = true;
  BackgroundSpec& t = c.traffic;
  if (!n["pattern"]) r.fail("traffic.pattern", "missing (expected uniform, transpose, bit-complement or hotspot)");
  const std::string pat = r.string(n["pattern"], "traffic.pattern");
  if (!parse_traffic_pattern(pat, t.pattern))
    r.fail("traffic.pattern", "expected uniform, transpose, bit-complement or hotspot, got \"" + pat + "\"", n["pattern"]);
  if (!n["rate"]) r.fail("traffic.rate", "missing (packets per node per cycle, e.g. 0.005)");
  t.rate = probability(n["rate"], "traffic.rate", r, false);
  if (!n["cycles"]) r.fail("traffic.cycles", "missing (length of the injection window in cycles)");
  t.cycles = static_cast<uint64_t>(r.integer(n["cycles"], "traffic.cycles", 1, 1LL << 40));
  const YAML::Node f = n["flits"];
  if (!f) {
    t.lengths = {{16, 1.0}};
  } else if (f.IsScalar()) {
    t.lengths = {{static_cast<int>(r.integer(f, "traffic.flits", 1, 1 << 20)), 1.0}};
  } else if (f.IsSequence() && f.size() > 0) {
    for (size_t i = 0; i < f.size(); ++i)
      t.lengths.push_back({static_cast<int>(r.integer(f[i], "traffic.flits[" + std::to_string(i) + "]", 1, 1 << 20)), 1.0});
  } else if (f.IsMap() && f.size() > 0) {
    for (const auto& kv : f) {
      const std::string key = r.key(kv.first, "traffic.flits");
      t.lengths.push_back({static_cast<int>(r.integer(kv.first, "traffic.flits (key " + key + ")", 1, 1 << 20)),
                           weight(kv.second, "traffic.flits." + key, r)});
    }
  } else {
    r.fail("traffic.flits", "expected a length, a list of lengths, or a mapping length: weight", f);
  }
  if (n["hotspot"]) {
    const YAML::Node h = n["hotspot"];
    if (t.pattern != TrafficPattern::Hotspot)
      r.fail("traffic.hotspot", "only meaningful with pattern: hotspot", h);
    r.allow_only(h, "traffic.hotspot", {"nodes", "fraction"});
    if (!h["nodes"] || !h["nodes"].IsSequence() || h["nodes"].size() == 0)
      r.fail("traffic.hotspot.nodes", "expected a non-empty list of nodes", h);
    for (size_t i = 0; i < h["nodes"].size(); ++i)
      c.hotspot_refs.push_back(read_node_ref(h["nodes"][i], "traffic.hotspot.nodes[" + std::to_string(i) + "]", r));
    if (!h["fraction"]) r.fail("traffic.hotspot.fraction", "missing (share of packets sent to the hotspots)");
    t.hotspot_fraction = probability(h["fraction"], "traffic.hotspot.fraction", r, true);
  } else if (t.pattern == TrafficPattern::Hotspot) {
    r.fail("traffic.hotspot", "missing: pattern hotspot needs hotspot: {nodes: [...], fraction: F}", n);
  }
}

void read_run(const YAML::Node& n, Config& c, const Reader& r) {
  r.allow_only(n, "run", {"seed", "max_cycles", "watchdog_cycles", "fast_paths"});
  if (!n) return;
  if (n["seed"]) c.seed = static_cast<uint64_t>(r.integer(n["seed"], "run.seed", 0, (1LL << 62)));
  if (n["max_cycles"]) c.max_cycles = static_cast<uint64_t>(r.integer(n["max_cycles"], "run.max_cycles", 1, (1LL << 62)));
  if (n["watchdog_cycles"])
    c.watchdog_cycles = static_cast<uint64_t>(r.integer(n["watchdog_cycles"], "run.watchdog_cycles", 0, (1LL << 62)));
  if (n["fast_paths"]) c.fast_paths = r.boolean(n["fast_paths"], "run.fast_paths");
}

void read_output(const YAML::Node& n, Config& c, const Reader& r, const fs::path& base) {
  r.allow_only(n, "output", {"dir", "host_timing", "trace"});
  if (!n) return;
  if (n["dir"]) c.out_dir = r.string(n["dir"], "output.dir");
  if (n["host_timing"]) c.host_timing = r.boolean(n["host_timing"], "output.host_timing");
  if (n["trace"]) {
    c.trace = r.string(n["trace"], "output.trace");
    if (c.trace != "none" && c.trace != "perfetto" && c.trace != "vcd")
      r.fail("output.trace", "expected none, perfetto or vcd, got \"" + c.trace + "\"", n["trace"]);
  }
  (void)base;
}

}  // namespace

Config load_config(const std::string& path, const std::vector<std::string>& overrides) {
  Config c;
  c.path = path;
  Reader r(path);
  YAML::Node root;
  std::string text;
  try {
    text = read_input_file(path);
  } catch (const InputFileError& e) {
    throw ConfigError(path + ": cannot open config file: " + e.what());
  }
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw ConfigError(path + ": not valid YAML (line " + std::to_string(e.mark.line + 1) + "): " + e.msg);
  } catch (const YAML::Exception& e) {
    throw ConfigError(path + ": not valid YAML (line " + std::to_string(e.mark.line + 1) + "): " + e.msg);
  } catch (const std::exception&) {
    throw ConfigError(path + ": cannot read config file (is it a folder?)");
  }
  if (root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
  if (!root.IsMap()) r.fail("(top level)", "expected a mapping with network, schedule, ...", root);
  for (const auto& o : overrides) apply_override(root, o, r);
  try {
    r.allow_only(root, "", {"network", "timing", "schedule", "traffic", "run", "output"});
    const fs::path base = fs::path(path).parent_path();
    read_network(root["network"], c, r);
    read_timing(root["timing"], c, r);
    read_schedule(root["schedule"], c, r, base);
    read_traffic(root["traffic"], c, r);
    read_run(root["run"], c, r);
    c.traffic.seed = c.seed;
    if (!c.has_schedule && !c.has_traffic)
      r.fail("schedule", "missing: a run needs a schedule (file: PATH or algorithm: NAME), background traffic, or both");
    read_output(root["output"], c, r, base);
    // Each config gets its own folder by default, so runs of different configs never meet.
    if (c.out_dir.empty()) c.out_dir = (fs::path("out") / fs::path(path).stem()).string();
  } catch (const YAML::Exception& e) {
    throw ConfigError(path + ": " + e.msg);
  }
  return c;
}

}  // namespace wormsim

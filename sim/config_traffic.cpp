// The `traffic` section: synthetic background load (sim/background_traffic.hpp).
#include <algorithm>
#include <cctype>
#include <set>
#include <string>

#include "sim/config_reader.hpp"
#include "models/limits.hpp"
#include "sim/traffic/injection.hpp"
#include "sim/traffic/pattern.hpp"

namespace wormsim {

namespace {

using P = ParamDecl;

const ParamSection kTrafficParams{
    "traffic", "background traffic", "synthetic background load, with or without a schedule", {}, 50,
    {P::choice("pattern", pattern_names())
         .must_be_given()
         .describe("how each packet's destination is chosen (definitions: docs/config-reference.md, Patterns)"),
     P::number("rate", "(0, 1]")
         .must_be_given()
         .in("packets per node per cycle")
         .describe("packets per node per cycle, e.g. 0.005 (mean rate, whatever the injection process)"),
     P::choice("injection", injection_names())
         .by_default(injection_names().front())
         .describe("when nodes generate packets: independent per cycle, bursty two-state Markov, or periodic "
                   "(echoed when given)"),
     P::integer("cycles", 1, kMaxTrafficCycles)
         .range("1..2^40")
         .in("cycles")
         .describe("length of the injection window in cycles; required unless measure_cycles is given"),
     P::compound("warmup_cycles", "integer or auto")
         .by_default(0)
         .range("0..2^40, or auto")
         .in("cycles")
         .describe("with measure_cycles: cycles of offered traffic before the measurement window opens; auto: until "
                   "latency and accepted rate stabilise (warmup_sample_cycles, warmup_tolerance, warmup_max_cycles)"),
     P::integer("measure_cycles", 1, kMaxTrafficCycles)
         .range("1..2^40")
         .in("cycles")
         .describe("length of the measurement window: statistics cover the packets created in it "
                   "(docs/load-studies.md); not with cycles"),
     P::integer("drain_cycles", 1, kMaxTrafficCycles)
         .default_is("10 x measure_cycles")
         .range("1..2^40")
         .in("cycles")
         .describe("with measure_cycles: cycles after the window within which its packets must be delivered, "
                   "else the run stops as saturated; with a schedule under the load, also the longest a background "
                   "packet may wait at its interface once the window has drained, plus the schedule's flit span (the sum "
                   "over its steps of each step's longest message), else the run stops as saturated (load.backlogged)"),
     P::compound("flits", "integer, list, or mapping")
         .by_default(16)
         .range("lengths 1..1048576")
         .in("flits")
         .describe("one length; a list of lengths (equally likely); or {length: weight} with positive weights"),
     P::compound("hotspot", "mapping")
         .describe("the hotspot nodes and the share of packets sent to them; required for pattern hotspot"),
     P::compound("classes", "list of mappings")
         .range("1..64 classes")
         .describe("several traffic classes, each a mapping of its own name, pattern, rate, injection (and its "
                   "parameters), flits and hotspot; the phase keys stay here, shared (docs/load-studies.md, Traffic "
                   "classes)"),
     P::string("name")
         .default_is("class<i>")
         .range("letters, digits, _ . -")
         .describe("in an entry of classes only: the class's name in summary.json classes")}};
WORMSIM_DECLARE_PARAMS(kTrafficParams);

const ParamSection kOnOffParams{
    "traffic", "on-off injection", "the two-state Markov chain of bursty injection", {"traffic.injection", "on-off"}, 50,
    {P::number("burst_alpha", "(0, 1]")
         .must_be_given()
         .describe("probability per cycle that an off node turns on"),
     P::number("burst_beta", "[0, 1]")
         .must_be_given()
         .describe("probability per cycle that an on node turns off; rate * (alpha + beta) / alpha must be <= 1")}};
WORMSIM_DECLARE_PARAMS(kOnOffParams);

const ParamSection kAdaptiveWarmupParams{
    "traffic", "adaptive warm-up", "the warm-up that ends when the network is warm (docs/load-studies.md)",
    {"traffic.warmup_cycles", "auto"}, 50,
    {P::integer("warmup_sample_cycles", 1, kMaxTrafficCycles)
         .by_default(1000)
         .range("1..2^40")
         .in("cycles")
         .describe("length of one warm-up sample (BookSim's sample_period)"),
     P::number("warmup_tolerance", "(0, 1)")
         .by_default(0.05)
         .describe("warm when mean latency and accepted rate each change by less than this fraction from one sample "
                   "to the next (BookSim's warmup_threshold)"),
     P::integer("warmup_max_cycles", 2, kMaxTrafficCycles)
         .default_is("20 x warmup_sample_cycles")
         .range("2 x warmup_sample_cycles..2^40")
         .in("cycles")
         .describe("the cap: the window opens here if the network has not stabilised (reported as stabilised: "
                   "false)")}};
WORMSIM_DECLARE_PARAMS(kAdaptiveWarmupParams);

const ParamSection kHotspotParams{
    "traffic.hotspot", "background traffic", "the hotspots of pattern hotspot", {"traffic.pattern", "hotspot"}, 50,
    {P::compound("nodes", "list of nodes").must_be_given().range("nodes of the network").describe("the hotspot nodes"),
     P::number("fraction", "[0, 1]").must_be_given().describe("share of packets sent to a hotspot"),
     P::compound("weights", "list of numbers")
         .default_is("equal")
         .range("positive, one per node")
         .describe("relative weight of each hotspot node, in the order of nodes (echoed when given)")}};
WORMSIM_DECLARE_PARAMS(kHotspotParams);

NodeRef read_node_ref(const ConfigFile& f, const YAML::Node& n, const std::string& path) {
  NodeRef ref;
  if (n.IsScalar()) {
    ref.id = f.integer(n, path, 0, kMaxNodeIdLiteral);
  } else if (n.IsSequence()) {
    ref.is_coords = true;
    for (size_t i = 0; i < n.size(); ++i) ref.coords.push_back(f.integer(n[i], path + "[" + std::to_string(i) + "]", 0, kMaxRadix));
  } else {
    f.fail(path, "expected a node id or a coordinate list", n);
  }
  return ref;
}

double probability(const ConfigSection& s, const std::string& key, bool zero_ok) {
  const std::string range = zero_ok ? "[0, 1]" : "(0, 1]";
  const YAML::Node n = s.at(key);
  const double v = s.file().number(n, s.path_of(key), "a number in " + range);
  if (!(v >= 0.0 && v <= 1.0) || (!zero_ok && v == 0.0)) s.fail(key, "expected a number in " + range + ", got " + n.Scalar(), n);
  return v;
}

// A relative weight: any positive number.
double weight(const ConfigFile& f, const YAML::Node& n, const std::string& path) {
  const double v = f.number(n, path, "a positive number (a relative weight)");
  if (!(v > 0.0 && v < 1e12)) f.fail(path, "expected a positive number (a relative weight), got " + n.Scalar(), n);
  return v;
}

void read_lengths(ConfigSection& s, BackgroundSpec& t) {
  const ConfigFile& f = s.file();
  const YAML::Node n = s.at("flits");
  const std::string path = s.path_of("flits");
  const long long max_length = kMaxPacketFlits;
  if (!n) {
    t.lengths = {{s.decl("flits").fixed_default.get<int>(), 1.0}};
  } else if (n.IsScalar()) {
    t.lengths = {{static_cast<int>(f.integer(n, path, 1, max_length)), 1.0}};
  } else if (n.IsSequence() && n.size() > 0) {
    for (size_t i = 0; i < n.size(); ++i)
      t.lengths.push_back({static_cast<int>(f.integer(n[i], path + "[" + std::to_string(i) + "]", 1, max_length)), 1.0});
  } else if (n.IsMap() && n.size() > 0) {
    for (const auto& kv : n) {
      const std::string key = f.key(kv.first, path);
      t.lengths.push_back({static_cast<int>(f.integer(kv.first, path + " (key " + key + ")", 1, max_length)),
                           weight(f, kv.second, path + "." + key)});
    }
  } else {
    s.fail("flits", "expected a length, a list of lengths, or a mapping length: weight", n);
  }
  nlohmann::ordered_json lengths = nlohmann::ordered_json::array();
  for (const auto& [flits, w] : t.lengths) lengths.push_back({{"flits", flits}, {"weight", w}});
  s.record("flits", lengths);
}

void read_hotspot_weights(ConfigSection& hs, BackgroundSpec& t, size_t nodes) {
  const YAML::Node w = hs.at("weights");
  if (!w.IsSequence() || w.size() != nodes)
    hs.fail("weights", "expected a list of " + std::to_string(nodes) + " positive numbers, one per node", w);
  for (size_t i = 0; i < w.size(); ++i)
    t.hotspot_weights.push_back(weight(hs.file(), w[i], hs.path_of("weights") + "[" + std::to_string(i) + "]"));
  hs.record("weights", t.hotspot_weights);
}

// `s` is the traffic section or one entry of traffic.classes; the hotspot
// mapping is an instance of traffic.hotspot's declarations at its own path.
void read_hotspot(ConfigSection& s, Config& c, TrafficClass& tc) {
  BackgroundSpec& t = tc.spec;
  if (!s.has("hotspot")) {
    if (t.pattern == "hotspot")
      s.file().fail(s.path_of("hotspot"), "missing: pattern hotspot needs hotspot: {nodes: [...], fraction: F}", s.node());
    return;
  }
  const YAML::Node h = s.at("hotspot");
  if (t.pattern != "hotspot") s.fail("hotspot", "only meaningful with pattern: hotspot", h);
  ConfigSection hs(s.file(), h, s.path_of("hotspot"), c, "traffic.hotspot");
  hs.check_keys();
  const YAML::Node nodes = hs.at("nodes");
  if (!nodes || !nodes.IsSequence() || nodes.size() == 0) hs.fail("nodes", "expected a non-empty list of nodes", h);
  for (size_t i = 0; i < nodes.size(); ++i)
    tc.hotspot_refs.push_back(read_node_ref(s.file(), nodes[i], hs.path_of("nodes") + "[" + std::to_string(i) + "]"));
  if (!hs.has("fraction")) hs.missing("fraction", "share of packets sent to the hotspots");
  t.hotspot_fraction = probability(hs, "fraction", true);
  // The nodes are echoed as ids once the run resolves them against the topology (prepare_traffic, sim/run.cpp).
  hs.record("nodes", nlohmann::ordered_json::array());
  hs.record("fraction", t.hotspot_fraction);
  if (hs.has("weights")) read_hotspot_weights(hs, t, nodes.size());
}

// The on-off chain; whether the rate it implies while on is at most 1 is
// checked with the rest of the spec (check_background).
void read_on_off(ConfigSection& s, BackgroundSpec& t) {
  for (const char* key : {"burst_alpha", "burst_beta"})
    if (!s.has(key)) s.missing(key);
  t.burst_alpha = probability(s, "burst_alpha", false);
  t.burst_beta = probability(s, "burst_beta", true);
  s.record("burst_alpha", t.burst_alpha);
  s.record("burst_beta", t.burst_beta);
}

// warmup_cycles: auto, read before the keys are checked, so that the adaptive
// warm-up's own keys apply.
bool adaptive_warmup_given(ConfigSection& s) {
  if (!s.given() || !s.node().IsMap() || !s.has("warmup_cycles")) return false;
  const YAML::Node n = s.at("warmup_cycles");
  if (!n.IsScalar() || n.Scalar() != "auto") return false;
  s.record("warmup_cycles", "auto");
  return true;
}

uint64_t fixed_warmup(const ConfigSection& s) {
  const YAML::Node n = s.at("warmup_cycles");
  const std::string expected = "an integer from 0 to " + std::to_string(kMaxTrafficCycles) + ", or auto";
  if (!n.IsScalar() || n.Scalar().find_first_not_of("+-0123456789") != std::string::npos)
    s.fail("warmup_cycles", "expected " + expected + ", got " + (n.IsScalar() ? "\"" + n.Scalar() + "\"" : ConfigFile::kind(n)), n);
  return static_cast<uint64_t>(s.file().integer(n, s.path_of("warmup_cycles"), 0, kMaxTrafficCycles));
}

void read_adaptive_warmup(ConfigSection& s, WarmupSpec& a) {
  a.sample = static_cast<uint64_t>(s.integer("warmup_sample_cycles"));
  if (s.has("warmup_tolerance")) {
    const YAML::Node n = s.at("warmup_tolerance");
    a.tolerance = s.file().number(n, s.path_of("warmup_tolerance"), "a number in (0, 1)");
    if (!(a.tolerance > 0.0 && a.tolerance < 1.0))
      s.fail("warmup_tolerance", "expected a number in (0, 1), got " + n.Scalar(), n);
  }
  s.record("warmup_tolerance", a.tolerance);
  a.max = s.has("warmup_max_cycles") ? static_cast<uint64_t>(s.integer("warmup_max_cycles"))
                                     : std::min<uint64_t>(20 * a.sample, kMaxTrafficCycles);
  s.record("warmup_max_cycles", a.max);
  if (a.max < 2 * a.sample)
    s.fail("warmup_max_cycles",
           "expected at least 2 x warmup_sample_cycles = " + std::to_string(2 * a.sample) +
               " (two samples are compared), got " + std::to_string(a.max),
           s.has("warmup_max_cycles") ? s.at("warmup_max_cycles") : s.at("warmup_sample_cycles"));
}

// Either an injection window (cycles) or phases (warm-up, measurement, drain cap).
void read_phases(ConfigSection& s, Config& c) {
  WindowSpec& w = c.window;
  if (!s.has("measure_cycles")) {
    for (const char* key : {"warmup_cycles", "drain_cycles"})
      if (s.has(key)) s.fail(key, "only meaningful with measure_cycles (a measurement window)", s.at(key));
    if (!s.has("cycles")) s.missing("cycles", "length of the injection window, or measure_cycles for a measured load run");
    c.traffic_cycles = static_cast<uint64_t>(s.integer("cycles"));
    return;
  }
  if (s.has("cycles"))
    s.fail("cycles", "give either cycles (an injection window) or measure_cycles (phases), not both", s.at("cycles"));
  w.enabled = true;
  if (!w.adaptive.automatic) {
    w.warmup = s.has("warmup_cycles") ? fixed_warmup(s) : 0;
    s.record("warmup_cycles", w.warmup);
  } else {
    read_adaptive_warmup(s, w.adaptive);
  }
  w.measure = static_cast<uint64_t>(s.integer("measure_cycles"));
  w.drain = s.has("drain_cycles") ? static_cast<uint64_t>(s.integer("drain_cycles")) : 10 * w.measure;
  s.record("drain_cycles", w.drain);
  if (w.offer_limit() > kMaxTrafficCycles)
    s.fail("measure_cycles",
           std::string(w.adaptive.automatic ? "warmup_max_cycles" : "warmup_cycles") +
               " + measure_cycles + drain_cycles must be at most 2^40",
           s.at("measure_cycles"));
  c.traffic_cycles = w.offer_limit();  // packets are offered until the window drains, at most to the drain cap
}

// A class's own keys, in two parts around the phases so that the plain form's
// config echo keeps its order: the pattern and rate, then the rest.
void read_class_head(ConfigSection& s, BackgroundSpec& t) {
  t.pattern = s.choice("pattern");
  if (!s.has("rate")) s.missing("rate");
  t.rate = probability(s, "rate", false);
  s.record("rate", t.rate);
}

void read_class_tail(ConfigSection& s, Config& c, TrafficClass& tc) {
  read_lengths(s, tc.spec);
  read_hotspot(s, c, tc);
  if (tc.spec.injection == "on-off") read_on_off(s, tc.spec);
}

// The injection process first, whose own keys apply once it is known. Echoed
// only when given, so that configs that leave it out keep the same summary bytes.
void read_injection(ConfigSection& s, BackgroundSpec& t) {
  if (s.given() && s.node().IsMap() && s.has("injection")) t.injection = s.choice("injection");
}

// A class name belongs to an entry of traffic.classes (checked as a string
// first, as every declared key is).
void refuse_name(const ConfigSection& s) {
  if (!s.has("name")) return;
  s.file().string(s.at("name"), s.path_of("name"));
  s.fail("name", "only meaningful in an entry of traffic.classes", s.at("name"));
}

constexpr size_t kMaxClasses = 64;
const char* const kClassKeys[] = {"pattern", "rate", "injection", "flits", "hotspot", "burst_alpha", "burst_beta"};
const char* const kPhaseKeys[] = {"cycles",        "warmup_cycles",        "measure_cycles",    "drain_cycles",
                                  "warmup_sample_cycles", "warmup_tolerance", "warmup_max_cycles", "classes"};

std::string class_name(ConfigSection& cs, size_t index) {
  if (!cs.has("name")) {
    const std::string name = "class" + std::to_string(index);
    cs.record("name", name);
    return name;
  }
  const YAML::Node n = cs.at("name");
  const std::string name = cs.string("name");
  const bool ok = !name.empty() && name.size() <= 64 &&
                  std::all_of(name.begin(), name.end(), [](char ch) {
                    return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.' || ch == '-';
                  });
  if (!ok) cs.fail("name", "expected a name of 1 to 64 letters, digits, _ . or -, got \"" + name + "\"", n);
  return name;
}

// traffic.classes[i]: an instance of the traffic section's declarations
// without its phase keys, which all classes share.
void read_class(ConfigSection& s, const YAML::Node& node, size_t index, Config& c, std::set<std::string>& names) {
  const std::string path = s.path_of("classes") + "[" + std::to_string(index) + "]";
  if (!node.IsMap() || node.size() == 0)
    s.file().fail(path, "expected a mapping with pattern and rate (a traffic class), got " + ConfigFile::kind(node), node);
  ConfigSection cs(s.file(), node, path, c, "traffic");
  for (const char* key : kPhaseKeys)
    if (cs.has(key))
      cs.fail(key, std::string("a phase key, shared by every class: give ") + key + " once at traffic level", cs.at(key));
  TrafficClass& tc = c.classes.emplace_back();
  read_injection(cs, tc.spec);
  cs.check_keys();
  tc.name = class_name(cs, index);
  if (!names.insert(tc.name).second)
    cs.fail("name", "duplicate class name \"" + tc.name + "\" (each class needs its own)", cs.has("name") ? cs.at("name") : node);
  read_class_head(cs, tc.spec);
  read_class_tail(cs, c, tc);
}

void read_classes(ConfigSection& s, Config& c) {
  for (const char* key : kClassKeys)
    if (s.has(key))
      s.fail(key, std::string("with classes, give ") + key + " per class under traffic.classes (traffic keeps the "
                  "phase keys only)", s.at(key));
  refuse_name(s);
  c.window.adaptive.automatic = adaptive_warmup_given(s);
  s.check_keys();
  c.has_traffic = true;
  c.classes_given = true;
  read_phases(s, c);
  const YAML::Node list = s.at("classes");
  if (!list.IsSequence() || list.size() == 0 || list.size() > kMaxClasses)
    s.fail("classes", "expected a list of 1 to " + std::to_string(kMaxClasses) +
                          " traffic classes, each a mapping with pattern and rate, got " +
                          (list.IsSequence() ? std::to_string(list.size()) + " entries" : ConfigFile::kind(list)),
           list);
  std::set<std::string> names;
  for (size_t i = 0; i < list.size(); ++i) read_class(s, list[i], i, c, names);
}

}  // namespace

void read_traffic(ConfigSection& s, Config& c) {
  if (s.given() && s.node().IsMap() && s.has("classes")) return read_classes(s, c);
  BackgroundSpec t;
  read_injection(s, t);
  c.window.adaptive.automatic = adaptive_warmup_given(s);
  s.check_keys();
  if (!s.given()) return;
  refuse_name(s);
  c.has_traffic = true;
  TrafficClass& tc = c.classes.emplace_back();
  tc.name = "class0";
  tc.spec = t;
  read_class_head(s, tc.spec);
  read_phases(s, c);
  read_class_tail(s, c, tc);
}

void record_hotspot_nodes(Config& c) {
  for (size_t i = 0; i < c.classes.size(); ++i) {
    if (c.classes[i].spec.pattern != "hotspot") continue;
    nlohmann::ordered_json& at = c.classes_given ? c.values["traffic"]["classes"][i] : c.values["traffic"];
    at["hotspot"]["nodes"] = c.classes[i].spec.hotspots;
  }
}

}  // namespace wormsim

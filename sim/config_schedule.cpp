// The `schedule` section: a schedule file or a generator, and how it is released.
// A generator's own parameters (the eye generator's `orientation`, tcd-optimal's
// `params.variant`) are declared by the generator (schedules/generators/).
#include "sim/config_reader.hpp"
#include "models/limits.hpp"

#include <filesystem>

namespace wormsim {

namespace {

using P = ParamDecl;

const ParamSection kScheduleParams{
    "schedule", "schedule", "a schedule file or a generator, and how its steps are released", {}, 30,
    {P::string("file")
         .range("path")
         .excluding("algorithm")
         .describe("schedule JSON; a relative path is resolved against the config file's folder"),
     P::string("algorithm")
         .range("a name listed by `wormsim algorithms`")
         .excluding("file")
         .describe("generate the schedule for this network instead of reading a file"),
     P::compound("source", "node or `eye`")
         .default_is("node 0")
         .range("a node of the network")
         .describe("generator only: broadcast/scatter root; eye: start from an eye of the mesh (eye generators)"),
     P::compound("params", "mapping name: scalar")
         .default_is("`{}`")
         .range("declared by the generator")
         .describe("generator only: the generator's own parameters (schedule.params.* below)"),
     P::integer("flits", 1, kMaxMessageFlits)
         .default_is("unset")
         .in("flits")
         .describe("file: replaces every message's length; generator: the message length (unset: 16)"),
     P::choice("mode", {"barrier", "eager"}).by_default("barrier").describe("release rule of the steps"),
     P::boolean("strict")
         .by_default(false)
         .describe("make schedule warnings (port-model violations) errors; --strict does the same"),
     P::compound("repeat", "mapping")
         .default_is("one run from cycle 0")
         .describe("when the schedule starts and how often it runs again (schedule.repeat.* below)")}};
WORMSIM_DECLARE_PARAMS(kScheduleParams);

// Repetitions of the schedule (sim/repetitions.hpp), e.g. a broadcast under steady load.
constexpr long long kMaxRepetitions = 1000000;
const ParamSection kRepeatParams{
    "schedule.repeat", "schedule", "when the schedule starts and how often it runs (docs/load-studies.md)", {}, 30,
    {P::integer("count", 1, kMaxRepetitions)
         .by_default(1)
         .in("repetitions")
         .describe("runs of the whole schedule, each with new messages and the same steps; its messages' records "
                   "are recycled as they are delivered, and a repetition's rows of `steps.csv` and `repetitions.csv` "
                   "are written once it has ended, so memory does not grow with the count (docs/load-studies.md, "
                   "\"Long runs: memory\")"),
     P::integer("start_cycle", 0, kMaxTrafficCycles)
         .default_is("the window's opening (end of warm-up) with a measurement window, else 0")
         .range("0..2^40")
         .in("cycles")
         .describe("cycle the first repetition starts"),
     P::integer("period_cycles", 1, kMaxTrafficCycles)
         .default_is("unset: back to back")
         .range("1..2^40")
         .in("cycles")
         .describe("repetition r is due at start_cycle + r * period_cycles (later if the previous one is still "
                   "running); not with gap_cycles"),
     P::integer("gap_cycles", 0, kMaxTrafficCycles)
         .by_default(0)
         .range("0..2^40")
         .in("cycles")
         .describe("back to back: cycles from one repetition's completion to the next's start")}};
WORMSIM_DECLARE_PARAMS(kRepeatParams);

void read_source(ConfigSection& s, ScheduleSource& src) {
  const YAML::Node n = s.at("source");
  if (!n) {
    s.record("source", 0);
    return;
  }
  const std::string path = s.path_of("source");
  if (n.IsScalar() && n.Scalar() == "eye") {
    src.source_eye = true;
    s.record("source", "eye");
  } else if (n.IsScalar()) {
    src.source.id = s.file().integer(n, path, 0, kMaxNodeIdLiteral);
    s.record("source", src.source.id);
  } else if (n.IsSequence()) {
    src.source.is_coords = true;
    for (size_t i = 0; i < n.size(); ++i)
      src.source.coords.push_back(s.file().integer(n[i], path + "[" + std::to_string(i) + "]", 0, kMaxRadix));
    s.record("source", src.source.coords);
  } else {
    s.fail("source", "expected a node id, a coordinate list or \"eye\"", n);
  }
}

// A generator's declared keys, read by their declarations; values are handed
// to the generator as text (GeneratorOptions::params).
std::string read_declared(ConfigSection& s, const ParamDecl& d) {
  switch (d.type) {
    case ParamType::Integer: return std::to_string(s.integer(d.key));
    case ParamType::Boolean: return s.boolean(d.key) ? "true" : "false";
    case ParamType::Choice: return s.choice(d.key);
    default: return s.string(d.key);
  }
}

void read_generator_params(ConfigSection& s, Config& c) {
  ScheduleSource& src = c.schedule;
  // The orientation slot stays in the echo of every generated schedule, even one
  // whose generator does not declare it: summaries keep the same keys and bytes.
  src.orientation = declared_default("schedule.orientation");
  s.record("orientation", src.orientation);
  for (const ParamSection* g : param_sections_at("schedule"))
    if (!g->when.always() && condition_holds(g->when, c))
      for (const ParamDecl& d : g->params) {
        const std::string v = read_declared(s, d);
        if (d.key == "orientation") src.orientation = v;
      }
  ConfigSection params(s.file(), s.at("params"), s.path_of("params"), c);
  if (params.given() && !params.node().IsMap())
    s.fail("params", "expected a mapping of name: value", params.node());
  bool declared = false;
  for (const ParamSection* g : param_sections_at(s.path_of("params"))) declared = declared || condition_holds(g->when, c);
  if (!declared && params.given() && params.node().size() > 0) {
    const auto first = params.node().begin();
    params.fail(s.file().key(first->first, s.path_of("params")), "unknown key (" + src.algorithm + " takes no params)",
                first->first);
  }
  params.check_keys();
  if (params.given())
    for (const auto& kv : params.node()) {
      const std::string name = s.file().key(kv.first, s.path_of("params"));
      src.params[name] = read_declared(params, params.decl(name));
    }
  s.record("params", src.params);
}

}  // namespace

void read_schedule(ConfigSection& s, Config& c, const std::string& base_dir) {
  parse_execution_mode(declared_default("schedule.mode"), c.mode);  // a run without a schedule echoes neither
  c.strict = declared_default("schedule.strict") == "true";
  if (!s.given()) return;
  if (!s.node().IsMap()) return s.check_keys();
  c.has_schedule = true;
  ScheduleSource& src = c.schedule;
  if (s.has("file") && s.has("algorithm")) s.file().fail("schedule", "give either file or algorithm, not both", s.node());
  if (s.has("file") && (s.has("source") || s.has("orientation") || s.has("params")))
    s.file().fail("schedule", "source, orientation and params go with algorithm, not with file", s.node());
  if (s.has("file")) {
    const std::filesystem::path p = s.file().string(s.at("file"), s.path_of("file"));
    if (p.empty()) s.fail("file", "expected the path of a schedule JSON file, got an empty string", s.at("file"));
    src.file = (p.is_absolute() ? p : std::filesystem::path(base_dir) / p).lexically_normal().string();
    s.record("file", src.file);
  } else if (s.has("algorithm")) {
    src.algorithm = s.string("algorithm");
  }
  s.check_keys();
  if (src.file.empty() && src.algorithm.empty()) s.file().fail("schedule", "expected file: PATH or algorithm: NAME", s.node());
  if (!src.algorithm.empty()) {
    read_source(s, src);
    read_generator_params(s, c);
  }
  if (s.has("flits")) src.flits = static_cast<int>(s.integer("flits"));
  parse_execution_mode(s.choice("mode"), c.mode);
  c.strict = s.boolean("strict");
}

// Read after the traffic section: the first repetition's default start is the
// end of the warm-up. A schedule timed against a measurement window reports
// its repetitions even when it runs once.
void read_schedule_repeat(ConfigSection& s, Config& c) {
  RepeatSpec& r = c.repeat;
  if (!c.has_schedule) return;
  const bool given = s.has("repeat");
  r.reported = given || c.window.enabled;
  if (!r.reported) return;
  if (given && !s.at("repeat").IsMap())
    s.fail("repeat", "expected a mapping with count, start_cycle, period_cycles or gap_cycles", s.at("repeat"));
  ConfigSection rs(s.file(), given ? s.at("repeat") : YAML::Node(YAML::NodeType::Map), s.path_of("repeat"), c);
  rs.check_keys();
  if (rs.has("period_cycles") && rs.has("gap_cycles"))
    rs.fail("gap_cycles",
            "give either period_cycles (a repetition every N cycles) or gap_cycles (back to back, N cycles apart), "
            "not both",
            rs.at("gap_cycles"));
  r.count = static_cast<uint32_t>(rs.integer("count"));
  r.at_window_open = !rs.has("start_cycle") && c.window.enabled && c.window.adaptive.automatic;
  r.start = rs.has("start_cycle") ? static_cast<uint64_t>(rs.integer("start_cycle")) : c.window.enabled ? c.window.warmup : 0;
  if (r.at_window_open) r.start = kNever;
  rs.record("start_cycle", r.at_window_open ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(r.start));
  r.period = rs.has("period_cycles") ? static_cast<uint64_t>(rs.integer("period_cycles")) : 0;
  if (!r.period) rs.record("period_cycles", nullptr);
  r.gap = static_cast<uint64_t>(rs.integer("gap_cycles"));
}

}  // namespace wormsim

// Run configuration, read from YAML (docs/config-reference.md). Every key is
// checked: unknown keys and wrong types are errors naming the file, the key
// path and what was expected. Any key can be overridden from the command line
// with --set path=value (value in YAML syntax) before the checks run.
#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/port_model.hpp"
#include "models/timing.hpp"
#include "models/topology.hpp"
#include "models/node_id.hpp"
#include "schedules/terminal_text.hpp"
#include "sim/background_traffic.hpp"
#include "sim/executor.hpp"
#include "sim/measurement_window.hpp"
#include "sim/repetitions.hpp"

namespace wormsim {

// Its message may quote the user's text: escaped (schedules/terminal_text.hpp),
// so that a NUL does not cut it short and nothing in it acts on a terminal.
struct ConfigError : std::runtime_error {
  explicit ConfigError(const std::string& what) : std::runtime_error(printable(what)) {}
};

// One class of background traffic: its own pattern, rate, lengths and
// injection process (traffic.classes[i], or the traffic section itself).
struct TrafficClass {
  std::string name;                    // traffic.classes[i].name (class<i> by default); the plain form's: class0
  BackgroundSpec spec;                 // seed: derived from run.seed (class_seed); hotspots resolved at run time
  std::vector<NodeRef> hotspot_refs;   // its hotspot.nodes as given
};

struct ScheduleSource {
  std::string file;        // resolved path, or empty when a generator is named
  std::string algorithm;   // generator name, or empty
  NodeRef source;          // generator source (default node 0)
  bool source_eye = false;
  std::string orientation;  // the eye generator's (schedule.orientation)
  std::map<std::string, std::string> params;
  int flits = 0;           // 0: keep the schedule's lengths; else every message has this many flits
};

// Defaults live in the declarations (sim/config_<section>.cpp), not here:
// load_config sets every field from the file or the declared default.
struct Config {
  std::string path;  // the config file
  // network
  TopologySpec topology;
  int vcs = 0;
  int buffer_flits = 0;
  PortModel ports;
  std::string routing;
  bool allow_deadlock = false;  // network.allow_deadlock: run what can deadlock (routing, multicast schemes)
  Timing timing;
  // schedule and execution (a run has a schedule, background traffic, or both)
  bool has_schedule = false;
  ScheduleSource schedule;
  RepeatSpec repeat;  // schedule.repeat: when the schedule starts and how often it runs
  bool has_traffic = false;
  // The classes of background traffic, in order (at least one with has_traffic):
  // the traffic section's own keys form the one class of the plain form.
  std::vector<TrafficClass> classes;
  bool classes_given = false;  // traffic.classes: per-class statistics are reported
  uint64_t traffic_cycles = 0;  // packets are offered in [0, traffic_cycles) (traffic.cycles, or the phases' cap)
  WindowSpec window;       // traffic.warmup_cycles, measure_cycles, drain_cycles
  ExecutionMode mode = ExecutionMode::Barrier;  // schedule.mode
  bool strict = false;                          // schedule.strict
  // run
  uint64_t seed = 0;
  uint64_t max_cycles = 0;
  uint64_t watchdog_cycles = 0;
  bool fast_paths = false;  // run.fast_paths: false steps every router through the full pipeline (same results)
  // output
  std::string out_dir;  // output.dir; load_config fills in out/<config name> when absent
  bool host_timing = false;
  std::string trace;  // none | perfetto | vcd (sim/timeline_trace.hpp)
  bool router_stats = false;  // output.router_stats: routers.csv, vcs.csv, hops.csv and summary.json router_stats
  bool background_rows = true;  // output.messages: all (true) | schedule (false: the background has no rows)
  // The effective value of every key read, by section, as the reader recorded
  // it; summary.json's config echo is written from it (sim/config_echo.hpp).
  nlohmann::ordered_json values = nlohmann::ordered_json::object();
};

// Whether delivered background messages give their records back
// (sim/message_retirement.hpp): always, but for a trace, whose timeline names
// every message.
inline bool recycles_background(const Config& c) { return c.has_traffic && c.trace == "none"; }

// Loads and checks a config; `overrides` are "key.path=value" strings.
// Throws ConfigError with "FILE: key.path: what was expected" on any problem.
Config load_config(const std::string& path, const std::vector<std::string>& overrides);

// Parses the config file at `path` ahead, for the next load_config of the same
// text in this process (which takes the tree) or in each child forked after
// this call (each takes its own copy): `wormsim batch` loads one base config
// per point, and parsing it was most of a small point's set-up. A file that
// does not read or parse is left to load_config to report.
void preparse_config(const std::string& path);

// Records each class's hotspot.nodes as node ids once the run has resolved them
// (BackgroundSpec::hotspots) against the topology, for the config echo.
void record_hotspot_nodes(Config& config);

}  // namespace wormsim

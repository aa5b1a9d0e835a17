#include "sim/run.hpp"
#include "sim/vcd_header.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <stdexcept>
#include <tuple>
#include <unistd.h>
#include <memory>
#include <optional>

#include <spdlog/spdlog.h>
#include <sysc/tracing/sc_tracing_ids.h>

#include "models/limits.hpp"
#include "models/memory_guard.hpp"
#include "models/network.hpp"
#include "models/prefault.hpp"
#include "models/topology_shape.hpp"
#include "schedules/generators/generators.hpp"
#include "schedules/input_file.hpp"
#include "schedules/schedule_json.hpp"
#include "schedules/validator.hpp"
#include "sim/background_traffic.hpp"
#include "sim/executor.hpp"
#include "sim/message_retirement.hpp"
#include "sim/streamed_message_rows.hpp"
#include "sim/metrics.hpp"
#include "sim/atomic_file.hpp"
#include "sim/output_set.hpp"
#include "sim/outputs.hpp"
#include "sim/load_deadlock_watch.hpp"
#include "sim/progress_log.hpp"
#include "sim/repetitions.hpp"
#include "sim/multicast_checks.hpp"
#include "sim/run_memory.hpp"
#include "sim/schedule_retirement.hpp"
#include "sim/version.hpp"
#include "sim/timeline_trace.hpp"

namespace wormsim {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// The process's CPU seconds (user and system) so far: the phase times logged at
// --log-level info give both, since a shared machine stretches the wall time.
double cpu_seconds() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0.0;
  const auto secs = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return secs(usage.ru_utime) + secs(usage.ru_stime);
}

void on_signal(int) { Network::request_stop(); }

// WORMSIM_ROW_WINDOW shrinks the window of StreamedMessageRows, so that the
// tests exercise its late rows on small runs (0 or unset: its own size).
size_t row_window_for_tests() {
  const char* v = std::getenv("WORMSIM_ROW_WINDOW");
  return v ? static_cast<size_t>(std::strtoull(v, nullptr, 10)) : 0;
}

// WORMSIM_PARALLEL_FROM sets the number of worms from which the express loop
// shares a cycle's visits with a second thread (models/express_worms.hpp), on
// a network of any size, so that the tests exercise it on small runs; 0 turns
// it off; unset: the default (ExpressWorms::default_parallel_from).
size_t parallel_from_for_tests() {
  const char* v = std::getenv("WORMSIM_PARALLEL_FROM");
  return v ? static_cast<size_t>(std::strtoull(v, nullptr, 10)) : NetworkParams::kParallelByDefault;
}

// WORMSIM_PREFETCH_EVENTS_FROM sets the number of routers from which a
// cycle's events are walked in prefetched batches (Network::prefetches_events),
// so that the tests compare the batches with the plain walk on small runs; 0
// turns them off; unset: NetworkParams::kPrefetchEventsFrom.
size_t prefetch_events_from_for_tests() {
  const char* v = std::getenv("WORMSIM_PREFETCH_EVENTS_FROM");
  return v ? static_cast<size_t>(std::strtoull(v, nullptr, 10)) : NetworkParams::kPrefetchEventsFrom;
}

bool generate_from_config(const Config& cfg, const Topology& topo, Schedule& out, Diagnostics& diag) {
  const ScheduleSource& src = cfg.schedule;
  GeneratorOptions g;
  g.source_eye = src.source_eye;
  g.orientation = src.orientation;
  g.params = src.params;
  g.flits = src.flits ? src.flits : 16;
  try {
    try {
      g.source = resolve_node(topo, src.source.is_coords || src.source.id >= 0 ? src.source : NodeRef{false, 0, {}});
    } catch (const std::invalid_argument& e) {  // the loader's finding, like the generator's below
      diag.error("schedule.source", e.what());
      return false;
    }
    out = generate_schedule(src.algorithm, topo, g);
  } catch (const std::exception& e) {
    diag.error("schedule.algorithm", e.what());
    return false;
  }
  return true;
}

// Whether a schedule's messages give their records back once delivered (sim/schedule_retirement.hpp).
bool retires_schedule(const Config& cfg, const Schedule& schedule) {
  return cfg.has_schedule && retires_schedule(schedule, cfg.repeat.count, cfg.trace != "none");
}

// Warnings about settings that are legal but probably not what the user wants.
std::vector<std::string> setting_warnings(const Config& cfg) {
  std::vector<std::string> w;
  if (cfg.buffer_flits < cfg.timing.credit_round_trip())
    w.push_back("network.buffer_flits = " + std::to_string(cfg.buffer_flits) +
                " is less than the credit round trip (router_delay + link_delay + credit_delay = " +
                std::to_string(cfg.timing.credit_round_trip()) +
                "): worms cannot stream at one flit per cycle and latencies exceed the timing contract");
  // Read only with network.allow_deadlock (the config reader refuses it otherwise).
  if (const auto risk = deadlock_risk(cfg.routing, cfg.topology, cfg.vcs))
    w.push_back(*risk + " (allowed by network.allow_deadlock)");
  return w;
}

// Throws MemoryRefused when a run's estimated memory (sim/run_memory.hpp)
// exceeds kMemoryFraction of the machine. `messages` is a guess before the
// schedule exists (one per node, as for a broadcast) and exact after.
void require_run_memory(const Config& cfg, size_t messages, size_t hops, size_t steps = 0, size_t repetitions = 0) {
  const MemoryEstimate need = run_estimate(cfg, messages, hops, steps, repetitions);
  spdlog::info("estimated memory {:.1f} MiB", need.total() / (1 << 20));
  require_memory(need, cfg.path);
}

// Resolves hotspot nodes and checks the traffic spec against the topology;
// throws ConfigError naming the file and key.
void prepare_traffic(Config& cfg, const Topology& topo) {
  for (size_t c = 0; c < cfg.classes.size(); ++c) {
    TrafficClass& tc = cfg.classes[c];
    const std::string at = cfg.classes_given ? "traffic.classes[" + std::to_string(c) + "]" : "traffic";
    tc.spec.hotspots.clear();
    for (size_t i = 0; i < tc.hotspot_refs.size(); ++i) {
      try {
        tc.spec.hotspots.push_back(resolve_node(topo, tc.hotspot_refs[i]));
      } catch (const std::invalid_argument& e) {
        throw ConfigError(cfg.path + ": " + at + ".hotspot.nodes[" + std::to_string(i) + "]: " + e.what());
      }
    }
    try {
      check_background(tc.spec, topo);
    } catch (const std::invalid_argument& e) {
      throw ConfigError(cfg.path + ": " + at + ": " + e.what());
    }
  }
  record_hotspot_nodes(cfg);
}

// The background as the run offers it, one spec per class. A schedule timed
// against a measurement window keeps the load on until its last repetition has
// completed (the window stops it: sim/measurement_window.hpp), however long
// that takes past the drain cap.
std::vector<BackgroundSpec> background_specs(const Config& cfg) {
  std::vector<BackgroundSpec> specs;
  for (const TrafficClass& tc : cfg.classes) {
    specs.push_back(tc.spec);
    if (cfg.window.enabled && cfg.has_schedule) specs.back().cycles = kMaxTrafficCycles;
  }
  return specs;
}

// Closes the VCD and moves it into the set. SystemC writes nothing for a run
// that ends before its first traced cycle; such a run gets a valid VCD with
// the header alone.
void write_vcd_trace(OutputSet& outputs, sc_core::sc_trace_file* vcd, const std::string& written) {
  sc_core::sc_close_vcd_trace_file(vcd);
  std::error_code ec;
  if (std::filesystem::exists(written, ec)) {
    try {
      blank_vcd_date(written);
    } catch (const std::system_error& e) {
      std::cerr << "warning: trace.vcd: cannot blank the date SystemC wrote into it: " << e.what() << "\n";
    }
    outputs.adopt("trace.vcd", written);
    return;
  }
  outputs.add("trace.vcd",
              "$version\n wormsim " + std::string(kWormsimVersion) +
                  " (the run stopped before its first cycle was traced)\n$end\n\n$timescale\n     1 ns\n$end\n\n"
                  "$scope module SystemC $end\n$upscope $end\n\n$enddefinitions  $end\n");
}

// One log line per worm of the deadlock: where its header waits and for whom.
void log_wait_cycle(const Network& net) {
  const Topology& topo = net.topology();
  for (const WaitEdge& w : net.deadlock_cycle()) {
    const MessageRecord& m = net.context().msgs[w.msg];
    const std::string port = w.out_port >= topo.num_ports() ? std::string("ejection")
                                                            : "port " + std::to_string(w.out_port);
    const std::string blocker = w.blocker == kNoMessage ? std::string("?") : std::to_string(net.message_id(w.blocker));
    spdlog::error("deadlock: message {} ({} -> {}) waits at router {} input port {} VC {} for {}, {} message {}",
                  net.message_id(w.msg), topo.node_name(m.src), topo.node_name(m.dst), topo.router_name(w.node),
                  w.in_port, w.vc, port, w.queued ? "queued behind" : "held by", blocker);
  }
}

}  // namespace

bool prepare_schedule(const Config& cfg, const Topology& topo, Schedule& s, Diagnostics& diag) {
  if (!cfg.has_schedule) {
    s = Schedule{};
    s.topology = cfg.topology;
    s.name = "background traffic only";
    return true;
  }
  if (!cfg.schedule.file.empty()) {
    std::string text;
    try {
      text = read_input_file(cfg.schedule.file);
    } catch (const InputFileError& e) {
      diag.error("", std::string("cannot open schedule file: ") + e.what() + " (named by schedule.file in " + cfg.path + ")");
      return false;
    }
    if (!parse_schedule_json(text, s, diag, schedule_memory_check(ScheduleCommand::Run))) return false;
  } else if (!generate_from_config(cfg, topo, s, diag)) {
    return false;
  }
  if (cfg.schedule.flits) {
    s.flits = cfg.schedule.flits;
    for (auto& step : s.steps)
      for (auto& m : step) m.flits = 0;
  }
  validate_schedule(s, topo, cfg.ports, diag, cfg.routing);
  if (cfg.strict) diag.promote_warnings();
  return !diag.has_errors();
}

namespace {
// The routers' pool a run starts making resident before its schedule is
// prepared (models/prefault.hpp): the schedule's own memory checks leave it
// out of what is available, and a run that stops before building its network
// gives it back.
class EarlyPool {
 public:
  ~EarlyPool() {
    set_memory_held_early(0);
    if (!kept_) discard_prefaulted();
  }
  void hold() { set_memory_held_early(static_cast<double>(prefaulted_bytes())); }
  // The run's own estimate, from here on, counts the network.
  void counted() { set_memory_held_early(0); }
  // The inputs are ready: the network is built next, and takes the pool.
  void keep() { kept_ = true; }

 private:
  bool kept_ = false;
};
}  // namespace

// Everything a run needs before the network is built: the config with its
// overrides, the traffic and the validated schedule, within the memory guard.
// Problems are reported on stderr; returns kExitOk or their exit code.
int load_run_inputs(const RunOptions& opts, RunInputs& in, bool network_follows) {
  Config& cfg = in.cfg;
  EarlyPool early_pool;
  try {
    cfg = load_config(opts.config_path, opts.overrides);
    if (!opts.out_dir.empty()) cfg.out_dir = opts.out_dir;
    if (!opts.trace.empty()) cfg.trace = opts.trace;
    cfg.strict = cfg.strict || opts.strict;

    Topology::validate(cfg.topology);
    require_run_memory(cfg, static_cast<size_t>(Topology::endpoints_of(cfg.topology)), 0);
    in.topology = std::make_shared<const Topology>(cfg.topology);
    const Topology& topo = *in.topology;
    if (network_follows && prefault_in_background(Network::router_pool_bytes(topo, network_params(cfg)))) {
      early_pool.hold();
      spdlog::debug("the routers' pool ({:.1f} MiB) is made resident by a second thread while the schedule is prepared",
                    static_cast<double>(prefaulted_bytes()) / (1 << 20));
    }
    if (cfg.has_traffic) prepare_traffic(cfg, topo);
    Diagnostics diag(cfg.schedule.file.empty() ? opts.config_path : cfg.schedule.file);
    const bool ok = prepare_schedule(cfg, topo, in.schedule, diag);
    if (!diag.items().empty()) std::cerr << diag.format();
    if (!ok) return kExitInputError;

    in.warnings = setting_warnings(cfg);
    TraceKind trace = TraceKind::None;
    parse_trace_kind(cfg.trace, trace);
    if (trace == TraceKind::Vcd && topo.num_links() > kMaxVcdLinks)
      throw ConfigError(cfg.path + ": output.trace: vcd traces are for small networks (at most " +
                        std::to_string(kMaxVcdLinks) + " links; this one has " + std::to_string(topo.num_links()) +
                        "); use perfetto");
    if (const std::string too_long = multicast_route_too_long(cfg, in.schedule, topo); !too_long.empty())
      throw ConfigError((cfg.schedule.file.empty() ? cfg.path + ": schedule" : cfg.schedule.file) + ": " + too_long +
                        "; give the message fewer destinations, split it, or use a scheme of shorter worms");
    for (const auto& risk : multicast_deadlock_risks(cfg, in.schedule, topo)) {
      const std::string where = cfg.schedule.file.empty() ? cfg.path + ": schedule" : cfg.schedule.file;
      if (!cfg.allow_deadlock)
        throw ConfigError(where + ": " + risk + "; network.allow_deadlock: true runs it anyway and lets the watchdog "
                          "report the deadlock");
      in.warnings.push_back(where + ": " + risk + " (allowed by network.allow_deadlock)");
    }
    for (const auto& w : in.warnings) spdlog::warn("{}", w);
    for (const auto& d : diag.items()) in.warnings.push_back(d.where + ": " + d.what);
    if (diag.warnings_not_kept() > 0)
      in.warnings.push_back("... and " + std::to_string(diag.warnings_not_kept()) + " more warnings");
    size_t hops = 0;
    auto distance = [&topo](int a, int b) {
      return static_cast<size_t>(topo.distance(topo.endpoint_router(a), topo.endpoint_router(b)));
    };
    for (const auto& step : in.schedule.steps)
      for (const auto& m : step) {
        if (!m.is_multicast()) hops += distance(m.src, m.dst);
        else for (int d : m.dsts()) hops += distance(m.src, d);  // covers a multicast worm's route entries
      }
    // Message ids and step numbers of every repetition are 32-bit.
    const uint64_t run_messages = static_cast<uint64_t>(in.schedule.num_messages()) * cfg.repeat.count;
    const uint64_t run_steps = static_cast<uint64_t>(in.schedule.steps.size()) * cfg.repeat.count;
    if (run_messages > static_cast<uint64_t>(kMaxRunMessages) || run_steps > static_cast<uint64_t>(kMaxRunMessages))
      throw ConfigError(cfg.path + ": schedule.repeat.count: " + std::to_string(cfg.repeat.count) + " repetitions of " +
                        std::to_string(in.schedule.num_messages()) + " messages in " +
                        std::to_string(in.schedule.steps.size()) + " steps make more than " +
                        std::to_string(kMaxRunMessages) + " messages or steps in one run");
    // Retired messages leave the table: it holds a repetition's and a batch at
    // most (sim/schedule_retirement.hpp), and the figures of the steps and
    // repetitions they belong to; the ones before are written and dropped.
    const uint64_t per_repetition = std::max<uint64_t>(in.schedule.num_messages(), 1);
    const bool retired = retires_schedule(cfg, in.schedule);
    const uint64_t held = retired ? std::min(run_messages, per_repetition + retire_batch(per_repetition)) : run_messages;
    // Repetitions without messages all end in the cycle they start when back to back: their times are held until
    // the cycle's retirement, so every one is counted.
    const uint64_t repetitions_held =
        retired && in.schedule.num_messages() > 0
            ? std::min<uint64_t>(cfg.repeat.count, 2 + retire_batch(per_repetition) / per_repetition)
            : cfg.repeat.count;
    early_pool.counted();
    require_run_memory(cfg, held, static_cast<size_t>(hops * held / per_repetition),
                       static_cast<size_t>(std::min(run_steps, repetitions_held * in.schedule.steps.size())),
                       static_cast<size_t>(repetitions_held));
    early_pool.keep();
  } catch (const ConfigError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitInputError;
  } catch (const MemoryRefused& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitInputError;
  }
  return kExitOk;
}

int config_check_command(const RunOptions& opts) {
  RunInputs in;
  if (const int code = load_run_inputs(opts, in)) return code;
  const Config& cfg = in.cfg;
  write_stdout(opts.config_path + ": ok: " + cfg.topology.describe() + ", " + cfg.ports.describe() + ", " +
               std::to_string(cfg.vcs) + " VC x " + std::to_string(cfg.buffer_flits) + " flits; " +
               (cfg.has_schedule ? in.schedule.name + " (" + std::to_string(in.schedule.steps.size()) + " steps, " +
                                       std::to_string(in.schedule.num_messages()) + " messages" +
                                       (cfg.repeat.count > 1 ? ", " + std::to_string(cfg.repeat.count) + " repetitions" : "") +
                                       ")"
                                 : std::string("no schedule")) +
               (cfg.has_traffic ? "; background traffic" : "") + "\n");
  return kExitOk;
}

namespace {
double peak_rss_mib() {
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) != 0) return 0.0;
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux: kilobytes
}

// Builds what takes files in the output folder; a folder that refuses them is
// reported as the run's error (nullptr) before anything is simulated.
template <class T, class... Args>
std::unique_ptr<T> make_or_report(Args&&... args) {
  try {
    return std::make_unique<T>(std::forward<Args>(args)...);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return nullptr;
  }
}
}  // namespace

NetworkParams network_params(const Config& cfg) {
  NetworkParams np;
  np.vcs = cfg.vcs;
  np.buffer_flits = cfg.buffer_flits;
  np.ports = cfg.ports;
  np.timing = cfg.timing;
  np.max_cycles = cfg.max_cycles;
  np.watchdog_cycles = cfg.watchdog_cycles;
  np.fast_paths = cfg.fast_paths;
  np.routing = cfg.routing;
  np.parallel_from = parallel_from_for_tests();
  np.prefetch_events_from = prefetch_events_from_for_tests();
  return np;
}

int run_command(const RunOptions& opts) {
  const auto t0 = Clock::now();
  RunInputs in;
  if (const int code = load_run_inputs(opts, in, true)) return code;
  return run_loaded(opts, in, t0, nullptr);
}

int run_loaded(const RunOptions& opts, RunInputs& in, std::chrono::steady_clock::time_point t0, Network* built) {
  double cpu = cpu_seconds();
  // The CPU seconds a phase took since the last call.
  const auto cpu_lap = [&cpu] {
    const double before = cpu;
    cpu = cpu_seconds();
    return cpu - before;
  };
  spdlog::info("read the config and prepared the schedule ({} messages) in {:.3f} s ({:.3f} s CPU)",
               in.schedule.num_messages(), seconds_since(t0), cpu);
  Config& cfg = in.cfg;
  Schedule& schedule = in.schedule;
  // A batch's network brings its own topology; a run uses the one its inputs were checked on.
  std::optional<Topology> own_topology;
  const Topology& topo = built          ? built->topology()
                         : in.topology ? *in.topology
                                       : own_topology.emplace(cfg.topology);
  TraceKind trace = TraceKind::None;
  parse_trace_kind(cfg.trace, trace);
  RunReport report;
  report.warnings = in.warnings;
  const auto t_elab = Clock::now();
  // Taken before anything is simulated: an unwritable folder, or one another run
  // is writing to, is refused at once.
  const std::unique_ptr<OutputSet> outputs = make_or_report<OutputSet>(cfg.out_dir);
  if (!outputs) return kExitInputError;
  if (holds_other_config(cfg.out_dir, cfg))
    spdlog::warn("{}: replacing the outputs of a run of another configuration (give --out to keep both)", cfg.out_dir);
  // Deliberately never destroyed: SystemC removes modules one by one, which is
  // quadratic in their number (seconds for 64k modules), and the process exits
  // as soon as the outputs are written (sim/main.cpp).
  Network& net = built ? *built : *new Network("network", topo, network_params(cfg));
  const bool retire_schedule = retires_schedule(cfg, schedule);
  const uint64_t schedule_span = cfg.window.enabled && cfg.has_schedule ? schedule.flit_span() : 0;
  ScheduleExecutor exec(schedule, net, cfg.mode, cfg.repeat.count, retire_schedule);
  std::unique_ptr<BackgroundTraffic> background;
  if (cfg.has_traffic) background = std::make_unique<BackgroundTraffic>(background_specs(cfg), topo);
  RepeatedSchedule repeated(cfg.repeat, exec, background.get());
  net.add_traffic(&repeated);
  if (background) net.add_traffic(background.get());
  std::unique_ptr<MeasurementWindow> window;
  if (cfg.window.enabled) {
    window = std::make_unique<MeasurementWindow>(cfg.window, *background);
    if (cfg.has_schedule)
      window->keep_offering_until([&repeated] { return repeated.complete(); }, schedule_span,
                                  [&exec] { return exec.oldest_held_back(); });
    if (cfg.repeat.at_window_open) window->on_open([&repeated](uint64_t cycle) { repeated.start_at(cycle); });
    net.add_traffic(window.get());
  }
  // Only a measured load run offers for as long as it has to: traffic.cycles
  // ends the load, and the watchdog then sees what is stuck.
  std::unique_ptr<LoadDeadlockWatch> deadlock_watch;
  if (window) {
    deadlock_watch = std::make_unique<LoadDeadlockWatch>(*background, cfg.window.drain);
    net.add_traffic(deadlock_watch.get());
  }
  // Last of the sources: it recycles what the others have seen delivered this
  // cycle, once their rows are written.
  std::unique_ptr<StreamedMessageRows> streamed_rows;
  std::unique_ptr<MessageRetirement> retirement;
  if (recycles_background(cfg)) {
    if (cfg.background_rows) {
      streamed_rows = make_or_report<StreamedMessageRows>(*outputs, net, schedule, row_window_for_tests());
      if (!streamed_rows) return kExitInputError;
    }
    retirement = std::make_unique<MessageRetirement>(topo.num_endpoints(), window.get(), cfg.router_stats,
                                                     cfg.classes_given ? cfg.classes.size() : 0, streamed_rows.get());
  }
  std::unique_ptr<ScheduleRetirement> retired_schedule;
  if (retire_schedule) {
    retired_schedule = make_or_report<ScheduleRetirement>(
        *outputs, net, exec, schedule, static_cast<int>(schedule.steps.size() * cfg.repeat.count), cfg.router_stats,
        repeated, cfg.repeat.reported);
    if (!retired_schedule) return kExitInputError;
  }
  std::unique_ptr<ProgressLog> progress;
  if (opts.progress_seconds > 0 && spdlog::should_log(spdlog::level::info)) {
    progress = std::make_unique<ProgressLog>(cfg.has_schedule ? schedule.num_messages() * cfg.repeat.count : 0,
                                             cfg.has_traffic ? cfg.traffic_cycles : 0, opts.progress_seconds);
    net.add_traffic(progress.get());
  }
  if (retirement) net.add_traffic(retirement.get());
  if (retired_schedule) net.add_traffic(retired_schedule.get());
  if (cfg.router_stats) net.count_vc_statistics();
  report.host.elaboration_seconds = seconds_since(t_elab);
  spdlog::info("elaborated {} ({} routers, {} links) in {:.3f} s ({:.3f} s CPU)", topo.spec().describe(),
               topo.num_nodes(), topo.num_links(), report.host.elaboration_seconds, cpu_lap());

  std::vector<ChannelUse> channel_uses;
  if (trace == TraceKind::Perfetto) net.record_channel_use(&channel_uses);
  sc_core::sc_trace_file* vcd = nullptr;
  const std::string vcd_tmp = outputs->path_of("trace.vcd.tmp-" + std::to_string(getpid()));
  if (trace == TraceKind::Vcd) {
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);  // keep stdout clean
    // A run that stops before its first traced cycle gets an empty VCD instead (write_vcd_trace).
    sc_core::sc_report_handler::set_actions(sc_core::SC_ID_TRACING_CLOSE_EMPTY_FILE_, sc_core::SC_DO_NOTHING);
    vcd = sc_core::sc_create_vcd_trace_file(vcd_tmp.c_str());  // SystemC appends ".vcd"
    vcd->set_time_unit(1, sc_core::SC_NS);
    net.trace_signals(vcd);
  }

  // Handled until the outputs are complete: a signal during writing only stops
  // a simulation that has already ended.
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  const auto t_sim = Clock::now();
  sc_core::sc_start();
  net.rethrow_failure();
  report.host.simulation_seconds = seconds_since(t_sim);
  spdlog::info("simulated {} cycles in {:.3f} s ({:.3f} s CPU)", net.cycles_simulated(), report.host.simulation_seconds,
               cpu_lap());
  report.host.express_worms = net.express_worms().joined();
  report.host.express_flit_moves = net.express_worms().flit_moves();
  report.host.express_handbacks = net.express_worms().handbacks();
  report.host.express_parallel_cycles = net.express_worms().parallel_cycles();
  report.host.event_batches = net.event_batches();
  report.host.steady_worms = net.express_worms().frozen_worms();
  report.host.steady_cycles = net.express_worms().frozen_cycles();

  report.config = &cfg;
  report.schedule = &schedule;
  report.network = &net;
  report.executor = &exec;
  if (retired_schedule) {
    retired_schedule->finish(net);
    report.retired_schedule = retired_schedule.get();
    spdlog::info("{} of the {} messages of the schedule gave their records back as the run went",
                 retired_schedule->retired_during_run(), schedule.num_messages() * cfg.repeat.count);
  }
  if (streamed_rows) {
    streamed_rows->finish();
    report.streamed_rows = streamed_rows.get();
    if (streamed_rows->late())
      spdlog::info("{} messages held the rows of later ones up too long: their rows were merged in at the end",
                   streamed_rows->late());
  }
  report.metrics = compute_metrics(net, static_cast<int>(schedule.steps.size() * cfg.repeat.count),
                                   retirement ? &retirement->retired() : nullptr, cfg.router_stats,
                                   retired_schedule ? &retired_schedule->retired() : nullptr);
  report.buffers_consistent = net.buffers_consistent();
  if (window)
    report.load = compute_load_metrics(net, *window, retirement ? retirement->retired_in_window() : nullptr,
                                       cfg.router_stats);
  if (cfg.classes_given) {
    report.classes = tally_classes(net, cfg.classes.size(), window.get(),
                                   retirement ? retirement->retired_by_class() : nullptr);
    if (window) report.class_accepted = window->class_accepted();
  }
  if (window && window->adaptive() && !window->adaptive()->stabilised()) {
    const std::string w = cfg.path + ": traffic.warmup_cycles: auto: latency and accepted rate did not stabilise within " +
                          std::to_string(cfg.window.adaptive.max) +
                          " cycles (traffic.warmup_max_cycles); the measurement window opened there, on a network "
                          "that may not be in steady state (saturated, or give a larger cap or tolerance)";
    spdlog::warn("{}", w);
    report.warnings.push_back(w);
  }
  if (cfg.router_stats)
    report.router_stats = compute_router_stats(net, report.metrics, window.get(), report.load ? &*report.load : nullptr);
  if (cfg.repeat.reported)
    report.repetitions = compute_repetition_metrics(
        net, repeated, exec, retired_schedule ? retired_schedule->take_repetitions() : RetiredRepetitions{});
  report.host.wall_seconds = seconds_since(t0);
  report.host.peak_rss_mib = peak_rss_mib();
  spdlog::info("computed the metrics in {:.3f} s ({:.3f} s CPU)", seconds_since(t_sim) - report.host.simulation_seconds,
               cpu_lap());
  const auto t_out = Clock::now();
  try {
    // Before the old set is touched: a disk that filled while rows were streamed leaves it as it was.
    if (streamed_rows) streamed_rows->throw_if_failed();
    if (retired_schedule) retired_schedule->throw_if_failed();
    outputs->begin();
    write_csv_outputs(*outputs, report);
    if (vcd) write_vcd_trace(*outputs, vcd, vcd_tmp + ".vcd");
    if (trace == TraceKind::Perfetto) {
      // Canonical order (the simulator records uses in whatever order it steps routers).
      std::sort(channel_uses.begin(), channel_uses.end(), [](const ChannelUse& a, const ChannelUse& b) {
        return std::tie(a.from, a.node, a.port, a.vc, a.msg) < std::tie(b.from, b.node, b.port, b.vc, b.msg);
      });
      outputs->add("trace.json", perfetto_trace_json(net, cfg.vcs, channel_uses, schedule));
    }
    report.outputs = &outputs->files();
    outputs->commit(summary_json(report));
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitInputError;
  }
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  spdlog::info("wrote the outputs in {:.3f} s ({:.3f} s CPU); peak memory {:.1f} MiB", seconds_since(t_out), cpu_lap(),
               peak_rss_mib());
  if (!opts.quiet) std::cout << human_summary(report, cfg.out_dir, outputs->files()) << std::flush;
  const RunMetrics& m = report.metrics;
  if (net.status() == RunStatus::Saturated) {
    if (report.load && report.load->backlogged)
      std::cerr << "run saturated: the measurement window drained, but while the load stayed on for the schedule a "
                << (window->schedule_starved() ? "schedule send (eager mode) waited for its sender's interface to "
                                                 "hold no message"
                                               : "background packet waited at its interface")
                << " more than "
                << window->backlog_limit() << " cycles (traffic.drain_cycles, " << cfg.window.drain
                << ", plus the schedule's flit span, " << window->backlog_limit() - cfg.window.drain << "), at cycle "
                << net.cycle();
    else
      std::cerr << "run saturated: the packets of the measurement window were not all delivered within "
                << cfg.window.drain << " cycles (traffic.drain_cycles) after it closed, at cycle " << net.cycle();
    if (report.repetitions)
      std::cerr << "; " << report.repetitions->completed << " of " << cfg.repeat.count
                << " repetitions of the schedule completed";
    std::cerr << "\n";
    return kExitOk;  // a measurement, not a failure: summary.json says "saturated"
  }
  if (net.status() != RunStatus::Completed) {
    std::cerr << "run stopped: " << m.status << " at cycle " << net.cycle() << " with " << m.delivered << " of "
              << m.messages << " messages delivered";
    if (!net.deadlock_cycle().empty())
      std::cerr << (net.status() == RunStatus::Deadlock ? "; waiting cycle of " : "; no cycle of waits among ")
                << net.deadlock_cycle().size() << " worms (see summary.json \"deadlock\")";
    std::cerr << "\n";
    log_wait_cycle(net);
    return kExitIncomplete;
  }
  if (m.delivered != m.messages || m.flits_injected != m.flits_ejected || !report.buffers_consistent) {
    std::cerr << "internal error: run completed but invariants failed (see summary.json \"invariants\")\n";
    return kExitInternal;
  }
  return kExitOk;
}

}  // namespace wormsim

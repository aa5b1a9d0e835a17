#include "sim/cli.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "decl/param.hpp"
#include "decl/stat.hpp"
#include "models/limits.hpp"
#include "models/memory_guard.hpp"
#include "models/topology_shape.hpp"
#include "schedules/generators/generators.hpp"
#include "sim/batch_command.hpp"
#include "sim/did_you_mean.hpp"
#include "sim/run.hpp"
#include "sim/saturate_command.hpp"
#include "sim/schedule_commands.hpp"
#include "schedules/terminal_text.hpp"
#include "sim/version.hpp"

namespace wormsim {

namespace {

// CLI::Range lets "nan" through (every comparison with it is false).
const CLI::Validator kNotNan(
    [](std::string& text) {
      double v = 0;
      return CLI::detail::lexical_cast(text, v) && std::isnan(v) ? "expected a number, got " + text : std::string();
    },
    "", "not NaN");

// An empty folder would put the outputs loose in the working directory.
const CLI::Validator kAFolder(
    [](std::string& text) { return text.empty() ? std::string("expected a folder, got an empty path") : std::string(); },
    "", "a folder");

// --dims 8,8 or --dims 8 8. CLI11's own ',' split drops empty entries, so
// "4," would quietly be a one-dimensional network: the split is done here.
CLI::Option* add_dims_option(CLI::App& cmd, std::vector<int>& dims, const std::string& help) {
  return cmd
      .add_option_function<std::vector<std::string>>(
          "--dims,-d",
          [&dims](const std::vector<std::string>& words) {
            dims.clear();
            for (const auto& word : words) {
              for (size_t from = 0, to = 0; from <= word.size(); from = to + 1) {
                to = std::min(word.find(',', from), word.size());
                const std::string entry = word.substr(from, to - from);
                int radix = 0;
                if (entry.empty() || !CLI::detail::lexical_cast(entry, radix))
                  throw CLI::ValidationError("--dims", "expected a radix (an integer) in each ','-separated entry, got '" +
                                                           word + "'");
                dims.push_back(radix);
              }
            }
          },
          help)
      ->required()
      ->type_name("INT");
}

void setup_logging(const std::string& level) {
  auto logger = spdlog::stderr_color_mt("wormsim");
  logger->set_pattern("[%l] %v");
  spdlog::set_default_logger(logger);
  spdlog::set_level(spdlog::level::from_str(level));
}

// Output that could not be written is an error, not a success: a full disk or
// /dev/full must not leave a cut-off file behind an exit code of 0.
bool stdout_written() {
  errno = 0;
  const bool ok = std::cout.flush() && std::fflush(stdout) == 0 && !std::ferror(stdout);
  if (!ok)
    std::cerr << "error: standard output: cannot write" << (errno ? std::string(": ") + std::strerror(errno) : std::string())
              << "\n";
  return ok;
}

std::vector<std::string> names_of(const std::vector<CLI::App*>& apps) {
  std::vector<std::string> names;
  for (const CLI::App* a : apps) names.push_back(a->get_name());
  return names;
}

// CLI11 reports a mistyped command as "A subcommand is required" or as an
// extra argument; name it, and suggest the nearest command, before it does.
int refuse_unknown_command(CLI::App& app, int argc, char** argv) {
  CLI::App* level = &app;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--log-level") {
      ++i;
      continue;
    }
    if (a.rfind("-", 0) == 0) {
      if (level != &app) return kExitOk;  // a subcommand's option: CLI11 checks those
      static const std::vector<std::string> global{"--help", "-h", "--version", "-V", "--log-level"};
      if (a.rfind("--log-level=", 0) == 0 || std::find(global.begin(), global.end(), a) != global.end()) continue;
      std::cerr << "error: unknown option " << a << did_you_mean(a, global) << "\nRun with --help for more information.\n";
      return kExitUsage;
    }
    const auto subs = level->get_subcommands({});
    if (subs.empty()) return kExitOk;  // a positional argument of the command
    const auto names = names_of(subs);
    if (std::find(names.begin(), names.end(), a) == names.end()) {
      const std::string prefix = level == &app ? "" : level->get_name() + " ";
      std::string list;
      for (const auto& n : names) list += (list.empty() ? "" : ", ") + prefix + n;
      std::cerr << "error: unknown command \"" << prefix << a << "\"" << did_you_mean(a, names) << "; the commands are "
                << list << "\nRun with --help for more information.\n";
      return kExitUsage;
    }
    level = level->get_subcommand(a);
  }
  return kExitOk;
}

int dispatch(int argc, char** argv) {
  CLI::App app{"wormsim " + std::string(kWormsimVersion) +
               ": cycle-accurate flit-level wormhole network simulator (SystemC)\n"
               "Simulates step-indexed broadcast and collective schedules on meshes, tori and hypercubes."};
  app.require_subcommand(1);
  std::string log_level = "warn";
  app.add_option("--log-level", log_level, "trace, debug, info, warn, error, critical or off (logs go to stderr)")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}));
  app.set_version_flag("--version,-V", std::string("wormsim ") + kWormsimVersion);

  RunOptions run;
  auto* run_cmd = app.add_subcommand("run", "Simulate a config; writes summary.json, messages.csv, links.csv, "
                                            "steps.csv, routes.csv (and repetitions.csv for schedule.repeat, warmup.csv for "
                                            "an adaptive warm-up, latency.csv for traffic.classes; routers.csv, "
                                            "vcs.csv and hops.csv for output.router_stats) to the "
                                            "output folder and prints a summary");
  run_cmd->add_option("config", run.config_path, "YAML config file (see docs/config-reference.md)")->required();
  run_cmd->add_option("--set", run.overrides, "Override a config key: key.path=value (YAML value; a list entry by index: network.dims[1]=8, traffic.classes[1].rate=0.02), repeatable");
  run_cmd->add_option("--out", run.out_dir, "Output folder (overrides output.dir)")->check(kAFolder);
  run_cmd->add_flag("--strict", run.strict, "Treat schedule warnings (port-model violations) as errors");
  run_cmd->add_flag("--quiet", run.quiet, "Do not print the summary on stdout");
  run_cmd->add_option("--progress", run.progress_seconds,
                      "Seconds between progress lines (cycle, cycles/s, messages delivered, time left) on stderr "
                      "at --log-level info or finer (default 5; 0: none)")
      ->check(CLI::Range(0.0, 86400.0))
      ->check(kNotNan);
  run_cmd->add_option("--trace", run.trace,
                      "Also write a timeline: perfetto (trace.json, Chrome trace events) or vcd (trace.vcd, small "
                      "networks); overrides output.trace")
      ->check(CLI::IsMember({"none", "perfetto", "vcd"}));

  BatchOptions batch;
  auto* batch_cmd = app.add_subcommand(
      "batch", "Run many points of one network in one process: the network is elaborated once and each point, a "
               "line {\"out\": FOLDER, \"set\": [\"key=value\", ...]} of the points file (JSON lines), runs on it "
               "and writes exactly what `run CONFIG --set ... --out FOLDER --quiet` writes. A point whose network "
               "differs (network.*, timing.*, run.max_cycles, run.watchdog_cycles, run.fast_paths) is refused; a "
               "failing point does not stop the others. Prints one JSON line per point (error, exit_code, line, out, "
               "refused, seconds, stderr) once all have run and their outputs are synced to disk; exits with the highest exit code of "
               "its points (docs/sweeps.md, \"Batches\")");
  batch_cmd->add_option("config", batch.config_path, "YAML config every point starts from")->required();
  batch_cmd->add_option("--points", batch.points_path, "Points file: one JSON object per line")->required();
  batch_cmd->add_option("--timeout", batch.timeout, "Seconds a point may run before it is killed (default: no limit)")
      ->check(CLI::Range(0.0, 1e9))
      ->check(kNotNan);
  batch_cmd->add_flag("--strict", batch.strict, "Treat schedule warnings (port-model violations) as errors");
  batch_cmd->add_flag("--check", batch.check,
                      "Only check each point as `config check` would (nothing is simulated or written)");

  RunOptions cfg_check;
  auto* config_cmd = app.add_subcommand("config", "Check configs without simulating, or list every config key");
  config_cmd->require_subcommand(1);
  auto* config_check_cmd = config_cmd->add_subcommand(
      "check", "Check a config (with --set overrides) as `run` would before simulating: the keys, the traffic, the "
               "schedule and the memory it needs; prints one line and exits 0 if it would run");
  config_check_cmd->add_option("config", cfg_check.config_path, "YAML config file")->required();
  config_check_cmd->add_option("--set", cfg_check.overrides, "Override a config key: key.path=value (a list entry by index: network.dims[1]=8, traffic.classes[1].rate=0.02), repeatable");
  config_check_cmd->add_flag("--strict", cfg_check.strict, "Treat schedule warnings as errors");

  bool keys_json = false;
  auto* config_keys_cmd = config_cmd->add_subcommand(
      "keys", "List every config key: its type, default, range, unit and meaning, from the components' "
              "declarations (docs/config-reference.md)");
  config_keys_cmd->add_flag("--json", keys_json, "Print one JSON list with a record per key");

  auto* sched_cmd = app.add_subcommand("schedule", "Generate, check or draw schedules without simulating");
  sched_cmd->require_subcommand(1);
  CheckOptions chk;
  auto* check_cmd = sched_cmd->add_subcommand("check", "Validate a schedule file and print its static figures");
  check_cmd->add_option("file", chk.file, "Schedule JSON file (docs/schedule-format.md)")->required();
  check_cmd->add_option("--port-model", chk.port_model, "Port model for the port-model check (default one-port)");
  check_cmd->add_flag("--json", chk.json, "Print one JSON object (steps, messages, tcd, step_contention_pairs, ...)");
  check_cmd->add_flag("--strict", chk.strict, "Treat warnings as errors");
  check_cmd->add_option("--routing", chk.routing,
                        "Routing function for messages without a route (network.routing values; default "
                        "dimension-order). Adaptive ones: static step contention cannot be known");

  GenerateOptions gen;
  auto* gen_cmd = sched_cmd->add_subcommand("generate", "Write the schedule of a published algorithm");
  gen_cmd->add_option("--algorithm,-a", gen.algorithm, "Algorithm name (see `wormsim algorithms`)")->required();
  gen_cmd->footer("Algorithms: " + generator_names() + "\n(one line each: wormsim algorithms)");
  gen_cmd->add_option("--topology,-t", gen.topology, topology_names_text());
  add_dims_option(*gen_cmd, gen.dims, "Radix per dimension, e.g. --dims 8 8 or 8,8; hypercube: --dims D");
  gen_cmd->add_option("--source,-s", gen.source, "Source node: id, coordinates (1,2) or eye (default 0)");
  gen_cmd->add_option("--orientation", gen.orientation, "Eye algorithms: paper or best")
      ->check(CLI::IsMember({"paper", "best"}));
  gen_cmd->add_option("--flits", gen.flits, "Message length in flits (default 16)")->check(CLI::Range(1LL, kMaxMessageFlits));
  gen_cmd->add_option("--param", gen.params, "Algorithm-specific name=value, repeatable");
  gen_cmd->add_option("-o,--output", gen.output, "Output file (default: stdout)");

  GenerateOptions survey;
  std::vector<std::string> survey_sources;
  bool survey_json = false;
  auto* survey_cmd = sched_cmd->add_subcommand(
      "survey", "Static figures (steps, messages, TCD, step contention) of an algorithm from every source");
  survey_cmd->add_option("--algorithm,-a", survey.algorithm, "Algorithm name (see `wormsim algorithms`)")->required();
  survey_cmd->add_option("--topology,-t", survey.topology, topology_names_text());
  add_dims_option(*survey_cmd, survey.dims, "Radix per dimension; hypercube: D");
  survey_cmd->add_option("--orientation", survey.orientation, "Eye algorithms: paper or best")
      ->check(CLI::IsMember({"paper", "best"}));
  survey_cmd->add_option("--param", survey.params, "Algorithm-specific name=value, repeatable");
  survey_cmd->add_option("--sources", survey_sources, "Only these sources (ids or x,y,...; separate with ';')")
      ->delimiter(';');
  survey_cmd->add_flag("--json", survey_json, "Print one JSON object instead of a table");

  DrawOptions draw;
  auto* draw_cmd = sched_cmd->add_subcommand(
      "draw", "Draw a schedule as SVG: 2-D grids, 3-D as a row of z-slices, rings as a circle, small hypercubes");
  draw_cmd->add_option("file", draw.file, "Schedule JSON file")->required();
  draw_cmd->add_option("-o,--output", draw.output, "Output SVG file")->required();
  draw_cmd->add_option("--cell", draw.cell, "Grid spacing in pixels (default 56)")->check(CLI::Range(16.0, 1000.0))->check(kNotNan);
  draw_cmd->add_flag("--no-labels", draw.no_labels, "Omit node and step labels");
  draw_cmd->add_flag("--no-legend", draw.no_legend, "Omit the legend");
  draw_cmd->add_option("--slices-per-row", draw.slices_per_row, "3-D: z-slices per row (default: all in one row)")
      ->check(CLI::Range(0, 1024));
  draw_cmd->add_option("--title", draw.title, "Title (default: the schedule's name)");
  draw_cmd->add_option("--routing", draw.routing,
                       "Routing function for messages without a route (deterministic network.routing values; "
                       "default dimension-order)");

  app.add_subcommand("algorithms", "List the schedule generators");
  bool stats_json_flag = false;
  auto* stats_cmd = app.add_subcommand(
      "stats", "List every statistic a run writes (summary.json blocks and CSV columns): type, unit and meaning, "
               "from their declarations (docs/metrics.md)");
  stats_cmd->add_flag("--json", stats_json_flag, "Print one JSON list with a record per statistic");

  SaturateOptions sat;
  auto* sat_cmd = app.add_subcommand(
      "saturate", "Find the saturation throughput of a measured load config by bisection on traffic.rate (each rate "
                  "a run); writes curve.csv, curve.svg and summary.json and prints the latency-throughput curve "
                  "(docs/load-studies.md)");
  sat_cmd->add_option("config", sat.config_path, "YAML config with a traffic section with measure_cycles")->required();
  sat_cmd->add_option("--set", sat.overrides, "Override a config key for every run: key.path=value, repeatable");
  sat_cmd->add_option("--out", sat.out_dir, "Output folder (default: output.dir with -saturate appended)")->check(kAFolder);
  sat_cmd->add_option("--criterion", sat.criterion,
                      "Saturated when any of these holds (comma-separated): throughput (accepted < (1 - tolerance) "
                      "x offered), latency (mean packet latency > latency-multiple x zero-load), drain (the run "
                      "saturated); default throughput,latency,drain");
  sat_cmd->add_option("--tolerance", sat.tolerance, "Share of the offered load the accepted may fall short by (default 0.05)");
  sat_cmd->add_option("--latency-multiple", sat.latency_multiple,
                      "Multiple of the zero-load latency (the mean packet latency at --low) above which a point is "
                      "saturated (default 3)");
  auto* low_opt = sat_cmd->add_option("--low", sat.low,
                                      "Lower bound in packets/node/cycle (traffic.rate); must not be saturated "
                                      "(default: 1% of --high)");
  auto* high_opt = sat_cmd->add_option("--high", sat.high,
                                       "Upper bound in packets/node/cycle (default: 1 flit/node/cycle, i.e. 1 / mean "
                                       "packet length, at most 1)");
  sat_cmd->add_option("--resolution", sat.resolution,
                      "Stop when the bracket is narrower than this share of its low end (default 0.02)");
  sat_cmd->add_option("--points", sat.points,
                      "Curve points: evenly spaced rates up to --curve-to x the saturation rate (default 8)");
  sat_cmd->add_option("--curve-to", sat.curve_to, "Where the curve ends, as a multiple of the saturation rate (default 1.5)");
  sat_cmd->add_option("-j,--jobs", sat.jobs, "Runs at a time (default 1); the outputs do not depend on it");
  sat_cmd->add_flag("--keep-runs", sat.keep_runs, "Keep each run's output folder (OUT/runs/rate-R)");
  sat_cmd->add_flag("--quiet", sat.quiet, "Do not print the curve and the result on stdout");

  // Global options (--log-level) may also come after a subcommand's arguments.
  for (CLI::App* sub : app.get_subcommands({}))
    for (CLI::App* leaf : sub->get_subcommands({})) leaf->fallthrough();
  for (CLI::App* sub : app.get_subcommands({})) sub->fallthrough();
  if (const int code = refuse_unknown_command(app, argc, argv)) return code;

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  setup_logging(log_level);
  // Memory refusals and allocation failures are input errors, whichever command hits them.
  return run_guarded(
      [&]() -> int {
        if (app.got_subcommand("run")) return run_command(run);
        if (batch_cmd->parsed()) return batch_command(batch);
        if (sat_cmd->parsed()) {
          sat.low_given = low_opt->count() > 0;
          sat.high_given = high_opt->count() > 0;
          return saturate_command(sat);
        }
        if (config_check_cmd->parsed()) return config_check_command(cfg_check);
        if (config_keys_cmd->parsed()) {
          std::cout << (keys_json ? params_json().dump(2) + "\n" : params_text());
          return kExitOk;
        }
        if (app.got_subcommand("algorithms")) {
          std::cout << algorithm_list();
          return kExitOk;
        }
        if (stats_cmd->parsed()) {
          std::cout << (stats_json_flag ? stats_json().dump(2) + "\n" : stats_text());
          return kExitOk;
        }
        if (check_cmd->parsed()) return schedule_check(chk);
        if (gen_cmd->parsed()) return schedule_generate(gen);
        if (draw_cmd->parsed()) return schedule_draw(draw);
        if (survey_cmd->parsed()) return schedule_survey(survey, survey_sources, survey_json);
        return kExitUsage;
      },
      kExitInputError);
}

}  // namespace

int cli_main(int argc, char** argv) {
  static EscapingStreambuf escaped_stderr(std::cerr.rdbuf());
  std::cerr.rdbuf(&escaped_stderr);
  int code;
  try {
    code = dispatch(argc, argv);
  } catch (const std::exception& e) {
    // What no command caught (an input found wrong only while being built):
    // said as an error, not left to SystemC's "uncaught exception" report.
    std::cerr << "error: " << e.what() << "\n";
    code = kExitInputError;
  }
  escaped_stderr.finish();
  if (!stdout_written() && code == kExitOk) return kExitInputError;
  return code;
}

}  // namespace wormsim

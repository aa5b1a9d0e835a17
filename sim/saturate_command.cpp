#include "sim/saturate_command.hpp"

#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "sim/atomic_file.hpp"
#include "sim/channel_load_bound.hpp"
#include "sim/child_runs.hpp"
#include "sim/curve_svg.hpp"
#include "sim/output_set.hpp"
#include "sim/run.hpp"
#include "sim/saturation_outputs.hpp"
#include "sim/saturation_search.hpp"

namespace wormsim {

namespace {

// A bad option: the message names it and what it expects.
struct OptionError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string given(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

SaturationCriterion parse_criterion(const SaturateOptions& o) {
  SaturationCriterion c;
  c.throughput = c.latency = c.drain = false;
  std::stringstream in(o.criterion);
  for (std::string name; std::getline(in, name, ',');) {
    if (name == "throughput") c.throughput = true;
    else if (name == "latency") c.latency = true;
    else if (name == "drain") c.drain = true;
    else
      throw OptionError("--criterion: unknown criterion \"" + name +
                        "\" (expected a comma-separated list of throughput, latency, drain)");
  }
  if (!c.throughput && !c.latency && !c.drain)
    throw OptionError("--criterion: expected at least one of throughput, latency, drain");
  if (!(o.tolerance > 0.0 && o.tolerance < 1.0))
    throw OptionError("--tolerance: expected a number in (0, 1) (a share of the offered load), got " + given(o.tolerance));
  if (!(o.latency_multiple > 1.0 && o.latency_multiple <= 1000.0))
    throw OptionError("--latency-multiple: expected a number in (1, 1000], got " + given(o.latency_multiple));
  c.tolerance = o.tolerance;
  c.latency_multiple = o.latency_multiple;
  return c;
}

void check_rate(const char* option, double v) {
  if (!(v > 0.0 && v <= 1.0))
    throw OptionError(std::string(option) + ": expected a rate in (0, 1] packets per node per cycle (traffic.rate), got " +
                      given(v));
}

double mean_flits(const BackgroundSpec& t) {
  double sum = 0.0, weight = 0.0;
  for (const auto& [flits, w] : t.lengths) sum += flits * w, weight += w;
  return sum / weight;
}

// The search's settings from the options and the config; throws OptionError.
SaturationOptions search_options(const SaturateOptions& o, double flits) {
  SaturationOptions s;
  s.criterion = parse_criterion(o);
  if (!(o.resolution >= 0.001 && o.resolution < 1.0))
    throw OptionError("--resolution: expected a number in [0.001, 1) (a share of the rate), got " + given(o.resolution));
  if (!(o.points >= 0 && o.points <= 100)) throw OptionError("--points: expected an integer from 0 to 100, got " + given(o.points));
  if (!(o.curve_to >= 1.0 && o.curve_to <= 10.0))
    throw OptionError("--curve-to: expected a number in [1, 10] (a multiple of the saturation rate), got " + given(o.curve_to));
  if (!(o.jobs >= 1 && o.jobs <= 256)) throw OptionError("-j,--jobs: expected an integer from 1 to 256, got " + given(o.jobs));
  if (o.high_given) check_rate("--high", o.high);
  if (o.low_given) check_rate("--low", o.low);
  // One flit per node per cycle is all an injection channel carries.
  s.high = round_rate(o.high_given ? o.high : std::min(1.0, 1.0 / flits));
  s.low = round_rate(o.low_given ? o.low : s.high / 100);
  if (!(s.low < s.high))
    throw OptionError("--low " + rate_text(s.low) + " must be below --high " + rate_text(s.high) +
                      (o.high_given ? "" : " (the default: 1 flit/node/cycle)"));
  s.resolution = o.resolution;
  s.curve_points = o.points;
  s.curve_to = o.curve_to;
  return s;
}

// A config saturate can search: background traffic in measured phases, alone.
// Throws ConfigError naming the file and the key.
void check_load_config(const Config& cfg) {
  if (!cfg.has_traffic)
    throw ConfigError(cfg.path + ": traffic: missing: saturate measures background traffic at a series of rates; "
                                 "give a traffic section with measure_cycles (docs/load-studies.md)");
  if (!cfg.window.enabled)
    throw ConfigError(cfg.path + ": traffic.measure_cycles: missing: saturate needs a measured load run "
                                 "(warmup_cycles, measure_cycles), not an injection window (traffic.cycles)");
  if (cfg.has_schedule)
    throw ConfigError(cfg.path + ": schedule: saturate measures background traffic alone; remove the schedule "
                                 "(--set schedule=null)");
  // Its runs set traffic.rate, and its bound is one pattern's: several classes
  // would need a rule for scaling their rates, which the search does not assume.
  if (cfg.classes_given)
    throw ConfigError(cfg.path + ": traffic.classes: saturate searches the rate of one traffic pattern; give "
                                 "pattern and rate in the traffic section (one class), or sweep the classes' rates "
                                 "with --set traffic.classes[i].rate=R (docs/load-studies.md, Traffic classes)");
}

void write_outputs(OutputSet& out, const SaturationReport& rep) {
  out.begin();
  out.add(kCurveCsv, curve_csv(rep));
  out.add(kCurveSvg, curve_svg(rep));
  out.commit(saturation_summary_json(rep, out.files()));
}

}  // namespace

int saturate_command(const SaturateOptions& opts) {
  RunOptions run;
  run.config_path = opts.config_path;
  run.overrides = opts.overrides;
  RunInputs in;
  if (const int code = load_run_inputs(run, in)) return code;
  const Config& cfg = in.cfg;
  SaturationOptions search;
  try {
    check_load_config(cfg);
    search = search_options(opts, mean_flits(cfg.classes.front().spec));
  } catch (const ConfigError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitInputError;
  } catch (const OptionError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitUsage;
  }
  const std::string dir = opts.out_dir.empty() ? cfg.out_dir + "-saturate" : opts.out_dir;
  std::unique_ptr<OutputSet> out;
  try {
    out = std::make_unique<OutputSet>(dir);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitInputError;
  }
  ChildRunSpec children{opts.config_path, opts.overrides, out->path_of("runs"), opts.jobs, opts.keep_runs};
  SearchResult result;
  try {
    result = search_saturation(search, [&](const std::vector<double>& rates) { return run_children(children, rates); });
  } catch (const SearchError& e) {
    std::cerr << "error: " << opts.config_path << ": " << e.what() << "\n";
    return kExitInputError;
  } catch (const std::runtime_error& e) {
    std::cerr << "error: saturate: " << e.what() << "\n";
    return kExitIncomplete;
  }
  std::error_code ec;
  if (!opts.keep_runs) std::filesystem::remove(children.runs_dir, ec);  // empty by now
  const BackgroundSpec& traffic = cfg.classes.front().spec;  // the one class (check_load_config)
  SaturationReport rep{&cfg, &search, &result, channel_load_bound(cfg.topology, traffic.pattern), mean_flits(traffic)};
  try {
    write_outputs(*out, rep);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitInputError;
  }
  if (!opts.quiet) write_stdout(saturation_text(rep, dir));
  if (result.outcome == SearchOutcome::NotSaturated)
    std::cerr << "saturate: not saturated up to --high " << rate_text(search.high)
              << " packets/node/cycle: the saturation point is above it\n";
  return kExitOk;
}

}  // namespace wormsim

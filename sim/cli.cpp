#include "sim/cli.hpp"

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/cfg/env.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "models/node_id.hpp"
#include "schedules/analysis.hpp"
#include "schedules/draw_svg.hpp"
#include "schedules/generators/generators.hpp"
#include "schedules/schedule_json.hpp"
#include "schedules/validator.hpp"
#include "sim/atomic_file.hpp"
#include "sim/run.hpp"
#include "sim/version.hpp"

namespace wormsim {

namespace {

void setup_logging(const std::string& level) {
  auto logger = spdlog::stderr_color_mt("wormsim");
  logger->set_pattern("[%l] %v");
  spdlog::set_default_logger(logger);
  spdlog::set_level(spdlog::level::from_str(level));
}

// --- schedule check ---------------------------------------------------------

struct CheckOptions {
  std::string file;
  std::string port_model = "one-port";
  bool json = false;
  bool strict = false;
};

int schedule_check(const CheckOptions& o) {
  Schedule s;
  Diagnostics diag(o.file);
  PortModel pm;
  if (!parse_port_model(o.port_model, pm)) {
    std::cerr << "error: --port-model: expected one-port, all-port or N-port (e.g. 2-port), got \"" << o.port_model << "\"\n";
    return kExitUsage;
  }
  if (load_schedule_file(o.file, s, diag)) validate_schedule(s, s.topology, pm, diag);
  if (o.strict) diag.promote_warnings();
  if (!diag.items().empty()) std::cerr << diag.format();
  if (diag.has_errors()) return kExitInputError;
  const Topology topo(s.topology);
  const StaticAnalysis a = analyze_schedule(s, topo);
  int64_t port_violations = 0;
  for (const auto& d : diag.items()) port_violations += d.severity == Diagnostic::Severity::Warning;
  if (o.json) {
    nlohmann::ordered_json j{{"file", o.file},
                             {"name", s.name},
                             {"topology", s.topology.describe()},
                             {"broadcast", s.broadcast},
                             {"steps", a.steps},
                             {"messages", a.messages},
                             {"tcd", a.tcd},
                             {"flit_hops", a.flit_hops},
                             {"max_hops", a.max_hops},
                             {"mean_hops", a.mean_hops},
                             {"lower_bound_steps", a.lower_bound_steps},
                             {"port_model", pm.describe()},
                             {"port_model_violations", port_violations},
                             {"step_contention_pairs", a.step_contention_pairs()},
                             {"step_tcd", a.step_tcd}};
    nlohmann::ordered_json pairs = nlohmann::ordered_json::array();
    for (const auto& p : a.contention)
      pairs.push_back({{"step", p.step + 1},
                       {"first", p.first + 1},
                       {"second", p.second + 1},
                       {"link", topo.node_name(topo.link_src(p.link)) + "->" + topo.node_name(topo.link_dst(p.link))}});
    j["contention"] = pairs;
    std::cout << j.dump(2) << "\n";
    return kExitOk;
  }
  std::cout << o.file << ": " << (s.name.empty() ? "(unnamed)" : s.name) << " on " << s.topology.describe() << "\n"
            << "steps:                 " << a.steps;
  if (a.lower_bound_steps) std::cout << " (lower bound for a one-port broadcast: " << a.lower_bound_steps << ")";
  std::cout << "\nmessages:              " << a.messages << "\n"
            << "TCD:                   " << a.tcd << " hops\n"
            << "hops per message:      max " << a.max_hops << ", mean " << a.mean_hops << "\n"
            << "port-model violations: " << port_violations << " (" << pm.describe() << ")\n"
            << "step contention:       " << a.step_contention_pairs() << " pair(s) of same-step messages share a link\n";
  for (size_t i = 0; i < a.contention.size() && i < 20; ++i) {
    const auto& p = a.contention[i];
    std::cout << "  step " << p.step + 1 << ": messages " << p.first + 1 << " and " << p.second + 1 << " share "
              << topo.node_name(topo.link_src(p.link)) << "->" << topo.node_name(topo.link_dst(p.link)) << "\n";
  }
  return kExitOk;
}

// --- schedule generate ------------------------------------------------------

struct GenerateOptions {
  std::string algorithm, topology = "mesh", source = "0", orientation = "paper", output;
  std::vector<int> dims;
  std::vector<std::string> params;
  int flits = 16;
};

// Turns the command-line options into a topology and generator options.
// Returns kExitOk or the exit code of the problem it reported.
int generator_inputs(const GenerateOptions& o, TopologySpec& spec, GeneratorOptions& g) {
  if (!parse_topology_kind(o.topology, spec.kind)) {
    std::cerr << "error: --topology: expected mesh, torus, hypercube, line or ring, got \"" << o.topology << "\"\n";
    return kExitUsage;
  }
  spec.dims = o.dims;
  g.orientation = o.orientation;
  g.flits = o.flits;
  for (const auto& p : o.params) {
    const auto eq = p.find('=');
    if (eq == std::string::npos || eq == 0) {
      std::cerr << "error: --param " << p << ": expected name=value\n";
      return kExitUsage;
    }
    g.params[p.substr(0, eq)] = p.substr(eq + 1);
  }
  try {
    const Topology topo(spec);
    if (o.source == "eye") {
      g.source_eye = true;
      return kExitOk;
    }
    NodeRef ref;
    std::string why;
    if (!parse_node_text(o.source, ref)) {
      std::cerr << "error: --source: expected a node id, coordinates like 1,2, or eye; got \"" << o.source << "\"\n";
      return kExitUsage;
    }
    g.source = resolve_node(topo, ref, &why);
    if (g.source < 0) {
      std::cerr << "error: --source: " << why << "\n";
      return kExitInputError;
    }
  } catch (const std::exception& e) {
    std::cerr << "error: --dims: " << e.what() << "\n";
    return kExitInputError;
  }
  return kExitOk;
}

int schedule_generate(const GenerateOptions& o) {
  TopologySpec spec;
  GeneratorOptions g;
  if (const int code = generator_inputs(o, spec, g)) return code;
  try {
    const Schedule s = generate_schedule(o.algorithm, spec, g);
    const std::string text = schedule_to_json(s);
    if (o.output.empty() || o.output == "-") std::cout << text;
    else write_file_atomically(o.output, text);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitInputError;
  }
  return kExitOk;
}

// --- schedule survey --------------------------------------------------------

// Static figures of one algorithm from every source (or the sources listed), in one process.
int schedule_survey(const GenerateOptions& o, const std::vector<std::string>& sources, bool json) {
  TopologySpec spec;
  GeneratorOptions g;
  GenerateOptions base = o;
  base.source = "0";
  if (const int code = generator_inputs(base, spec, g)) return code;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  try {
    const Topology topo(spec);
    std::vector<int> ids;
    for (const auto& text : sources) {
      NodeRef ref;
      std::string why;
      const int id = parse_node_text(text, ref) ? resolve_node(topo, ref, &why) : -1;
      if (id < 0) {
        std::cerr << "error: --sources: \"" << text << "\": " << (why.empty() ? "not a node" : why) << "\n";
        return kExitInputError;
      }
      ids.push_back(id);
    }
    if (ids.empty())
      for (int n = 0; n < topo.num_nodes(); ++n) ids.push_back(n);
    if (!json) std::cout << "source\tid\tsteps\tmessages\ttcd\tstep_contention_pairs\n";
    for (int id : ids) {
      g.source = id;
      const Schedule s = generate_schedule(o.algorithm, spec, g);
      const StaticAnalysis a = analyze_schedule(s, topo);
      if (json)
        rows.push_back({{"source", topo.node_name(id)}, {"id", id}, {"steps", a.steps}, {"messages", a.messages},
                        {"tcd", a.tcd}, {"step_contention_pairs", a.step_contention_pairs()}});
      else
        std::cout << topo.node_name(id) << '\t' << id << '\t' << a.steps << '\t' << a.messages << '\t' << a.tcd
                  << '\t' << a.step_contention_pairs() << '\n';
    }
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitInputError;
  }
  if (json)
    std::cout << nlohmann::ordered_json{{"algorithm", o.algorithm},
                                        {"topology", spec.describe()},
                                        {"orientation", o.orientation},
                                        {"params", o.params},
                                        {"sources", rows}}
                     .dump(1)
              << "\n";
  return kExitOk;
}

// --- schedule draw ----------------------------------------------------------

struct DrawOptions {
  std::string file, output;
  double cell = 56.0;
  bool no_labels = false, no_legend = false;
  int slices_per_row = 0;
  std::string title;
};

int schedule_draw(const DrawOptions& o) {
  Schedule s;
  Diagnostics diag(o.file);
  if (!load_schedule_file(o.file, s, diag)) {
    std::cerr << diag.format();
    return kExitInputError;
  }
  SvgOptions svg;
  svg.cell = o.cell;
  svg.label_nodes = !o.no_labels;
  svg.label_steps = !o.no_labels;
  svg.legend = !o.no_legend;
  svg.slices_per_row = o.slices_per_row;
  svg.title = o.title;
  try {
    const Topology topo(s.topology);
    write_file_atomically(o.output, schedule_to_svg(s, topo, svg));
  } catch (const std::exception& e) {
    std::cerr << "error: " << o.file << ": " << e.what() << "\n";
    return kExitInputError;
  }
  return kExitOk;
}

std::string algorithm_list() {
  std::ostringstream os;
  for (const auto& g : generator_registry()) os << "  " << g.name << ": " << g.summary << "\n";
  return os.str();
}

}  // namespace

int cli_main(int argc, char** argv) {
  CLI::App app{"wormsim " + std::string(kWormsimVersion) +
               ": cycle-accurate flit-level wormhole network simulator (SystemC)\n"
               "Simulates step-indexed broadcast and collective schedules on meshes, tori and hypercubes."};
  app.require_subcommand(1);
  std::string log_level = "warn";
  app.add_option("--log-level", log_level, "trace, debug, info, warn, error, critical or off (logs go to stderr)")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}));
  app.set_version_flag("--version", std::string("wormsim ") + kWormsimVersion);

  RunOptions run;
  auto* run_cmd = app.add_subcommand("run", "Simulate a config; writes summary.json, messages.csv, links.csv, "
                                            "steps.csv to the output folder and prints a summary");
  run_cmd->add_option("config", run.config_path, "YAML config file (see docs/config-reference.md)")->required();
  run_cmd->add_option("--set", run.overrides, "Override a config key: key.path=value (YAML value), repeatable");
  run_cmd->add_option("--out", run.out_dir, "Output folder (overrides output.dir)");
  run_cmd->add_flag("--strict", run.strict, "Treat schedule warnings (port-model violations) as errors");
  run_cmd->add_flag("--quiet", run.quiet, "Do not print the summary on stdout");
  run_cmd->add_option("--trace", run.trace,
                      "Also write a timeline: perfetto (trace.json, Chrome trace events) or vcd (trace.vcd, small "
                      "networks); overrides output.trace")
      ->check(CLI::IsMember({"none", "perfetto", "vcd"}));

  auto* sched_cmd = app.add_subcommand("schedule", "Generate, check or draw schedules without simulating");
  sched_cmd->require_subcommand(1);
  CheckOptions chk;
  auto* check_cmd = sched_cmd->add_subcommand("check", "Validate a schedule file and print its static figures");
  check_cmd->add_option("file", chk.file, "Schedule JSON file (docs/schedule-format.md)")->required();
  check_cmd->add_option("--port-model", chk.port_model, "Port model for the port-model check (default one-port)");
  check_cmd->add_flag("--json", chk.json, "Print one JSON object (steps, messages, tcd, step_contention_pairs, ...)");
  check_cmd->add_flag("--strict", chk.strict, "Treat warnings as errors");
  check_cmd->add_option("--routing", "Routing used for messages without a route (only dimension-order)")
      ->check(CLI::IsMember({"dimension-order"}));

  GenerateOptions gen;
  auto* gen_cmd = sched_cmd->add_subcommand("generate", "Write the schedule of a published algorithm");
  gen_cmd->add_option("--algorithm,-a", gen.algorithm, "Algorithm name (see `wormsim algorithms`)")->required();
  gen_cmd->add_option("--topology,-t", gen.topology, "mesh, torus, hypercube, line or ring");
  gen_cmd->add_option("--dims,-d", gen.dims, "Radix per dimension, e.g. --dims 8 8; hypercube: --dims D")
      ->required()
      ->delimiter(',');
  gen_cmd->add_option("--source,-s", gen.source, "Source node: id, coordinates (1,2) or eye (default 0)");
  gen_cmd->add_option("--orientation", gen.orientation, "Eye algorithms: paper or best")
      ->check(CLI::IsMember({"paper", "best"}));
  gen_cmd->add_option("--flits", gen.flits, "Message length in flits (default 16)")->check(CLI::Range(1, 1 << 24));
  gen_cmd->add_option("--param", gen.params, "Algorithm-specific name=value, repeatable");
  gen_cmd->add_option("-o,--output", gen.output, "Output file (default: stdout)");

  GenerateOptions survey;
  std::vector<std::string> survey_sources;
  bool survey_json = false;
  auto* survey_cmd = sched_cmd->add_subcommand(
      "survey", "Static figures (steps, messages, TCD, step contention) of an algorithm from every source");
  survey_cmd->add_option("--algorithm,-a", survey.algorithm, "Algorithm name (see `wormsim algorithms`)")->required();
  survey_cmd->add_option("--topology,-t", survey.topology, "mesh, torus, hypercube, line or ring");
  survey_cmd->add_option("--dims,-d", survey.dims, "Radix per dimension; hypercube: D")->required()->delimiter(',');
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
  draw_cmd->add_option("--cell", draw.cell, "Grid spacing in pixels (default 56)")->check(CLI::Range(8.0, 400.0));
  draw_cmd->add_flag("--no-labels", draw.no_labels, "Omit node and step labels");
  draw_cmd->add_flag("--no-legend", draw.no_legend, "Omit the legend");
  draw_cmd->add_option("--slices-per-row", draw.slices_per_row, "3-D: z-slices per row (default: all in one row)")
      ->check(CLI::Range(0, 1024));
  draw_cmd->add_option("--title", draw.title, "Title (default: the schedule's name)");

  app.add_subcommand("algorithms", "List the schedule generators");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  setup_logging(log_level);
  if (app.got_subcommand("run")) return run_command(run);
  if (app.got_subcommand("algorithms")) {
    std::cout << algorithm_list();
    return kExitOk;
  }
  if (check_cmd->parsed()) return schedule_check(chk);
  if (gen_cmd->parsed()) return schedule_generate(gen);
  if (draw_cmd->parsed()) return schedule_draw(draw);
  if (survey_cmd->parsed()) return schedule_survey(survey, survey_sources, survey_json);
  return kExitUsage;
}

}  // namespace wormsim

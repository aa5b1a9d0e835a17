#include "sim/schedule_commands.hpp"

#include <algorithm>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "models/node_id.hpp"
#include "schedules/analysis.hpp"
#include "schedules/draw_svg.hpp"
#include "schedules/generators/generators.hpp"
#include "schedules/schedule_json.hpp"
#include "schedules/schedule_memory.hpp"
#include "schedules/validator.hpp"
#include "models/topology_shape.hpp"
#include "sim/atomic_file.hpp"
#include "sim/run.hpp"

namespace wormsim {

namespace {

// Turns the command-line options into a topology and generator options, once
// the command's estimate (generator_estimate) fits in memory: throws MemoryRefused if not.
// Returns kExitOk or the exit code of the problem it reported.
int generator_inputs(const GenerateOptions& o, GeneratorOutput output, TopologySpec& spec, GeneratorOptions& g) {
  if (!parse_topology_kind(o.topology, spec.kind)) {
    std::cerr << "error: --topology: expected " << topology_names_text() << ", got \"" << o.topology << "\"\n";
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
  long long nodes = 0;
  try {
    nodes = Topology::validate(spec);
  } catch (const std::exception& e) {
    std::cerr << "error: --dims: " << e.what() << "\n";
    return kExitInputError;
  }
  require_memory(generator_estimate(spec, generated_messages(o.algorithm, nodes), output), "");
  std::unique_ptr<Topology> topo;
  try {
    topo = std::make_unique<Topology>(spec);
  } catch (const std::exception& e) {
    std::cerr << "error: --dims: " << e.what() << "\n";
    return kExitInputError;
  }
  if (o.source == "eye") {
    g.source_eye = true;
    return kExitOk;
  }
  NodeRef ref;
  if (!parse_node_text(o.source, ref)) {
    std::cerr << "error: --source: expected a node id, coordinates like 1,2, or eye; got \"" << o.source << "\"\n";
    return kExitUsage;
  }
  try {
    g.source = resolve_node(*topo, ref);
  } catch (const std::invalid_argument& e) {
    std::cerr << "error: --source: " << e.what() << "\n";
    return kExitInputError;
  }
  return kExitOk;
}

}  // namespace

// --- schedule check ---------------------------------------------------------

// Routing functions are checked here with as many VCs as a run may have (network.vcs at most 16).
constexpr int kMaxVcsForCheck = 16;

namespace {
// --routing names no registered function: the error lists the known ones.
int refuse_unknown_routing(const std::string& routing) {
  try {
    require_deadlock_free(routing, TopologySpec{}, 1);
  } catch (const std::invalid_argument& e) {
    std::cerr << "error: --routing: " << e.what() << "\n";
  }
  return kExitUsage;
}
}  // namespace

int schedule_check(const CheckOptions& o) {
  Schedule s;
  Diagnostics diag(o.file);
  PortModel pm;
  if (!parse_port_model(o.port_model, pm)) {
    std::cerr << "error: --port-model: expected one-port, all-port or N-port (e.g. 2-port), got \"" << o.port_model << "\"\n";
    return kExitUsage;
  }
  if (!find_routing(o.routing)) return refuse_unknown_routing(o.routing);
  std::unique_ptr<Topology> net;
  if (load_schedule_file(o.file, s, diag, schedule_memory_check(ScheduleCommand::Check))) {
    net = std::make_unique<Topology>(s.topology);
    validate_schedule(s, *net, pm, diag, o.routing);
  }
  if (o.strict) diag.promote_warnings();
  if (!diag.items().empty()) std::cerr << diag.format();
  if (diag.has_errors()) return kExitInputError;
  const Topology& topo = *net;
  // VCs are a run's setting: here only the topology and option can be refused.
  try {
    require_deadlock_free(o.routing, topo.spec(), kMaxVcsForCheck);
  } catch (const std::invalid_argument& e) {
    std::cerr << "error: --routing: " << e.what() << "\n";
    return kExitInputError;
  }
  const StaticAnalysis a = analyze_schedule(s, topo, *make_routing(o.routing, topo, kMaxVcsForCheck));
  const int64_t port_violations = diag.warnings();
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
                             {"routing", o.routing},
                             {"step_contention_pairs",
                              a.contention_known ? nlohmann::ordered_json(a.step_contention_pairs()) : nullptr},
                             {"step_tcd", a.step_tcd}};
    nlohmann::ordered_json pairs = nlohmann::ordered_json::array();
    for (const auto& p : a.contention)
      pairs.push_back({{"step", p.step + 1},
                       {"first", p.first + 1},
                       {"second", p.second + 1},
                       {"link", topo.router_name(topo.link_src(p.link)) + "->" + topo.router_name(topo.link_dst(p.link))}});
    j["contention"] = pairs;
    if (a.multicast_messages) {  // only then: the keys of unicast schedules stay as they were
      j["multicast_messages"] = a.multicast_messages;
      j["multicast_worms"] = a.multicast_worms;
      j["multicast_channel_use"] = a.multicast_channel_use;
      j["multicast_longest_path"] = a.multicast_longest_path;
    }
    std::cout << j.dump(2) << "\n";
    return kExitOk;
  }
  std::cout << o.file << ": " << (s.name.empty() ? "(unnamed)" : s.name) << " on " << s.topology.describe() << "\n"
            << "steps:                 " << a.steps;
  if (a.lower_bound_steps) std::cout << " (lower bound for a one-port broadcast: " << a.lower_bound_steps << ")";
  std::cout << "\nmessages:              " << a.messages << "\n"
            << "TCD:                   " << a.tcd << " hops"
            << (a.multicast_messages ? " (a multicast message counts its channel use)" : "") << "\n"
            << "hops per message:      max " << a.max_hops << ", mean " << a.mean_hops << "\n";
  if (a.multicast_messages)
    std::cout << "multicast:             " << a.multicast_messages << " message(s), " << a.multicast_worms
              << " worm(s), channel use " << a.multicast_channel_use << " links, longest path "
              << a.multicast_longest_path << " hops\n";
  std::cout << "port-model violations: " << port_violations << " (" << pm.describe() << ")\n"
            << "step contention:       ";
  if (a.contention_known)
    std::cout << a.step_contention_pairs() << " pair(s) of same-step messages share a link\n";
  else
    std::cout << "cannot be known statically: " << o.routing
              << " is adaptive, the routers choose each hop at run time (run it: links.csv and routes.csv tell)\n";
  for (size_t i = 0; i < a.contention.size() && i < 20; ++i) {
    const auto& p = a.contention[i];
    std::cout << "  step " << p.step + 1 << ": messages " << p.first + 1 << " and " << p.second + 1 << " share "
              << topo.router_name(topo.link_src(p.link)) << "->" << topo.router_name(topo.link_dst(p.link)) << "\n";
  }
  return kExitOk;
}

// --- schedule generate ------------------------------------------------------

int schedule_generate(const GenerateOptions& o) {
  TopologySpec spec;
  GeneratorOptions g;
  if (const int code = generator_inputs(o, GeneratorOutput::ScheduleText, spec, g)) return code;
  try {
    const Schedule s = generate_schedule(o.algorithm, spec, g);
    const std::string text = schedule_to_json(s);
    write_output_file(o.output.empty() ? "-" : o.output, text);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitInputError;
  }
  return kExitOk;
}

// --- schedule survey --------------------------------------------------------

namespace {

// The endpoint one --sources entry names; throws the whole message when it names none.
int survey_source(const Topology& topo, const std::string& text) {
  const std::string where = "--sources: \"" + text + "\": ";
  NodeRef ref;
  if (!parse_node_text(text, ref)) throw std::invalid_argument(where + "not a node");
  try {
    return resolve_node(topo, ref);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(where + e.what());
  }
}

}  // namespace

// Static figures of one algorithm from every source (or the sources listed), in one process.
int schedule_survey(const GenerateOptions& o, const std::vector<std::string>& sources, bool json) {
  TopologySpec spec;
  GeneratorOptions g;
  GenerateOptions base = o;
  base.source = "0";
  if (const int code = generator_inputs(base, GeneratorOutput::SurveyRows, spec, g)) return code;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  std::ostringstream table;  // printed once every source has its row: an error leaves no partial table
  try {
    const Topology topo(spec);
    std::vector<int> ids;
    for (const auto& text : sources) ids.push_back(survey_source(topo, text));
    if (ids.empty())
      for (int n = 0; n < topo.num_endpoints(); ++n) ids.push_back(n);
    table << "source\tid\tsteps\tmessages\ttcd\tstep_contention_pairs\n";
    for (int id : ids) {
      g.source = id;
      const Schedule s = generate_schedule(o.algorithm, spec, g);
      const StaticAnalysis a = analyze_schedule(s, topo);
      if (json)
        rows.push_back({{"source", topo.node_name(id)}, {"id", id}, {"steps", a.steps}, {"messages", a.messages},
                        {"tcd", a.tcd}, {"step_contention_pairs", a.step_contention_pairs()}});
      else
        table << topo.node_name(id) << '\t' << id << '\t' << a.steps << '\t' << a.messages << '\t' << a.tcd
                  << '\t' << a.step_contention_pairs() << '\n';
    }
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitInputError;
  }
  if (!json) std::cout << table.str();
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

int schedule_draw(const DrawOptions& o) {
  Schedule s;
  Diagnostics diag(o.file);
  SvgOptions svg;
  svg.cell = o.cell;
  svg.node_radius = std::min(svg.node_radius, o.cell / 4);  // small cells draw small nodes
  svg.label_nodes = !o.no_labels;
  svg.label_steps = !o.no_labels;
  svg.legend = !o.no_legend;
  svg.slices_per_row = o.slices_per_row;
  svg.title = o.title;
  // What cannot be drawn, or drawn in memory, is refused before the schedule is built.
  const ScheduleMemoryCheck drawable = [&svg](const TopologySpec* spec, size_t messages, size_t text_bytes,
                                              const std::string& file) {
    if (spec) check_drawable_topology(*spec, svg);
    schedule_memory_check(ScheduleCommand::Draw)(spec, messages, text_bytes, file);
  };
  const RoutingInfo* routing = find_routing(o.routing);
  if (!routing) return refuse_unknown_routing(o.routing);
  if (routing->adaptive) {
    std::cerr << "error: --routing: " << o.routing
              << " is adaptive: the routers choose each hop at run time, so there is no route to draw (draw with a "
                 "deterministic function, or run the schedule and read routes.csv)\n";
    return kExitUsage;
  }
  try {
    if (!load_schedule_file(o.file, s, diag, drawable)) {
      std::cerr << diag.format();
      return kExitInputError;
    }
    const Topology topo(s.topology);
    std::unique_ptr<RoutingFunction> route_by;
    try {
      route_by = make_routing(o.routing, topo, kMaxVcsForCheck);
    } catch (const std::invalid_argument& e) {
      std::cerr << "error: --routing: " << e.what() << "\n";
      return kExitInputError;
    }
    svg.routing = route_by.get();
    write_output_file(o.output, schedule_to_svg(s, topo, svg));
  } catch (const MemoryRefused&) {
    throw;
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

}  // namespace wormsim

// Schedule generators: the published broadcast algorithms, their baselines and
// the hypercube / line-broadcast collectives. Each generator turns a topology
// and options into a Schedule (schedules/schedule.hpp); the registry below maps
// the names users type (`--algorithm NAME`, `schedule: {algorithm: NAME}`) to them.
#pragma once

#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/topology.hpp"
#include "schedules/schedule.hpp"
#include "schedules/terminal_text.hpp"

namespace wormsim {

// Thrown for options a generator cannot honour (wrong topology, size not a power
// of two, bad source...). The message names the option and what was expected;
// user text in it is escaped (schedules/terminal_text.hpp).
struct GeneratorError : std::invalid_argument {
  explicit GeneratorError(const std::string& what) : std::invalid_argument(printable(what)) {}
};

struct GeneratorOptions {
  int source = 0;            // node id of the source (broadcast/scatter root)
  bool source_eye = false;   // "--source eye": start from an eye of the mesh
  std::string orientation = "paper";  // eye algorithms: "paper" or "best"
  int flits = 16;            // message length written into the schedule
  // Algorithm-specific extras, as given on the command line or in the config
  // (e.g. {"variant": "contention-free"}). Generators reject keys they do not know.
  std::map<std::string, std::string> params;
};

struct GeneratorInfo {
  std::string name;
  std::string summary;  // one line for --help and docs
  std::function<Schedule(const Topology&, const GeneratorOptions&)> make;
  bool every_pair = false;  // sends a message between every ordered pair of nodes (not one per node)
};

// Every registered generator, in the order --help lists them.
const std::vector<GeneratorInfo>& generator_registry();
// Their names, comma-separated, in that order ("eye, tcd-optimal, ...").
std::string generator_names();

// How many messages the named generator makes on `nodes` nodes, at most (for
// the memory estimate, before generating): n(n-1) for the every-pair
// collectives, n-1 for the others (and for names it does not know).
long long generated_messages(const std::string& algorithm, long long nodes);

// Runs the named generator; throws GeneratorError for unknown names or bad options.
Schedule generate_schedule(const std::string& algorithm, const TopologySpec& topology,
                           const GeneratorOptions& options);
// The same on a topology already built (a run builds its network's once).
Schedule generate_schedule(const std::string& algorithm, const Topology& topology, const GeneratorOptions& options);

}  // namespace wormsim

namespace wormsim::detail {
// Each family of generators adds its entries to the registry (one file per family).
void append_mesh_broadcast_generators(std::vector<GeneratorInfo>& out);  // mesh_broadcast*.cpp
void append_hypercube_generators(std::vector<GeneratorInfo>& out);       // hypercube*.cpp
void append_line_broadcast_generators(std::vector<GeneratorInfo>& out);  // line_broadcast*.cpp
void append_multicast_generators(std::vector<GeneratorInfo>& out);       // multicast_broadcast.cpp
}  // namespace wormsim::detail

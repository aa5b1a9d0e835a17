#include "schedules/generators/hypercube_options.hpp"

namespace wormsim::detail {

namespace {

void check_params(const std::string& algorithm, const GeneratorOptions& o) {
  if (o.params.empty()) return;
  throw GeneratorError("params: unknown key \"" + o.params.begin()->first + "\" (" + algorithm +
                       " takes no params)");
}

void check_mesh_only_options(const std::string& algorithm, const GeneratorOptions& o) {
  if (o.source_eye)
    throw GeneratorError("source: \"eye\" applies to the mesh eye algorithms only; " + algorithm +
                         " expects a node id");
  if (o.orientation != "paper")
    throw GeneratorError("orientation: \"" + o.orientation + "\" applies to the mesh eye algorithms only; " +
                         algorithm + " expects the default \"paper\"");
}

void check_source(const std::string& algorithm, const Topology& topo, const GeneratorOptions& o,
                  SourceUse use) {
  if (use == SourceUse::AllNodes) {
    if (o.source != 0)
      throw GeneratorError("source: " + algorithm + " starts from every node; expected the default 0, got " +
                           std::to_string(o.source));
    return;
  }
  if (!topo.valid_node(o.source))
    throw GeneratorError("source: " + std::to_string(o.source) + " is not a node of the " +
                         topo.spec().describe() + " (expected 0.." + std::to_string(topo.num_nodes() - 1) +
                         ")");
}

}  // namespace

void check_collective_options(const std::string& algorithm, const Topology& topo,
                              const GeneratorOptions& options, SourceUse source_use) {
  check_params(algorithm, options);
  check_mesh_only_options(algorithm, options);
  if (options.flits < 1)
    throw GeneratorError("flits: expected a positive message length, got " + std::to_string(options.flits));
  check_source(algorithm, topo, options, source_use);
}

void require_hypercube(const std::string& algorithm, const Topology& topo) {
  if (topo.kind() != "hypercube")
    throw GeneratorError("topology: " + algorithm + " expects a hypercube, got " + topo.spec().describe());
}

}  // namespace wormsim::detail

#include "schedules/generators/generators.hpp"

namespace wormsim {

const std::vector<GeneratorInfo>& generator_registry() {
  static const std::vector<GeneratorInfo> registry = [] {
    std::vector<GeneratorInfo> all;
    detail::append_mesh_broadcast_generators(all);
    detail::append_hypercube_generators(all);
    detail::append_line_broadcast_generators(all);
    detail::append_multicast_generators(all);
    return all;
  }();
  return registry;
}

std::string generator_names() {
  std::string names;
  for (const auto& g : generator_registry()) names += (names.empty() ? "" : ", ") + g.name;
  return names;
}

long long generated_messages(const std::string& algorithm, long long nodes) {
  for (const auto& g : generator_registry())
    if (g.name == algorithm && g.every_pair) return nodes * (nodes - 1);
  return nodes - 1;
}

Schedule generate_schedule(const std::string& algorithm, const TopologySpec& topology,
                           const GeneratorOptions& options) {
  for (const auto& g : generator_registry())
    if (g.name == algorithm) return generate_schedule(algorithm, Topology(topology), options);
  throw GeneratorError("unknown algorithm \"" + algorithm + "\" (expected one of: " + generator_names() + ")");
}

Schedule generate_schedule(const std::string& algorithm, const Topology& topology, const GeneratorOptions& options) {
  for (const auto& g : generator_registry()) {
    if (g.name == algorithm) {
      Schedule s = g.make(topology, options);
      if (s.algorithm.empty()) s.algorithm = algorithm;
      return s;
    }
  }
  throw GeneratorError("unknown algorithm \"" + algorithm + "\" (expected one of: " + generator_names() + ")");
}

}  // namespace wormsim

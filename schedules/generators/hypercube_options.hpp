// Option checks shared by the hypercube collectives (hypercube.cpp) and the
// line-broadcast schemes (line_broadcast.cpp). None of these generators takes
// algorithm-specific params or the mesh-only eye options, so everything but
// the topology, the source and the message length is rejected by name.
#pragma once

#include <string>

#include "models/topology.hpp"
#include "schedules/generators/generators.hpp"

namespace wormsim::detail {

enum class SourceUse {
  Root,     // options.source is the broadcast/scatter root: any node of the topology
  AllNodes  // every node is a source (multinode broadcast, total exchange): leave it at 0
};

// Throws GeneratorError naming the first option `algorithm` cannot honour.
void check_collective_options(const std::string& algorithm, const Topology& topo,
                              const GeneratorOptions& options, SourceUse source_use);

// Throws GeneratorError("topology: ...") unless the topology is a hypercube.
void require_hypercube(const std::string& algorithm, const Topology& topo);

}  // namespace wormsim::detail

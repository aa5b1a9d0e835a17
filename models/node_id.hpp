// Naming nodes. Wherever a node is named (configs, schedules, the command line)
// either form is accepted: an integer id (x fastest for meshes/tori, the binary
// label for hypercubes) or a list of coordinates ([x, y, ...]; for hypercubes
// one bit per dimension, bit 0 first).
#pragma once

#include <string>
#include <vector>

#include "models/topology.hpp"

namespace wormsim {

struct NodeRef {
  bool is_coords = false;
  long long id = -1;
  std::vector<long long> coords;
};

// Resolves a reference; on failure returns -1 and says why in *error.
int resolve_node(const Topology& topo, const NodeRef& ref, std::string* error);

// Parses "5", "(1,2)", "[1,2]" or "1,2". Returns false on malformed text.
bool parse_node_text(const std::string& text, NodeRef& out);

}  // namespace wormsim

// Naming endpoints ("nodes") and routers. Wherever an endpoint is named
// (configs, schedules, the command line) either form is accepted: an integer id
// or a list of coordinates ([x, y, ...]; for hypercubes one bit per dimension,
// bit 0 first). When routers have several endpoints (a concentrated mesh), the
// coordinates are the router's followed by the endpoint's local index
// ([x, y, k]; as text also "(x,y).k"). Routers (explicit routes in schedules)
// are named by their id or their coordinates alone.
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

// Resolves an endpoint reference to its id; throws std::invalid_argument saying
// why when it names no endpoint of `topo`.
int resolve_node(const Topology& topo, const NodeRef& ref);
// Resolves a router reference (its id or coordinates), likewise.
int resolve_router(const Topology& topo, const NodeRef& ref);
// The coordinates that name an endpoint (resolve_node's inverse).
std::vector<int> endpoint_coords(const Topology& topo, int endpoint);

// Parses "5", "(1,2)", "[1,2]", "1,2" or "(1,2).3". Returns false on malformed text.
bool parse_node_text(const std::string& text, NodeRef& out);

}  // namespace wormsim

// Traffic patterns: where a background packet goes. Each pattern is a class in
// its own file under sim/traffic/patterns/, registered by name with one
// WORMSIM_TRAFFIC_PATTERN(...) line and listed in sim/traffic/patterns/registry.hpp
// (the order of docs and error messages). A pattern is checked against the
// topology once (its static check throws std::invalid_argument saying what the
// network lacks), then asked for the destination endpoint of each packet.
// Patterns see endpoints; the grid patterns (transpose, tornado, neighbor) move
// a packet's router and keep its local index (a concentrated mesh's endpoint k
// goes to endpoint k of the partner router). docs/config-reference.md defines
// every pattern on meshes, tori and hypercubes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/topology.hpp"
#include "sim/traffic/random.hpp"

namespace wormsim {

struct BackgroundSpec;

class TrafficPattern {
 public:
  virtual ~TrafficPattern() = default;
  // The destination endpoint of a packet from endpoint `src`. `src` itself
  // means the packet is not sent (a node a permutation maps to itself stays silent).
  virtual int destination(int src, TrafficRng& rng) const = 0;
};

struct PatternInfo {
  std::string name;     // what traffic.pattern says
  std::string summary;  // one line for `config keys` and docs
  // Returns when the pattern fits the network and spec, else throws
  // std::invalid_argument saying what it needs.
  void (*check)(const Topology& topo, const BackgroundSpec& spec) = nullptr;
  std::unique_ptr<TrafficPattern> (*make)(const Topology& topo, const BackgroundSpec& spec) = nullptr;
};

// Every registered pattern, in the order of sim/traffic/patterns/registry.hpp.
const std::vector<PatternInfo>& pattern_registry();
const PatternInfo* find_pattern(const std::string& name);  // null if unknown
std::vector<std::string> pattern_names();
// Checks then builds the pattern named by spec.pattern; throws std::invalid_argument.
std::unique_ptr<TrafficPattern> make_pattern(const Topology& topo, const BackgroundSpec& spec);

// What several patterns share.
// A uniformly chosen endpoint other than src (one draw).
inline int uniform_other(int src, int endpoints, TrafficRng& rng) {
  const int d = static_cast<int>(uniform01(rng) * (endpoints - 1));
  return d >= src ? d + 1 : d;
}
// log2 of the endpoint count; throws saying `pattern` needs a power of two.
int endpoint_bits(const Topology& topo, const std::string& pattern);
// The endpoint at `router` with src's local index.
inline int same_index_at(const Topology& topo, int src, int router) {
  return topo.endpoint_at(router, topo.endpoint_index(src));
}
// The router whose coordinate d is router's plus shift[d], modulo the radix.
int shift_coordinates(const Topology& topo, int router, const std::vector<int>& shift);

}  // namespace wormsim

// Declares a pattern to the registry (besides its line in sim/traffic/patterns/registry.hpp).
// ID is that line's identifier, NAME what users type; CLASS has a constructor
// (const Topology&, const BackgroundSpec&) and a static check(const Topology&, const BackgroundSpec&).
#define WORMSIM_TRAFFIC_PATTERN(ID, NAME, CLASS, SUMMARY)                                                     \
  namespace wormsim::traffic_patterns {                                                                       \
  PatternInfo ID() {                                                                                          \
    return PatternInfo{NAME, SUMMARY, &CLASS::check,                                                          \
                       [](const Topology& topo, const BackgroundSpec& s) -> std::unique_ptr<TrafficPattern> { \
                         return std::make_unique<CLASS>(topo, s);                                             \
                       }};                                                                                    \
  }                                                                                                           \
  }

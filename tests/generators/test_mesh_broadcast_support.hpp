// Helpers shared by the mesh/torus broadcast generator tests.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "models/topology.hpp"
#include "schedules/analysis.hpp"
#include "schedules/generators/generators.hpp"
#include "schedules/schedule.hpp"

namespace mesh_test {

using namespace wormsim;

inline TopologySpec mesh(std::vector<int> dims) { return TopologySpec{"mesh", std::move(dims)}; }
inline TopologySpec torus(std::vector<int> dims) { return TopologySpec{"torus", std::move(dims)}; }
inline TopologySpec hypercube(int d) { return TopologySpec{"hypercube", {d}}; }

struct Opts {
  std::string orientation = "paper";
  std::map<std::string, std::string> params;
  bool source_eye = false;
  int flits = 16;
};

inline Schedule generate(const std::string& algorithm, const TopologySpec& spec, int source, const Opts& run = {}) {
  GeneratorOptions o;
  o.source = source;
  o.orientation = run.orientation;
  o.params = run.params;
  o.source_eye = run.source_eye;
  o.flits = run.flits;
  return generate_schedule(algorithm, spec, o);
}

inline int node(const TopologySpec& spec, const std::vector<int>& coords) { return Topology(spec).node_at(coords); }

inline int ceil_log2(int n) {
  int k = 0;
  while ((1 << k) < n) ++k;
  return k;
}

// The first way `s` breaks the one-port broadcast rules, or "" if it keeps them:
// one packet from the source; every other node receives exactly once; a node
// sends only in a step after it received (the source from step 0); at most one
// send per node per step; no explicit routes (dimension-order routing applies).
inline std::string broadcast_violation(const Schedule& s, const Topology& topo) {
  if (!s.broadcast) return "not marked as a broadcast";
  if (!topo.valid_node(s.source)) return "source out of range";
  if (s.packets.size() != 1 || s.packets[0].origin != s.source) return "expected one packet held by the source";
  const int kSource = -1, kNotYet = -2;
  std::vector<int> received(topo.num_nodes(), kNotYet);
  received[s.source] = kSource;
  for (size_t t = 0; t < s.steps.size(); ++t) {
    std::set<int> senders;
    for (const auto& m : s.steps[t]) {
      const std::string at = "step " + std::to_string(t) + " " + std::to_string(m.src) + "->" + std::to_string(m.dst);
      if (!topo.valid_node(m.src) || !topo.valid_node(m.dst)) return at + ": node out of range";
      if (m.packet != 0 || !m.route().empty()) return at + ": wrong packet or explicit route";
      if (received[m.src] == kNotYet || received[m.src] == static_cast<int>(t))
        return at + ": sender does not hold the message yet";
      if (!senders.insert(m.src).second) return at + ": node sends twice in one step";
      if (received[m.dst] != kNotYet) return at + ": receiver already has the message";
      received[m.dst] = static_cast<int>(t);
    }
  }
  for (int v = 0; v < topo.num_nodes(); ++v)
    if (received[v] == kNotYet) return "node " + std::to_string(v) + " never receives";
  return "";
}

// Generates, checks the broadcast rules and returns the static analysis.
inline StaticAnalysis checked(const Schedule& s) {
  const Topology topo(s.topology);
  EXPECT_EQ(broadcast_violation(s, topo), "") << s.name;
  return analyze_schedule(s, topo);
}

// The GeneratorError message `f` throws, or "" if it throws nothing.
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const GeneratorError& e) {
    return e.what();
  }
  return "";
}

}  // namespace mesh_test

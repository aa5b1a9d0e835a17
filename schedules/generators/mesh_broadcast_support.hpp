// Shared pieces of the mesh/torus broadcast generators (eye, tcd-optimal,
// umesh, corner, binomial): the plan type they compute, coordinate helpers for
// 2^k-per-side cubes, option checks with the messages users see, and the step
// from a plan to a Schedule.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/topology.hpp"
#include "schedules/generators/generators.hpp"
#include "schedules/schedule.hpp"

namespace wormsim::mesh_broadcast {

// One unicast of a broadcast, as node ids.
struct PlanMessage {
  int src = -1;
  int dst = -1;
};
// Messages per step, steps in order.
using BroadcastPlan = std::vector<std::vector<PlanMessage>>;

// Node ids <-> coordinates of a d-dimensional cube of side `side`, x fastest:
// the same numbering as Topology for a mesh/torus whose radices all equal side.
class CubeIndex {
 public:
  CubeIndex(int side, int d);
  int side() const { return side_; }
  int dims() const { return d_; }
  int64_t size() const { return size_; }
  int64_t encode(const std::vector<int>& coords) const;
  std::vector<int> decode(int64_t id) const;

 private:
  int side_;
  int d_;
  int64_t size_;
};

// Sum over dimensions of |a_i - b_i|: the hop count of a mesh route.
int64_t mesh_distance(const std::vector<int>& a, const std::vector<int>& b);

// log2(v) if v is a power of two (1 included), else -1.
int log2_exact(int v);

// --- option checks: each throws GeneratorError naming the option -----------

// Mesh or torus; a hypercube is rejected.
void require_mesh_or_torus(const Topology& topo, const std::string& algorithm);
// All sides equal to one power of two 2^k; returns k.
int require_power_of_two_cube(const Topology& topo, const std::string& algorithm);
// Every side a power of two (sides may differ); returns log2 of each side.
std::vector<int> require_power_of_two_sides(const Topology& topo, const std::string& algorithm);
// options.params has no key outside `allowed`.
void require_known_params(const GeneratorOptions& options, const std::string& algorithm,
                          const std::vector<std::string>& allowed);
// options.orientation is "paper" or "best".
void require_valid_orientation(const GeneratorOptions& options);
// For generators without orientations: options.orientation is the default "paper".
void require_no_orientation(const GeneratorOptions& options, const std::string& algorithm);
// options.flits is at least 1.
void require_valid_flits(const GeneratorOptions& options);
// options.source is a node of topo; returns it. Not for --source eye.
int require_source_in_range(const Topology& topo, const GeneratorOptions& options);
// The node --source eye names: E_k(1), the eye whose every coordinate is the
// lower eye coordinate of the 2^k cube (the eye nearest node 0). Needs a mesh
// or torus with all sides 2^k.
int eye_source_node(const Topology& topo, const std::string& algorithm);
// options.source, or the eye node when options.source_eye is set.
int resolve_source(const Topology& topo, const GeneratorOptions& options, const std::string& algorithm);

// --- building schedules -------------------------------------------------------

// The plan translated by `shift` (per dimension, modulo the side): on a torus
// every node is equivalent, so a schedule from one node moves to any other.
BroadcastPlan translate_plan(const Topology& topo, const BroadcastPlan& plan, const std::vector<int>& shift);

// A broadcast Schedule (one packet, flits = options.flits) from a plan.
Schedule schedule_from_plan(const Topology& topo, int source, const GeneratorOptions& options,
                            const std::string& algorithm, const std::string& description,
                            const BroadcastPlan& plan);

}  // namespace wormsim::mesh_broadcast

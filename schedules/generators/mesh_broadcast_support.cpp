#include "schedules/generators/mesh_broadcast_support.hpp"

#include <cstdlib>

#include "schedules/generators/eye_math.hpp"

namespace wormsim::mesh_broadcast {

CubeIndex::CubeIndex(int side, int d) : side_(side), d_(d), size_(1) {
  for (int i = 0; i < d; ++i) size_ *= side;
}

int64_t CubeIndex::encode(const std::vector<int>& coords) const {
  int64_t id = 0;
  for (int i = d_; i-- > 0;) id = id * side_ + coords[i];
  return id;
}

std::vector<int> CubeIndex::decode(int64_t id) const {
  std::vector<int> c(d_);
  for (int i = 0; i < d_; ++i) {
    c[i] = static_cast<int>(id % side_);
    id /= side_;
  }
  return c;
}

int64_t mesh_distance(const std::vector<int>& a, const std::vector<int>& b) {
  int64_t sum = 0;
  for (size_t i = 0; i < a.size(); ++i) sum += std::abs(a[i] - b[i]);
  return sum;
}

int log2_exact(int v) {
  if (v < 1 || (v & (v - 1)) != 0) return -1;
  int k = 0;
  while ((1 << k) < v) ++k;
  return k;
}

namespace {

std::string dims_text(const Topology& topo) {
  std::string s;
  for (int i = 0; i < topo.num_dims(); ++i) s += (i ? "x" : "") + std::to_string(topo.radix(i));
  return s;
}

}  // namespace

void require_mesh_or_torus(const Topology& topo, const std::string& algorithm) {
  if (topo.kind() != "mesh" && topo.kind() != "torus")
    throw GeneratorError("--topology: " + algorithm + " works on meshes and tori" +
                         (topo.one_endpoint_per_router() ? "" : " (one node per router)") + ", got " +
                         topo.spec().describe());
}

std::vector<int> require_power_of_two_sides(const Topology& topo, const std::string& algorithm) {
  require_mesh_or_torus(topo, algorithm);
  std::vector<int> logs;
  for (int i = 0; i < topo.num_dims(); ++i) {
    const int k = log2_exact(topo.radix(i));
    if (k < 0)
      throw GeneratorError("--dims: " + algorithm + " needs every side a power of two, got " +
                           std::to_string(topo.radix(i)));
    logs.push_back(k);
  }
  return logs;
}

int require_power_of_two_cube(const Topology& topo, const std::string& algorithm) {
  const std::vector<int> logs = require_power_of_two_sides(topo, algorithm);
  for (int k : logs)
    if (k != logs[0])
      throw GeneratorError("--dims: " + algorithm + " needs all sides equal (a 2^k x ... x 2^k " +
                           topo.kind() + "), got " + dims_text(topo));
  return logs[0];
}

void require_known_params(const GeneratorOptions& options, const std::string& algorithm,
                          const std::vector<std::string>& allowed) {
  for (const auto& [key, value] : options.params) {
    bool known = false;
    for (const auto& a : allowed) known = known || a == key;
    if (known) continue;
    std::string expected;
    for (const auto& a : allowed) expected += (expected.empty() ? "" : ", ") + a;
    throw GeneratorError("--param " + key + ": " + algorithm + " does not know this parameter (" +
                         (expected.empty() ? std::string("it takes none") : "expected one of: " + expected) +
                         ")");
  }
}

void require_valid_orientation(const GeneratorOptions& options) {
  if (options.orientation != "paper" && options.orientation != "best")
    throw GeneratorError("--orientation: expected paper or best, got \"" + options.orientation + "\"");
}

void require_no_orientation(const GeneratorOptions& options, const std::string& algorithm) {
  require_valid_orientation(options);
  if (options.orientation != "paper")
    throw GeneratorError("--orientation: only eye has orientations; " + algorithm +
                         " expects the default (paper), got \"" + options.orientation + "\"");
}

void require_valid_flits(const GeneratorOptions& options) {
  if (options.flits < 1)
    throw GeneratorError("--flits: expected at least 1, got " + std::to_string(options.flits));
}

int require_source_in_range(const Topology& topo, const GeneratorOptions& options) {
  if (!topo.valid_endpoint(options.source))
    throw GeneratorError("--source: node " + std::to_string(options.source) + " is out of range for " +
                         topo.spec().describe() + " (valid 0.." + std::to_string(topo.num_endpoints() - 1) +
                         ")");
  return options.source;
}

int eye_source_node(const Topology& topo, const std::string& algorithm) {
  if (topo.kind() != "mesh" && topo.kind() != "torus")
    throw GeneratorError("--source eye: " + algorithm + " has eyes only on meshes and tori, got " +
                         topo.spec().describe());
  const int k = require_power_of_two_cube(topo, algorithm + " --source eye");
  const int lower = static_cast<int>(eye_math::eye_coordinates(k).lower);
  return topo.node_at(std::vector<int>(topo.num_dims(), lower));
}

int resolve_source(const Topology& topo, const GeneratorOptions& options, const std::string& algorithm) {
  return options.source_eye ? eye_source_node(topo, algorithm) : require_source_in_range(topo, options);
}

BroadcastPlan translate_plan(const Topology& topo, const BroadcastPlan& plan, const std::vector<int>& shift) {
  auto move = [&](int node) {
    std::vector<int> c = topo.coords(node);
    for (int i = 0; i < topo.num_dims(); ++i) {
      const int k = topo.radix(i);
      c[i] = ((c[i] + shift[i]) % k + k) % k;
    }
    return topo.node_at(c);
  };
  BroadcastPlan out(plan.size());
  for (size_t s = 0; s < plan.size(); ++s)
    for (const auto& m : plan[s]) out[s].push_back({move(m.src), move(m.dst)});
  return out;
}

Schedule schedule_from_plan(const Topology& topo, int source, const GeneratorOptions& options,
                            const std::string& algorithm, const std::string& description,
                            const BroadcastPlan& plan) {
  const std::string name = algorithm + " broadcast on " + topo.spec().describe() + " from " +
                           topo.node_name(source) + (description.empty() ? "" : ", " + description);
  Schedule s = make_broadcast_schedule(topo.spec(), source, options.flits, name, algorithm);
  for (const auto& step : plan) {
    std::vector<ScheduledMessage> msgs;
    msgs.reserve(step.size());
    for (const auto& m : step) {
      ScheduledMessage sm;
      sm.src = m.src;
      sm.dst = m.dst;
      sm.packet = 0;
      msgs.push_back(std::move(sm));
    }
    s.steps.push_back(std::move(msgs));
  }
  return s;
}

}  // namespace wormsim::mesh_broadcast

// The mesh/torus broadcast family of the generator registry: Cang & Wu's eye
// broadcasts, the exact quadrant-recursive optimum, and the baselines they are
// compared with. docs/algorithms/mesh-broadcast.md describes each one.
#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "decl/param.hpp"
#include "schedules/generators/eye_broadcast.hpp"
#include "schedules/generators/eye_math.hpp"
#include "schedules/generators/generators.hpp"
#include "schedules/generators/mesh_baselines.hpp"
#include "schedules/generators/mesh_broadcast_support.hpp"
#include "schedules/generators/tcd_optimal.hpp"

namespace wormsim {

namespace {

using namespace mesh_broadcast;

// The generators' own config keys (the config reader takes them when the
// generator is chosen; `schedule generate` passes --orientation and --param).
const ParamSection kEyeParams{
    "schedule", "eye generator", "the eye broadcast's choice of dimension order", {"schedule.algorithm", "eye"}, 30,
    {ParamDecl::choice("orientation", {"paper", "best"})
         .by_default("paper")
         .describe("eye algorithms' orientation: the paper's dimension order, or the best of every order")}};
WORMSIM_DECLARE_PARAMS(kEyeParams);

const ParamSection kTcdOptimalParams{
    "schedule.params", "tcd-optimal generator", "which optimum tcd-optimal searches for",
    {"schedule.algorithm", "tcd-optimal"}, 30,
    {ParamDecl::choice("variant", {"any", "contention-free"})
         .by_default("any")
         .describe("any: minimum TCD; contention-free: minimum TCD among schedules without step contention")}};
WORMSIM_DECLARE_PARAMS(kTcdOptimalParams);

std::vector<int> all_lower_eye(int k, int d) {
  return std::vector<int>(d, static_cast<int>(eye_math::eye_coordinates(k).lower));
}

// On a torus every node is an eye: plan from E_k(1) and move it onto the source.
BroadcastPlan plan_on_topology(const Topology& topo, int source, int k,
                               const std::function<BroadcastPlan(const std::vector<int>&)>& planner) {
  const std::vector<int> src = topo.coords(source);
  if (topo.kind() != "torus") return planner(src);
  const std::vector<int> eye = all_lower_eye(k, topo.num_dims());
  std::vector<int> shift(src.size());
  for (size_t i = 0; i < src.size(); ++i) shift[i] = src[i] - eye[i];
  return translate_plan(topo, planner(eye), shift);
}

std::string source_note(const GeneratorOptions& options) {
  return options.source_eye ? "source eye E_k(1)" : "";
}

std::string join(const std::string& a, const std::string& b) {
  return a.empty() ? b : b.empty() ? a : a + ", " + b;
}

Schedule make_eye(const Topology& topo, const GeneratorOptions& options) {
  const std::string alg = "eye";
  require_known_params(options, alg, {});
  require_valid_orientation(options);
  require_valid_flits(options);
  const int k = require_power_of_two_cube(topo, alg);
  const int source = resolve_source(topo, options, alg);
  const auto orientation = options.orientation == "best" ? eye::Orientation::Best : eye::Orientation::Paper;
  if (orientation == eye::Orientation::Best && topo.num_dims() > eye::EyePlanner::kMaxBestDims)
    throw GeneratorError("--orientation: best tries every dimension order, supported up to " +
                         std::to_string(eye::EyePlanner::kMaxBestDims) + " dimensions, got " +
                         std::to_string(topo.num_dims()));
  eye::EyePlanner planner(k, topo.num_dims(), orientation);
  const BroadcastPlan plan =
      plan_on_topology(topo, source, k, [&](const std::vector<int>& s) { return planner.plan(s); });
  return schedule_from_plan(topo, source, options, alg,
                            join("orientation " + options.orientation, source_note(options)), plan);
}

Schedule make_tcd_optimal(const Topology& topo, const GeneratorOptions& options) {
  const std::string alg = "tcd-optimal";
  const ParamDecl& declared = *kTcdOptimalParams.find("variant");
  require_known_params(options, alg, {declared.key});
  require_no_orientation(options, alg);
  require_valid_flits(options);
  const int k = require_power_of_two_cube(topo, alg);
  const int source = resolve_source(topo, options, alg);
  std::string variant = declared.fixed_default.get<std::string>();
  if (auto it = options.params.find(declared.key); it != options.params.end()) variant = it->second;
  if (std::find(declared.choices.begin(), declared.choices.end(), variant) == declared.choices.end())
    throw GeneratorError("--param variant: tcd-optimal expects any or contention-free, got \"" + variant + "\"");
  const int d = topo.num_dims();
  if (d > 6) throw GeneratorError("--dims: tcd-optimal supports up to 6 dimensions, got " + std::to_string(d));
  // Arbitrary splits are exponential in 2^d; beyond d = 3 both variants use sub-cube splits.
  const auto family = variant == "any" && d <= 3 ? tcd_optimal::Family::AnySplit : tcd_optimal::Family::Subcube;
  const tcd_optimal::QuadrantDp dp(k, d, family);
  const BroadcastPlan plan =
      plan_on_topology(topo, source, k, [&](const std::vector<int>& s) { return dp.plan(s); });
  return schedule_from_plan(topo, source, options, alg, join("variant " + variant, source_note(options)), plan);
}

Schedule make_umesh(const Topology& topo, const GeneratorOptions& options) {
  const std::string alg = "umesh";
  require_known_params(options, alg, {});
  require_no_orientation(options, alg);
  require_valid_flits(options);
  require_mesh_or_torus(topo, alg);
  const int source = resolve_source(topo, options, alg);
  return schedule_from_plan(topo, source, options, alg, source_note(options), umesh_plan(topo, source));
}

Schedule make_corner(const Topology& topo, const GeneratorOptions& options) {
  const std::string alg = "corner";
  require_known_params(options, alg, {});
  require_no_orientation(options, alg);
  require_valid_flits(options);
  require_power_of_two_sides(topo, alg);
  const int source = resolve_source(topo, options, alg);
  return schedule_from_plan(topo, source, options, alg, source_note(options), corner_plan(topo, source));
}

Schedule make_binomial(const Topology& topo, const GeneratorOptions& options) {
  const std::string alg = "binomial";
  require_known_params(options, alg, {});
  require_no_orientation(options, alg);
  require_valid_flits(options);
  const int source = resolve_source(topo, options, alg);
  return schedule_from_plan(topo, source, options, alg, source_note(options), binomial_plan(topo, source));
}

}  // namespace

namespace detail {

void append_mesh_broadcast_generators(std::vector<GeneratorInfo>& out) {
  out.push_back({"eye",
                 "Cang & Wu eye-based minimum-TCD broadcast on 2^k-per-side meshes/tori (Algorithms 1-3); "
                 "--orientation paper|best",
                 make_eye});
  out.push_back({"tcd-optimal",
                 "exact minimum TCD over quadrant-recursive broadcasts (DP over submeshes); "
                 "params variant=any|contention-free",
                 make_tcd_optimal});
  out.push_back({"umesh", "U-mesh (McKinley et al. 1994): contention-free halving of the dimension-ordered chain",
                 make_umesh});
  out.push_back({"corner", "recursive doubling to the same relative position of every submesh (powers of two)",
                 make_corner});
  out.push_back({"binomial", "MPI-style binomial tree on node ids relative to the source (any topology)",
                 make_binomial});
}

}  // namespace detail

}  // namespace wormsim

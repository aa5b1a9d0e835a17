// Generated schedules, simulated: the contention-free algorithms show no step
// contention in barrier mode, and their completion time is exactly the sum over
// steps of each step's zero-load maximum. The hypercube collectives under the
// all-port model take one single-hop transfer time per step.
#include <gtest/gtest.h>

#include "harness.hpp"
#include "schedules/analysis.hpp"
#include "schedules/generators/generators.hpp"
#include "schedules/validator.hpp"

namespace wormsim::test {
namespace {

struct Case {
  const char* name;
  const char* algorithm;
  TopologySpec topology;
  int source;
  const char* orientation;
  PortKind ports;
  int flits;
};

const Case kCases[] = {
    {"eye_8x8_from_2_3", "eye", {"mesh", {8, 8}}, 2 + 3 * 8, "paper", PortKind::OnePort, 16},
    {"eye_best_8x8_from_2_3", "eye", {"mesh", {8, 8}}, 2 + 3 * 8, "best", PortKind::OnePort, 16},
    {"eye_16x16_corner", "eye", {"mesh", {16, 16}}, 0, "paper", PortKind::OnePort, 32},
    {"eye_8x8x8_from_5_1_2", "eye", {"mesh", {8, 8, 8}}, 5 + 8 + 2 * 64, "paper", PortKind::OnePort, 8},
    {"tcd_optimal_8x8_from_2_3", "tcd-optimal", {"mesh", {8, 8}}, 2 + 3 * 8, "paper", PortKind::OnePort, 16},
    {"tcd_optimal_16x16_from_5_9", "tcd-optimal", {"mesh", {16, 16}}, 5 + 9 * 16, "paper", PortKind::OnePort, 4},
    {"umesh_6x5_from_4", "umesh", {"mesh", {6, 5}}, 4, "paper", PortKind::OnePort, 16},
    {"umesh_16x16_from_37", "umesh", {"mesh", {16, 16}}, 37, "paper", PortKind::OnePort, 16},
    {"eye_torus_8x8_from_7_1", "eye", {"torus", {8, 8}}, 7 + 8, "paper", PortKind::OnePort, 16},
    {"multinode_5cube", "multinode-broadcast", {"hypercube", {5}}, 0, "paper", PortKind::AllPort, 8},
    {"scatter_6cube_from_9", "scatter", {"hypercube", {6}}, 9, "paper", PortKind::AllPort, 8},
    {"total_exchange_4cube", "total-exchange", {"hypercube", {4}}, 0, "paper", PortKind::AllPort, 8},
    {"line_cycle_16", "line-cycle", {"torus", {16}}, 3, "paper", PortKind::OnePort, 8},
    {"line_torus_8x8", "line-torus", {"torus", {8, 8}}, 0, "paper", PortKind::OnePort, 8},
};

class GeneratedSchedule : public ::testing::TestWithParam<int> {};

TEST_P(GeneratedSchedule, BarrierRunHasNoStepContentionAndZeroLoadSteps) {
  const Case& c = kCases[GetParam()];
  GeneratorOptions g;
  g.source = c.source;
  g.orientation = c.orientation;
  g.flits = c.flits;
  const Schedule s = generate_schedule(c.algorithm, c.topology, g);
  NetworkParams p = default_params();
  p.ports.kind = c.ports;
  p.vcs = c.topology.kind == "torus" ? 2 : 1;
  Diagnostics diag;
  validate_schedule(s, c.topology, p.ports, diag);
  ASSERT_FALSE(diag.has_errors()) << diag.format();
  EXPECT_EQ(diag.warnings(), 0) << diag.format();
  const Topology topo(c.topology);
  ASSERT_EQ(analyze_schedule(s, topo).step_contention_pairs(), 0);

  SimRun r = simulate(s, p, ExecutionMode::Barrier);
  ASSERT_EQ(r.net->status(), RunStatus::Completed);
  const RunMetrics m = r.metrics(static_cast<int>(s.steps.size()));
  EXPECT_EQ(m.step_contention.cycles, 0);
  EXPECT_EQ(m.depth_contention.cycles, 0);
  EXPECT_EQ(m.port_wait.cycles, 0);
  uint64_t expected = 0;
  for (const StepMetrics& st : m.steps) {
    EXPECT_EQ(st.max_latency, st.max_zero_load) << "step " << st.step;
    expected += st.max_zero_load;
  }
  EXPECT_EQ(m.completion, expected);
  EXPECT_EQ(m.tcd, analyze_schedule(s, topo).tcd);
  if (c.topology.kind == "hypercube") {
    // Every transfer is one hop: each step takes 2*1 + L cycles.
    EXPECT_EQ(m.completion, s.steps.size() * static_cast<uint64_t>(2 + c.flits));
  }
}

INSTANTIATE_TEST_SUITE_P(Algorithms, GeneratedSchedule, ::testing::Range(0, static_cast<int>(std::size(kCases))),
                         [](const ::testing::TestParamInfo<int>& info) { return std::string(kCases[info.param].name); });

// Eager mode lets later steps start before earlier ones finish: a broadcast can
// only get faster (never slower) than in barrier mode, and depth contention is
// what it pays for the overlap.
TEST(GeneratedScheduleEager, EyeBroadcastFinishesNoLaterThanBarrier) {
  GeneratorOptions g;
  g.source = 2 + 3 * 16;
  g.flits = 64;
  const Schedule s = generate_schedule("eye", {"mesh", {16, 16}}, g);
  SimRun r = simulate(s, default_params(), ExecutionMode::Eager);
  ASSERT_EQ(r.net->status(), RunStatus::Completed);
  const RunMetrics m = r.metrics(static_cast<int>(s.steps.size()));
  uint64_t barrier = 0;
  for (const StepMetrics& st : m.steps) barrier += st.max_zero_load;
  EXPECT_LE(m.completion, barrier);
  EXPECT_EQ(m.delivered, 255);
}

}  // namespace
}  // namespace wormsim::test

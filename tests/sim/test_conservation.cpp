// Conservation and deadlock freedom under heavy traffic: every flit injected is
// ejected exactly once, every message is delivered once, link counters add up
// to flits x hops, and tori with the dateline VC pair finish all-to-all traffic.
#include <gtest/gtest.h>

#include "harness.hpp"
#include "schedules/analysis.hpp"

namespace wormsim::test {
namespace {

// Every node sends to every other node; all messages in one step unless `steps` > 1.
Schedule all_to_all(const TopologySpec& spec, int flits, int steps = 1) {
  const Topology topo(spec);
  Schedule s;
  s.topology = spec;
  s.flits = flits;
  s.steps.resize(steps);
  int k = 0;
  for (int a = 0; a < topo.num_endpoints(); ++a)
    for (int b = 0; b < topo.num_endpoints(); ++b) {
      if (a == b) continue;
      ScheduledMessage m;
      m.src = a;
      m.dst = b;
      m.flits = 1 + (k % 7);  // mixed lengths, single-flit worms included
      m.packet = s.add_packet("", a);
      s.steps[k++ % steps].push_back(m);
    }
  return s;
}

void expect_conserved(const SimRun& r, const Schedule& s) {
  ASSERT_EQ(r.net->status(), RunStatus::Completed);
  const SimContext& ctx = r.net->context();
  uint64_t flits = 0, flit_hops = 0;
  for (const MessageRecord& m : ctx.msgs) {
    EXPECT_NE(m.delivered, kNever);
    EXPECT_GE(m.delivered, m.header_arrival);
    EXPECT_GE(m.header_arrival, m.inject);
    EXPECT_GE(m.inject, m.release);
    flits += m.flits;
    flit_hops += static_cast<uint64_t>(m.flits) * m.hops;
  }
  EXPECT_EQ(ctx.flits_injected, flits);
  EXPECT_EQ(ctx.flits_ejected, flits);
  uint64_t busy = 0;
  for (uint64_t b : ctx.link_busy) busy += b;
  EXPECT_EQ(busy, flit_hops);
  EXPECT_TRUE(r.net->buffers_consistent());
  const RunMetrics m = r.metrics(static_cast<int>(s.steps.size()));
  EXPECT_EQ(m.delivered, static_cast<int64_t>(s.num_messages()));
  EXPECT_EQ(m.flit_hops, static_cast<int64_t>(flit_hops));
  EXPECT_EQ(m.tcd, analyze_schedule(s, *r.topo).tcd);
  EXPECT_LE(m.link_util_max, 1.0);
}

TEST(Conservation, MeshAllToAllOneStepBarrier) {
  const Schedule s = all_to_all({"mesh", {4, 4}}, 4);
  SimRun r = simulate(s, default_params(), ExecutionMode::Barrier);
  expect_conserved(r, s);
  EXPECT_GT(r.metrics(1).step_contention.cycles, 0);  // 240 worms in one step must collide
}

TEST(Conservation, MeshAllToAllEagerWithVcsAndAllPort) {
  const Schedule s = all_to_all({"mesh", {4, 3, 2}}, 4, 5);
  NetworkParams p = default_params();
  p.vcs = 3;
  p.ports.kind = PortKind::AllPort;
  SimRun r = simulate(s, p, ExecutionMode::Eager);
  expect_conserved(r, s);
}

TEST(Conservation, HypercubeAllToAllKPort) {
  const Schedule s = all_to_all({"hypercube", {4}}, 4, 3);
  NetworkParams p = default_params();
  p.ports.kind = PortKind::KPort;
  p.ports.k = 2;
  p.buffer_flits = 2;  // shallow buffers: worms stretch over many routers
  SimRun r = simulate(s, p, ExecutionMode::Barrier);
  expect_conserved(r, s);
}

// Tori: with the dateline pair, dimension-order routing cannot deadlock.
TEST(Conservation, TorusAllToAllWithDatelineVcsFinishes) {
  const Schedule s = all_to_all({"torus", {4, 4}}, 8);
  NetworkParams p = default_params();
  p.vcs = 2;
  p.buffer_flits = 2;
  SimRun r = simulate(s, p, ExecutionMode::Barrier);
  expect_conserved(r, s);
}

// Concentrated mesh: several interfaces per router, messages of 0 hops between
// endpoints of one router among the rest, under each port model (one network per process).
void expect_cmesh_all_to_all(PortKind kind) {
  const TopologySpec cmesh{"cmesh", {3, 2}, {{"concentration", 3}}};
  const Schedule s = all_to_all(cmesh, 4, 3);
  NetworkParams p = default_params();
  p.ports.kind = kind;
  p.ports.k = 2;
  p.buffer_flits = 2;
  SimRun r = simulate(s, p, ExecutionMode::Eager);
  expect_conserved(r, s);
  const Topology& t = *r.topo;
  int zero = 0;
  for (const MessageRecord& m : r.net->context().msgs) {
    EXPECT_EQ(m.hops, t.distance(t.endpoint_router(m.src), t.endpoint_router(m.dst)));
    zero += m.hops == 0;
  }
  EXPECT_EQ(zero, 6 * 3 * 2);  // each endpoint sends to the two others of its router
}

TEST(Conservation, CmeshAllToAllOnePort) { expect_cmesh_all_to_all(PortKind::OnePort); }
TEST(Conservation, CmeshAllToAllAllPort) { expect_cmesh_all_to_all(PortKind::AllPort); }
TEST(Conservation, CmeshAllToAllKPort) { expect_cmesh_all_to_all(PortKind::KPort); }

TEST(Conservation, RingAllToAllEagerFinishes) {
  const Schedule s = all_to_all({"torus", {8}}, 16);
  NetworkParams p = default_params();
  p.vcs = 2;
  p.buffer_flits = 2;
  SimRun r = simulate(s, p, ExecutionMode::Eager);
  expect_conserved(r, s);
}

TEST(Conservation, ThreeDTorusAllToAllFinishes) {
  const Schedule s = all_to_all({"torus", {3, 3, 3}}, 8);
  NetworkParams p = default_params();
  p.vcs = 4;  // two VCs per dateline class
  SimRun r = simulate(s, p, ExecutionMode::Barrier);
  expect_conserved(r, s);
}

// Without the dateline pair, worms that chase each other round a ring deadlock;
// the watchdog must stop the run and name the cycle of waiting worms.
TEST(Deadlock, RingWithOneVcIsDetected) {
  Schedule s;
  s.topology = {"torus", {8}};
  s.flits = 64;
  s.steps.emplace_back();
  for (int i = 0; i < 8; ++i) {
    ScheduledMessage m;
    m.src = i;
    m.dst = (i + 3) % 8;
    m.packet = s.add_packet("", i);
    s.steps[0].push_back(m);
  }
  NetworkParams p = default_params();
  p.vcs = 1;
  p.buffer_flits = 2;
  p.watchdog_cycles = 200;
  SimRun r = simulate(s, p, ExecutionMode::Barrier);
  ASSERT_EQ(r.net->status(), RunStatus::Deadlock);
  const auto& cyc = r.net->deadlock_cycle();
  ASSERT_GE(cyc.size(), 2u);
  // Each worm in the reported cycle waits for the next one, and the last for the first.
  for (size_t i = 0; i < cyc.size(); ++i) EXPECT_EQ(cyc[i].blocker, cyc[(i + 1) % cyc.size()].msg);
  const RunMetrics m = r.metrics(1);
  EXPECT_LT(m.delivered, 8);
  // Per-step figures count the stuck worms too, as the run totals do.
  EXPECT_EQ(m.steps[0].step_contention.cycles, m.step_contention.cycles);
  EXPECT_GT(m.step_contention.cycles, 0);
}

TEST(Deadlock, CycleLimitStopsARun) {
  Schedule s;
  s.topology = {"mesh", {8}};
  s.flits = 100;
  ScheduledMessage m;
  m.src = 0;
  m.dst = 7;
  m.packet = s.add_packet("", 0);
  s.steps.push_back({m});
  NetworkParams p = default_params();
  p.max_cycles = 50;
  SimRun r = simulate(s, p, ExecutionMode::Barrier);
  EXPECT_EQ(r.net->status(), RunStatus::CycleLimit);
  EXPECT_EQ(r.msg(0).delivered, kNever);
}

}  // namespace
}  // namespace wormsim::test

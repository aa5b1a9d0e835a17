// Small contention cases computed by hand (default timing: t_r = t_l = 1,
// t_s = 0, credit delay 1, 4-flit buffers). The derivations are in the comments
// and in docs/timing-model.md.
#include <gtest/gtest.h>

#include "harness.hpp"

namespace wormsim::test {
namespace {

ScheduledMessage msg(int src, int dst, int packet, int flits) {
  ScheduledMessage m;
  m.src = src;
  m.dst = dst;
  m.packet = packet;
  m.flits = flits;
  return m;
}

Schedule line(int n) {
  Schedule s;
  s.topology = TopologySpec{"mesh", {n}};
  s.flits = 4;
  return s;
}

// A: 0->2 and B: 1->3 in one step share link 1->2. B's header takes it at cycle
// 1 and its tail leaves router 1 at cycle 4; A's header is ready at router 1 at
// cycle 3, waits cycles 3 and 4, and leaves at 5: latency 8 + 2.
TEST(Contention, SameStepWormsSharingALink) {
  Schedule s = line(4);
  s.steps.push_back({msg(0, 2, s.add_packet("", 0), 4), msg(1, 3, s.add_packet("", 1), 4)});
  SimRun r = simulate(s, default_params(), ExecutionMode::Barrier);
  ASSERT_EQ(r.net->status(), RunStatus::Completed);
  EXPECT_EQ(latency(r, 1), 8u);
  EXPECT_EQ(latency(r, 0), 10u);
  EXPECT_EQ(r.msg(0).stall_step, 2u);
  EXPECT_EQ(r.msg(0).stall_depth, 0u);
  EXPECT_EQ(r.msg(1).stall_step, 0u);
  const RunMetrics m = r.metrics(1);
  EXPECT_EQ(m.step_contention.messages, 1);
  EXPECT_EQ(m.step_contention.cycles, 2);
  EXPECT_EQ(m.completion, 10u);
}

// Step 0: A 2->3 (16 flits) and C 0->1 (1 flit); step 1: B 1->3 (2 flits) forwards C's packet.
// Eager: C is delivered at 3, B is released at 3, its header is ready at router 2
// at 6 but A holds link 2->3 until its tail leaves at 16; B leaves at 17:
// 11 cycles of depth contention, latency 6 + 11. Barrier: B waits for A's
// delivery (cycle 18) and meets nobody: completion 18 + 6.
Schedule depth_case() {
  Schedule s = line(4);
  const int q = s.add_packet("q", 2);
  const int p = s.add_packet("p", 0);
  s.steps.push_back({msg(2, 3, q, 16), msg(0, 1, p, 1)});
  s.steps.push_back({msg(1, 3, p, 2)});
  return s;
}

TEST(Contention, DepthContentionInEagerMode) {
  SimRun r = simulate(depth_case(), default_params(), ExecutionMode::Eager);
  ASSERT_EQ(r.net->status(), RunStatus::Completed);
  EXPECT_EQ(r.msg(1).delivered, 3u);
  EXPECT_EQ(r.msg(2).release, 3u);
  EXPECT_EQ(latency(r, 2), 17u);
  EXPECT_EQ(r.msg(2).stall_depth, 11u);
  EXPECT_EQ(r.msg(2).stall_step, 0u);
  EXPECT_EQ(latency(r, 0), 18u);
  const RunMetrics m = r.metrics(2);
  EXPECT_EQ(m.depth_contention.messages, 1);
  EXPECT_EQ(m.depth_contention.cycles, 11);
  EXPECT_EQ(m.step_contention.cycles, 0);
  EXPECT_EQ(m.completion, 20u);
}

TEST(Contention, NoDepthContentionInBarrierMode) {
  SimRun r = simulate(depth_case(), default_params(), ExecutionMode::Barrier);
  ASSERT_EQ(r.net->status(), RunStatus::Completed);
  EXPECT_EQ(r.msg(0).delivered, 18u);
  EXPECT_EQ(r.msg(2).release, 18u);
  EXPECT_EQ(latency(r, 2), 6u);
  EXPECT_EQ(r.metrics(2).depth_contention.cycles, 0);
  EXPECT_EQ(r.metrics(2).completion, 24u);
}

// One-port: node 1 sends to 0 and to 2 in the same step; the second worm's
// header enters the injection channel after the first's 4 flits: 4 cycles of
// port wait, latency 6 + 4.
TEST(Contention, OnePortSerialisesSends) {
  Schedule s = line(3);
  s.steps.push_back({msg(1, 0, s.add_packet("", 1), 4), msg(1, 2, s.add_packet("", 1), 4)});
  SimRun r = simulate(s, default_params(), ExecutionMode::Barrier);
  ASSERT_EQ(r.net->status(), RunStatus::Completed);
  EXPECT_EQ(latency(r, 0), 6u);
  EXPECT_EQ(r.msg(1).inject, 4u);
  EXPECT_EQ(latency(r, 1), 10u);
  EXPECT_EQ(r.metrics(1).port_wait.cycles, 4);
}

// k-port in eager mode: both sends of node 1 start at once (two channels).
TEST(Contention, KPortEagerSendsInParallel) {
  Schedule s = line(3);
  s.steps.push_back({msg(1, 0, s.add_packet("", 1), 4), msg(1, 2, s.add_packet("", 1), 4)});
  NetworkParams p = default_params();
  p.ports.kind = PortKind::KPort;
  p.ports.k = 2;
  SimRun r = simulate(s, p, ExecutionMode::Eager);
  EXPECT_EQ(r.msg(0).release, 0u);
  EXPECT_EQ(r.msg(1).release, 0u);
  EXPECT_EQ(latency(r, 0), 6u);
  EXPECT_EQ(latency(r, 1), 6u);
}

TEST(Contention, AllPortSendsInParallel) {
  Schedule s = line(3);
  s.steps.push_back({msg(1, 0, s.add_packet("", 1), 4), msg(1, 2, s.add_packet("", 1), 4)});
  NetworkParams p = default_params();
  p.ports.kind = PortKind::AllPort;
  SimRun r = simulate(s, p, ExecutionMode::Barrier);
  EXPECT_EQ(latency(r, 0), 6u);
  EXPECT_EQ(latency(r, 1), 6u);
  EXPECT_EQ(r.metrics(1).port_wait.cycles, 0);
}

// One-port ejection: 0->1 and 2->1 arrive together at cycle 3. Input port 0 of
// router 1 (from node 2) comes first in round-robin order, so 2->1 ejects at
// 3..6 and 0->1 waits 4 cycles: latency 6 + 4.
TEST(Contention, OnePortSerialisesReceives) {
  Schedule s = line(3);
  s.steps.push_back({msg(0, 1, s.add_packet("", 0), 4), msg(2, 1, s.add_packet("", 2), 4)});
  SimRun r = simulate(s, default_params(), ExecutionMode::Barrier);
  EXPECT_EQ(latency(r, 1), 6u);
  EXPECT_EQ(latency(r, 0), 10u);
  EXPECT_EQ(r.msg(0).stall_step, 4u);
}

TEST(Contention, AllPortReceivesInParallel) {
  Schedule s = line(3);
  s.steps.push_back({msg(0, 1, s.add_packet("", 0), 4), msg(2, 1, s.add_packet("", 2), 4)});
  NetworkParams p = default_params();
  p.ports.kind = PortKind::AllPort;
  SimRun r = simulate(s, p, ExecutionMode::Barrier);
  EXPECT_EQ(latency(r, 0), 6u);
  EXPECT_EQ(latency(r, 1), 6u);
}

// Two VCs share one physical link flit by flit: two 8-flit worms 0->2 and 1->2
// (same step) both cross link 1->2 and both eject at node 2. With all-port
// ejection (separate channels per arrival port) they still share link 1->2:
// interleaved, the later tail arrives 8 cycles after its zero-load time at most.
TEST(Contention, VirtualChannelsInterleaveOnALink) {
  Schedule s = line(3);
  s.steps.push_back({msg(0, 2, s.add_packet("", 0), 8), msg(1, 2, s.add_packet("", 1), 8)});
  NetworkParams p = default_params();
  p.vcs = 2;
  p.ports.kind = PortKind::KPort;
  p.ports.k = 2;
  SimRun r = simulate(s, p, ExecutionMode::Barrier);
  ASSERT_EQ(r.net->status(), RunStatus::Completed);
  const RunMetrics m = r.metrics(1);
  // 16 flits over link 1->2 take at least 16 cycles, starting at cycle 1 (node 1's header).
  EXPECT_GE(r.msg(0).delivered, 17u);
  EXPECT_EQ(m.flit_hops, 8 * 2 + 8 * 1);
  // Both worms progress at once: neither waits for the other's tail.
  EXPECT_LT(r.msg(0).header_arrival, r.msg(1).delivered);
}

}  // namespace
}  // namespace wormsim::test

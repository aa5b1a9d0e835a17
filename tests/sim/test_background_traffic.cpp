// Synthetic background traffic: Bernoulli injection counts, destination
// patterns, conservation, and mixing with a schedule in one run.
#include <gtest/gtest.h>

#include <cmath>

#include "harness.hpp"
#include "sim/background_traffic.hpp"
#include "tests/thrown_message.hpp"

namespace wormsim::test {
namespace {

struct BgRun {
  SimRun run;
  std::unique_ptr<BackgroundTraffic> bg;
};

BgRun run_background(const TopologySpec& spec, const BackgroundSpec& b, const Schedule* schedule = nullptr) {
  BgRun r;
  Schedule empty;
  empty.topology = spec;
  const Schedule& s = schedule ? *schedule : empty;
  r.run.topo = std::make_unique<Topology>(spec);
  NetworkParams p = default_params();
  p.buffer_flits = 8;
  r.run.net = std::make_unique<Network>("network", *r.run.topo, p);
  r.run.exec = std::make_unique<ScheduleExecutor>(s, *r.run.net, ExecutionMode::Barrier);
  r.bg = std::make_unique<BackgroundTraffic>(std::vector<BackgroundSpec>{b}, *r.run.topo);
  EXPECT_NO_THROW(check_background(b, *r.run.topo));
  r.run.net->add_traffic(r.run.exec.get());
  r.run.net->add_traffic(r.bg.get());
  sc_core::sc_start();
  r.run.net->rethrow_failure();
  return r;
}

BackgroundSpec spec(const std::string& p, double rate, uint64_t cycles) {
  BackgroundSpec b;
  b.pattern = p;
  b.rate = rate;
  b.cycles = cycles;
  b.lengths = {{4, 1.0}};
  b.seed = 11;
  return b;
}

TEST(Background, UniformBernoulliCountAndConservation) {
  const TopologySpec mesh{"mesh", {8, 8}};
  BackgroundSpec b = spec("uniform", 0.01, 20000);
  b.lengths = {{2, 3.0}, {16, 1.0}};  // mixed lengths, 3:1
  BgRun r = run_background(mesh, b);
  ASSERT_EQ(r.run.net->status(), RunStatus::Completed);
  const SimContext& ctx = r.run.net->context();
  // Expected 64 * 20000 * 0.01 = 12800 packets; binomial sd ~ 113. Allow 5 sd.
  const double n = static_cast<double>(ctx.msgs.size());
  EXPECT_NEAR(n, 12800.0, 5 * std::sqrt(12800.0 * 0.99));
  int shorts = 0;
  for (const MessageRecord& m : ctx.msgs) {
    EXPECT_EQ(m.step, -1);
    EXPECT_NE(m.src, m.dst);
    EXPECT_NE(m.delivered, kNever);
    EXPECT_LT(m.release, 20000u);
    shorts += m.flits == 2;
  }
  EXPECT_NEAR(shorts / n, 0.75, 0.02);
  EXPECT_EQ(ctx.flits_injected, ctx.flits_ejected);
  const RunMetrics met = r.run.metrics(0);
  EXPECT_TRUE(met.has_background);
  EXPECT_EQ(met.background.delivered, static_cast<int64_t>(ctx.msgs.size()));
  EXPECT_GE(met.background.latency.p50, 2u * 1 + 2);  // at least one hop
}

// On a concentrated mesh traffic runs between endpoints: every endpoint sends,
// uniform destinations include the other endpoints of the sender's router (0 hops),
// and transpose keeps the endpoint's index at the transposed router.
TEST(Background, CmeshEveryEndpointSends) {
  const TopologySpec cmesh{"cmesh", {4, 4}, {{"concentration", 4}}};
  BgRun r = run_background(cmesh, spec("uniform", 0.02, 3000));
  ASSERT_EQ(r.run.net->status(), RunStatus::Completed);
  const Topology& t = *r.run.topo;
  std::vector<int> sent(t.num_endpoints(), 0);
  int zero = 0;
  for (const MessageRecord& m : r.run.net->context().msgs) {
    ASSERT_TRUE(t.valid_endpoint(m.src) && t.valid_endpoint(m.dst));
    EXPECT_NE(m.delivered, kNever);
    ++sent[m.src];
    zero += m.hops == 0;
    if (m.hops == 0) {
      EXPECT_GE(m.delivered - m.release, 1u + 4 - 1);  // at least t_r + L - 1: one router, no link
    }
  }
  for (int e = 0; e < t.num_endpoints(); ++e) EXPECT_GT(sent[e], 20) << t.node_name(e);
  EXPECT_GT(zero, 0);
  EXPECT_EQ(r.run.net->context().flits_injected, r.run.net->context().flits_ejected);
}

TEST(Background, CmeshTransposeKeepsTheLocalIndex) {
  const TopologySpec cmesh{"cmesh", {4, 4}, {{"concentration", 4}}};
  BgRun tr = run_background(cmesh, spec("transpose", 0.05, 1000));
  const Topology& t = *tr.run.topo;
  ASSERT_GT(tr.run.net->context().msgs.size(), 100u);
  for (const MessageRecord& m : tr.run.net->context().msgs) {
    const int a = t.endpoint_router(m.src), b = t.endpoint_router(m.dst);
    EXPECT_EQ(t.coord(b, 0), t.coord(a, 1));
    EXPECT_EQ(t.coord(b, 1), t.coord(a, 0));
    EXPECT_EQ(t.endpoint_index(m.dst), t.endpoint_index(m.src));
  }
}

TEST(Background, TransposeAndBitComplementDestinations) {
  const TopologySpec mesh{"mesh", {4, 4}};
  BgRun r = run_background(mesh, spec("transpose", 0.05, 2000));
  const Topology& t = *r.run.topo;
  ASSERT_GT(r.run.net->context().msgs.size(), 100u);
  for (const MessageRecord& m : r.run.net->context().msgs) {
    EXPECT_EQ(t.coord(m.dst, 0), t.coord(m.src, 1));
    EXPECT_EQ(t.coord(m.dst, 1), t.coord(m.src, 0));
  }
}

TEST(Background, BitComplementOnHypercube) {
  const TopologySpec cube{"hypercube", {5}};
  BgRun r = run_background(cube, spec("bit-complement", 0.05, 2000));
  ASSERT_GT(r.run.net->context().msgs.size(), 100u);
  for (const MessageRecord& m : r.run.net->context().msgs) {
    EXPECT_EQ(m.dst, 31 - m.src);
    EXPECT_EQ(m.hops, 5);
  }
}

TEST(Background, HotspotShare) {
  const TopologySpec mesh{"mesh", {6, 6}};
  BackgroundSpec b = spec("hotspot", 0.02, 10000);
  b.hotspots = {0};
  b.hotspot_fraction = 0.3;
  BgRun r = run_background(mesh, b);
  const auto& msgs = r.run.net->context().msgs;
  double to_hot = 0, from_others = 0;
  for (const MessageRecord& m : msgs) {
    if (m.src == 0) continue;
    ++from_others;
    to_hot += m.dst == 0;
  }
  // 0.3 + 0.7/35 of the packets of other nodes go to the hotspot.
  EXPECT_NEAR(to_hot / from_others, 0.3 + 0.7 / 35, 0.03);
}

// A broadcast under background load: the schedule's figures stay the schedule's,
// the background is reported apart, and blocking by background worms is counted
// as background contention.
TEST(Background, AlongsideASchedule) {
  const TopologySpec mesh{"mesh", {4, 4}};
  Schedule s;
  s.topology = mesh;
  s.flits = 32;
  s.broadcast = true;
  s.source = 0;
  s.add_packet("0", 0);
  for (int step = 0, have = 1; have < 16; ++step, have *= 2) {
    s.steps.emplace_back();
    for (int i = 0; i < have && i + have < 16; ++i) {
      ScheduledMessage m;
      m.src = i;
      m.dst = i + have;
      m.packet = 0;
      s.steps.back().push_back(m);
    }
  }
  BgRun r = run_background(mesh, spec("uniform", 0.2, 400), &s);
  ASSERT_EQ(r.run.net->status(), RunStatus::Completed);
  const RunMetrics m = r.run.metrics(static_cast<int>(s.steps.size()));
  EXPECT_EQ(m.messages, 15);
  EXPECT_EQ(m.delivered, 15);
  EXPECT_TRUE(m.has_background);
  EXPECT_GT(m.background.messages, 500);
  EXPECT_GT(m.background_contention.cycles, 0);
  // Links carry both kinds of traffic over the whole run, not just the broadcast's span.
  EXPECT_GE(m.span, m.completion);
  EXPECT_LE(m.link_util_max, 1.0);
  EXPECT_GT(m.link_util_mean, 0.0);
}

TEST(Background, RejectsImpossibleSpecs) {
  auto why = [](const BackgroundSpec& s, const Topology& t) { return thrown_message([&] { check_background(s, t); }); };
  const Topology mesh3({"mesh", {4, 3}});
  EXPECT_EQ(why(spec("transpose", 0.1, 10), mesh3), "transpose needs the same radix in every dimension");
  EXPECT_EQ(why(spec("uniform", 0.0, 10), mesh3), "rate must be in (0, 1] packets per node per cycle");
  EXPECT_EQ(why(spec("uniform", 1.5, 10), mesh3), "rate must be in (0, 1] packets per node per cycle");
  EXPECT_EQ(why(spec("hotspot", 0.1, 10), mesh3), "hotspot traffic needs hotspot nodes");
  const Topology cube5({"hypercube", {5}});
  EXPECT_EQ(why(spec("transpose", 0.1, 10), cube5), "transpose on a hypercube needs an even dimension");
}

}  // namespace
}  // namespace wormsim::test

// The timing contract (docs/timing-model.md): in an otherwise idle network a
// message of L flits over H hops takes t_s + (H+1) t_r + H t_l + L - 1 cycles
// from release to tail ejection (H = 0 between two endpoints of one router).
// Checked exactly on every topology kind, for many H and L, several timing
// settings, and both execution modes.
#include <gtest/gtest.h>

#include <tuple>

#include "harness.hpp"

namespace wormsim::test {
namespace {

struct Net {
  const char* name;
  TopologySpec spec;
  int vcs;
};

struct Times {
  const char* name;
  Timing t;
};

const Net kNets[] = {
    {"line8", {"mesh", {8}}, 1},        {"ring8", {"torus", {8}}, 2},
    {"mesh5x4", {"mesh", {5, 4}}, 1},   {"mesh4x3x3", {"mesh", {4, 3, 3}}, 1},
    {"torus4x4", {"torus", {4, 4}}, 2}, {"torus3x5", {"torus", {3, 5}}, 2},
    {"hypercube5", {"hypercube", {5}}, 1}, {"cmesh4x3c3", {"cmesh", {4, 3}, {{"concentration", 3}}}, 1},
};
constexpr int kNumNets = static_cast<int>(sizeof(kNets) / sizeof(kNets[0]));

const Times kTimes[] = {
    {"default", {1, 1, 0, 1}},
    {"slow_router", {3, 1, 0, 1}},
    {"slow_link_startup", {1, 3, 2, 1}},
    {"all_slow", {2, 2, 7, 2}},
    {"zero_link", {1, 0, 0, 1}},
};

const int kLengths[] = {1, 2, 3, 5, 16, 33};

// Deterministic pseudo-random sequence (the test must not depend on a library RNG).
struct Lcg {
  uint64_t s;
  int next(int n) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int>((s >> 33) % static_cast<uint64_t>(n));
  }
};

// Barrier mode: one message per step, each with its own packet, so every
// message crosses an idle network. Covers every distance 1..diameter.
Schedule isolated_messages(const TopologySpec& spec) {
  const Topology topo(spec);
  Schedule s;
  s.topology = spec;
  s.flits = 4;
  Lcg rng{42};
  const int n = topo.num_endpoints();
  for (int i = 0; i < 60; ++i) {
    const int a = rng.next(n);
    int b = rng.next(n);
    if (b == a) b = (a + 1) % n;
    // Every fifth message stays at its router when the router has another endpoint (0 hops).
    const int router = topo.endpoint_router(a);
    if (i % 5 == 4 && topo.endpoints_at(router) > 1)
      b = topo.endpoint_at(router, (topo.endpoint_index(a) + 1) % topo.endpoints_at(router));
    ScheduledMessage m;
    m.src = a;
    m.dst = b;
    m.flits = kLengths[i % 6];
    m.packet = s.add_packet("", a);
    s.steps.push_back({m});
  }
  return s;
}

// Eager mode: a relay chain through every node in a shuffled order (each
// message forwards the packet the previous one delivered, and no node gets it
// twice), so exactly one worm is in the network at a time.
Schedule relay_chain(const TopologySpec& spec) {
  const Topology topo(spec);
  Schedule s;
  s.topology = spec;
  s.flits = 4;
  Lcg rng{7};
  const int n = topo.num_endpoints();
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  for (int i = n - 1; i > 1; --i) std::swap(order[i], order[1 + rng.next(i)]);
  int at = order[0];
  const int p = s.add_packet("relay", at);
  for (int i = 1; i < n; ++i) {
    const int next = order[i];
    ScheduledMessage m;
    m.src = at;
    m.dst = next;
    m.flits = kLengths[(i * 5) % 6];
    m.packet = p;
    s.steps.push_back({m});
    at = next;
  }
  return s;
}

class TimingContract : public ::testing::TestWithParam<std::tuple<int, int, ExecutionMode>> {};

TEST_P(TimingContract, IdleNetworkLatencyIsExact) {
  const Net& net = kNets[std::get<0>(GetParam())];
  const Times& times = kTimes[std::get<1>(GetParam())];
  const ExecutionMode mode = std::get<2>(GetParam());
  NetworkParams p = default_params();
  p.vcs = net.vcs;
  p.timing = times.t;
  p.buffer_flits = times.t.credit_round_trip();  // the contract's precondition, at its tightest
  const Schedule s = mode == ExecutionMode::Barrier ? isolated_messages(net.spec) : relay_chain(net.spec);
  SimRun r = simulate(s, p, mode);
  ASSERT_EQ(r.net->status(), RunStatus::Completed);
  const Timing& t = times.t;
  const Topology topo(net.spec);
  int max_h = 0, zero_hops = 0;
  for (size_t id = 0; id < s.num_messages(); ++id) {
    const MessageRecord& m = r.msg(id);
    const long long H = m.hops, L = m.flits;
    max_h = std::max<int>(max_h, m.hops);
    zero_hops += m.hops == 0;
    ASSERT_EQ(H, topo.distance(topo.endpoint_router(m.src), topo.endpoint_router(m.dst)));
    EXPECT_EQ(latency(r, id), static_cast<uint64_t>(t.startup + (H + 1) * t.router_delay + H * t.link_delay + L - 1))
        << "message " << id << " H=" << H << " L=" << L;
    EXPECT_EQ(m.inject, m.release + t.startup);
    EXPECT_EQ(m.header_arrival, m.release + t.startup + (H + 1) * t.router_delay + H * t.link_delay);
    EXPECT_EQ(m.stall_step + m.stall_depth + m.stall_background, 0u);
  }
  // Consecutive messages follow without gaps: completion is the sum of the latencies.
  uint64_t sum = 0;
  for (size_t id = 0; id < s.num_messages(); ++id) sum += latency(r, id);
  EXPECT_EQ(r.metrics(static_cast<int>(s.steps.size())).completion, sum);
  EXPECT_GE(max_h, 2);
  // Messages between two endpoints of one router happen exactly where routers have several.
  if (mode == ExecutionMode::Barrier) {
    EXPECT_EQ(zero_hops > 0, !topo.one_endpoint_per_router());
  }
}

std::string name_of(const ::testing::TestParamInfo<TimingContract::ParamType>& info) {
  return std::string(kNets[std::get<0>(info.param)].name) + "_" + kTimes[std::get<1>(info.param)].name + "_" +
         (std::get<2>(info.param) == ExecutionMode::Barrier ? "barrier" : "eager");
}

INSTANTIATE_TEST_SUITE_P(AllTopologies, TimingContract,
                         ::testing::Combine(::testing::Range(0, kNumNets), ::testing::Range(0, 5),
                                            ::testing::Values(ExecutionMode::Barrier, ExecutionMode::Eager)),
                         name_of);

}  // namespace
}  // namespace wormsim::test

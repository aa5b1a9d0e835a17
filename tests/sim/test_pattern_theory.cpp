// Zero-load latency of every traffic pattern against theory: on an unloaded
// network a packet of L flits over H hops takes t_s + (H+1) t_r + H t_l + L - 1
// cycles (docs/timing-model.md), so the mean latency of a light-load run is
// that formula at the pattern's mean hop count. The mean hop count is computed
// here from the pattern's definition (docs/config-reference.md, Patterns) with
// the test's own coordinate arithmetic, not by asking the pattern.
//
// The load is periodic injection at 1 packet per node per 1000 cycles: the
// nodes' phases are spread over the period, so no two packets are ever in the
// network at once (every packet is checked to take exactly its zero-load
// time), and every node sends the same number of packets. Deterministic
// patterns must then match the formula exactly; random ones (uniform,
// hotspot, diagonal) within five standard errors of their sampled hops.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "harness.hpp"
#include "sim/background_traffic.hpp"

namespace wormsim::test {
namespace {

// Where a pattern sends a packet from router-and-endpoint `src`, as a distribution:
// (destination, probability) pairs, the source itself standing for "not sent".
using Destinations = std::vector<std::pair<int, double>>;

struct TheoryCase {
  const char* pattern;
  TopologySpec net;
  bool random;  // destinations drawn per packet
  std::function<Destinations(const Topology&, int src)> definition;
};
void PrintTo(const TheoryCase& c, std::ostream* os) { *os << c.pattern; }

Destinations to(int dst) { return {{dst, 1.0}}; }

Destinations uniform_from(const Topology& t, int src) {
  Destinations d;
  for (int e = 0; e < t.num_endpoints(); ++e)
    if (e != src) d.push_back({e, 1.0 / (t.num_endpoints() - 1)});
  return d;
}

// Coordinates moved by `shift(k)` places per dimension, modulo the radix.
int shifted(const Topology& t, int src, int (*shift)(int k)) {
  std::vector<int> c = t.coords(src);
  for (int d = 0; d < t.num_dims(); ++d) c[d] = (c[d] + shift(t.radix(d))) % t.radix(d);
  return t.node_at(c);
}

int reversed_bits(int v, int bits) {
  int r = 0;
  for (int i = 0; i < bits; ++i)
    if (v & (1 << i)) r |= 1 << (bits - 1 - i);
  return r;
}

const std::vector<TheoryCase>& theory_cases() {
  static const std::vector<TheoryCase> cases = {
      {"uniform", {"mesh", {4, 4}}, true, uniform_from},
      {"transpose", {"mesh", {4, 4}}, false,
       [](const Topology& t, int s) { return to(t.node_at({t.coord(s, 1), t.coord(s, 0)})); }},
      {"bit-complement", {"hypercube", {4}}, false, [](const Topology&, int s) { return to(s ^ 15); }},
      {"bit-reverse", {"mesh", {4, 4}}, false, [](const Topology&, int s) { return to(reversed_bits(s, 4)); }},
      {"shuffle", {"torus", {4, 4}}, false,
       [](const Topology&, int s) { return to(((s << 1) | (s >> 3)) & 15); }},
      {"tornado", {"torus", {5, 5}}, false,
       [](const Topology& t, int s) { return to(shifted(t, s, [](int k) { return (k + 1) / 2 - 1; })); }},
      {"neighbor", {"mesh", {4, 4}}, false,
       [](const Topology& t, int s) { return to(shifted(t, s, [](int) { return 1; })); }},
      // A fixed permutation drawn from the seed: its definition is the table
      // itself, read below from the pattern (checked to be a permutation).
      {"random-permutation", {"mesh", {4, 4}}, false, nullptr},
      {"hotspot", {"mesh", {4, 4}}, true,
       [](const Topology& t, int s) {
         // fraction 0.5 to hotspot 5 (uniform instead when s is 5), else uniform.
         Destinations d = uniform_from(t, s);
         for (auto& [e, p] : d) p *= s == 5 ? 1.0 : 0.5;
         if (s != 5) d.push_back({5, 0.5});
         return d;
       }},
      {"diagonal", {"mesh", {4, 4}}, true,
       [](const Topology& t, int s) { return Destinations{{(s + 1) % t.num_endpoints(), 0.5}, {s, 0.5}}; }},
  };
  return cases;
}

class PatternTheory : public testing::TestWithParam<TheoryCase> {};

TEST_P(PatternTheory, ZeroLoadLatencyIsTheMeanHopFormula) {
  const TheoryCase& c = GetParam();
  const Topology topo(c.net);
  const int n = topo.num_endpoints();
  BackgroundSpec b;
  b.pattern = c.pattern;
  b.injection = "periodic";
  b.rate = 0.001;
  b.cycles = c.random ? 400'000 : 20'000;  // 400 or 20 packets per node
  b.lengths = {{5, 1.0}};
  b.seed = 3;
  b.hotspots = {5};
  b.hotspot_fraction = 0.5;

  // Expected hops per sent packet: every node generates the same number of
  // packets; a packet is sent unless its destination is its source.
  std::function<Destinations(const Topology&, int)> definition = c.definition;
  if (!definition) {
    const auto table = make_pattern(topo, b);
    TrafficRng unused(1);
    std::vector<int> perm(n);
    for (int s = 0; s < n; ++s) perm[s] = table->destination(s, unused);
    std::vector<int> sorted = perm;
    std::sort(sorted.begin(), sorted.end());
    for (int s = 0; s < n; ++s) ASSERT_EQ(sorted[s], s) << "not a permutation";
    definition = [perm](const Topology&, int s) { return to(perm[s]); };
  }
  double sent = 0, hop_sum = 0;
  for (int s = 0; s < n; ++s)
    for (const auto& [dst, p] : definition(topo, s))
      if (dst != s) {
        sent += p;
        hop_sum += p * topo.distance(s, dst);
      }
  ASSERT_GT(sent, 0);
  const double mean_hops = hop_sum / sent;

  Schedule empty;
  empty.topology = c.net;
  SimRun run;
  run.topo = std::make_unique<Topology>(c.net);
  NetworkParams p = default_params();
  p.timing.startup = 2;  // every term of the formula counts
  p.timing.router_delay = 2;
  p.timing.link_delay = 3;
  p.buffer_flits = 8;  // covers the credit round trip (t_r + t_l + credit delay = 6): no credit stalls
  run.net = std::make_unique<Network>("network", *run.topo, p);
  run.exec = std::make_unique<ScheduleExecutor>(empty, *run.net, ExecutionMode::Barrier);
  BackgroundTraffic bg({b}, *run.topo);
  run.net->add_traffic(run.exec.get());
  run.net->add_traffic(&bg);
  sc_core::sc_start();
  run.net->rethrow_failure();
  ASSERT_EQ(run.net->status(), RunStatus::Completed);

  const auto& msgs = run.net->context().msgs;
  ASSERT_GT(msgs.size(), 100u);
  double hops = 0, hops_sq = 0;
  for (const MessageRecord& m : msgs) {
    ASSERT_NE(m.delivered, kNever);
    ASSERT_EQ(m.delivered - m.release, static_cast<uint64_t>(p.timing.zero_load_latency(m.hops, 5)))
        << "packet " << m.src << " -> " << m.dst << " met another";
    hops += m.hops;
    hops_sq += static_cast<double>(m.hops) * m.hops;
  }
  const double count = static_cast<double>(msgs.size());
  const RunMetrics met = run.metrics(0);
  const double formula = p.timing.startup + (mean_hops + 1) * p.timing.router_delay +
                         mean_hops * p.timing.link_delay + 5 - 1;
  if (!c.random) {
    EXPECT_DOUBLE_EQ(met.background.latency.mean, formula);
    EXPECT_DOUBLE_EQ(count, sent * (b.cycles / 1000));
  } else {
    const double sd = std::sqrt(std::max(0.0, hops_sq / count - (hops / count) * (hops / count)));
    const double per_hop = p.timing.router_delay + p.timing.link_delay;
    EXPECT_NEAR(met.background.latency.mean, formula, 5 * per_hop * sd / std::sqrt(count) + 1e-9)
        << "mean hops " << hops / count << " expected " << mean_hops;
  }
}

INSTANTIATE_TEST_SUITE_P(EveryPattern, PatternTheory, testing::ValuesIn(theory_cases()),
                         [](const testing::TestParamInfo<TheoryCase>& i) {
                           std::string name = i.param.pattern;
                           for (char& ch : name)
                             if (ch == '-') ch = '_';
                           return name;
                         });

TEST(PatternTheory, EveryRegisteredPatternHasATheoryCase) {
  std::vector<std::string> covered;
  for (const TheoryCase& c : theory_cases()) covered.push_back(c.pattern);
  EXPECT_EQ(covered, pattern_names());
}

}  // namespace
}  // namespace wormsim::test

// Traffic patterns and injection processes through `wormsim run`: bursty
// injection costs latency at the same mean rate, the new patterns and
// processes are deterministic, and their keys are echoed and listed.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

using namespace wormsim_cli;
using nlohmann::json;

namespace {

json run_summary(const TempDir& tmp, const std::string& name, const std::vector<std::string>& sets) {
  std::vector<std::string> args = {"run", default_config().string(), "--set", "schedule=null", "--set",
                                   "output.host_timing=false"};
  for (const std::string& s : sets) args.insert(args.end(), {"--set", s});
  args.insert(args.end(), {"--out", (tmp / name).string(), "--quiet"});
  const Result r = run_wormsim(args, tmp.path());
  EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  return json::parse(read_file(tmp / name / "summary.json"));
}

// At the same mean rate (0.02 packets of 8 flits per node per cycle on an 8x8
// mesh, a third of saturation), on-off sources are on a fifth of the time, in
// bursts of 50 cycles on average at 0.1 packets (0.8 flits) per cycle:
// packets queue behind each other at the source and meet in the network, so
// mean latency rises. Bernoulli and on-off offer the same load.
TEST(CliTraffic, BurstyInjectionRaisesLatencyAtTheSameMeanRate) {
  TempDir tmp;
  const std::string base = "traffic={pattern: uniform, rate: 0.02, flits: 8, cycles: 20000";
  const json bern = run_summary(tmp, "bern", {"network.dims=[8,8]", base + "}"});
  const json onoff = run_summary(
      tmp, "onoff", {"network.dims=[8,8]", base + ", injection: on-off, burst_alpha: 0.005, burst_beta: 0.02}"});
  const json& b = bern.at("background");
  const json& o = onoff.at("background");
  // 64 x 20000 x 0.02 = 25600 packets each; sd 160, and ~440 for on-off (index of dispersion ~7.4).
  EXPECT_NEAR(b.at("messages").get<double>(), 25600, 5 * 160);
  EXPECT_NEAR(o.at("messages").get<double>(), 25600, 5 * 440);
  EXPECT_GT(o.at("latency").at("mean").get<double>(), 1.2 * b.at("latency").at("mean").get<double>());
  EXPECT_GT(o.at("latency").at("p99").get<double>(), b.at("latency").at("p99").get<double>());
  EXPECT_EQ(onoff.at("config").at("traffic").at("injection"), "on-off");
  EXPECT_EQ(onoff.at("config").at("traffic").at("burst_alpha"), 0.005);
  // The default process is not echoed, so configs written before it keep their bytes.
  EXPECT_FALSE(bern.at("config").at("traffic").contains("injection"));
}

// Same config and seed, same bytes; another seed, another random permutation.
// Periodic injection at a rate whose period overflows a cycle count (1 / 1e-20
// cycles) sends node 0's first packet (phase 0: cycle 0) and nothing more; the
// next cycle, cast from a double out of range, was undefined, and the run never ended.
TEST(CliTraffic, PeriodicAtATinyRateSendsOnePacket) {
  TempDir tmp;
  for (const std::string rate : {"1e-20", "1e-12"}) {
    const json s = run_summary(tmp, "r" + rate, {"traffic={pattern: uniform, rate: " + rate +
                                                     ", cycles: 1000, injection: periodic}"});
    EXPECT_EQ(s.at("status"), "completed") << rate;
    EXPECT_EQ(s.at("background").at("messages"), 1) << rate;
  }
}

TEST(CliTraffic, SameSeedSameBytes) {
  TempDir tmp;
  const std::vector<std::vector<std::string>> cases = {
      {"network.topology=torus", "network.dims=[5,5]", "network.vcs=2",
       "traffic={pattern: tornado, rate: 0.02, flits: 4, cycles: 2000, injection: on-off, burst_alpha: 0.1, "
       "burst_beta: 0.1}"},
      {"network.dims=[8,8]", "traffic={pattern: random-permutation, rate: 0.03, flits: 4, cycles: 2000}"},
      {"network.dims=[8,8]",
       "traffic={pattern: hotspot, hotspot: {nodes: [0, 9, 63], fraction: 0.4, weights: [1, 2, 5]}, rate: 0.02, "
       "cycles: 2000, injection: periodic}"},
  };
  for (size_t c = 0; c < cases.size(); ++c) {
    SCOPED_TRACE("case " + std::to_string(c));
    run_summary(tmp, "a" + std::to_string(c), cases[c]);
    run_summary(tmp, "b" + std::to_string(c), cases[c]);
    for (const std::string& f : output_files())
      EXPECT_EQ(read_file(tmp / ("a" + std::to_string(c)) / f), read_file(tmp / ("b" + std::to_string(c)) / f)) << f;
  }
  std::vector<std::string> other = cases[1];
  other.push_back("run.seed=2");
  run_summary(tmp, "seed2", other);
  EXPECT_NE(read_file(tmp / "a1" / "messages.csv"), read_file(tmp / "seed2" / "messages.csv"));
}

TEST(CliTraffic, ConfigKeysListThePatternsAndProcesses) {
  TempDir tmp;
  const Result r = run_wormsim({"config", "keys"}, tmp.path());
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  for (const char* text : {"traffic.injection", "traffic.burst_alpha", "traffic.burst_beta", "traffic.hotspot.weights",
                           "bit-reverse", "shuffle", "tornado", "neighbor", "random-permutation", "diagonal",
                           "on-off", "periodic"})
    EXPECT_NE(r.out.find(text), std::string::npos) << text;
}

}  // namespace

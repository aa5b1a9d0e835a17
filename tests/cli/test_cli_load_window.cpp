// Measured load runs (traffic.warmup_cycles, measure_cycles, drain_cycles;
// docs/load-studies.md): checked against theory (zero-load latency, the
// channel-load bound of uniform traffic), against the run's own records, and
// for bad input.
#include <cstdlib>
#include <fstream>
#include <map>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

using namespace wormsim_cli;
using nlohmann::json;

namespace {


// Runs the shipped load config with overrides; returns summary.json.
json run_load(const TempDir& tmp, const std::string& name, const std::vector<std::string>& sets, int exit_code = 0) {
  std::vector<std::string> args{"run", kLoadConfig, "--quiet", "--out", (tmp / name).string(), "--set",
                                "output.host_timing=false"};
  for (const auto& s : sets) args.insert(args.end(), {"--set", s});
  const Result r = run_wormsim(args, tmp.path(), 120);
  EXPECT_EXIT_CODE(r, exit_code);
  return summary_of(tmp / name);
}

// Mean distance between two distinct nodes of a k x k mesh, counted pair by pair.
// At a load far below saturation, a packet's network latency is its zero-load
// latency (docs/timing-model.md: (H+1) t_r + H t_l + L - 1 = 2H + L here), and
// uniform traffic's mean H is the mesh's mean distance between distinct nodes.
TEST(LoadWindow, LightLoadLatencyIsTheZeroLoadFormula) {
  TempDir tmp;
  const json s = run_load(tmp, "light", {"traffic.rate=0.001", "traffic.warmup_cycles=1000", "traffic.measure_cycles=40000"});
  const json& l = s.at("load");
  EXPECT_EQ(s.at("status"), "completed");
  EXPECT_FALSE(l.at("saturated").get<bool>());
  ASSERT_GT(l.at("packets").get<int>(), 2000);
  EXPECT_EQ(l.at("delivered"), l.at("packets"));
  const double hops_theory = mean_mesh_distance(8);  // 5.333
  double hops = 0, zero_load = 0;
  int measured = 0;
  for (const auto& row : csv_rows(tmp / "light" / "messages.csv")) {
    const long release = std::stol(row.at("release"));
    if (release < 1000 || release >= 41000) continue;
    hops += std::stod(row.at("hops"));
    zero_load += std::stod(row.at("zero_load_latency"));
    ++measured;
  }
  ASSERT_EQ(measured, l.at("packets").get<int>());
  hops /= measured;
  zero_load /= measured;
  EXPECT_NEAR(hops, hops_theory, 0.02 * hops_theory);  // the sample of destinations
  EXPECT_DOUBLE_EQ(zero_load, 2 * hops + 8);
  const double network = l.at("network_latency").at("mean").get<double>();
  EXPECT_GE(network, zero_load);
  EXPECT_LE(network, 1.01 * zero_load);
  EXPECT_GE(l.at("packet_latency").at("mean").get<double>(), network);
  // Offered and accepted agree at light load (per node and in the mean).
  EXPECT_NEAR(l.at("accepted").at("mean").get<double>(), l.at("offered").at("mean").get<double>(), 0.0005);
  EXPECT_NEAR(l.at("offered_packets_per_node_cycle").get<double>(), 0.001, 0.0001);
}

// Uniform traffic on a k x k mesh under dimension-order routing cannot be
// accepted above the bisection's channel-load bound 4/k flits/node/cycle; past
// saturation accepted throughput flattens while offered keeps rising, and the
// window cannot drain: the run stops as saturated (exit 0, a measurement).
TEST(LoadWindow, AcceptedFlattensBelowTheChannelLoadBound) {
  TempDir tmp;
  const double bound = 4.0 / 8;
  std::vector<double> offered, accepted;
  for (const std::string rate : {"0.01", "0.02", "0.07", "0.1"}) {
    const json s = run_load(tmp, "r" + rate,
                            {"traffic.rate=" + rate, "traffic.warmup_cycles=1000", "traffic.measure_cycles=4000",
                             "traffic.drain_cycles=2000"});
    offered.push_back(s.at("load").at("offered").at("mean").get<double>());
    accepted.push_back(s.at("load").at("accepted").at("mean").get<double>());
    EXPECT_LT(accepted.back(), bound) << rate;
    const bool light = rate == "0.01" || rate == "0.02";
    EXPECT_EQ(s.at("status"), light ? "completed" : "saturated") << rate;
    EXPECT_EQ(s.at("load").at("saturated").get<bool>(), !light) << rate;
    if (light) {
      EXPECT_NEAR(accepted.back(), offered.back(), 0.01 * offered.back()) << rate;
      EXPECT_EQ(s.at("invariants").at("all_messages_delivered"), true);
    } else {
      EXPECT_LT(accepted.back(), 0.8 * offered.back()) << rate;
      EXPECT_EQ(s.at("load").at("drain_cycles"), 2000);
      EXPECT_EQ(s.at("invariants").at("all_messages_delivered"), false);
      EXPECT_EQ(s.at("invariants").at("flits_conserved"), true);
    }
  }
  EXPECT_NEAR(accepted[3], accepted[2], 0.05 * accepted[2]);  // flat past saturation
  EXPECT_GT(offered[3], 1.3 * offered[2]);
}

TEST(LoadWindow, SaturatedRunSaysSoAndExitsZero) {
  TempDir tmp;
  const Result r = run_wormsim({"run", kLoadConfig, "--out", (tmp / "o").string(), "--set", "traffic.rate=0.1", "--set",
                                "traffic.warmup_cycles=100", "--set", "traffic.measure_cycles=500", "--set",
                                "traffic.drain_cycles=300"},
                               tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  EXPECT_CONTAINS(r.err, "run saturated: the packets of the measurement window were not all delivered within 300 cycles");
  EXPECT_CONTAINS(r.out, "load window: cycles 100..600, saturated; offered ");
  const json s = summary_of(tmp / "o");
  EXPECT_EQ(s.at("status"), "saturated");
  EXPECT_EQ(s.at("metrics").at("completion_cycles"), 899);  // the run stopped after cycle 600 + 300 - 1
}

namespace {

// Dimension order on an 8-ring with one VC deadlocks under heavy uniform load.
void write_deadlocking_ring(const TempDir& tmp) {
  write_file(tmp / "ring.yaml",
             "network: {topology: ring, dims: [8], vcs: 1, buffer_flits: 2, allow_deadlock: true}\n"
             "traffic: {pattern: uniform, rate: 0.3, flits: 16, warmup_cycles: 100, measure_cycles: 1000}\n"
             "output: {host_timing: false}\n");
}

// Runs ring.yaml with `sets`, fast paths on and off: each stops as deadlock at
// `cycle` with a loop of waits in summary.json, and both give the same bytes.
void expect_deadlock_fast_and_slow(const TempDir& tmp, const std::vector<std::string>& sets, int cycle) {
  std::string bytes[2];
  for (int fast = 0; fast < 2; ++fast) {
    const fs::path out = tmp / (fast ? "fast" : "slow");
    std::vector<std::string> args{"run", (tmp / "ring.yaml").string(), "--quiet", "--out", out.string(), "--set",
                                  std::string("run.fast_paths=") + (fast ? "true" : "false")};
    for (const auto& set : sets) args.insert(args.end(), {"--set", set});
    const Result r = run_wormsim(args, tmp.path(), 60);
    EXPECT_EXIT_CODE(r, 3);
    EXPECT_CONTAINS(r.err, "run stopped: deadlock at cycle " + std::to_string(cycle) + " with");
    const json s = summary_of(out);
    EXPECT_EQ(s.at("status"), "deadlock");
    EXPECT_EQ(s.at("load").at("saturated"), false);
    const json& loop = s.at("deadlock");
    ASSERT_GE(loop.size(), 2u);
    for (size_t i = 0; i < loop.size(); ++i)
      EXPECT_EQ(loop[i].at("waits_for_message"), loop[(i + 1) % loop.size()].at("message")) << loop.dump();
    bytes[fast] = read_file(out / "summary.json") + read_file(out / "messages.csv");
  }
  EXPECT_EQ(bytes[0], bytes[1]) << "the same bytes with and without the fast paths";
}

}  // namespace

// The worms still free keep the network busy: the watchdog never fired, and
// the run stopped at the drain cap as saturated (cycle 11,099). While the load
// is offered the run looks for a loop of waits every run.watchdog_cycles (here
// at cycles 0, 500, 1000): the loop seen at 500 is unchanged at 1000, none of
// its worms' flits moved, and the run stops as deadlock.
TEST(LoadWindow, ADeadlockUnderTheLoadStopsTheRunAsDeadlock) {
  TempDir tmp;
  write_deadlocking_ring(tmp);
  expect_deadlock_fast_and_slow(tmp, {"run.watchdog_cycles=500"}, 1000);
  // With the watchdog off nothing looks: the window does not drain, and the run stops at its cap.
  const Result off = run_wormsim({"run", (tmp / "ring.yaml").string(), "--quiet", "--out", (tmp / "off").string(),
                                  "--set", "run.watchdog_cycles=0"},
                                 tmp.path(), 60);
  EXPECT_EXIT_CODE(off, 0);
  EXPECT_EQ(summary_of(tmp / "off").at("status"), "saturated");
  EXPECT_EQ(summary_of(tmp / "off").at("metrics").at("completion_cycles"), 11099);
}

// With the default run.watchdog_cycles (100,000) the looks would have fallen at
// cycles 0 and 100,000, after the drain cap (cycle 11,099): the run stopped as
// saturated. A loop needs two looks, so they come every third of the drain cap
// (10 x 1000 cycles) at most: at 3333 the loop is seen, at 6666 it is stuck.
TEST(LoadWindow, ADeadlockUnderTheLoadIsFoundBeforeTheDrainCap) {
  TempDir tmp;
  write_deadlocking_ring(tmp);
  expect_deadlock_fast_and_slow(tmp, {}, 6666);
  // A drain cap of 3 x 200 cycles: looks at 0, 200, 400, ...; the loop is stuck by 800.
  expect_deadlock_fast_and_slow(tmp, {"traffic.drain_cycles=600"}, 800);
}

// A loop of waits can last while its worms move: one worm whose route goes
// back over links it holds (it fits in the buffers ahead, so it waits for its
// own tail), beside a background packet, both waiting for credits that take
// 1000 cycles. Their edges are the same at two looks 2500 cycles apart, but
// their flits moved in between: not a deadlock (it was called one at cycle
// 7,509, and the run completes at cycle 11,015).
TEST(LoadWindow, WormsWaitingForSlowCreditsAreNotADeadlock) {
  TempDir tmp;
  write_file(tmp / "back.json",
             R"({"wormsim_schedule": 1, "name": "back over its own links", "topology": {"kind": "line", "dims": [3]},
 "steps": [[{"src": 0, "dst": 2, "route": [0, 1, 2, 1, 0, 1, 2], "flits": 12}]]})");
  write_file(tmp / "line.yaml",
             "network: {topology: line, dims: [3], vcs: 1, buffer_flits: 4, allow_deadlock: true}\n"
             "timing: {router_delay: 1, link_delay: 1, credit_delay: 1000}\n"
             "schedule: {file: back.json, repeat: {count: 1, start_cycle: 2000}}\n"
             "traffic: {pattern: uniform, rate: 0.001, flits: 1, warmup_cycles: 0, measure_cycles: 10, "
             "drain_cycles: 20000}\n"
             "run: {watchdog_cycles: 2500}\noutput: {host_timing: false}\n");
  const Result r = run_wormsim({"run", (tmp / "line.yaml").string(), "--quiet", "--out", (tmp / "o").string()},
                               tmp.path(), 60);
  EXPECT_EXIT_CODE(r, 0);
  const json s = summary_of(tmp / "o");
  EXPECT_EQ(s.at("status"), "completed");
  EXPECT_EQ(s.at("metrics").at("completion_cycles"), 11015);
}

// The simulation up to the window's end does not depend on the window: runs
// that differ only in measure_cycles agree on every packet delivered before
// the shorter window closes.
TEST(LoadWindow, LongerWindowChangesNothingBeforeIt) {
  TempDir tmp;
  run_load(tmp, "short", {"traffic.rate=0.03", "traffic.warmup_cycles=500", "traffic.measure_cycles=1000"});
  run_load(tmp, "long", {"traffic.rate=0.03", "traffic.warmup_cycles=500", "traffic.measure_cycles=3000"});
  auto early = [](const fs::path& f) {
    std::vector<std::map<std::string, std::string>> rows;
    for (auto& row : csv_rows(f))
      if (!row.at("delivered").empty() && std::stol(row.at("delivered")) < 1500) rows.push_back(row);
    return rows;
  };
  const auto a = early(tmp / "short" / "messages.csv");
  EXPECT_GT(a.size(), 1000u);
  EXPECT_TRUE(a == early(tmp / "long" / "messages.csv"));
}

TEST(LoadWindow, SameSeedSameBytes) {
  TempDir tmp;
  run_load(tmp, "a", {"traffic.rate=0.05", "traffic.measure_cycles=800"});
  run_load(tmp, "b", {"traffic.rate=0.05", "traffic.measure_cycles=800"});
  for (const auto& f : output_files()) EXPECT_EQ(read_file(tmp / "a" / f), read_file(tmp / "b" / f)) << f;
}

TEST(LoadWindow, BadPhaseKeysAreRefused) {
  TempDir tmp;
  const std::vector<BadSetting> cases = {
      {{"traffic.cycles=1000"}, "traffic.cycles",
       "give either cycles (an injection window) or measure_cycles (phases), not both"},
      {{"traffic.measure_cycles=null"}, "traffic.warmup_cycles", "only meaningful with measure_cycles"},
      {{"traffic.measure_cycles=null", "traffic.warmup_cycles=null"}, "traffic.cycles", "missing (length of the injection window, or measure_cycles for a measured load run)"},
      {{"traffic.measure_cycles=0"}, "traffic.measure_cycles", "expected an integer from 1 to 1099511627776, got 0"},
      {{"traffic.drain_cycles=0"}, "traffic.drain_cycles", "expected an integer from 1 to 1099511627776, got 0"},
      {{"traffic.warmup_cycles=-5"}, "traffic.warmup_cycles", "expected an integer from 0 to 1099511627776, got -5"},
      {{"traffic.measure_cycles=many"}, "traffic.measure_cycles", "expected an integer, got \"many\""},
  };
  EXPECT_SETTINGS_REFUSED(tmp, kLoadConfig, cases);
}

}  // namespace

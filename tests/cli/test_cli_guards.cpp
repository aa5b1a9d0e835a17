// The guards of the second reliability round (issue 14): every command
// estimates its memory before it builds and refuses with the estimate and the
// key that dominates it; allocation failures are errors, never aborts; step
// contention is counted in linear time; the watchdog stops a run only when
// nothing can move again, and a stuck run with the watchdog off ends at once.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "cli_harness.hpp"

using namespace wormsim_cli;
using nlohmann::json;

namespace {

constexpr rlim_t kOneGiB = rlim_t{1} << 30;


std::string ring_config(const std::string& run_block) {
  return "network:\n  topology: ring\n  dims: [8]\n  vcs: 1\n  allow_deadlock: true\n  buffer_flits: 2\nschedule:\n  file: " +
         (data_dir() / "schedules" / "ring8_shift3_64flits.json").string() +
         "\noutput:\n  host_timing: false\nrun:\n" + run_block;
}

// A 16,777,216-node torus and no message: 1.3 GiB of topology tables.
void write_big_torus(const fs::path& p) {
  write_file(p, R"({"topology": {"kind": "torus", "dims": [4096, 4096]}, "steps": []})");
}

// "error: ... but the address-space limit (ulimit -v) leaves X; refusing to start": all but X.
void expect_refusal(const std::string& err, const std::string& before_limit) {
  const std::string end = "; refusing to start\n";
  EXPECT_EQ(err.rfind(before_limit + " but the address-space limit (ulimit -v) leaves ", 0), 0u) << err;
  EXPECT_EQ(err.substr(err.size() < end.size() ? 0 : err.size() - end.size()), end) << err;
}

std::string all_outputs(const fs::path& dir) {
  std::string s;
  for (const char* f : {"messages.csv", "links.csv", "steps.csv"}) s += read_file(dir / f);
  return s;
}

// Runs tmp/ring.yaml with the fast paths off (into tmp/0) and on (tmp/1): each
// stops stuck (exit 3) saying every text of `err`, and every file has the same bytes.
void expect_stuck_run_both_ways(const TempDir& tmp, const std::vector<std::string>& err) {
  std::string out[2];
  for (int fast = 0; fast < 2; ++fast) {
    const fs::path o = tmp / std::to_string(fast);
    const Result r = run_wormsim({"run", "ring.yaml", "--set", std::string("run.fast_paths=") + (fast ? "true" : "false"),
                                  "--out", o.string(), "--quiet"},
                                 tmp.path());
    EXPECT_EXIT_CODE(r, 3);
    for (const std::string& e : err) EXPECT_CONTAINS(r.err, e);
    for (const char* f : {"summary.json", "messages.csv", "links.csv", "steps.csv"}) out[fast] += read_file(o / f);
  }
  EXPECT_EQ(out[0], out[1]);
}

}  // namespace

// --- the watchdog ----------------------------------------------------------

// A flit waits 10 cycles in each router: no flit moves for 9 cycles at a time,
// which a 5-cycle watchdog took for a deadlock at cycle 8.
TEST(CliWatchdog, LongRouterDelayIsNotADeadlock) {
  TempDir tmp;
  const Result r = run_wormsim({"run", default_config().string(), "--set", "run.watchdog_cycles=5", "--set",
                                "timing.router_delay=10", "--out", (tmp / "o").string()},
                               tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  EXPECT_CONTAINS(r.out, "status:      completed\n");
  EXPECT_CONTAINS(r.out, "completion:  240 cycles\n");
}

TEST(CliWatchdog, LongLinkDelayIsNotADeadlock) {
  TempDir tmp;
  const Result r = run_wormsim({"run", default_config().string(), "--set", "run.watchdog_cycles=500", "--set",
                                "timing.link_delay=1000", "--out", (tmp / "o").string()},
                               tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  EXPECT_CONTAINS(r.out, "status:      completed\n");
  EXPECT_CONTAINS(r.out, "completion:  16044 cycles\n");
}

// Three one-flit worms down a line under minimal-adaptive (Duato's rule: a
// head takes a VC only once its downstream buffer is empty and every credit is
// back). The first two take both VCs of the link; the third waits 70 cycles of
// credit delay for one of them, with nothing else to move and the buffers'
// first credits already back. The watchdog took that for a deadlock (a 2-cycle
// watchdog: "no_progress"), and with it off the run was skipped to the cycle
// limit as frozen: the wait for a buffer's last credit is a timed event too.
TEST(CliWatchdog, WaitingForADrainedBufferIsNotADeadlock) {
  TempDir tmp;
  write_file(tmp / "line.json",
             R"({"wormsim_schedule": 1, "topology": {"kind": "line", "dims": [3]}, "flits": 1,
                 "steps": [[{"src": [0], "dst": [2]}, {"src": [0], "dst": [2]}, {"src": [0], "dst": [2]}]]})");
  write_file(tmp / "line.yaml",
             "network: {topology: line, dims: [3], vcs: 2, buffer_flits: 4, routing: minimal-adaptive}\n"
             "timing: {router_delay: 1, link_delay: 1, credit_delay: 70}\n"
             "schedule: {file: line.json, mode: eager}\noutput: {host_timing: false}\n");
  std::string messages;
  for (const char* watchdog : {"2", "0", "100000"}) {
    for (const char* fast : {"true", "false"}) {
      SCOPED_TRACE(std::string("watchdog ") + watchdog + ", fast paths " + fast);
      const fs::path out = tmp / (std::string(watchdog) + fast);
      const Result r = run_wormsim({"run", "line.yaml", "--set", std::string("run.watchdog_cycles=") + watchdog, "--set",
                                    std::string("run.fast_paths=") + fast, "--out", out.string()},
                                   tmp.path(), 20);
      EXPECT_EXIT_CODE(r, 0);
      EXPECT_CONTAINS(r.out, "status:      completed\n");
      const std::string m = read_file(out / "messages.csv");
      // The third worm: released at cycle 2, its header out at cycle 77 after 70 cycles blocked.
      EXPECT_CONTAINS(m, "\n2,0,2,0,2,\"(0)\",\"(2)\",\"\",1,2,2,2,77,77,75,5,70,");
      if (messages.empty()) messages = m;
      EXPECT_EQ(m, messages);
    }
  }
}

// The deadlocked ring with the watchdog off used to be stepped cycle by cycle
// up to max_cycles (10^9: about 17 minutes); nothing can move, so it ends there at once.
TEST(CliWatchdog, StuckRingWithTheWatchdogOffEndsAtTheCycleLimitAtOnce) {
  TempDir tmp;
  write_file(tmp / "ring.yaml", ring_config("  watchdog_cycles: 0\n"));
  const Result r = run_wormsim({"run", "ring.yaml", "--out", (tmp / "o").string(), "--quiet"}, tmp.path(), 10);
  EXPECT_EXIT_CODE(r, 3);
  EXPECT_CONTAINS(r.err, "run stopped: cycle_limit at cycle 1000000000 with 0 of 8 messages delivered\n");
  const json s = load_json(tmp / "o" / "summary.json");
  EXPECT_EQ(s.at("status"), "cycle_limit");
  EXPECT_FALSE(s.contains("deadlock"));
  EXPECT_LT(s.at("metrics").at("simulated_cycles").get<long long>(), 1000);
}

// Skipping the stuck cycles gives the outputs of stepping them: every waiting
// header is charged the stall cycles it would have waited. Stepped here by a
// watchdog that never fires before the limit.
// With a VCD trace too: it ends at the last cycle a stepped run reaches
// (max_cycles - 1), not at the cycle the run jumped from.
TEST(CliWatchdog, SkippedStuckCyclesGiveTheSteppedOutputs) {
  TempDir tmp;
  write_file(tmp / "skip.yaml", ring_config("  watchdog_cycles: 0\n  max_cycles: 20000\n"));
  write_file(tmp / "step.yaml", ring_config("  watchdog_cycles: 1000000\n  max_cycles: 20000\n"));
  json summary[2];
  std::string csv[2], vcd[2];
  const char* const names[2] = {"skip", "step"};
  for (int i = 0; i < 2; ++i) {
    const fs::path out = tmp / names[i];
    const Result r = run_wormsim({"run", std::string(names[i]) + ".yaml", "--out", out.string(), "--quiet"}, tmp.path());
    ASSERT_TRUE(r.exited && r.exit_code == 3) << r.describe();
    summary[i] = load_json(out / "summary.json");
    csv[i] = all_outputs(out);
    const fs::path traced = tmp / (std::string(names[i]) + "_vcd");
    const Result t = run_wormsim({"run", std::string(names[i]) + ".yaml", "--set", "output.trace=vcd", "--out",
                                  traced.string(), "--quiet"},
                                 tmp.path());
    ASSERT_TRUE(t.exited && t.exit_code == 3) << t.describe();
    vcd[i] = read_file(traced / "trace.vcd");
    EXPECT_EQ(all_outputs(traced), csv[i]);
  }
  EXPECT_EQ(vcd[0], vcd[1]);
  EXPECT_EQ(vcd[0].substr(vcd[0].size() - 7), "#19999\n");
  EXPECT_EQ(summary[1].at("metrics").at("simulated_cycles"), 20000);
  EXPECT_LT(summary[0].at("metrics").at("simulated_cycles").get<long long>(), 1000);
  for (json& s : summary) {
    EXPECT_EQ(s.at("status"), "cycle_limit");
    s["metrics"].erase("simulated_cycles");
    s["config"]["run"].erase("watchdog_cycles");
  }
  EXPECT_EQ(summary[0].dump(), summary[1].dump());
  EXPECT_EQ(csv[0], csv[1]);
  EXPECT_NE(csv[0].find(",19"), std::string::npos) << "stall cycles near the limit are charged:\n" << csv[0];
}

// The fast paths (express worms) change no byte of a run the watchdog stops,
// of one skipped to the limit, or of runs with long pipelines.
TEST(CliWatchdog, FastPathsChangeNothingWhenStuckOrSlow) {
  TempDir tmp;
  write_file(tmp / "off.yaml", ring_config("  watchdog_cycles: 0\n"));
  write_file(tmp / "on.yaml", ring_config("  watchdog_cycles: 50\n"));
  const std::vector<std::vector<std::string>> cases = {
      {"off.yaml"},
      {"on.yaml"},
      {default_config().string(), "--set", "run.watchdog_cycles=5", "--set", "timing.router_delay=10", "--set",
       "output.host_timing=false"},
      {default_config().string(), "--set", "run.watchdog_cycles=500", "--set", "timing.link_delay=1000", "--set",
       "output.host_timing=false"},
  };
  for (size_t c = 0; c < cases.size(); ++c) {
    SCOPED_TRACE("case " + std::to_string(c));
    std::string out[2];
    for (int fast = 0; fast < 2; ++fast) {
      std::vector<std::string> args{"run"};
      args.insert(args.end(), cases[c].begin(), cases[c].end());
      const fs::path dir = tmp / (std::to_string(c) + "_" + std::to_string(fast));
      for (const std::string& a : {std::string("--set"), std::string("run.fast_paths=") + (fast ? "true" : "false"),
                                   std::string("--out"), dir.string(), std::string("--quiet")})
        args.push_back(a);
      const Result r = run_wormsim(args, tmp.path(), 20);
      ASSERT_TRUE(r.exited) << r.describe();
      out[fast] = read_file(dir / "summary.json") + all_outputs(dir);
    }
    EXPECT_FALSE(out[0].empty());
    EXPECT_EQ(out[0], out[1]);
  }
}

TEST(CliWatchdog, ADeadlockListsAClosedCycleOfWaits) {
  TempDir tmp;
  write_file(tmp / "ring.yaml", ring_config("  watchdog_cycles: 50\n"));
  const Result r = run_wormsim({"run", "ring.yaml", "--out", (tmp / "o").string(), "--quiet"}, tmp.path());
  EXPECT_EXIT_CODE(r, 3);
  EXPECT_CONTAINS(r.err, "0 of 8 messages delivered; waiting cycle of 8 worms");
  const json cyc = load_json(tmp / "o" / "summary.json").at("deadlock");
  ASSERT_EQ(cyc.size(), 8u);
  for (size_t i = 0; i < cyc.size(); ++i) EXPECT_EQ(cyc[i].at("waits_for_message"), cyc[(i + 1) % 8].at("message"));
}

// One-flit worms on a 4-node ring with one VC: every front head waits for an
// output whose last holder has already moved its whole worm into the next
// buffer, behind the worm that fills it. The fronts alone close no loop; the
// loop passes through those queued worms (each waits for the worm just ahead),
// and the run was reported as no_progress.
TEST(CliWatchdog, ALoopThroughQueuedWormsIsADeadlock) {
  TempDir tmp;
  write_file(tmp / "ring.yaml",
             "network: {topology: ring, dims: [4], vcs: 1, buffer_flits: 2, allow_deadlock: true}\n"
             "traffic: {pattern: uniform, rate: 1.0, flits: 1, cycles: 8}\n"
             "run: {seed: 5, watchdog_cycles: 20}\noutput: {host_timing: false}\n");
  expect_stuck_run_both_ways(tmp, {"deadlock at cycle 30 with 12 of 32 messages delivered; waiting cycle of 10 worms",
                                   "[error] deadlock: message 24 ((0) -> (1)) waits at router (1) input port 1 VC 0 "
                                   "for ejection, queued behind message 20\n"});
  const json s = load_json(tmp / "1" / "summary.json");
  EXPECT_EQ(s.at("status"), "deadlock");
  const json cyc = s.at("deadlock");
  ASSERT_EQ(cyc.size(), 10u);
  int queued = 0;
  for (size_t i = 0; i < cyc.size(); ++i) {
    EXPECT_EQ(cyc[i].at("waits_for_message"), cyc[(i + 1) % cyc.size()].at("message"));
    if (!cyc[i].contains("queued")) continue;
    EXPECT_EQ(cyc[i].at("queued"), true);
    // A queued worm shares its VC with the one it waits behind.
    const json& ahead = cyc[(i + 1) % cyc.size()];
    EXPECT_EQ(cyc[i].at("node"), ahead.at("node"));
    EXPECT_EQ(cyc[i].at("in_port"), ahead.at("in_port"));
    ++queued;
  }
  EXPECT_EQ(queued, 4);
}

// Five-flit worms on a 5-node ring deadlock while the last packets are still
// in their startup at nodes whose injection channels all carry worms: with the
// fast paths on, such an interface sleeps (its channel's worm is the express
// loop's), and the 1-cycle watchdog missed the startup still to end and
// stopped two cycles before the full pipeline did.
TEST(CliWatchdog, AStartupAtASleepingInterfaceFallsDue) {
  TempDir tmp;
  write_file(tmp / "ring.yaml",
             "network: {topology: ring, dims: [5], vcs: 1, buffer_flits: 2, allow_deadlock: true}\n"
             "timing: {link_delay: 0, startup: 1}\n"
             "traffic: {pattern: tornado, rate: 0.4, flits: 5, cycles: 28}\n"
             "run: {seed: 5, watchdog_cycles: 1}\noutput: {host_timing: false}\n");
  expect_stuck_run_both_ways(tmp, {"deadlock at cycle 29 with 3 of 60 messages delivered; waiting cycle of 5 worms"});
}

// --- memory: every command estimates before it builds ------------------------

// schedule check of a 16M-node topology took 44 s and 5.1 GB; under a 1 GiB
// limit it is refused before anything is built.
TEST(CliMemory, ScheduleCheckRefusesAHugeTopologyBeforeBuildingIt) {
  ASSERT_FALSE(kAddressSanitizer) << "an AddressSanitizer binary cannot run under an address-space limit "
                                     "(scripts/sanitize.sh leaves the CliMemory tests with limits out)";
  TempDir tmp;
  write_big_torus(tmp / "big.json");
  const ScopedMemoryLimit limit(kOneGiB);
  for (const char* json_flag : {"", "--json"}) {
    std::vector<std::string> args{"schedule", "check", "big.json"};
    if (*json_flag) args.push_back(json_flag);
    const Result r = run_wormsim(args, tmp.path(), 10);
    EXPECT_EXIT_CODE(r, 1);
    EXPECT_EQ(r.out, "");
    expect_refusal(r.err,
                   "error: big.json: topology.dims: this schedule check needs about 1.3 GiB (16777216 nodes, 0 "
                   "messages; the topology's tables: 1.3 GiB)");
  }
}

// The run's loader checks the schedule file's own topology, before comparing it with the network.
TEST(CliMemory, RunRefusesAScheduleFileNamingAHugeTopology) {
  ASSERT_FALSE(kAddressSanitizer) << "an AddressSanitizer binary cannot run under an address-space limit "
                                     "(scripts/sanitize.sh leaves the CliMemory tests with limits out)";
  TempDir tmp;
  write_big_torus(tmp / "big.json");
  write_file(tmp / "c.yaml", "network: {topology: mesh, dims: [4, 4]}\nschedule: {file: big.json}\n");
  const ScopedMemoryLimit limit(kOneGiB);
  const Result r = run_wormsim({"run", "c.yaml", "--out", (tmp / "o").string()}, tmp.path(), 10);
  EXPECT_EXIT_CODE(r, 1);
  expect_refusal(r.err, "error: big.json: topology.dims: this run needs about 1.3 GiB (16777216 nodes, 0 messages; the topology's "
                        "tables: 1.3 GiB)");
  EXPECT_FALSE(fs::exists(tmp / "o"));
}

// The refusal names the key whose term dominates, not always network.dims.
TEST(CliMemory, RunRefusalNamesTheDominatingKey) {
  ASSERT_FALSE(kAddressSanitizer) << "an AddressSanitizer binary cannot run under an address-space limit "
                                     "(scripts/sanitize.sh leaves the CliMemory tests with limits out)";
  TempDir tmp;
  struct Case {
    const char* network;
    const char* expected;
  };
  const Case cases[] = {
      {"{topology: mesh, dims: [512, 512], vcs: 16, buffer_flits: 1}",
       "network.vcs: this run needs about 1.7 GiB (262144 routers, 262144 messages; the virtual channels: 960.0 MiB)"},
      {"{topology: mesh, dims: [512, 512], buffer_flits: 64}",
       "network.buffer_flits: this run needs about 2.3 GiB (262144 routers, 262144 messages; the input buffers: 1.9 "
       "GiB)"},
      {"{topology: mesh, dims: [1024, 1024]}",
       "network.dims: this run needs about 2.0 GiB (1048576 routers, 1048576 messages; the routers and interfaces: "
       "992.0 MiB)"},
  };
  const ScopedMemoryLimit limit(kOneGiB);
  for (const Case& c : cases) {
    write_file(tmp / "c.yaml", std::string("network: ") + c.network + "\nschedule: {algorithm: binomial}\n");
    const Result r = run_wormsim({"run", "c.yaml", "--out", (tmp / "o").string()}, tmp.path(), 10);
    EXPECT_EXIT_CODE(r, 1);
    expect_refusal(r.err, std::string("error: c.yaml: ") + c.expected);
  }
}

// An every-pair collective on a 16-cube is 4.3 billion messages: refused on any machine.
TEST(CliMemory, GenerateAndSurveyRefuseBeforeGenerating) {
  TempDir tmp;
  const Result g = run_wormsim(
      {"schedule", "generate", "-a", "total-exchange", "-t", "hypercube", "-d", "16", "-o", "x.json"}, tmp.path(), 10);
  EXPECT_EXIT_CODE(g, 1);
  EXPECT_EQ(g.err.rfind("error: --algorithm: this schedule generate needs about 720.0 GiB (65536 nodes, 4294901760 "
                        "messages; the generated messages: 720.0 GiB) but ",
                        0),
            0u)
      << g.err;
  EXPECT_FALSE(fs::exists(tmp / "x.json"));
  const Result s =
      run_wormsim({"schedule", "survey", "-a", "total-exchange", "-t", "hypercube", "-d", "16"}, tmp.path(), 10);
  EXPECT_EXIT_CODE(s, 1);
  EXPECT_EQ(s.out, "");
  EXPECT_EQ(s.err.rfind("error: --algorithm: this schedule survey needs about 760.0 GiB (65536 nodes, 4294901760 "
                        "messages; the generated messages: 760.0 GiB) but ",
                        0),
            0u)
      << s.err;
}

// draw refused a 16M-node topology only after 22 s and 5.1 GB: now before loading it.
TEST(CliMemory, DrawRefusesAnUndrawableTopologyBeforeLoadingIt) {
  TempDir tmp;
  write_big_torus(tmp / "big.json");
  const Result r = run_wormsim({"schedule", "draw", "big.json", "-o", "big.svg"}, tmp.path(), 5);
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_EQ(r.err, "error: big.json: cannot draw torus 4096x4096: 16777216 nodes is more than the picture limit of 4096\n");
  EXPECT_FALSE(fs::exists(tmp / "big.svg"));
}

// check --json on a big schedule under a tight limit aborted (SIGABRT): at any
// limit it now either works or exits 1 with a message.
TEST(CliMemory, TightLimitsGiveAnErrorNeverASignal) {
  ASSERT_FALSE(kAddressSanitizer) << "an AddressSanitizer binary cannot run under an address-space limit "
                                     "(scripts/sanitize.sh leaves the CliMemory tests with limits out)";
  TempDir tmp;
  std::string text = R"({"topology": {"kind": "mesh", "dims": [64, 64]}, "steps": [)";
  uint32_t x = 12345;
  for (int st = 0; st < 50; ++st) {
    text += st ? ",[" : "[";
    for (int i = 0; i < 1000; ++i) {
      x = x * 1664525u + 1013904223u;
      const uint32_t src = (x >> 8) % 4096, dst = (src + 1 + (x >> 20) % 4095) % 4096;
      text += (i ? "," : "") + std::string("{\"src\":") + std::to_string(src) + ",\"dst\":" + std::to_string(dst) + "}";
    }
    text += "]";
  }
  write_file(tmp / "m.json", text + "]}");
  for (rlim_t mib : {16, 24, 40, 56, 72, 96, 160}) {
    SCOPED_TRACE(std::to_string(mib) + " MiB");
    const ScopedMemoryLimit limit(mib << 20);
    const Result r = run_wormsim({"schedule", "check", "m.json", "--json"}, tmp.path(), 20);
    ASSERT_TRUE(r.exited) << r.describe();
    if (r.exit_code != 0) {
      EXPECT_EQ(r.exit_code, 1);
      EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
    }
  }
}

// A run whose allocations fail while it simulates (past its estimate) exited 1
// with SystemC's own report ("Error: (E549) uncaught exception"): now with the
// run's out-of-memory error, and no outputs. Under every limit here the express
// loop's room for every message, asked for at once without a limit, would leave
// less than as much again, so it is grown as needed instead: where the run
// completes, the same outputs as the run without a limit.
TEST(CliMemory, RunUnderAnyLimitCompletesTheSameOrSaysOutOfMemory) {
  ASSERT_FALSE(kAddressSanitizer) << "an AddressSanitizer binary cannot run under an address-space limit "
                                     "(scripts/sanitize.sh leaves the CliMemory tests with limits out)";
  TempDir tmp;
  // 50 steps of 1,000 long routes each on 64x64: every node sends and receives at most once a step. Worms of
  // 5 flits: they join the express loop (ExpressWorms::worth_joining).
  std::string text = R"({"topology": {"kind": "mesh", "dims": [64, 64]}, "flits": 5, "steps": [)";
  for (int st = 0; st < 50; ++st) {
    text += st ? ",[" : "[";
    const int shift = 1 + 37 * st;
    for (int i = 0; i < 1000; ++i) {
      const int src = (2 * st + 1) * (i + 7 * st) % 4096;  // an odd multiplier: distinct sources
      text += (i ? "," : "") + std::string("{\"src\":") + std::to_string(src) +
              ",\"dst\":" + std::to_string((src + shift) % 4096) + "}";
    }
    text += "]";
  }
  write_file(tmp / "m.json", text + "]}");
  write_file(tmp / "c.yaml", "network: {topology: mesh, dims: [64, 64]}\nschedule: {file: m.json, mode: eager}\n");
  const Result full = run_wormsim({"run", "c.yaml", "--out", "full", "--quiet"}, tmp.path(), 60);
  EXPECT_EXIT_CODE(full, 0);
  ASSERT_EQ(full.err, "");
  int completed = 0, out_of_memory = 0;
  for (rlim_t mib : {112, 144, 184, 208, 256}) {
    SCOPED_TRACE(std::to_string(mib) + " MiB");
    const ScopedMemoryLimit limit(mib << 20);
    const std::string out = "o" + std::to_string(mib);
    // The phases' lines say how far the run got: a network elaborated and never simulated failed while simulating.
    const Result r = run_wormsim({"run", "c.yaml", "--out", out, "--log-level", "info"}, tmp.path(), 60);
    ASSERT_TRUE(r.exited) << r.describe();
    if (r.exit_code == 0) {
      ++completed;
      EXPECT_EQ(read_file(tmp / out / "messages.csv"), read_file(tmp / "full" / "messages.csv"));
      EXPECT_EQ(read_file(tmp / out / "links.csv"), read_file(tmp / "full" / "links.csv"));
    } else {
      EXPECT_EQ(r.exit_code, 1);
      const size_t error = r.err.find("\nerror: ");
      ASSERT_NE(error, std::string::npos) << r.err;
      EXPECT_EQ(r.err.find('\n', error + 1), r.err.size() - 1) << "the error is the last line: " << r.err;
      EXPECT_EQ(r.err.find("E549"), std::string::npos) << r.err;
      EXPECT_FALSE(fs::exists(tmp / out / "messages.csv"));
      const bool while_simulating = r.err.find("] elaborated ") != std::string::npos &&
                                    r.err.find("] simulated ") == std::string::npos;
      out_of_memory += while_simulating && r.err.compare(error + 1, 22, "error: out of memory: ") == 0;
    }
  }
  EXPECT_GT(completed, 0);
  EXPECT_GT(out_of_memory, 0);  // a limit the estimate let through, reached while simulating
}

// --- warnings are capped ------------------------------------------------------

// 1,100 one-port violations (one per step): 1,000 are kept, the rest counted.
TEST(CliMemory, WarningsBeyondTheCapAreCounted) {
  TempDir tmp;
  std::string text = R"({"topology": {"kind": "mesh", "dims": [4, 4]}, "flits": 1, "steps": [)";
  for (int st = 0; st < 1100; ++st)
    text += std::string(st ? "," : "") + R"([{"src": 0, "dst": 1}, {"src": 0, "dst": 4}])";
  write_file(tmp / "w.json", text + "]}");
  write_file(tmp / "w.yaml", "network: {topology: mesh, dims: [4, 4]}\nschedule: {file: w.json}\n");
  const Result r = run_wormsim({"run", "w.yaml", "--out", (tmp / "o").string(), "--quiet"}, tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  EXPECT_CONTAINS(r.err, "w.json: ... and 1050 more problems\n");
  const json warnings = load_json(tmp / "o" / "summary.json").at("warnings");
  ASSERT_EQ(warnings.size(), 1001u);
  EXPECT_EQ(warnings[0], "step 1: (0,0) sends 2 messages but the one-port model allows 1 at once; they will be serialised");
  EXPECT_EQ(warnings[1000], "... and 100 more warnings");
  const Result c = run_wormsim({"schedule", "check", "w.json", "--json"}, tmp.path());
  EXPECT_EXIT_CODE(c, 0);
  EXPECT_EQ(json::parse(c.out).at("port_model_violations"), 1100);
}

// --- step contention in linear time -------------------------------------------

// 40,000 messages of one step over the same 15 links: every pair contends. The
// old pairwise listing took minutes and tens of GB; counting takes a moment.
TEST(CliContention, ABigStepIsCountedNotListed) {
  TempDir tmp;
  std::string text = R"({"topology": {"kind": "mesh", "dims": [16, 16]}, "steps": [[)";
  for (int i = 0; i < 40000; ++i) text += std::string(i ? "," : "") + R"({"src": 0, "dst": 15})";
  write_file(tmp / "c.json", text + "]]}");
  const Result r = run_wormsim({"schedule", "check", "c.json", "--json"}, tmp.path(), 20);
  EXPECT_EXIT_CODE(r, 0);
  const json j = json::parse(r.out);
  EXPECT_EQ(j.at("step_contention_pairs"), 40000LL * 39999 / 2);
  ASSERT_EQ(j.at("contention").size(), 1000u);
  EXPECT_EQ(j.at("contention")[999], json({{"step", 1}, {"first", 1}, {"second", 1001}, {"link", "(0,0)->(1,0)"}}));
  const Result t = run_wormsim({"schedule", "check", "c.json"}, tmp.path(), 20);
  EXPECT_CONTAINS(t.out, "step contention:       799980000 pair(s) of same-step messages share a link\n");
}

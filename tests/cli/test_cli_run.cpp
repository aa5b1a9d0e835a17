// `wormsim run`: the default config, the four output files, determinism,
// execution-mode override, --strict, deadlock and cycle-limit stops.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

using namespace wormsim_cli;
using nlohmann::json;

namespace {

const char* const kMessagesHeader =
    "id,step,index,src,dst,src_coord,dst_coord,packet,flits,hops,release,inject,header_arrival,delivered,"
    "latency,zero_load_latency,blocked_cycles,port_wait_cycles,step_contention_cycles,depth_contention_cycles,"
    "background_cycles,other_cycles";
const char* const kLinksHeader = "link,src,dst,src_coord,dst_coord,dim,dir,wrap,busy_cycles,utilisation";
const char* const kStepsHeader =
    "step,messages,delivered,start,end,duration,max_latency,max_zero_load_latency,mean_latency,tcd,"
    "step_contention_messages,step_contention_cycles,depth_contention_messages,depth_contention_cycles";

// Splits one CSV line; fields may be quoted (coordinates contain commas).
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> f(1);
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) f.emplace_back();
    else f.back() += c;
  }
  return f;
}

// Checks that a CSV file has the header and `rows` data rows, each as wide as the header.
void expect_csv(const fs::path& p, const std::string& header, size_t rows) {
  const auto ls = lines(read_file(p));
  ASSERT_FALSE(ls.empty()) << p;
  EXPECT_EQ(ls[0], header) << p;
  EXPECT_EQ(ls.size(), rows + 1) << p;
  const size_t width = csv_fields(header).size();
  for (size_t i = 1; i < ls.size(); ++i) EXPECT_EQ(csv_fields(ls[i]).size(), width) << p << " line " << i + 1;
}

std::string ring_config(int vcs) {
  return "network:\n  topology: ring\n  dims: [8]\n  vcs: " + std::to_string(vcs) +
         (vcs < 2 ? "\n  allow_deadlock: true" : "") + "\n  buffer_flits: 2\nschedule:\n  file: " + (data_dir() / "schedules" / "ring8_shift3_64flits.json").string() +
         "\noutput:\n  host_timing: false\n";
}

std::string one_port_violation_config(bool strict_key = false) {
  return "network:\n  topology: mesh\n  dims: [4, 4]\nschedule:\n  file: " +
         (data_dir() / "schedules" / "mesh4x4_one_port_violation.json").string() + "\n" +
         (strict_key ? "  strict: true\n" : "");
}

}  // namespace

TEST(CliRun, DefaultConfigRunsAndWritesFourFiles) {
  TempDir tmp;
  const fs::path out = tmp / "out";
  const Result r = run_wormsim({"run", default_config().string(), "--out", out.string()}, tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  EXPECT_CONTAINS(r.out, "status:      completed\n");
  EXPECT_CONTAINS(r.out, "completion:  72 cycles\n");
  EXPECT_CONTAINS(r.out, "TCD:         15 hops");
  EXPECT_CONTAINS(r.out, "(4 steps, 15 messages)");
  EXPECT_CONTAINS(r.out, out.string() + "/{summary.json,messages.csv,links.csv,steps.csv,routes.csv}");
  EXPECT_EQ(r.err, "");  // default log level is warn and the default config has nothing to warn about
  for (const auto& f : output_files()) EXPECT_TRUE(fs::is_regular_file(out / f)) << f;
  // No temporary files left behind by the atomic writes.
  EXPECT_EQ(std::distance(fs::directory_iterator(out), fs::directory_iterator{}), 5);
}

TEST(CliRun, DefaultSummaryJsonContents) {
  TempDir tmp;
  const fs::path out = tmp / "out";
  const Result r = run_wormsim({"run", default_config().string(), "--out", out.string(), "--quiet"}, tmp.path());
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_EQ(r.out, "") << "--quiet prints nothing on stdout";
  const json s = load_json(out / "summary.json");
  EXPECT_EQ(s.at("status"), "completed");
  EXPECT_EQ(s.at("seed"), 1);
  EXPECT_TRUE(s.at("wormsim_version").is_string());
  const json& m = s.at("metrics");
  EXPECT_EQ(m.at("completion_cycles"), 72);  // 4 steps x 18 cycles (16 flits, 1 hop)
  EXPECT_EQ(m.at("tcd"), 15);
  EXPECT_EQ(m.at("messages"), 15);
  EXPECT_EQ(m.at("delivered"), 15);
  EXPECT_EQ(m.at("flit_hops"), 240);
  EXPECT_EQ(m.at("flits_injected"), 240);
  EXPECT_EQ(m.at("flits_ejected"), 240);
  for (const char* k : {"mean", "p50", "p99", "max"}) EXPECT_EQ(m.at("latency").at(k), 18) << k;
  EXPECT_EQ(m.at("link_utilisation").at("links"), 48);
  EXPECT_EQ(m.at("link_utilisation").at("links_used"), 15);
  EXPECT_GT(m.at("link_utilisation").at("mean").get<double>(), 0.0);
  EXPECT_LE(m.at("link_utilisation").at("max").get<double>(), 1.0);
  EXPECT_EQ(m.at("step_contention").at("cycles"), 0);
  // Config echo.
  const json& c = s.at("config");
  EXPECT_EQ(c.at("network").at("topology"), "mesh");
  EXPECT_EQ(c.at("network").at("dims"), json::array({4, 4}));
  EXPECT_EQ(c.at("network").at("vcs"), 1);
  EXPECT_EQ(c.at("network").at("buffer_flits"), 4);
  EXPECT_EQ(c.at("network").at("port_model"), "one-port");
  EXPECT_EQ(c.at("schedule").at("file"), default_schedule().string());
  EXPECT_EQ(c.at("schedule").at("mode"), "barrier");
  EXPECT_EQ(c.at("run").at("seed"), 1);
  EXPECT_EQ(c.at("timing").at("router_delay"), 1);
  // Schedule block and invariants.
  EXPECT_EQ(s.at("schedule").at("steps"), 4);
  EXPECT_EQ(s.at("schedule").at("messages"), 15);
  EXPECT_EQ(s.at("schedule").at("broadcast"), true);
  EXPECT_EQ(s.at("schedule").at("source"), "(1,1)");
  for (const char* k : {"flits_conserved", "all_messages_delivered", "buffers_consistent"})
    EXPECT_EQ(s.at("invariants").at(k), true) << k;
  EXPECT_FALSE(s.contains("deadlock"));
  EXPECT_TRUE(s.at("host").is_object()) << "host timing is on by default";
  EXPECT_TRUE(s.at("host").contains("wall_seconds"));
}

TEST(CliRun, VersionInSummaryMatchesVersionFlag) {
  TempDir tmp;
  const Result v = run_wormsim({"--version"}, tmp.path());
  EXPECT_EXIT_CODE(v, 0);
  ASSERT_EQ(v.out.rfind("wormsim ", 0), 0u) << v.out;
  std::string version = v.out.substr(8);
  while (!version.empty() && (version.back() == '\n' || version.back() == '\r')) version.pop_back();
  const Result r = run_wormsim({"run", default_config().string(), "--out", (tmp / "o").string(), "--quiet"}, tmp.path());
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(load_json(tmp / "o" / "summary.json").at("wormsim_version"), version);
}

TEST(CliRun, DefaultCsvFiles) {
  TempDir tmp;
  const fs::path out = tmp / "out";
  const Result r = run_wormsim({"run", default_config().string(), "--out", out.string(), "--quiet"}, tmp.path());
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  expect_csv(out / "messages.csv", kMessagesHeader, 15);
  expect_csv(out / "steps.csv", kStepsHeader, 4);
  expect_csv(out / "links.csv", kLinksHeader, 48);

  // messages.csv: ids 0..14 in order, 1, 2, 4, 8 messages per step, all delivered with latency 18.
  const auto msgs = lines(read_file(out / "messages.csv"));
  std::vector<int> per_step(4, 0);
  for (size_t i = 1; i < msgs.size(); ++i) {
    const auto f = csv_fields(msgs[i]);
    ASSERT_EQ(f.size(), 22u);
    EXPECT_EQ(f[0], std::to_string(i - 1));
    ++per_step.at(std::stoi(f[1]));
    EXPECT_EQ(f[8], "16") << "flits";
    EXPECT_EQ(f[9], "1") << "hops";
    EXPECT_FALSE(f[13].empty()) << "delivered cycle";
    EXPECT_EQ(f[14], "18") << "latency";
  }
  EXPECT_EQ(per_step, (std::vector<int>{1, 2, 4, 8}));
  const auto f0 = csv_fields(msgs[1]);
  EXPECT_EQ(f0[5], "(1,1)");  // the source, quoted in the file because of the comma
  EXPECT_EQ(f0[6], "(2,1)");
  EXPECT_NE(msgs[1].find("\"(1,1)\",\"(2,1)\""), std::string::npos) << msgs[1];

  // steps.csv: steps 0..3, back to back, 18 cycles each.
  const auto steps = lines(read_file(out / "steps.csv"));
  for (size_t i = 1; i < steps.size(); ++i) {
    const auto f = csv_fields(steps[i]);
    EXPECT_EQ(f[0], std::to_string(i - 1));
    EXPECT_EQ(f[3], std::to_string(18 * (i - 1))) << "start";
    EXPECT_EQ(f[4], std::to_string(18 * i)) << "end";
    EXPECT_EQ(f[5], "18") << "duration";
  }
}

TEST(CliRun, ByteIdenticalOutputsWithoutHostTiming) {
  TempDir tmp;
  for (const char* d : {"a", "b"}) {
    const Result r = run_wormsim({"run", default_config().string(), "--set", "output.host_timing=false", "--out",
                                  (tmp / d).string(), "--quiet"},
                                 tmp.path());
    ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  }
  for (const auto& f : output_files()) {
    const std::string a = read_file(tmp / "a" / f), b = read_file(tmp / "b" / f);
    EXPECT_FALSE(a.empty()) << f;
    EXPECT_TRUE(a == b) << f << " differs between two identical runs";
  }
  EXPECT_FALSE(load_json(tmp / "a" / "summary.json").contains("host"));
}

TEST(CliRun, OnlyHostBlockDiffersWithHostTiming) {
  TempDir tmp;
  for (const char* d : {"a", "b"}) {
    const Result r = run_wormsim({"run", default_config().string(), "--out", (tmp / d).string(), "--quiet"}, tmp.path());
    ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  }
  for (const auto& f : output_files()) {
    if (f == "summary.json") continue;
    EXPECT_TRUE(read_file(tmp / "a" / f) == read_file(tmp / "b" / f)) << f;
  }
  json a = load_json(tmp / "a" / "summary.json"), b = load_json(tmp / "b" / "summary.json");
  ASSERT_TRUE(a.contains("host"));
  ASSERT_TRUE(b.contains("host"));
  a.erase("host");
  b.erase("host");
  EXPECT_EQ(a, b);
  // And without the host block the rest of the file is the same text as a host_timing=false run.
  const Result r = run_wormsim({"run", default_config().string(), "--set", "output.host_timing=false", "--out",
                                (tmp / "c").string(), "--quiet"},
                               tmp.path());
  ASSERT_EQ(r.exit_code, 0) << r.describe();
  EXPECT_EQ(a, load_json(tmp / "c" / "summary.json"));
}

TEST(CliRun, EagerModeOverrideCompletes) {
  TempDir tmp;
  const Result r = run_wormsim(
      {"run", default_config().string(), "--set", "schedule.mode=eager", "--out", (tmp / "o").string()}, tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  EXPECT_CONTAINS(r.out, "eager mode");
  EXPECT_CONTAINS(r.out, "status:      completed");
  const json s = load_json(tmp / "o" / "summary.json");
  EXPECT_EQ(s.at("status"), "completed");
  EXPECT_EQ(s.at("config").at("schedule").at("mode"), "eager");
  EXPECT_EQ(s.at("metrics").at("delivered"), 15);
  EXPECT_LE(s.at("metrics").at("completion_cycles").get<int>(), 72) << "eager never waits longer than barrier here";
}

TEST(CliRun, PortModelViolationIsAWarningWithoutStrict) {
  TempDir tmp;
  write_file(tmp / "c.yaml", one_port_violation_config());
  const Result r = run_wormsim({"run", "c.yaml", "--out", (tmp / "o").string()}, tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  EXPECT_CONTAINS(r.err, "mesh4x4_one_port_violation.json: step 1: warning: (0,0) sends 2 messages but the one-port "
                         "model allows 1 at once");
  const json s = load_json(tmp / "o" / "summary.json");
  EXPECT_EQ(s.at("status"), "completed");
  ASSERT_EQ(s.at("warnings").size(), 1u) << s.at("warnings").dump();
  EXPECT_CONTAINS(s.at("warnings")[0].get<std::string>(), "(0,0) sends 2 messages");
}

TEST(CliRun, StrictFlagMakesPortModelViolationAnError) {
  TempDir tmp;
  write_file(tmp / "c.yaml", one_port_violation_config());
  const Result r = run_wormsim({"run", "c.yaml", "--strict", "--out", (tmp / "o").string()}, tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, "step 1: error: (0,0) sends 2 messages but the one-port model allows 1");
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(fs::exists(tmp / "o")) << "no outputs for a rejected input";
}

TEST(CliRun, StrictConfigKeyMakesPortModelViolationAnError) {
  TempDir tmp;
  write_file(tmp / "c.yaml", one_port_violation_config(true));
  const Result r = run_wormsim({"run", "c.yaml", "--out", (tmp / "o").string()}, tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, "error: (0,0) sends 2 messages");
}

TEST(CliRun, AllPortAllowsTwoSendsOnDifferentLinks) {
  TempDir tmp;
  write_file(tmp / "c.yaml", one_port_violation_config());
  const Result r = run_wormsim(
      {"run", "c.yaml", "--strict", "--set", "network.port_model=all-port", "--out", (tmp / "o").string()}, tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
}

TEST(CliRun, TorusWithOneVcDeadlocks) {
  TempDir tmp;
  write_file(tmp / "ring.yaml", ring_config(1));
  const fs::path out = tmp / "o";
  const Result r = run_wormsim({"run", "ring.yaml", "--out", out.string()}, tmp.path());
  EXPECT_EXIT_CODE(r, 3);
  EXPECT_CONTAINS(r.err, "[warning] dimension-order on a torus needs vcs >= 2 (a dateline pair), got 1: its "
                         "wrap-around links close a cycle of channel dependencies (allowed by network.allow_deadlock)");
  EXPECT_CONTAINS(r.err, "run stopped: deadlock at cycle ");
  EXPECT_CONTAINS(r.err, "0 of 8 messages delivered; waiting cycle of 8 worms");
  EXPECT_CONTAINS(r.out, "status:      deadlock");
  for (const auto& f : output_files()) EXPECT_TRUE(fs::is_regular_file(out / f)) << f;
  const json s = load_json(out / "summary.json");
  EXPECT_EQ(s.at("status"), "deadlock");
  ASSERT_TRUE(s.contains("deadlock"));
  const json& cyc = s.at("deadlock");
  ASSERT_EQ(cyc.size(), 8u) << cyc.dump();
  // A closed waiting cycle: every worm waits for the next one in the list, the last for the first.
  for (size_t i = 0; i < cyc.size(); ++i) {
    EXPECT_EQ(cyc[i].at("waits_for_message"), cyc[(i + 1) % cyc.size()].at("message")) << cyc.dump();
    EXPECT_TRUE(cyc[i].at("message_src").is_string());
  }
  EXPECT_LT(s.at("metrics").at("delivered").get<int>(), 8);
  expect_csv(out / "messages.csv", kMessagesHeader, 8);
  expect_csv(out / "steps.csv", kStepsHeader, 1);
}

// Dimension order on a torus with too few VCs for its dateline pair is refused at
// load time, naming the key and what would make it run; allow_deadlock lets it run.
TEST(CliRun, TorusWithOneVcIsRefusedUnlessDeadlockIsAllowed) {
  TempDir tmp;
  const std::string need = "dimension-order on a torus needs vcs >= 2 (a dateline pair), got 1";
  const std::string config = default_config().string();
  const std::vector<BadSetting> cases = {
      {{"network.topology=torus", "network.dims=[4,4]"}, "network.vcs (line 7)", need},
      {{"network.topology=ring", "network.dims=[8]", "network.allow_deadlock=false"}, "network.vcs", need},
      {{"network={topology: torus, dims: [3, 3, 3], vcs: 1}"}, "network.vcs", "raise network.vcs, or set "
       "network.allow_deadlock: true"},
      {{"network={topology: torus, dims: [5, 5]}", "network.routing=dimension-order:yx", "network.vcs=1"},
       "network.vcs", need},
      {{"network.allow_deadlock=maybe"}, "network.allow_deadlock", "expected true or false"},
  };
  EXPECT_SETTINGS_REFUSED(tmp, config, cases);
  // Allowed, or with the dateline pair, the same network runs; a mesh needs no key.
  for (const auto& sets : std::vector<std::vector<std::string>>{
           {"network.topology=torus", "network.dims=[4,4]", "network.allow_deadlock=true"},
           {"network.topology=torus", "network.dims=[4,4]", "network.vcs=2"},
           {"network.dims=[4,4]", "network.allow_deadlock=false"}}) {
    std::vector<std::string> args{"run", config, "--quiet", "--out", (tmp / "ok").string(),
                                  "--set", "schedule={algorithm: binomial, source: 0}"};
    for (const auto& s : sets) args.insert(args.end(), {"--set", s});
    const Result r = run_wormsim(args, tmp.path());
    EXPECT_EXIT_CODE(r, 0);
    const json s = load_json(tmp / "ok" / "summary.json");
    EXPECT_EQ(s.at("config").at("network").contains("allow_deadlock"), sets.back().rfind("network.allow", 0) == 0);
    const std::string warnings = s.value("warnings", json::array()).dump();
    EXPECT_EQ(warnings.find("allowed by network.allow_deadlock") != std::string::npos,
              sets.back() == "network.allow_deadlock=true")
        << warnings;
  }
}

TEST(CliRun, SameRingScheduleCompletesWithTwoVcs) {
  TempDir tmp;
  write_file(tmp / "ring.yaml", ring_config(2));
  const Result r = run_wormsim({"run", "ring.yaml", "--out", (tmp / "o").string()}, tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  const json s = load_json(tmp / "o" / "summary.json");
  EXPECT_EQ(s.at("status"), "completed");
  EXPECT_EQ(s.at("metrics").at("delivered"), 8);
  EXPECT_FALSE(s.contains("deadlock"));
}

TEST(CliRun, TorusDefaultsToTwoVcs) {
  TempDir tmp;
  std::string cfg = ring_config(1);
  cfg.replace(cfg.find("  vcs: 1\n"), 9, "");
  write_file(tmp / "ring.yaml", cfg);
  const Result r = run_wormsim({"run", "ring.yaml", "--out", (tmp / "o").string()}, tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  EXPECT_EQ(load_json(tmp / "o" / "summary.json").at("config").at("network").at("vcs"), 2);
}

TEST(CliRun, CycleLimitStopsTheRun) {
  TempDir tmp;
  const fs::path out = tmp / "o";
  const Result r =
      run_wormsim({"run", default_config().string(), "--set", "run.max_cycles=50", "--out", out.string()}, tmp.path());
  EXPECT_EXIT_CODE(r, 3);
  EXPECT_CONTAINS(r.err, "run stopped: cycle_limit at cycle 50");
  for (const auto& f : output_files()) EXPECT_TRUE(fs::is_regular_file(out / f)) << f;
  const json s = load_json(out / "summary.json");
  EXPECT_EQ(s.at("status"), "cycle_limit");
  EXPECT_LT(s.at("metrics").at("delivered").get<int>(), 15);
  EXPECT_EQ(s.at("config").at("run").at("max_cycles"), 50);
  EXPECT_CONTAINS(r.out, "latency:     mean ");  // 3 of 15 delivered by cycle 50
  const Result none = run_wormsim(
      {"run", default_config().string(), "--set", "run.max_cycles=5", "--out", (tmp / "none").string()}, tmp.path());
  EXPECT_EXIT_CODE(none, 3);
  EXPECT_CONTAINS(none.out, "latency:     none (no message delivered)\n");
  EXPECT_EQ(none.out.find("mean 0.00"), std::string::npos) << none.out;
}

TEST(CliRun, UnwritableOutputFolderIsAnInputError) {
  TempDir tmp;
  write_file(tmp / "plain_file", "x");
  const Result r =
      run_wormsim({"run", default_config().string(), "--out", (tmp / "plain_file" / "sub").string()}, tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, "error: " + (tmp / "plain_file" / "sub").string() + ": cannot create output folder");
}

TEST(CliRun, ScheduleFileIsRelativeToTheConfig) {
  TempDir tmp;
  fs::create_directories(tmp / "cfg" / "sched");
  fs::copy_file(default_schedule(), tmp / "cfg" / "sched" / "s.json");
  write_file(tmp / "cfg" / "c.yaml", "network: {topology: mesh, dims: [4, 4]}\nschedule: {file: sched/s.json}\n");
  // Run from another folder: the schedule path is resolved against the config's folder, not the cwd.
  fs::create_directories(tmp / "elsewhere");
  const Result r = run_wormsim({"run", (tmp / "cfg" / "c.yaml").string(), "--out", (tmp / "o").string(), "--quiet"},
                               tmp / "elsewhere");
  EXPECT_EXIT_CODE(r, 0);
}

TEST(CliRun, InterruptStopsTheRunAndStillWritesOutputs) {
  TempDir tmp;
  // 16-million-flit worms, every flit moved by its router: tens of seconds of simulation. SIGINT must stop it.
  const fs::path out = tmp / "o";
  const Result r = run_wormsim({"run", default_config().string(), "--set", "schedule.flits=16000000", "--set",
                                "run.fast_paths=false", "--out", out.string()},
                               tmp.path(), 30, 1000);
  EXPECT_EXIT_CODE(r, 3);
  EXPECT_CONTAINS(r.err, "run stopped: interrupted at cycle ");
  for (const auto& f : output_files()) EXPECT_TRUE(fs::is_regular_file(out / f)) << f;
  if (fs::is_regular_file(out / "summary.json")) {
    EXPECT_EQ(load_json(out / "summary.json").at("status"), "interrupted");
  }
}

TEST(CliRun, ScheduleFlitsOverridesMessageLengths) {
  TempDir tmp;
  const Result r = run_wormsim(
      {"run", default_config().string(), "--set", "schedule.flits=4", "--out", (tmp / "o").string(), "--quiet"},
      tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  const json s = load_json(tmp / "o" / "summary.json");
  EXPECT_EQ(s.at("metrics").at("completion_cycles"), 24);  // 4 steps x (4 flits + 2 cycles per hop)
  EXPECT_EQ(s.at("metrics").at("flit_hops"), 60);
  EXPECT_EQ(s.at("config").at("schedule").at("flits"), 4);
}

// run.fast_paths: false makes every busy router go through the full allocation
// pipeline; the routers' shortcut for a single streaming worm must not change a
// byte of any output, timeline trace included. The configurations mix the cases
// the shortcut must get right: one worm at a time (broadcasts), heads queued
// behind tails, several VCs per port, contention from background traffic,
// 1-flit buffers, all-port interfaces and a deadlock.
static std::vector<std::vector<std::string>> fast_path_cases() {
  const std::string kDefault = default_config().string();
  const std::string kCmesh = (source_dir() / "configs" / "cmesh.yaml").string();
  const std::vector<std::vector<std::string>> cases = {
      {kDefault, "--set", "schedule.mode=eager"},
      {kDefault, "--set", "schedule={algorithm: eye, source: eye, mode: eager, flits: 16}", "--set",
       "network.dims=[16,16]", "--set", "traffic={pattern: uniform, rate: 0.02, flits: 8, cycles: 800}"},
      {kDefault, "--set", "schedule={algorithm: binomial, source: 0, mode: eager}", "--set", "network.topology=torus",
       "--set", "network.dims=[8,8]", "--set", "network.vcs=3", "--set", "network.port_model=all-port", "--set",
       "timing.credit_delay=3", "--set", "network.buffer_flits=2"},
      {kDefault, "--set", "schedule={algorithm: multinode-broadcast, mode: eager, flits: 4}", "--set",
       "network.topology=hypercube", "--set", "network.dims=[5]", "--set", "network.port_model=2-port", "--set",
       "network.vcs=2", "--set", "network.buffer_flits=1"},
      {(source_dir() / "configs" / "bench" / "b1_uniform_16x16.yaml").string(), "--set",
       "traffic={pattern: transpose, rate: 0.05, flits: 6, cycles: 600}", "--set", "network.dims=[8,8]"},
      {(source_dir() / "configs" / "bench" / "b1_uniform_16x16.yaml").string(), "--set",
       "traffic={pattern: uniform, rate: 0.03, flits: 16, cycles: 600}", "--set", "network.vcs=3", "--set",
       "network.buffer_flits=2"},
      // One VC per port: worms whose header has left go to the express loop (models/express_worms.hpp).
      {kDefault, "--set", "schedule={algorithm: multinode-broadcast, mode: eager, flits: 6}", "--set",
       "network.topology=hypercube", "--set", "network.dims=[5]", "--set", "network.port_model=2-port", "--set",
       "network.buffer_flits=1", "--set", "timing.startup=2"},
      {kDefault, "--set", "schedule={algorithm: eye, source: eye, mode: eager, flits: 24}", "--set",
       "network.dims=[8,8]", "--set", "network.port_model=all-port", "--set", "timing.link_delay=0", "--set",
       "timing.credit_delay=3", "--set", "network.buffer_flits=3", "--set",
       "traffic={pattern: transpose, rate: 0.03, flits: 5, cycles: 500}"},
      {kDefault, "--set", "schedule={algorithm: eye, source: eye, mode: barrier, flits: 9}", "--set",
       "network.dims=[8,8]", "--set", "timing.router_delay=2", "--set", "timing.link_delay=2", "--set",
       "network.buffer_flits=7"},
      // BookSim2's pipeline (3 router cycles a hop): routers whose fronts are all still in the pipeline
      // skip their step (Router::front_ready_by); short worms join and leave the express loop in bulk.
      {(source_dir() / "configs" / "bench" / "b1_uniform_16x16.yaml").string(), "--set",
       "traffic={pattern: uniform, rate: 0.06, flits: 4, cycles: 500}", "--set", "network.dims=[8,8]", "--set",
       "timing.router_delay=3"},
      {(source_dir() / "configs" / "bench" / "b1_uniform_16x16.yaml").string(), "--set",
       "traffic={pattern: uniform, rate: 0.03, flits: [2, 12], cycles: 500}", "--set", "network.topology=torus",
       "--set", "network.dims=[6,6]", "--set", "network.vcs=2", "--set", "network.buffer_flits=4", "--set",
       "timing.router_delay=3"},
      // Several VCs per port: worms go express until another worm shares one of their input or output
      // ports; that stage then goes back to its router (ExpressWorms::hand_back_now), mid-stream.
      {(source_dir() / "configs" / "bench" / "b1_uniform_16x16.yaml").string(), "--set",
       "traffic={pattern: uniform, rate: 0.08, flits: 8, cycles: 600}", "--set", "network.dims=[6,6]", "--set",
       "network.vcs=4", "--set", "network.buffer_flits=2"},
      {kDefault, "--set", "schedule={algorithm: eye, source: eye, mode: eager, flits: 20}", "--set",
       "network.dims=[8,8]", "--set", "network.vcs=2", "--set", "network.buffer_flits=3", "--set",
       "traffic={pattern: tornado, rate: 0.02, flits: [3, 12], cycles: 500}"},
      {kDefault, "--set", "schedule={algorithm: binomial, source: 5, mode: eager, flits: 16}", "--set",
       "network.topology=torus", "--set", "network.dims=[6,6]", "--set", "network.vcs=2", "--set",
       "timing.credit_delay=2", "--set",
       "traffic={pattern: uniform, rate: 0.03, flits: 10, cycles: 400, injection: on-off, burst_alpha: 0.1, "
       "burst_beta: 0.2}"},
      {kDefault, "--set", "schedule=null", "--set", "network.topology=hypercube", "--set", "network.dims=[6]",
       "--set", "network.vcs=2", "--set", "network.port_model=all-port", "--set",
       "traffic={pattern: bit-complement, rate: 0.04, flits: 12, cycles: 500}"},
      // Multidestination worms (models/router_fanout.cpp): path worms absorbing under background
      // load, lock-step trees on a torus and a hypercube, column paths beside unicast worms with 2 VCs.
      {kDefault, "--set", "schedule={algorithm: dual-path, source: eye, mode: eager, flits: 20}", "--set",
       "network.dims=[8,8]", "--set", "network.allow_deadlock=true", "--set", "network.buffer_flits=2", "--set",
       "traffic={pattern: uniform, rate: 0.01, flits: 6, cycles: 500}"},
      {kDefault, "--set", "schedule={algorithm: tree, source: 7, flits: 12}", "--set", "network.topology=torus",
       "--set", "network.dims=[6,6]", "--set", "network.vcs=2", "--set", "network.allow_deadlock=true", "--set",
       "traffic={pattern: transpose, rate: 0.02, flits: 5, cycles: 400}"},
      {kDefault, "--set", "schedule={algorithm: tree, source: 3, flits: 9}", "--set", "network.topology=hypercube",
       "--set", "network.dims=[6]", "--set", "network.port_model=all-port", "--set", "network.buffer_flits=1"},
      {kDefault, "--set", "schedule={algorithm: column-path, source: eye, mode: eager, flits: 10}", "--set",
       "network.dims=[8,8]", "--set", "network.vcs=2", "--set", "network.port_model=2-port", "--set",
       "traffic={pattern: bit-reverse, rate: 0.03, flits: 4, cycles: 500}"},
      // A router holding a multidestination worm streams it alone (Router::stream_fanout_port) and
      // skips its step while its fronts wait out a 3-cycle router pipeline.
      {kDefault, "--set", "schedule={algorithm: dual-path, source: eye, flits: 24, repeat: {count: 2}}", "--set",
       "network.dims=[8,8]", "--set", "network.vcs=3", "--set", "network.allow_deadlock=true", "--set",
       "timing.router_delay=3", "--set", "traffic={pattern: uniform, rate: 0.01, flits: [2, 9], cycles: 300}"},
      {kDefault, "--set", "schedule={algorithm: multi-path, source: 9, flits: 16}", "--set", "network.dims=[6,5]",
       "--set", "network.allow_deadlock=true", "--set", "traffic={pattern: uniform, rate: 0.02, flits: 8, cycles: 400}"},
      // multi-path beyond 2-D: one worm per source channel, all-port on a 3-D mesh under load and on a hypercube.
      {kDefault, "--set", "schedule={algorithm: multi-path, source: 21, mode: eager, flits: 11}", "--set",
       "network.dims=[4,4,4]", "--set", "network.port_model=all-port", "--set", "network.allow_deadlock=true",
       "--set", "traffic={pattern: uniform, rate: 0.01, flits: 6, cycles: 400}"},
      {kDefault, "--set", "schedule={algorithm: multi-path, source: 5, flits: 7}", "--set",
       "network.topology=hypercube", "--set", "network.dims=[5]", "--set", "network.port_model=all-port", "--set",
       "network.buffer_flits=2"},
      // Four VCs per port, short worms near saturation under a 3-cycle pipeline: several VCs of a port
      // hold an output at once (the switch's offer reads a mask of them), beside express worms.
      {kDefault, "--set", "schedule={algorithm: eye, source: eye, mode: eager, flits: 16}", "--set",
       "network.dims=[8,8]", "--set", "network.vcs=4", "--set", "network.buffer_flits=4", "--set",
       "timing.router_delay=3", "--set", "traffic={pattern: uniform, rate: 0.06, flits: 4, cycles: 500}"},
      // Routers with 85 input VCs (16 per link, all-port), past the 64 the VC masks cover: they scan their VCs.
      {kDefault, "--set", "schedule={algorithm: multinode-broadcast, mode: eager, flits: 6}", "--set",
       "network.topology=hypercube", "--set", "network.dims=[5]", "--set", "network.vcs=16", "--set",
       "network.port_model=all-port", "--set", "network.buffer_flits=2", "--set",
       "traffic={pattern: uniform, rate: 0.15, flits: 3, cycles: 400}"},
      // Adaptive routing functions (models/routing/): hops chosen in the router; express worms linked as they go.
      {kDefault, "--set", "schedule={algorithm: eye, source: eye, mode: eager, flits: 12}", "--set",
       "network.dims=[8,8]", "--set", "network.routing=west-first", "--set",
       "traffic={pattern: transpose, rate: 0.04, flits: 5, cycles: 500}"},
      {kDefault, "--set", "schedule=null", "--set", "network.dims=[8,8]", "--set", "network.routing=odd-even", "--set",
       "network.buffer_flits=2", "--set", "traffic={pattern: uniform, rate: 0.05, flits: 7, cycles: 600}"},
      {kDefault, "--set", "schedule={algorithm: binomial, source: 0, mode: eager}", "--set", "network.topology=torus",
       "--set", "network.dims=[8,8]", "--set", "network.vcs=3", "--set", "network.routing=minimal-adaptive", "--set",
       "network.buffer_flits=2", "--set", "traffic={pattern: bit-complement, rate: 0.03, flits: 6, cycles: 500}"},
      {kDefault, "--set", "schedule={algorithm: multinode-broadcast, mode: eager, flits: 4}", "--set",
       "network.topology=hypercube", "--set", "network.dims=[5]", "--set", "network.port_model=2-port", "--set",
       "network.routing=negative-first", "--set", "network.buffer_flits=1"},
      {kDefault, "--set", "schedule={algorithm: eye, source: eye, mode: eager, flits: 10}", "--set",
       "network.dims=[8,8]", "--set", "network.routing=dimension-order:yx"},
      // ... north-last with worms longer than a buffer; minimal-adaptive on a mesh (one escape VC) and on
      // a hypercube under longer pipelines and credit delays (Duato's rule reads the credits' times);
      // a turn model with two VCs per port, where heads take VCs of express stages' output ports.
      {kDefault, "--set", "schedule={algorithm: eye, source: eye, mode: eager, flits: 12}", "--set",
       "network.dims=[8,8]", "--set", "network.routing=north-last", "--set",
       "traffic={pattern: uniform, rate: 0.04, flits: [3, 12], cycles: 500}"},
      {kDefault, "--set", "schedule={algorithm: eye, source: eye, mode: eager, flits: 16}", "--set",
       "network.dims=[8,8]", "--set", "network.vcs=2", "--set", "network.routing=minimal-adaptive", "--set",
       "timing.router_delay=3", "--set", "timing.credit_delay=3", "--set",
       "traffic={pattern: uniform, rate: 0.03, flits: 10, cycles: 500}"},
      {kDefault, "--set", "schedule={algorithm: multinode-broadcast, mode: eager, flits: 8}", "--set",
       "network.topology=hypercube", "--set", "network.dims=[5]", "--set", "network.vcs=2", "--set",
       "network.routing=minimal-adaptive", "--set", "network.buffer_flits=2", "--set", "timing.credit_delay=2"},
      {kDefault, "--set", "schedule=null", "--set", "network.dims=[8,8]", "--set", "network.vcs=2", "--set",
       "network.routing=west-first", "--set", "network.buffer_flits=2", "--set",
       "traffic={pattern: uniform, rate: 0.05, flits: [2, 8], cycles: 500}"},
      // Concentrated mesh: several interfaces per router, 0-hop messages, express worms (one VC)...
      {kCmesh, "--set", "schedule.mode=eager"},
      // ... all-port interfaces sharing a router, two VCs, transpose traffic between endpoints ...
      {kCmesh, "--set", "network.port_model=all-port", "--set", "network.vcs=2", "--set",
       "traffic={pattern: transpose, rate: 0.04, flits: 5, cycles: 600}", "--set", "network.buffer_flits=2"},
      // ... minimal-adaptive with two VCs, endpoints of one router leaving through the same ports ...
      {kCmesh, "--set", "schedule.mode=eager", "--set", "network.vcs=2", "--set", "network.routing=minimal-adaptive",
       "--set", "traffic={pattern: uniform, rate: 0.04, flits: [3, 10], cycles: 500}"},
      // ... and k-port with 1-flit buffers under heavier uniform load.
      {kCmesh, "--set", "network.port_model=2-port", "--set", "network.buffer_flits=1", "--set",
       "network.concentration=3", "--set", "schedule=null", "--set",
       "traffic={pattern: uniform, rate: 0.05, flits: 6, cycles: 800}"},
      // Measured load runs: counters read at the window's edges while worms stream
      // in the steady state, a drained window, and a saturated one stopped at its drain cap.
      {(source_dir() / "configs" / "load_8x8_uniform.yaml").string(), "--set", "traffic.warmup_cycles=300", "--set",
       "traffic.measure_cycles=700"},
      {(source_dir() / "configs" / "load_8x8_uniform.yaml").string(), "--set", "traffic.rate=0.08", "--set",
       "traffic.warmup_cycles=200", "--set", "traffic.measure_cycles=500", "--set", "traffic.drain_cycles=400",
       "--set", "traffic.flits=24"},
      // ... and a window opened by the adaptive warm-up (counters snapshot wherever it opens).
      {(source_dir() / "configs" / "load_8x8_uniform.yaml").string(), "--set", "traffic.warmup_cycles=auto", "--set",
       "traffic.measure_cycles=600"},
      // Broadcasts repeated under a measured load (schedule.repeat): back to back after the
      // warm-up in barrier mode, and periodic in eager mode with repetitions that start late.
      {(source_dir() / "configs" / "studies" / "bcast_under_load_8x8.yaml").string(), "--set",
       "traffic.warmup_cycles=300", "--set", "traffic.measure_cycles=700", "--set", "traffic.rate=0.03", "--set",
       "schedule.repeat.count=5"},
      {(source_dir() / "configs" / "studies" / "bcast_under_load_8x8.yaml").string(), "--set",
       "schedule={algorithm: binomial, source: eye, mode: eager, flits: 12, repeat: {count: 6, start_cycle: 100, "
       "period_cycles: 60}}", "--set", "traffic.warmup_cycles=200", "--set", "traffic.measure_cycles=600"},
      // Every traffic pattern and injection process (sim/traffic/): bursty tornado on a torus ...
      {kDefault, "--set", "schedule={algorithm: binomial, source: 0, mode: eager}", "--set", "network.topology=torus",
       "--set", "network.dims=[5,5]", "--set", "network.vcs=2", "--set",
       "traffic={pattern: tornado, rate: 0.04, flits: 6, cycles: 600, injection: on-off, burst_alpha: 0.1, "
       "burst_beta: 0.2}"},
      // ... periodic shuffle and bit-reverse on a hypercube and a mesh ...
      {kDefault, "--set", "schedule=null", "--set", "network.topology=hypercube", "--set", "network.dims=[5]",
       "--set", "network.buffer_flits=1", "--set", "traffic={pattern: shuffle, rate: 0.05, flits: 5, cycles: 600, "
       "injection: periodic}"},
      {kDefault, "--set", "schedule={algorithm: eye, source: eye, mode: eager, flits: 8}", "--set",
       "network.dims=[8,8]", "--set", "network.vcs=2", "--set",
       "traffic={pattern: bit-reverse, rate: 0.04, flits: 5, cycles: 600, injection: on-off, burst_alpha: 0.2, "
       "burst_beta: 0.2}"},
      // ... a random permutation, neighbor, diagonal and weighted hotspots on a mesh.
      {kDefault, "--set", "schedule=null", "--set", "network.dims=[8,8]", "--set", "network.buffer_flits=2", "--set",
       "traffic={pattern: random-permutation, rate: 0.05, flits: 6, cycles: 600}"},
      {kDefault, "--set", "schedule=null", "--set", "network.dims=[6,6]", "--set", "network.routing=west-first",
       "--set", "traffic={pattern: neighbor, rate: 0.06, flits: [4, 9], cycles: 600, injection: periodic}"},
      {kDefault, "--set", "schedule=null", "--set", "network.dims=[8,8]", "--set",
       "traffic={pattern: diagonal, rate: 0.08, flits: 6, cycles: 600}"},
      {kDefault, "--set", "schedule={algorithm: eye, source: eye, mode: eager, flits: 8}", "--set",
       "network.dims=[8,8]", "--set",
       "traffic={pattern: hotspot, hotspot: {nodes: [0, 27, 63], fraction: 0.5, weights: [1, 3, 2]}, rate: 0.03, "
       "flits: 6, cycles: 600}"},
      // Traffic classes (traffic.classes): two in a measured window, then three (bursty, hotspot) under a
      // repeated broadcast with an adaptive warm-up.
      {(source_dir() / "configs" / "load_8x8_two_classes.yaml").string(), "--set", "traffic.warmup_cycles=300",
       "--set", "traffic.measure_cycles=700", "--set", "traffic.classes[1].rate=0.03"},
      {(source_dir() / "configs" / "load_8x8_two_classes.yaml").string(), "--set",
       "traffic={warmup_cycles: auto, warmup_sample_cycles: 200, measure_cycles: 600, classes: [{pattern: tornado, "
       "rate: 0.02, flits: 6, injection: on-off, burst_alpha: 0.1, burst_beta: 0.2}, {name: hot, pattern: hotspot, "
       "hotspot: {nodes: [27], fraction: 0.4}, rate: 0.01, flits: [4, 12]}, {pattern: uniform, rate: 0.01, "
       "injection: periodic}]}",
       "--set", "schedule={algorithm: eye, source: eye, mode: eager, flits: 8, repeat: {count: 3, gap_cycles: 40}}"},
      // Several activations of the network's SystemC process (4,096 cycles each with fast paths,
      // one cycle each without): sparse load with idle stretches that jump across an activation's
      // end, and a repeated broadcast whose repetitions start in later activations (a cycle limit
      // inside one: FastPathsChangeNothingAtACycleLimit).
      {(source_dir() / "configs" / "bench" / "b1_uniform_16x16.yaml").string(), "--set",
       "traffic={pattern: uniform, rate: 0.0004, flits: 16, cycles: 13000}", "--set", "network.dims=[6,6]"},
      {kDefault, "--set", "schedule={algorithm: eye, source: eye, mode: eager, flits: 30, repeat: {count: 3, "
       "start_cycle: 4090, period_cycles: 4097}}"},
      // 16,384 routers: a cycle's events (tries after deliveries and injections, headers that left a
      // stage) are walked in prefetched batches (NetworkParams::kPrefetchEventsFrom).
      {kDefault, "--set", "schedule={algorithm: eye, source: eye, mode: eager, flits: 2}", "--set",
       "network.dims=[128,128]"},
  };
  return cases;
}

// The cases are dealt to shards that ctest runs side by side (each shard is a test of its own).
constexpr int kFastPathShards = 4;
class FastPathsChangeNothing : public ::testing::TestWithParam<int> {};

TEST_P(FastPathsChangeNothing, InAnyOutput) {
  const std::vector<std::vector<std::string>> cases = fast_path_cases();
  TempDir tmp;
  for (size_t c = static_cast<size_t>(GetParam()); c < cases.size(); c += kFastPathShards) {
    SCOPED_TRACE("case " + std::to_string(c));
    for (const char* fast : {"true", "false"}) {
      std::vector<std::string> args = {"run"};
      args.insert(args.end(), cases[c].begin(), cases[c].end());
      const fs::path out = tmp / ("c" + std::to_string(c) + "_" + fast);
      // output.router_stats: the buffers' flit-cycles and the heads' stalls must not see the shortcuts either.
      const std::vector<std::string> common = {"--set", "output.host_timing=false", "--set", std::string("run.fast_paths=") + fast,
                                               "--set", "output.router_stats=true", "--trace", "perfetto",
                                               "--out", out.string(), "--quiet"};
      args.insert(args.end(), common.begin(), common.end());
      const Result r = run_wormsim(args, tmp.path());
      ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    }
    size_t compared = 0;
    for (const auto& entry : fs::directory_iterator(tmp / ("c" + std::to_string(c) + "_true"))) {
      const std::string name = entry.path().filename().string();
      const std::string a = read_file(entry.path());
      const std::string b = read_file(tmp / ("c" + std::to_string(c) + "_false") / name);
      EXPECT_FALSE(a.empty()) << name;
      EXPECT_TRUE(a == b) << name << " differs with run.fast_paths=false";
      ++compared;
    }
    EXPECT_GE(compared, output_files().size() + 4) << "the outputs, the router statistics and the trace";
  }
}

INSTANTIATE_TEST_SUITE_P(Shards, FastPathsChangeNothing, ::testing::Range(0, kFastPathShards));

// The express loop must really carry the worms it is meant for, or the test
// above would compare the full pipeline with itself: on a one-VC mesh every
// worm of a broadcast goes express once its header has left, and most flit
// moves are the loop's. It reads the loop's counters only: the test above
// compares the outputs with those of the full pipeline.
TEST(CliRun, ExpressWormsCarryABroadcast) {
  TempDir tmp;
  auto host = [&](const std::string& name, std::vector<std::string> extra) {
    std::vector<std::string> args = {"run", default_config().string(), "--set",
                                     "schedule={algorithm: eye, source: eye, mode: eager, flits: 32}", "--set",
                                     "network.dims=[8,8]", "--out", (tmp / name).string(), "--quiet"};
    args.insert(args.end(), extra.begin(), extra.end());
    const Result r = run_wormsim(args, tmp.path());
    EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    return load_json(tmp / name / "summary.json").at("host");
  };
  const json one_vc = host("one_vc", {});
  EXPECT_EQ(one_vc.at("express_worms"), 63) << one_vc.dump();
  // 63 worms of 32 flits: 2016 injections, and 2016 moves per router on their routes.
  const long moves = one_vc.at("express_flit_moves").get<long>();
  EXPECT_GT(moves, 2016) << one_vc.dump();
  const json summary = load_json(tmp / "one_vc" / "summary.json");
  const long all_moves = 2 * 2016 + summary.at("metrics").at("flit_hops").get<long>();
  EXPECT_LT(moves, all_moves);
  EXPECT_GT(2 * moves, all_moves) << "most flit moves should be the express loop's";
  // 32-flit worms stream steadily long before their tails go in: each is frozen once.
  EXPECT_EQ(one_vc.at("steady_worms"), 63) << one_vc.dump();
  EXPECT_GT(one_vc.at("steady_cycles").get<long>(), 63 * 10) << one_vc.dump();
  // A VCD trace shows every cycle's buffers and link counts: worms still go express but are never frozen.
  const json traced = host("traced", {"--trace", "vcd"});
  EXPECT_EQ(traced.at("express_worms"), 63);
  EXPECT_EQ(traced.at("steady_worms"), 0);
  for (const char* f : {"messages.csv", "links.csv", "steps.csv"})
    EXPECT_EQ(read_file(tmp / "one_vc" / f), read_file(tmp / "traced" / f)) << f;
  // Under an adaptive routing function the worms go express too: each stage is linked from the
  // output its router chose, so the express loop makes most of the moves.
  const json adaptive = host("adaptive", {"--set", "network.vcs=2", "--set", "network.routing=minimal-adaptive"});
  EXPECT_EQ(adaptive.at("express_worms"), 63) << adaptive.dump();
  EXPECT_GT(2 * adaptive.at("express_flit_moves").get<long>(), all_moves) << adaptive.dump();
  // With two VCs per port the worms go express too, but are never frozen: another worm may come in any cycle.
  const json two_vcs = host("two_vcs", {"--set", "network.vcs=2"});
  EXPECT_EQ(two_vcs.at("express_worms"), 63) << two_vcs.dump();
  EXPECT_GT(2 * two_vcs.at("express_flit_moves").get<long>(), all_moves) << two_vcs.dump();
  EXPECT_EQ(two_vcs.at("steady_worms"), 0) << two_vcs.dump();
  // Under uniform traffic on 4 VCs worms meet, so stages go back to their routers; worms no longer
  // than one buffer (here 1 or 2 flits) never join.
  const json loaded = host("four_vcs_loaded", {"--set", "network.vcs=4", "--set", "network.buffer_flits=2", "--set",
                                               "traffic={pattern: uniform, rate: 0.08, flits: [1, 8], cycles: 600}"});
  const long background = load_json(tmp / "four_vcs_loaded" / "summary.json").at("background").at("messages").get<long>();
  EXPECT_GT(background, 2000);
  EXPECT_GT(loaded.at("express_handbacks").get<long>(), 0) << loaded.dump();
  EXPECT_GT(loaded.at("express_worms").get<long>(), background / 2) << loaded.dump();
  EXPECT_LT(loaded.at("express_worms").get<long>(), 63 + background * 7 / 8) << loaded.dump();
  // With one VC a worm that fits in one buffer joins only from ExpressWorms::kFlitsWorthJoining (5) flits on:
  // of 2-, 4-, 5- and 12-flit packets in 8-flit buffers, the 5- and 12-flit ones and the broadcast's.
  const json short_worms = host("one_vc_short", {"--set", "network.buffer_flits=8", "--set",
                                                 "traffic={pattern: uniform, rate: 0.02, flits: [2, 4, 5, 12], cycles: 600}"});
  long joining = 0, by_length[13] = {};
  for (const auto& row : csv_rows(tmp / "one_vc_short" / "messages.csv")) {
    if (row.at("step") != "-1") continue;
    const int flits = std::stoi(row.at("flits"));
    ++by_length[flits];
    if (flits >= 5) ++joining;
  }
  for (const int flits : {2, 4, 5, 12}) EXPECT_GT(by_length[flits], 50) << flits;
  EXPECT_EQ(short_worms.at("express_worms").get<long>(), 63 + joining) << short_worms.dump();
  // A worm longer than its buffer joins whatever its length: in 2-flit buffers the 3- and 4-flit packets do.
  const json tiny_buffers = host("one_vc_tiny_buffers", {"--set", "network.buffer_flits=2", "--set",
                                                         "traffic={pattern: uniform, rate: 0.02, flits: [2, 3, 4], cycles: 600}"});
  long longer_than_buffer = 0;
  for (const auto& row : csv_rows(tmp / "one_vc_tiny_buffers" / "messages.csv"))
    if (row.at("step") == "-1" && std::stoi(row.at("flits")) > 2) ++longer_than_buffer;
  EXPECT_GT(longer_than_buffer, 100);
  EXPECT_EQ(tiny_buffers.at("express_worms").get<long>(), 63 + longer_than_buffer) << tiny_buffers.dump();
  // Worms in the loop and worms left to their routers share buffers: every flit moved by routers, the same bytes.
  host("one_vc_short_slow", {"--set", "network.buffer_flits=8", "--set",
                             "traffic={pattern: uniform, rate: 0.02, flits: [2, 4, 5, 12], cycles: 600}", "--set",
                             "run.fast_paths=false"});
  for (const char* f : {"messages.csv", "links.csv", "steps.csv", "routes.csv"})
    EXPECT_EQ(read_file(tmp / "one_vc_short" / f), read_file(tmp / "one_vc_short_slow" / f)) << f;
  const json slow = host("no_fast_paths", {"--set", "run.fast_paths=false"});
  EXPECT_EQ(slow.at("express_worms"), 0);
  EXPECT_EQ(slow.at("express_flit_moves"), 0);
  EXPECT_EQ(slow.at("steady_worms"), 0);
}

// A run stopped by the cycle limit while worms are frozen in steady streaming
// (models/express_worms.hpp) shows them as they are at its last cycle: the
// outputs equal those of the full pipeline, stopped at several points.
TEST(CliRun, FastPathsChangeNothingAtACycleLimit) {
  TempDir tmp;
  for (const char* limit : {"41", "150", "263"}) {
    SCOPED_TRACE(std::string("max_cycles ") + limit);
    std::string out[2];
    for (int fast = 0; fast < 2; ++fast) {
      const fs::path dir = tmp / (std::string(limit) + "_" + std::to_string(fast));
      const Result r = run_wormsim(
          {"run", default_config().string(), "--set", "schedule={algorithm: eye, source: eye, mode: eager, flits: 200}",
           "--set", "network.dims=[8,8]", "--set", std::string("run.max_cycles=") + limit, "--set",
           std::string("run.fast_paths=") + (fast ? "true" : "false"), "--set", "output.router_stats=true", "--out",
           dir.string(), "--quiet"},
          tmp.path());
      ASSERT_TRUE(r.exited) << r.describe();
      EXPECT_EQ(r.exit_code, 3) << r.describe();
      json s = load_json(dir / "summary.json");
      EXPECT_EQ(s.at("status"), "cycle_limit");
      if (fast) {
        EXPECT_GT(s.at("host").at("steady_worms").get<int>(), 0) << "some worm was frozen at the limit";
      }
      s.erase("host");
      // Frozen worms' buffers count their flit-cycles up to the limit (router_stats).
      out[fast] = s.dump() + read_file(dir / "messages.csv") + read_file(dir / "links.csv") + read_file(dir / "steps.csv") +
                  read_file(dir / "vcs.csv");
    }
    EXPECT_EQ(out[0], out[1]);
  }
  // A limit in the third activation of the network's process (4,096 cycles each with fast paths):
  // the same cycle, the same outputs as one activation per cycle.
  std::string out[2];
  for (int fast = 0; fast < 2; ++fast) {
    const fs::path dir = tmp / ("load_" + std::to_string(fast));
    const Result r = run_wormsim(
        {"run", (source_dir() / "configs" / "bench" / "b1_uniform_16x16.yaml").string(), "--set",
         "traffic={pattern: uniform, rate: 0.01, flits: 8, cycles: 20000}", "--set", "network.dims=[4,4]", "--set",
         "run.max_cycles=9000", "--set", std::string("run.fast_paths=") + (fast ? "true" : "false"), "--out",
         dir.string(), "--quiet"},
        tmp.path());
    ASSERT_TRUE(r.exited) << r.describe();
    EXPECT_EQ(r.exit_code, 3) << r.describe();
    json s = load_json(dir / "summary.json");
    EXPECT_EQ(s.at("status"), "cycle_limit");
    EXPECT_EQ(s.at("metrics").at("span_cycles"), 9000);
    s.erase("host");
    out[fast] = s.dump() + read_file(dir / "messages.csv") + read_file(dir / "links.csv") + read_file(dir / "steps.csv");
  }
  EXPECT_EQ(out[0], out[1]);
}

// The express loop takes a worm's body as soon as its header has left the
// source router, not only once the header has arrived: stopped while the
// header is still on its way, the run already shows express moves, and the
// same outputs as the full pipeline.
TEST(CliRun, ExpressLoopMovesTheBodyBehindATravellingHeader) {
  TempDir tmp;
  write_file(tmp / "one.json", R"({"wormsim_schedule": 1, "topology": {"kind": "mesh", "dims": [8, 8]}, "flits": 40,
    "steps": [[ {"src": [0, 0], "dst": [7, 7]} ]]})");
  write_file(tmp / "one.yaml", "network: {topology: mesh, dims: [8, 8]}\nschedule: {file: one.json}\n");
  std::string out[2];
  for (int fast = 0; fast < 2; ++fast) {
    const fs::path dir = tmp / std::to_string(fast);
    const Result r = run_wormsim({"run", "one.yaml", "--set", "run.max_cycles=20", "--set",
                                  std::string("run.fast_paths=") + (fast ? "true" : "false"), "--set",
                                  "output.router_stats=true", "--out", dir.string(), "--quiet"},
                                 tmp.path());
    ASSERT_TRUE(r.exited && r.exit_code == 3) << r.describe();
    json s = load_json(dir / "summary.json");
    EXPECT_EQ(s.at("metrics").at("delivered"), 0);
    if (fast) {
      EXPECT_EQ(s.at("host").at("express_worms"), 1);
      EXPECT_GT(s.at("host").at("express_flit_moves").get<int>(), 20) << s.at("host").dump();
    }
    s.erase("host");
    out[fast] = s.dump() + read_file(dir / "messages.csv") + read_file(dir / "links.csv") + read_file(dir / "vcs.csv");
  }
  EXPECT_EQ(out[0], out[1]);
}

// A worm whose explicit route crosses a link twice would put two of its stages
// on one buffer: the express loop leaves it to its routers, and takes the others.
TEST(CliRun, ExpressLoopLeavesARouteThroughALinkTwiceToTheRouters) {
  TempDir tmp;
  write_file(tmp / "loop.json", R"({"wormsim_schedule": 1, "topology": {"kind": "ring", "dims": [6]}, "flits": 5,
    "steps": [[ {"src": 0, "dst": 2, "route": [0, 1, 0, 1, 2]}, {"src": 3, "dst": 5} ]]})");
  write_file(tmp / "loop.yaml", "network: {topology: ring, dims: [6], vcs: 1, allow_deadlock: true}\nschedule: {file: loop.json}\n");
  std::string summary[2];
  for (int fast = 0; fast < 2; ++fast) {
    const fs::path out = tmp / std::to_string(fast);
    const Result r = run_wormsim({"run", "loop.yaml", "--set", std::string("run.fast_paths=") + (fast ? "true" : "false"),
                                  "--out", out.string(), "--quiet"},
                                 tmp.path());
    ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    json s = load_json(out / "summary.json");
    EXPECT_EQ(s.at("metrics").at("delivered"), 2);
    EXPECT_EQ(s.at("host").at("express_worms"), fast ? 1 : 0) << "only the 3 -> 5 worm goes express";
    s.erase("host");
    summary[fast] = s.dump();
    if (fast) {
      for (const char* f : {"messages.csv", "links.csv", "steps.csv"})
        EXPECT_EQ(read_file(tmp / "0" / f), read_file(out / f)) << f;
    }
  }
  EXPECT_EQ(summary[0], summary[1]);
}

TEST(CliRun, FastPathsChangeNothingInADeadlock) {
  TempDir tmp;
  write_file(tmp / "ring.yaml", ring_config(1));
  std::string out[2];
  for (int fast = 0; fast < 2; ++fast) {
    const Result r = run_wormsim({"run", "ring.yaml", "--set", std::string("run.fast_paths=") + (fast ? "true" : "false"),
                                  "--set", "output.router_stats=true", "--out", (tmp / std::to_string(fast)).string(),
                                  "--quiet"},
                                 tmp.path());
    ASSERT_TRUE(r.exited && r.exit_code == 3) << r.describe();
    out[fast] = read_file(tmp / std::to_string(fast) / "summary.json");
  }
  EXPECT_NE(out[0].find("\"deadlock\""), std::string::npos);
  EXPECT_NE(out[0].find("\"router_stats\""), std::string::npos);
  EXPECT_EQ(out[0], out[1]);
}

// Path worms that absorb beside unicast worms deadlock through an ejection
// channel one of them holds (docs/multicast.md, "Deadlock"): the watchdog's
// report, stalls and every file agree with the fast paths on and off.
TEST(CliRun, FastPathsChangeNothingInAMulticastDeadlock) {
  TempDir tmp;
  std::string out[2];
  for (int fast = 0; fast < 2; ++fast) {
    const Result r = run_wormsim(
        {"run", default_config().string(), "--set", "schedule={algorithm: dual-path, source: eye, mode: eager, flits: 20}",
         "--set", "network.dims=[8,8]", "--set", "network.allow_deadlock=true", "--set", "network.buffer_flits=2",
         "--set", "traffic={pattern: uniform, rate: 0.03, flits: 6, cycles: 500}", "--set", "run.watchdog_cycles=2000",
         "--set", std::string("run.fast_paths=") + (fast ? "true" : "false"), "--set", "output.router_stats=true",
         "--set", "output.host_timing=false", "--out", (tmp / std::to_string(fast)).string(), "--quiet"},
        tmp.path());
    ASSERT_TRUE(r.exited && r.exit_code == 3) << r.describe();
    for (const char* f : {"summary.json", "messages.csv", "copies.csv", "vcs.csv"})
      out[fast] += read_file(tmp / std::to_string(fast) / f);
  }
  EXPECT_NE(out[0].find("\"deadlock\""), std::string::npos);
  EXPECT_NE(out[0].find("\"multicast\""), std::string::npos);
  EXPECT_EQ(out[0], out[1]);
}

TEST(CliRun, FastPathsMustBeABoolean) {
  TempDir tmp;
  const Result r = run_wormsim({"run", default_config().string(), "--set", "run.fast_paths=sometimes", "--quiet"},
                               tmp.path());
  ASSERT_TRUE(r.exited) << r.describe();
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("run.fast_paths"), std::string::npos) << r.err;
}

// What `wormsim run` does without being told: the output folder named after
// the config, a warning before replacing another configuration's outputs, and
// log levels that each add something (debug: steps; trace: worms).
#include "cli_harness.hpp"

using namespace wormsim_cli;

TEST(RunDefaults, TheOutputFolderIsNamedAfterTheConfig) {
  TempDir tmp;
  write_file(tmp / "cfgs" / "small_ring.yaml", "network: {topology: ring, dims: [4]}\nschedule: {algorithm: binomial}\n");
  write_file(tmp / "cfgs" / "small_mesh.yaml", "network: {topology: mesh, dims: [4, 4]}\nschedule: {algorithm: binomial}\n");
  for (const char* c : {"cfgs/small_ring.yaml", "cfgs/small_mesh.yaml"}) {
    const Result r = run_wormsim({"run", c}, tmp.path());
    EXPECT_EXIT_CODE(r, 0);
  }
  EXPECT_TRUE(fs::exists(tmp / "out" / "small_ring" / "summary.json"));
  EXPECT_TRUE(fs::exists(tmp / "out" / "small_mesh" / "summary.json"));
  EXPECT_CONTAINS(run_wormsim({"run", "cfgs/small_ring.yaml"}, tmp.path()).out,
                  "outputs:     out/small_ring/{summary.json,");
}

TEST(RunDefaults, ReplacingAnotherConfigurationsOutputsIsNotSilent) {
  TempDir tmp;
  const std::vector<std::string> base{"run", default_config().string(), "--out", "o", "--quiet"};
  Result r = run_wormsim(base, tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  r = run_wormsim(base, tmp.path());  // the same configuration again: nothing to say
  EXPECT_EQ(r.err, "");
  std::vector<std::string> other = base;
  other.insert(other.end(), {"--set", "schedule.mode=eager"});
  r = run_wormsim(other, tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  EXPECT_CONTAINS(r.err, "[warning] o: replacing the outputs of a run of another configuration (give --out to keep both)");
}

TEST(RunDefaults, EachLogLevelAddsItsEvents) {
  TempDir tmp;
  auto run_at = [&](const std::string& level) {
    return run_wormsim({"run", default_config().string(), "--out", "o", "--quiet", "--log-level", level}, tmp.path()).err;
  };
  const std::string warn = run_at("warn"), info = run_at("info"), debug = run_at("debug"), trace = run_at("trace");
  EXPECT_EQ(warn, "");
  EXPECT_CONTAINS(info, "[info] elaborated mesh 4x4 (16 routers, 48 links)");
  EXPECT_EQ(info.find("[debug]"), std::string::npos);
  // The default schedule: 4 barrier steps of 1, 2, 4 and 8 one-hop messages, 18 cycles each.
  EXPECT_CONTAINS(debug, "[debug] cycle 0: step 1 begins (1 messages)\n");
  EXPECT_CONTAINS(debug, "[debug] cycle 18: step 1 complete: all 1 messages delivered\n");
  EXPECT_CONTAINS(debug, "[debug] cycle 54: step 4 begins (8 messages)\n");
  EXPECT_CONTAINS(debug, "[debug] cycle 72: step 4 complete: all 8 messages delivered\n");
  EXPECT_EQ(debug.find("[trace]"), std::string::npos);
  EXPECT_CONTAINS(trace, "[trace] cycle 0: message 0 released: (1,1) -> (2,1), step 1, 16 flits, 1 hops\n");
  EXPECT_CONTAINS(trace, "[trace] cycle 18: message 0 delivered at (2,1), latency 18\n");
  size_t deliveries = 0;
  for (size_t p = 0; (p = trace.find("delivered at (", p)) != std::string::npos; ++p) ++deliveries;
  EXPECT_EQ(deliveries, 15u);
}

TEST(RunDefaults, LongRunsReportProgressAndProgressChangesNoOutput) {
  TempDir tmp;
  write_file(tmp / "long.yaml",
             "network: {topology: mesh, dims: [16, 16]}\n"
             "traffic: {pattern: uniform, rate: 0.005, cycles: 40000}\n"
             "schedule: {algorithm: eye}\n"
             "output: {host_timing: false}\n");
  const Result with = run_wormsim(
      {"run", "long.yaml", "--out", "a", "--quiet", "--log-level", "info", "--progress", "0.05"}, tmp.path());
  EXPECT_EXIT_CODE(with, 0);
  EXPECT_CONTAINS(with.err, "[info] progress: cycle ");
  EXPECT_CONTAINS(with.err, " cycles/s), ");
  EXPECT_CONTAINS(with.err, " of 255 messages delivered");
  EXPECT_CONTAINS(with.err, " s left\n");
  const Result without =
      run_wormsim({"run", "long.yaml", "--out", "b", "--quiet", "--log-level", "info", "--progress", "0"}, tmp.path());
  EXPECT_EXIT_CODE(without, 0);
  EXPECT_EQ(without.err.find("progress:"), std::string::npos);
  for (const auto& f : output_files()) EXPECT_EQ(read_file(tmp / "a" / f), read_file(tmp / "b" / f)) << f;
}

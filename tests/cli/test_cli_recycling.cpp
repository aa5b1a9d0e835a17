// output.messages: schedule recycles delivered background messages
// (sim/message_retirement.hpp): the figures must be those of a run that keeps
// every record, the per-message files the schedule's rows of it, with or
// without the fast paths; and the memory of a long run must not grow with it.
#include <fstream>
#include <map>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

using namespace wormsim_cli;
using nlohmann::json;

namespace {

const std::string kDefault = default_config().string();
const std::string kLoad = (source_dir() / "configs" / "load_8x8_uniform.yaml").string();
const std::string kCmesh = (source_dir() / "configs" / "cmesh.yaml").string();

json summary_without_manifest(const fs::path& out) {
  std::ifstream in(out / "summary.json");
  json j = json::parse(in);
  j.erase("outputs");
  return j;
}

// The rows of a per-message file (messages.csv, routes.csv) that belong to the schedule.
std::string schedule_rows(const std::string& csv, bool by_step) {
  std::string out;
  const std::vector<std::string> rows = lines(csv);
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::string& row = rows[i];
    const auto comma = row.find(',');
    const bool background = by_step && row.compare(comma + 1, 3, "-1,") == 0;
    if (i == 0 || !background) out += row + "\n";
  }
  return out;
}

}  // namespace

TEST(Recycling, GivesTheFiguresOfARunThatKeepsEveryRecord) {
  const std::vector<std::vector<std::string>> cases = {
      // A drained window, a saturated one (stopped at its drain cap with packets queued) ...
      {kLoad, "--set", "traffic.warmup_cycles=300", "--set", "traffic.measure_cycles=700"},
      {kLoad, "--set", "traffic.rate=0.08", "--set", "traffic.warmup_cycles=200", "--set",
       "traffic.measure_cycles=500", "--set", "traffic.drain_cycles=400", "--set", "traffic.flits=24"},
      // ... a broadcast under bursty load on a torus, several interfaces per router with all-port, ...
      {kDefault, "--set", "schedule={algorithm: binomial, source: 0, mode: eager}", "--set", "network.topology=torus",
       "--set", "network.dims=[5,5]", "--set", "network.vcs=2", "--set",
       "traffic={pattern: tornado, rate: 0.04, flits: 6, cycles: 600, injection: on-off, burst_alpha: 0.1, "
       "burst_beta: 0.2}"},
      {kCmesh, "--set", "network.port_model=all-port", "--set", "network.vcs=2", "--set",
       "traffic={pattern: transpose, rate: 0.04, flits: 5, cycles: 600}", "--set", "network.buffer_flits=2"},
      // ... adaptive routes (chosen in the router, written into recycled route storage) and mixed lengths.
      {kDefault, "--set", "schedule=null", "--set", "network.dims=[6,6]", "--set", "network.routing=west-first",
       "--set", "traffic={pattern: uniform, rate: 0.05, flits: [2, 9, 17], cycles: 800}"},
  };
  TempDir tmp;
  for (size_t c = 0; c < cases.size(); ++c) {
    SCOPED_TRACE("case " + std::to_string(c));
    std::map<std::string, fs::path> outs;
    for (const char* messages : {"all", "schedule"})
      for (const char* fast : {"true", "false"}) {
        const std::string name = "c" + std::to_string(c) + "_" + messages + "_" + fast;
        std::vector<std::string> args = {"run"};
        args.insert(args.end(), cases[c].begin(), cases[c].end());
        args.insert(args.end(), {"--set", "output.host_timing=false", "--set", std::string("run.fast_paths=") + fast,
                                 "--set", std::string("output.messages=") + messages, "--out",
                                 (tmp / name).string(), "--quiet"});
        const Result r = run_wormsim(args, tmp.path(), 120);
        ASSERT_TRUE(r.exited && (r.exit_code == 0)) << r.describe();
        outs[std::string(messages) + fast] = tmp / name;
      }
    const json kept = summary_without_manifest(outs["alltrue"]);
    ASSERT_TRUE(kept.contains("background"));
    EXPECT_GT(kept["background"]["delivered"].get<int64_t>(), 100) << "enough messages to recycle";
    for (const char* fast : {"true", "false"}) {
      const fs::path all = outs[std::string("all") + fast], recycled = outs[std::string("schedule") + fast];
      EXPECT_EQ(summary_without_manifest(recycled), kept) << fast;
      for (const char* f : {"links.csv", "steps.csv"})
        EXPECT_EQ(read_file(recycled / f), read_file(all / f)) << f;
      EXPECT_EQ(read_file(recycled / "messages.csv"), schedule_rows(read_file(all / "messages.csv"), true));
    }
    EXPECT_EQ(read_file(outs["scheduletrue"] / "routes.csv"), read_file(outs["schedulefalse"] / "routes.csv"));
  }
}

// The run's memory holds the messages under way, not every message: ten
// times the cycles (and the messages) leave the peak resident memory nearly
// where it was, while keeping every record makes it grow with them.
TEST(Recycling, MemoryDoesNotGrowWithRunLength) {
  TempDir tmp;
  auto peak = [&](const std::string& name, const std::string& cycles, const std::string& messages) {
    const Result r = run_wormsim({"run", kDefault, "--set", "schedule=null", "--set", "network.dims=[16,16]", "--set",
                                  "traffic={pattern: uniform, rate: 0.004, flits: 4, cycles: " + cycles + "}", "--set",
                                  "output.messages=" + messages, "--out", (tmp / name).string(), "--quiet"},
                                 tmp.path(), 300);
    EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    std::ifstream in(tmp / name / "summary.json");
    const json j = json::parse(in);
    EXPECT_EQ(j["status"], "completed");
    return std::make_pair(j["host"]["peak_rss_mib"].get<double>(), j["background"]["messages"].get<int64_t>());
  };
  const auto [short_rss, short_msgs] = peak("short", "20000", "schedule");
  const auto [long_rss, long_msgs] = peak("long", "200000", "schedule");
  const auto [kept_rss, kept_msgs] = peak("kept", "200000", "all");
  ASSERT_GT(long_msgs, 9 * short_msgs);
  EXPECT_EQ(kept_msgs, long_msgs);
  EXPECT_LT(long_rss, short_rss + 4.0) << "MiB: recycled records";
  EXPECT_GT(kept_rss, long_rss + 20.0) << "MiB: every record kept (about 200k messages)";
}

TEST(Recycling, RefusesATraceWhichNamesEveryMessage) {
  TempDir tmp;
  const Result r = run_wormsim({"run", kDefault, "--set", "traffic={pattern: uniform, rate: 0.01, cycles: 100}", "--set",
                                "output.messages=schedule", "--set", "output.trace=perfetto", "--quiet"},
                               tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_NE(r.err.find("output.messages"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("trace"), std::string::npos) << r.err;
  const Result flag = run_wormsim({"run", kDefault, "--set", "traffic={pattern: uniform, rate: 0.01, cycles: 100}",
                                   "--set", "output.messages=schedule", "--trace", "vcd", "--quiet"},
                                  tmp.path());
  EXPECT_EXIT_CODE(flag, 1);
  EXPECT_NE(flag.err.find("output.messages: schedule cannot go with --trace"), std::string::npos) << flag.err;
  const Result bad = run_wormsim({"run", kDefault, "--set", "output.messages=some", "--quiet"}, tmp.path());
  EXPECT_EXIT_CODE(bad, 1);
  EXPECT_NE(bad.err.find("output.messages"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("all"), std::string::npos) << bad.err;
}

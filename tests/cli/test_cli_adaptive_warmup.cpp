// Adaptive warm-up (traffic.warmup_cycles: auto; docs/load-studies.md,
// "Adaptive warm-up"): the samples are checked against the run's own message
// records, the window it opens against a fixed warm-up of the same length, the
// cap, a schedule timed against it, the fast paths, and bad input.
#include <cmath>
#include <fstream>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

using namespace wormsim_cli;
using nlohmann::json;

namespace {

const std::vector<std::string> kAuto = {"traffic.warmup_cycles=auto", "traffic.warmup_sample_cycles=400",
                                        "traffic.measure_cycles=2000"};

Result run_adaptive(const TempDir& tmp, const std::string& name, std::vector<std::string> sets,
                const std::vector<std::string>& more = {}) {
  sets.insert(sets.end(), more.begin(), more.end());
  std::vector<std::string> args{"run", kLoadConfig, "--quiet", "--out", (tmp / name).string(), "--set",
                                "output.host_timing=false"};
  for (const auto& s : sets) args.insert(args.end(), {"--set", s});
  return run_wormsim(args, tmp.path(), 120);
}

double relative_change(double cur, double prev) {
  if (cur == 0.0) return prev == 0.0 ? 0.0 : 1.0;
  return std::fabs(cur - prev) / cur;
}

// Each sample's figures, recomputed from messages.csv (every background
// packet's creation and delivery), and the test that ended the warm-up.
TEST(AdaptiveWarmup, SamplesAreTheRunsOwnRecordsAndEndAtTheFirstStableOne) {
  TempDir tmp;
  EXPECT_EXIT_CODE(run_adaptive(tmp, "auto", kAuto), 0);
  const json s = summary_of(tmp / "auto");
  const json& w = s.at("warmup");
  const auto rows = csv_rows(tmp / "auto" / "warmup.csv");
  const auto messages = csv_rows(tmp / "auto" / "messages.csv");
  ASSERT_GE(rows.size(), 2u);
  EXPECT_EQ(w.at("samples").get<size_t>(), rows.size());
  EXPECT_TRUE(w.at("stabilised").get<bool>());
  EXPECT_EQ(w.at("sample_cycles"), 400);
  EXPECT_DOUBLE_EQ(w.at("tolerance").get<double>(), 0.05);
  EXPECT_EQ(w.at("max_cycles"), 8000);  // 20 samples
  const double tol = 0.05;
  double prev_latency = 0, prev_accepted = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    const uint64_t start = std::stoull(r.at("start")), end = std::stoull(r.at("end"));
    EXPECT_EQ(start, 400 * i);
    EXPECT_EQ(end, start + 400);
    uint64_t delivered = 0, latency_sum = 0;
    for (const auto& m : messages) {
      const uint64_t d = std::stoull(m.at("delivered"));
      if (m.at("step") == "-1" && d >= start && d < end) {
        ++delivered;
        latency_sum += d - std::stoull(m.at("release"));
      }
    }
    EXPECT_EQ(std::stoull(r.at("delivered")), delivered) << i;
    const double latency = delivered ? static_cast<double>(latency_sum) / static_cast<double>(delivered) : 0.0;
    EXPECT_NEAR(std::stod(r.at("packet_latency_mean")), latency, 1e-6) << i;
    const double accepted = std::stod(r.at("ejected_flits")) / 400.0 / 64.0;
    EXPECT_NEAR(std::stod(r.at("accepted")), accepted, 1e-6) << i;
    if (i == 0) {
      EXPECT_EQ(r.at("latency_change"), "");
      EXPECT_EQ(r.at("stable"), "0");
    } else {
      const double dl = relative_change(latency, prev_latency), da = relative_change(accepted, prev_accepted);
      EXPECT_NEAR(std::stod(r.at("latency_change")), dl, 1e-5) << i;
      EXPECT_NEAR(std::stod(r.at("accepted_change")), da, 1e-5) << i;
      // Stable exactly at the last sample: the warm-up ends at the first stable one.
      EXPECT_EQ(r.at("stable"), i + 1 == rows.size() ? "1" : "0") << i;
      if (i + 1 == rows.size()) {
        EXPECT_TRUE(dl < tol && da < tol);
      }
    }
    prev_latency = latency;
    prev_accepted = accepted;
  }
  const uint64_t opened = std::stoull(rows.back().at("end"));
  EXPECT_EQ(w.at("cycles").get<uint64_t>(), opened);
  EXPECT_EQ(s.at("load").at("warmup_cycles").get<uint64_t>(), opened);
  EXPECT_EQ(s.at("config").at("traffic").at("warmup_cycles"), "auto");
}

// The adaptive warm-up only decides when the window opens: a fixed warm-up of
// that length gives the same load figures and the same records, byte for byte.
TEST(AdaptiveWarmup, GivesTheRunOfAFixedWarmupOfTheLengthItFound) {
  TempDir tmp;
  EXPECT_EXIT_CODE(run_adaptive(tmp, "auto", kAuto), 0);
  const json a = summary_of(tmp / "auto");
  const uint64_t opened = a.at("warmup").at("cycles").get<uint64_t>();
  EXPECT_EXIT_CODE(run_adaptive(tmp, "fixed", {"traffic.warmup_cycles=" + std::to_string(opened),
                                           "traffic.measure_cycles=2000"}),
                   0);
  const json f = summary_of(tmp / "fixed");
  EXPECT_EQ(a.at("load"), f.at("load"));
  EXPECT_EQ(a.at("background"), f.at("background"));
  EXPECT_FALSE(f.contains("warmup"));
  EXPECT_FALSE(fs::exists(tmp / "fixed" / "warmup.csv"));
  for (const char* file : {"messages.csv", "links.csv"})
    EXPECT_EQ(read_file(tmp / "auto" / file), read_file(tmp / "fixed" / file)) << file;
}

// A tolerance nothing meets: the window opens at the cap, and the run says so
// in summary.json's warnings and on stderr. A cap that is not a whole number
// of samples ends with a short one.
TEST(AdaptiveWarmup, AtTheCapTheWindowOpensAndTheRunSaysItDidNotStabilise) {
  TempDir tmp;
  const Result r = run_adaptive(tmp, "cap", kAuto, {"traffic.warmup_tolerance=1e-9", "traffic.warmup_max_cycles=1000"});
  EXPECT_EXIT_CODE(r, 0);
  EXPECT_CONTAINS(r.err, "did not stabilise within 1000 cycles (traffic.warmup_max_cycles)");
  const json s = summary_of(tmp / "cap");
  EXPECT_FALSE(s.at("warmup").at("stabilised").get<bool>());
  EXPECT_EQ(s.at("warmup").at("samples"), 3);
  EXPECT_EQ(s.at("load").at("warmup_cycles"), 1000);
  ASSERT_EQ(s.at("warnings").size(), 1u);
  EXPECT_CONTAINS(s.at("warnings")[0].get<std::string>(), "traffic.warmup_cycles: auto");
  const auto rows = csv_rows(tmp / "cap" / "warmup.csv");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[2].at("start"), "800");
  EXPECT_EQ(rows[2].at("end"), "1000");
  for (const auto& row : rows) EXPECT_EQ(row.at("stable"), "0");
}

// Without schedule.repeat.start_cycle, a schedule under load starts the cycle
// the window opens, wherever the warm-up found that.
TEST(AdaptiveWarmup, AScheduleStartsWhenTheWindowOpens) {
  TempDir tmp;
  EXPECT_EXIT_CODE(run_adaptive(tmp, "bcast", kAuto,
                            {"schedule={algorithm: eye, source: [3, 3]}", "schedule.repeat.count=3",
                             "schedule.repeat.period_cycles=500"}),
                   0);
  const json s = summary_of(tmp / "bcast");
  const uint64_t opened = s.at("warmup").at("cycles").get<uint64_t>();
  EXPECT_EQ(s.at("repetitions").at("start_cycle").get<uint64_t>(), opened);
  EXPECT_EQ(s.at("repetitions").at("completed"), 3);
  EXPECT_TRUE(s.at("config").at("schedule").at("repeat").at("start_cycle").is_null());
  const auto reps = csv_rows(tmp / "bcast" / "repetitions.csv");
  ASSERT_EQ(reps.size(), 3u);
  for (size_t i = 0; i < reps.size(); ++i) EXPECT_EQ(std::stoull(reps[i].at("due")), opened + 500 * i);
  EXPECT_EQ(std::stoull(reps[0].at("start")), opened);
}

TEST(AdaptiveWarmup, FastPathsAndRepeatedRunsGiveIdenticalBytes) {
  TempDir tmp;
  for (const char* name : {"a", "b"}) EXPECT_EXIT_CODE(run_adaptive(tmp, name, kAuto, {"run.fast_paths=true"}), 0);
  EXPECT_EXIT_CODE(run_adaptive(tmp, "slow", kAuto, {"run.fast_paths=false"}), 0);
  for (const char* file : {"summary.json", "warmup.csv", "messages.csv", "links.csv", "steps.csv"}) {
    EXPECT_EQ(read_file(tmp / "a" / file), read_file(tmp / "b" / file)) << file;
    EXPECT_EQ(read_file(tmp / "a" / file), read_file(tmp / "slow" / file)) << file;
  }
}

TEST(AdaptiveWarmup, BadKeysAreRefused) {
  TempDir tmp;
  const std::vector<BadSetting> cases = {
      {{"traffic.warmup_cycles=soon"}, "traffic.warmup_cycles",
       "expected an integer from 0 to 1099511627776, or auto, got \"soon\""},
      {{"traffic.warmup_sample_cycles=100"}, "traffic.warmup_sample_cycles",
       "only meaningful with traffic.warmup_cycles: auto"},
      {{"traffic.warmup_cycles=auto", "traffic.warmup_tolerance=0"}, "traffic.warmup_tolerance",
       "expected a number in (0, 1), got 0"},
      {{"traffic.warmup_cycles=auto", "traffic.warmup_tolerance=1.5"}, "traffic.warmup_tolerance",
       "expected a number in (0, 1), got 1.5"},
      {{"traffic.warmup_cycles=auto", "traffic.warmup_sample_cycles=0"}, "traffic.warmup_sample_cycles",
       "expected an integer from 1 to 1099511627776, got 0"},
      {{"traffic.warmup_cycles=auto", "traffic.warmup_sample_cycles=500", "traffic.warmup_max_cycles=900"},
       "traffic.warmup_max_cycles", "expected at least 2 x warmup_sample_cycles = 1000 (two samples are compared), got 900"},
      {{"traffic.warmup_cycles=auto", "traffic.measure_cycles=null", "traffic.cycles=1000"}, "traffic.warmup_cycles",
       "only meaningful with measure_cycles"},
      // A typo of a key that applies only with another choice says which.
      {{"traffic.warmup_sampel_cycles=100"}, "traffic.warmup_sampel_cycles",
       "unknown key (did you mean warmup_sample_cycles? a parameter of the adaptive warm-up, only with "
       "traffic.warmup_cycles: auto)"},
      {{"traffic.burst_alfa=0.5"}, "traffic.burst_alfa",
       "unknown key (did you mean burst_alpha? a parameter of the on-off injection, only with traffic.injection: "
       "on-off)"},
  };
  EXPECT_SETTINGS_REFUSED(tmp, kLoadConfig, cases);
}

}  // namespace

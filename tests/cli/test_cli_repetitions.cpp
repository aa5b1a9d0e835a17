// Repeated schedules (schedule.repeat; docs/load-studies.md, "Broadcasts under
// steady load"): without load every repetition is the single broadcast again,
// cycle for cycle; the start, gap and period rules place them as documented;
// load never makes a barrier broadcast faster; the background stays on until
// the last repetition; a repetition that cannot complete is reported, not
// waited for; same seed, same bytes; bad keys are refused.
#include <map>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

using namespace wormsim_cli;
using nlohmann::json;

namespace {

using Rows = std::vector<std::map<std::string, std::string>>;


// Runs `config` with overrides into tmp/name; returns summary.json.
json run(const TempDir& tmp, const std::string& name, const std::string& config, const std::vector<std::string>& sets,
         int exit_code = 0) {
  std::vector<std::string> args{"run", config, "--quiet", "--out", (tmp / name).string(), "--set",
                                "output.host_timing=false"};
  for (const auto& s : sets) args.insert(args.end(), {"--set", s});
  const Result r = run_wormsim(args, tmp.path(), 120);
  EXPECT_EXIT_CODE(r, exit_code);
  return summary_of(tmp / name);
}

// A broadcast on an idle 8x8 mesh; `repeat` is the schedule.repeat mapping, or empty.
json broadcast(const TempDir& tmp, const std::string& name, const std::string& algorithm, const std::string& mode,
               const std::string& repeat, const std::vector<std::string>& more = {}, int exit_code = 0) {
  std::vector<std::string> sets{"network.dims=[8,8]", "schedule={algorithm: " + algorithm +
                                                           ", source: eye, flits: 16, mode: " + mode +
                                                           (repeat.empty() ? "" : ", repeat: " + repeat) + "}"};
  sets.insert(sets.end(), more.begin(), more.end());
  return run(tmp, name, default_config().string(), sets, exit_code);
}

long as_long(const std::map<std::string, std::string>& row, const std::string& column) { return std::stol(row.at(column)); }

// Every repetition's messages are new and its steps are those of the single
// broadcast: on an idle network each takes exactly the single broadcast's
// time, with the same contention, back to back (gap 0: the next starts in the
// cycle the last tail of the previous is ejected, as a barrier step would).
TEST(Repetitions, WithoutLoadEveryRepetitionIsTheSingleBroadcast) {
  TempDir tmp;
  for (const std::string algorithm : {"eye", "umesh", "corner", "binomial"})
    for (const std::string mode : {"barrier", "eager"}) {
      SCOPED_TRACE(algorithm + " " + mode);
      const json once = broadcast(tmp, algorithm + mode + "1", algorithm, mode, "");
      EXPECT_FALSE(once.contains("repetitions")) << "a schedule run once without load reports no repetitions";
      EXPECT_FALSE(fs::exists(tmp / (algorithm + mode + "1") / "repetitions.csv"));
      const long c = once.at("metrics").at("completion_cycles").get<long>();
      const json four = broadcast(tmp, algorithm + mode + "4", algorithm, mode, "{count: 4}");
      const Rows rows = csv_rows(tmp / (algorithm + mode + "4") / "repetitions.csv");
      ASSERT_EQ(rows.size(), 4u);
      for (size_t r = 0; r < rows.size(); ++r) {
        EXPECT_EQ(as_long(rows[r], "completion_cycles"), c) << r;
        EXPECT_EQ(as_long(rows[r], "start"), static_cast<long>(r) * c) << r;
        EXPECT_EQ(as_long(rows[r], "due"), as_long(rows[r], "start")) << r;
        EXPECT_EQ(as_long(rows[r], "late_cycles"), 0) << r;
        EXPECT_EQ(as_long(rows[r], "messages"), 63) << r;
        EXPECT_EQ(as_long(rows[r], "delivered"), 63) << r;
        EXPECT_EQ(as_long(rows[r], "step_contention_cycles"), once.at("metrics").at("step_contention").at("cycles")) << r;
        EXPECT_EQ(as_long(rows[r], "depth_contention_cycles"), once.at("metrics").at("depth_contention").at("cycles")) << r;
        EXPECT_EQ(as_long(rows[r], "background_contention_cycles"), 0) << r;
        EXPECT_EQ(rows[r].at("under_load"), "0") << r;
      }
      const json& d = four.at("repetitions");
      EXPECT_EQ(d.at("completed"), 4);
      for (const char* f : {"min", "p50", "p95", "max"}) EXPECT_EQ(d.at("completion_cycles").at(f), c) << f;
      EXPECT_EQ(d.at("completion_cycles").at("mean"), static_cast<double>(c));
      EXPECT_EQ(d.at("completion_cycles").at("stdev"), 0.0);
      EXPECT_EQ(four.at("metrics").at("completion_cycles"), 4 * c);
      EXPECT_EQ(four.at("metrics").at("messages"), 4 * 63);
      EXPECT_EQ(four.at("metrics").at("tcd"), 4 * once.at("metrics").at("tcd").get<long>());
      // Step s of repetition r is step r * S + s of the run.
      EXPECT_EQ(csv_rows(tmp / (algorithm + mode + "4") / "steps.csv").size(),
                4 * csv_rows(tmp / (algorithm + mode + "1") / "steps.csv").size());
    }
}

// start_cycle delays the first repetition; gap_cycles separates each from the
// previous one's completion. Releases in messages.csv agree.
TEST(Repetitions, StartCycleAndGapPlaceEachRepetition) {
  TempDir tmp;
  const long c = broadcast(tmp, "once", "eye", "barrier", "").at("metrics").at("completion_cycles").get<long>();
  broadcast(tmp, "gap", "eye", "barrier", "{count: 3, start_cycle: 50, gap_cycles: 7}");
  const Rows rows = csv_rows(tmp / "gap" / "repetitions.csv");
  ASSERT_EQ(rows.size(), 3u);
  for (size_t r = 0; r < 3; ++r) {
    EXPECT_EQ(as_long(rows[r], "start"), 50 + static_cast<long>(r) * (c + 7)) << r;
    EXPECT_EQ(as_long(rows[r], "end"), as_long(rows[r], "start") + c) << r;
    EXPECT_EQ(as_long(rows[r], "late_cycles"), 0) << r;
  }
  const Rows msgs = csv_rows(tmp / "gap" / "messages.csv");
  ASSERT_EQ(msgs.size(), 3u * 63);
  for (size_t r = 0; r < 3; ++r) EXPECT_EQ(msgs[r * 63].at("release"), rows[r].at("start")) << r;
}

// Period N: repetition r is due at start + r N. One due while the previous is
// still running starts the cycle the previous completes, late by the
// difference; the repetitions never overlap.
TEST(Repetitions, PeriodStartsOnTimeOrWhenThePreviousCompletes) {
  TempDir tmp;
  const long c = broadcast(tmp, "once", "umesh", "eager", "").at("metrics").at("completion_cycles").get<long>();
  const long slow = c + 13, fast = c / 2;
  broadcast(tmp, "slow", "umesh", "eager", "{count: 4, period_cycles: " + std::to_string(slow) + "}");
  const json f = broadcast(tmp, "fast", "umesh", "eager", "{count: 4, period_cycles: " + std::to_string(fast) + "}");
  const Rows on_time = csv_rows(tmp / "slow" / "repetitions.csv"), late = csv_rows(tmp / "fast" / "repetitions.csv");
  ASSERT_EQ(on_time.size(), 4u);
  ASSERT_EQ(late.size(), 4u);
  for (long r = 0; r < 4; ++r) {
    EXPECT_EQ(as_long(on_time[r], "start"), r * slow) << r;
    EXPECT_EQ(as_long(on_time[r], "late_cycles"), 0) << r;
    EXPECT_EQ(as_long(late[r], "due"), r * fast) << r;
    EXPECT_EQ(as_long(late[r], "start"), r * c) << r;
    EXPECT_EQ(as_long(late[r], "late_cycles"), r * (c - fast)) << r;
    EXPECT_EQ(as_long(late[r], "completion_cycles"), c) << r;
  }
  EXPECT_EQ(f.at("repetitions").at("late"), 3);
}

// Under a measured load the first repetition starts when the warm-up ends;
// barrier broadcasts that have no contention on an idle network can only be
// slowed by the load (every step lasts at least its longest zero-load
// latency), and near saturation they are slowed far more than at light load.
TEST(Repetitions, LoadNeverMakesAContentionFreeBroadcastFaster) {
  TempDir tmp;
  for (const std::string algorithm : {"eye", "umesh"}) {
    SCOPED_TRACE(algorithm);
    const json idle = broadcast(tmp, algorithm, algorithm, "barrier", "");
    ASSERT_EQ(idle.at("metrics").at("step_contention").at("cycles"), 0);
    const long c = idle.at("metrics").at("completion_cycles").get<long>();
    double previous_mean = 0;
    for (const std::string rate : {"0.001", "0.02", "0.035"}) {
      const std::string name = algorithm + rate;
      const json s = run(tmp, name, kStudy, {"schedule.algorithm=" + algorithm, "traffic.rate=" + rate});
      EXPECT_EQ(s.at("status"), "completed") << rate;
      const json& d = s.at("repetitions");
      EXPECT_EQ(d.at("start_cycle"), 1000);
      EXPECT_EQ(d.at("completed"), 12);
      EXPECT_EQ(d.at("under_load"), 12);
      EXPECT_GE(d.at("completion_cycles").at("min").get<long>(), c) << rate;
      for (const auto& row : csv_rows(tmp / name / "repetitions.csv"))
        EXPECT_GE(as_long(row, "completion_cycles"), c) << rate << " repetition " << row.at("repetition");
      const double mean = d.at("completion_cycles").at("mean").get<double>();
      EXPECT_GE(mean, previous_mean) << rate;
      previous_mean = mean;
    }
    EXPECT_GT(previous_mean, 1.2 * c) << "near saturation the broadcast should be clearly slower";
  }
}

// The measurement window drains long before 40 repetitions end, yet the
// background keeps being offered until the last one has completed: every
// repetition ends under load, and packets are created while the last one runs.
TEST(Repetitions, TheLoadStaysOnUntilTheLastRepetition) {
  TempDir tmp;
  const json s = run(tmp, "o", kStudy,
                     {"traffic.warmup_cycles=200", "traffic.measure_cycles=300", "schedule.repeat.count=40"});
  EXPECT_EQ(s.at("status"), "completed");
  EXPECT_EQ(s.at("load").at("saturated"), false);
  EXPECT_EQ(s.at("load").at("backlogged"), false) << "below saturation no packet waits at its source that long";
  const Rows rows = csv_rows(tmp / "o" / "repetitions.csv");
  ASSERT_EQ(rows.size(), 40u);
  const long last_start = as_long(rows.back(), "start");
  EXPECT_GT(last_start, 200 + 300 + s.at("load").at("drain_cycles").get<long>());
  for (const auto& row : rows) EXPECT_EQ(row.at("under_load"), "1") << row.at("repetition");
  long during_last = 0;
  for (const auto& m : csv_rows(tmp / "o" / "messages.csv"))
    if (m.at("step") == "-1" && std::stol(m.at("release")) >= last_start) ++during_last;
  EXPECT_GT(during_last, 10);
  EXPECT_EQ(s.at("invariants").at("all_messages_delivered"), true);
}

// Past saturation the window cannot drain: the run stops at the drain cap as
// saturated (exit 0), and the repetitions it cut short are reported as such.
TEST(Repetitions, SaturatedLoadReportsTheRepetitionsItCutShort) {
  TempDir tmp;
  const Result r = run_wormsim({"run", kStudy, "--quiet", "--out", (tmp / "o").string(), "--set", "traffic.rate=0.08",
                                "--set", "traffic.drain_cycles=1000", "--set", "schedule.repeat.count=200"},
                               tmp.path(), 120);
  EXPECT_EXIT_CODE(r, 0);
  EXPECT_CONTAINS(r.err, "repetitions of the schedule completed");
  const json s = summary_of(tmp / "o");
  EXPECT_EQ(s.at("status"), "saturated");
  EXPECT_EQ(s.at("load").at("backlogged"), false) << "the window never drained";
  EXPECT_EQ(s.at("load").at("drain_cycles"), 1000);
  const json& d = s.at("repetitions");
  EXPECT_LT(d.at("completed").get<int>(), 200);
  EXPECT_EQ(d.at("started").get<int>(), d.at("completed").get<int>() + 1) << "one was running when the run stopped";
  const Rows rows = csv_rows(tmp / "o" / "repetitions.csv");
  ASSERT_EQ(rows.size(), 200u);
  const auto& cut = rows.at(d.at("completed").get<size_t>());
  EXPECT_FALSE(cut.at("start").empty());
  EXPECT_TRUE(cut.at("end").empty());
  EXPECT_TRUE(cut.at("completion_cycles").empty());
  EXPECT_LT(as_long(cut, "delivered"), 63);
  EXPECT_TRUE(rows.back().at("start").empty());
}

// A window that drains although the load is past saturation (a warm-up too
// short for the sources' queues to fill) leaves the load on for the schedule:
// once a background packet has waited at its interface more than
// traffic.drain_cycles, the run stops as saturated ("backlogged") instead of
// running on while its queues grow (this one ran millions of cycles before).
TEST(Repetitions, BackloggedSourcesStopTheRunAsSaturated) {
  TempDir tmp;
  const std::vector<std::string> args{"run", default_config().string(), "--set", "network.dims=[2,2]", "--set",
                                      "schedule={algorithm: binomial, flits: 16, repeat: {count: 3}}", "--set",
                                      "traffic={pattern: uniform, rate: 0.5, flits: 8, warmup_cycles: 100, "
                                      "measure_cycles: 100}",
                                      "--set", "output.host_timing=false", "--quiet"};
  std::string bytes[2];
  for (int fast = 0; fast < 2; ++fast) {
    const fs::path out = tmp / (fast ? "fast" : "slow");
    std::vector<std::string> a = args;
    a.insert(a.end(), {"--out", out.string(), "--set", std::string("run.fast_paths=") + (fast ? "true" : "false")});
    const Result r = run_wormsim(a, tmp.path(), 60);
    EXPECT_EXIT_CODE(r, 0);
    // The limit: the cap, plus the schedule's flit span (two steps of 16-flit messages).
    EXPECT_CONTAINS(r.err, "waited at its interface more than 1032 cycles (traffic.drain_cycles, 1000, plus the "
                           "schedule's flit span, 32)");
    const size_t at = r.err.find(", at cycle ");
    ASSERT_NE(at, std::string::npos) << r.err;
    const long stop = std::stol(r.err.substr(at + 11));
    const json s = summary_of(out);
    EXPECT_EQ(s.at("status"), "saturated");
    const json& load = s.at("load");
    EXPECT_EQ(load.at("saturated"), true);
    EXPECT_EQ(load.at("backlogged"), true);
    EXPECT_EQ(load.at("delivered"), load.at("packets")) << "the window drained";
    EXPECT_EQ(load.at("drain_limit_cycles"), 1000) << "10 x measure_cycles";
    EXPECT_LT(load.at("drain_cycles").get<long>(), 1000) << "the window's own drain, not the cap";
    // Stopped at the first check (every 1000 / 8 cycles, from the drain on) that found a packet older than the limit.
    long oldest_waiting = stop + 1, waiting = 0;
    for (const auto& m : csv_rows(out / "messages.csv"))
      if (m.at("step") == "-1" && m.at("inject").empty()) {
        ++waiting;
        oldest_waiting = std::min(oldest_waiting, std::stol(m.at("release")));
      }
    EXPECT_GT(waiting, 0);
    EXPECT_GT(stop + 1 - oldest_waiting, 1032) << "a packet had waited more than the limit";
    EXPECT_LE(stop + 1 - oldest_waiting, 1032 + 125) << "and not more than a check period beyond it";
    EXPECT_LT(stop, 200 + 1000 + 1032 + 125) << "the window drains within its cap, the wait within the limit";
    const json& d = s.at("repetitions");
    EXPECT_LT(d.at("completed").get<int>(), 3);
    EXPECT_EQ(d.at("started").get<int>(), d.at("completed").get<int>() + 1);
    bytes[fast] = read_file(out / "summary.json") + read_file(out / "messages.csv") + read_file(out / "repetitions.csv");
  }
  EXPECT_EQ(bytes[0], bytes[1]) << "the same bytes with and without the fast paths";
}

// In eager mode a send is released only when its sender's interface holds no
// message; with a 200-cycle startup every interface always holds background
// packets in theirs, so no send ever went, the repetition never completed and
// the load stayed on until run.max_cycles. A send held back longer than the
// backlog's limit stops the run as saturated (backlogged) like a background
// packet that waited that long. Barrier mode hands the sends to the
// interfaces at once, and completes.
TEST(Repetitions, EagerSendsHeldBackByTheLoadStopTheRunAsSaturated) {
  TempDir tmp;
  const std::vector<std::string> base{"network.dims=[4,4]", "timing.startup=200",
                                      "traffic={pattern: uniform, rate: 0.08, flits: 2, warmup_cycles: 100, "
                                      "measure_cycles: 500}"};
  std::string bytes[2];
  for (int fast = 0; fast < 2; ++fast) {
    const fs::path out = tmp / (fast ? "fast" : "slow");
    std::vector<std::string> args{"run", default_config().string(), "--quiet", "--out", out.string(), "--set",
                                  "output.host_timing=false", "--set",
                                  "schedule={algorithm: binomial, flits: 8, mode: eager}", "--set",
                                  std::string("run.fast_paths=") + (fast ? "true" : "false")};
    for (const auto& s : base) args.insert(args.end(), {"--set", s});
    const Result r = run_wormsim(args, tmp.path(), 60);
    EXPECT_EXIT_CODE(r, 0);
    EXPECT_CONTAINS(r.err, "a schedule send (eager mode) waited for its sender's interface to hold no message more "
                           "than 5032 cycles (traffic.drain_cycles, 5000, plus the schedule's flit span, 32)");
    const json s = summary_of(out);
    EXPECT_EQ(s.at("status"), "saturated");
    EXPECT_EQ(s.at("load").at("backlogged"), true);
    EXPECT_EQ(s.at("load").at("delivered"), s.at("load").at("packets")) << "the window drained";
    EXPECT_EQ(s.at("repetitions").at("completed"), 0);
    EXPECT_LT(s.at("metrics").at("completion_cycles").get<long>(), 100 + 500 + 5000 + 5032 / 8 + 5032);
    bytes[fast] = read_file(out / "summary.json") + read_file(out / "messages.csv");
  }
  EXPECT_EQ(bytes[0], bytes[1]) << "the same bytes with and without the fast paths";
  std::vector<std::string> barrier = base;
  barrier.push_back("schedule={algorithm: binomial, flits: 8, mode: barrier}");
  const json b = run(tmp, "barrier", default_config().string(), barrier);
  EXPECT_EQ(b.at("status"), "completed");
  EXPECT_EQ(b.at("repetitions").at("completed"), 1);
}

// A schedule's worms hold their channels, and background packets wait behind
// them, for as long as their flits take, at any load: the backlog's limit is
// the cap plus the schedule's flit span (4 steps of 1500 flits here). Packets
// wait up to about 2,400 cycles behind 1500-flit worms at a light load, and
// both repetitions complete (with the cap alone as the limit, this run
// stopped as saturated at cycle 2,579 with none completed).
TEST(Repetitions, LongScheduleMessagesAreNotABacklog) {
  TempDir tmp;
  std::string bytes[2];
  for (int fast = 0; fast < 2; ++fast) {
    const fs::path out = tmp / (fast ? "fast" : "slow");
    const Result r = run_wormsim(
        {"run", default_config().string(), "--set", "network.dims=[4,4]", "--set",
         "schedule={algorithm: binomial, flits: 1500, repeat: {count: 2, start_cycle: 1500}}", "--set",
         "traffic={pattern: uniform, rate: 0.002, flits: 4, warmup_cycles: 100, measure_cycles: 100}", "--set",
         "output.host_timing=false", "--quiet", "--out", out.string(), "--set",
         std::string("run.fast_paths=") + (fast ? "true" : "false")},
        tmp.path(), 60);
    EXPECT_EXIT_CODE(r, 0);
    const json s = summary_of(out);
    EXPECT_EQ(s.at("status"), "completed");
    EXPECT_EQ(s.at("load").at("saturated"), false);
    EXPECT_EQ(s.at("load").at("backlogged"), false);
    EXPECT_EQ(s.at("repetitions").at("completed"), 2);
    long longest_wait = 0;
    for (const auto& m : csv_rows(out / "messages.csv"))
      if (m.at("step") == "-1")
        longest_wait = std::max(longest_wait, std::stol(m.at("inject")) - std::stol(m.at("release")));
    EXPECT_GT(longest_wait, 2 * 1000) << "packets waited at their interfaces well beyond the cap";
    bytes[fast] = read_file(out / "summary.json") + read_file(out / "messages.csv");
  }
  EXPECT_EQ(bytes[0], bytes[1]) << "the same bytes with and without the fast paths";
}

// A schedule that deadlocks while the load is kept on for it (here four worms
// with explicit routes around a square, whose links the transpose background
// never takes) leaves the network busy: the watchdog never sees it fall quiet,
// and the run went on to run.max_cycles. While the load is offered the run
// looks (sim/load_deadlock_watch.hpp), at cycle 0 and every run.watchdog_cycles after, for a loop of waits
// unchanged since its last look, and the run stops as deadlock at the first
// look that finds one.
TEST(Repetitions, ADeadlockUnderTheLoadStopsTheRunAsDeadlock) {
  TempDir tmp;
  write_file(tmp / "square.json", R"({"wormsim_schedule": 1, "name": "square", "topology": {"kind": "mesh", "dims": [4, 4]},
 "steps": [[{"src": [0, 0], "dst": [1, 1], "route": [[0, 0], [1, 0], [1, 1]]},
            {"src": [1, 0], "dst": [0, 1], "route": [[1, 0], [1, 1], [0, 1]]},
            {"src": [1, 1], "dst": [0, 0], "route": [[1, 1], [0, 1], [0, 0]]},
            {"src": [0, 1], "dst": [1, 0], "route": [[0, 1], [0, 0], [1, 0]]}]]})");
  const std::vector<std::string> args{
      "run", default_config().string(), "--quiet", "--set", "network={topology: mesh, dims: [4, 4], vcs: 1, "
      "buffer_flits: 4, port_model: all-port}", "--set", "schedule={file: " + (tmp / "square.json").string() + ", flits: 16}", "--set",
      "traffic={pattern: transpose, rate: 0.05, flits: 4, warmup_cycles: 100, measure_cycles: 200}", "--set",
      "run.watchdog_cycles=500", "--set", "output.host_timing=false"};
  std::string bytes[2];
  for (int fast = 0; fast < 2; ++fast) {
    const fs::path out = tmp / (fast ? "fast" : "slow");
    std::vector<std::string> a = args;
    a.insert(a.end(), {"--out", out.string(), "--set", std::string("run.fast_paths=") + (fast ? "true" : "false")});
    const Result r = run_wormsim(a, tmp.path(), 60);
    EXPECT_EXIT_CODE(r, 3);
    const json s = summary_of(out);
    EXPECT_EQ(s.at("status"), "deadlock");
    const json& load = s.at("load");
    EXPECT_EQ(load.at("delivered"), load.at("packets")) << "the window drained";
    EXPECT_EQ(load.at("saturated"), false);
    EXPECT_EQ(load.at("backlogged"), false);
    EXPECT_EQ(s.at("repetitions").at("completed"), 0);
    const json& loop = s.at("deadlock");
    ASSERT_EQ(loop.size(), 4u) << loop.dump();
    for (size_t i = 0; i < 4; ++i)
      EXPECT_EQ(loop[i].at("waits_for_message"), loop[(i + 1) % 4].at("message")) << "a closed loop: " << loop.dump();
    // The schedule starts with the window (cycle 100) and its worms lock at
    // once: the look at cycle 500 sees the loop, the one at 1000 finds it unchanged.
    EXPECT_LT(load.at("drain_cycles").get<long>(), 500) << "the window drained before";
    EXPECT_CONTAINS(r.err, "run stopped: deadlock at cycle 1000 with 0 of 4 messages");
    bytes[fast] = read_file(out / "summary.json") + read_file(out / "messages.csv");
  }
  EXPECT_EQ(bytes[0], bytes[1]) << "the same bytes with and without the fast paths";
  // With the watchdog off nothing looks: the run goes on to the cycle limit, as any stuck run does.
  std::vector<std::string> off = args;
  off.insert(off.end(), {"--out", (tmp / "off").string(), "--set", "run.watchdog_cycles=0", "--set",
                         "run.max_cycles=3000"});
  EXPECT_EXIT_CODE(run_wormsim(off, tmp.path(), 60), 3);
  EXPECT_EQ(summary_of(tmp / "off").at("status"), "cycle_limit");
}

// Worms that wait long behind a moving one close no lasting loop, however
// often the run looks (the 1500-flit broadcast of the test above, with
// run.watchdog_cycles 50: looked at every 64 + 4 x 3 = 76 cycles).
TEST(Repetitions, LongWaitsUnderTheLoadAreNotADeadlock) {
  TempDir tmp;
  const json s = run(tmp, "often", default_config().string(),
                     {"network.dims=[4,4]", "schedule={algorithm: binomial, flits: 1500, repeat: {count: 2, "
                      "start_cycle: 1500}}", "traffic={pattern: uniform, rate: 0.002, flits: 4, warmup_cycles: 100, "
                      "measure_cycles: 100}", "run.watchdog_cycles=50"});
  EXPECT_EQ(s.at("status"), "completed");
  EXPECT_EQ(s.at("repetitions").at("completed"), 2);
}

// run.max_cycles stops a long series like any run (exit 3), with the
// repetitions completed so far in the distribution.
TEST(Repetitions, CycleLimitStopsTheSeries) {
  TempDir tmp;
  const long c = broadcast(tmp, "once", "eye", "barrier", "").at("metrics").at("completion_cycles").get<long>();
  const json s = broadcast(tmp, "capped", "eye", "barrier", "{count: 10}",
                           {"run.max_cycles=" + std::to_string(3 * c + c / 2)}, 3);
  EXPECT_EQ(s.at("status"), "cycle_limit");
  EXPECT_EQ(s.at("repetitions").at("started"), 4);
  EXPECT_EQ(s.at("repetitions").at("completed"), 3);
  EXPECT_EQ(s.at("repetitions").at("completion_cycles").at("max"), c);
}

TEST(Repetitions, SameSeedSameBytes) {
  TempDir tmp;
  run(tmp, "a", kStudy, {"traffic.rate=0.03", "schedule.mode=eager"});
  run(tmp, "b", kStudy, {"traffic.rate=0.03", "schedule.mode=eager"});
  std::vector<std::string> files = output_files();
  files.push_back("repetitions.csv");
  for (const auto& f : files) EXPECT_EQ(read_file(tmp / "a" / f), read_file(tmp / "b" / f)) << f;
}

// Recycling delivered background records (output.messages: schedule) keeps
// every schedule record: the repetitions come out the same.
TEST(Repetitions, RecycledBackgroundRecordsChangeNoRepetition) {
  TempDir tmp;
  const json all = run(tmp, "all", kStudy, {"traffic.rate=0.03"});
  const json recycled = run(tmp, "recycled", kStudy, {"traffic.rate=0.03", "output.messages=schedule"});
  EXPECT_EQ(all.at("repetitions"), recycled.at("repetitions"));
  EXPECT_EQ(read_file(tmp / "all" / "repetitions.csv"), read_file(tmp / "recycled" / "repetitions.csv"));
  EXPECT_EQ(csv_rows(tmp / "recycled" / "messages.csv").size(), 12u * 63) << "the schedule's rows only";
}

// A longer measurement window changes nothing before the shorter one closes:
// the repetitions that ended by then are the same, cycle for cycle.
TEST(Repetitions, LongerWindowChangesNothingBeforeIt) {
  TempDir tmp;
  run(tmp, "short", kStudy, {"traffic.rate=0.03", "traffic.measure_cycles=1500", "schedule.repeat.count=30"});
  run(tmp, "long", kStudy, {"traffic.rate=0.03", "traffic.measure_cycles=4000", "schedule.repeat.count=30"});
  auto early = [](const fs::path& f) {
    Rows rows;
    for (auto& row : csv_rows(f))
      if (!row.at("end").empty() && std::stol(row.at("end")) < 2500) rows.push_back(row);
    return rows;
  };
  const Rows a = early(tmp / "short" / "repetitions.csv");
  EXPECT_GE(a.size(), 4u);
  EXPECT_TRUE(a == early(tmp / "long" / "repetitions.csv"));
}

TEST(Repetitions, BadRepeatKeysAreRefused) {
  TempDir tmp;
  struct Case {
    std::string set, key, error;  // the error names the file and the key, then says what is expected
    std::vector<std::string> more = {};
  };
  const std::vector<Case> cases = {
      {"schedule.repeat=5", "schedule.repeat", "expected a mapping with count, start_cycle, period_cycles or gap_cycles"},
      {"schedule.repeat={period_cycles: 100, gap_cycles: 5}", "schedule.repeat.gap_cycles",
       "give either period_cycles (a repetition every N cycles) or gap_cycles (back to back, N cycles apart), not both"},
      {"schedule.repeat.count=0", "schedule.repeat.count", "expected an integer from 1 to 1000000, got 0"},
      {"schedule.repeat={period_cycles: 0}", "schedule.repeat.period_cycles",
       "expected an integer from 1 to 1099511627776, got 0"},
      {"schedule.repeat.start_cycle=-3", "schedule.repeat.start_cycle",
       "expected an integer from 0 to 1099511627776, got -3"},
      {"schedule.repeat.gap_cycles=soon", "schedule.repeat.gap_cycles", "expected an integer, got \"soon\""},
      {"schedule.repeat.cuont=3", "schedule.repeat.cuont", "unknown key (did you mean count?)"},
      // A trace keeps every repetition's records (without one, they are recycled: test_cli_recycling.cpp):
      // 89 GiB of them on 16x16, refused on any machine this suite runs on (63 M messages on 8x8 need 24 GiB).
      {"schedule.repeat.count=1000000", "schedule.repeat.count", "needs about",
       {"--trace", "perfetto", "--set", "network.dims=[16,16]"}},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"run", kStudy, "--out", (tmp / "o").string(), "--set", c.set};
    args.insert(args.end(), c.more.begin(), c.more.end());
    const Result r = run_wormsim(args, tmp.path());
    EXPECT_EXIT_CODE(r, 1);
    EXPECT_CONTAINS(r.err, kStudy + ": " + c.key);
    EXPECT_CONTAINS(r.err, c.error);
  }
  EXPECT_FALSE(fs::exists(tmp / "o" / "summary.json"));
}

}  // namespace

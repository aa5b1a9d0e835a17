// Delivered background messages are recycled (sim/message_retirement.hpp) and
// their rows streamed to messages.csv and routes.csv as they go
// (sim/streamed_message_rows.hpp): the figures and the files must be those of
// a run that keeps every record (a traced one), with or without the fast
// paths; output.messages: schedule must give the schedule's rows of them; and
// the memory of a long run must not grow with it.
#include <fstream>
#include <map>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

using namespace wormsim_cli;
using nlohmann::json;

namespace {

const std::string kCmesh = (source_dir() / "configs" / "cmesh.yaml").string();
const std::string kClasses = (source_dir() / "configs" / "load_8x8_two_classes.yaml").string();

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
    const bool background = by_step && row.compare(comma + 1, 1, "-") == 0;  // step -1, or -1 - i for class i
    if (i == 0 || !background) out += row + "\n";
  }
  return out;
}

}  // namespace

TEST(Recycling, GivesTheFiguresOfARunThatKeepsEveryRecord) {
  const std::vector<std::vector<std::string>> cases = {
      // A drained window, a saturated one (stopped at its drain cap with packets queued) ...
      {kLoadConfig, "--set", "traffic.warmup_cycles=300", "--set", "traffic.measure_cycles=700"},
      {kLoadConfig, "--set", "traffic.rate=0.08", "--set", "traffic.warmup_cycles=200", "--set",
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
      // A broadcast repeated twelve times in a measured load (schedule rows of every repetition before the
      // background's), and two traffic classes.
      {kStudy},
      {kClasses, "--set", "traffic.measure_cycles=1500"},
  };
  TempDir tmp;
  for (size_t c = 0; c < cases.size(); ++c) {
    SCOPED_TRACE("case " + std::to_string(c));
    std::map<std::string, fs::path> outs;
    auto run = [&](const std::string& name, const std::vector<std::string>& settings, size_t row_window = 0) {
      std::vector<std::string> args = {"run"};
      args.insert(args.end(), cases[c].begin(), cases[c].end());
      args.insert(args.end(), {"--set", "output.host_timing=false", "--out", (tmp / name).string(), "--quiet",
                               "--log-level", "info", "--progress", "0"});
      for (const std::string& s : settings) args.insert(args.end(), {"--set", s});
      RunControl ctl;
      ctl.timeout_s = 120;
      if (row_window) ctl.env.emplace_back("WORMSIM_ROW_WINDOW", std::to_string(row_window));
      const Result r = run_wormsim_with(args, tmp.path(), ctl);
      EXPECT_TRUE(r.exited && (r.exit_code == 0)) << r.describe();
      outs[name] = tmp / name;
      return r;
    };
    // The reference: a trace names every message, so every record is kept to the end.
    run("kept", {"output.trace=perfetto"});
    for (const char* messages : {"all", "schedule"})
      for (const char* fast : {"true", "false"})
        run(std::string(messages) + fast,
            {std::string("run.fast_paths=") + fast, std::string("output.messages=") + messages});
    // A window of a few messages: most rows are passed over and copied into place at the end.
    const Result late = run("late", {}, 3);
    EXPECT_CONTAINS(late.err, "messages held the rows of later ones up too long: their rows were merged in at the end");
    const json kept = summary_without_manifest(outs["kept"]);
    ASSERT_TRUE(kept.contains("background"));
    EXPECT_GT(kept["background"]["delivered"].get<int64_t>(), 100) << "enough messages to recycle";
    const std::string kept_messages = read_file(outs["kept"] / "messages.csv");
    for (const char* fast : {"true", "false"}) {
      SCOPED_TRACE(std::string("fast paths ") + fast);
      const fs::path all = outs[std::string("all") + fast], recycled = outs[std::string("schedule") + fast];
      EXPECT_EQ(summary_without_manifest(all), kept);
      EXPECT_EQ(summary_without_manifest(recycled), kept);
      for (const char* f : {"messages.csv", "routes.csv", "links.csv", "steps.csv"})
        EXPECT_EQ(read_file(all / f), read_file(outs["kept"] / f)) << f;
      for (const char* f : {"links.csv", "steps.csv"}) EXPECT_EQ(read_file(recycled / f), read_file(all / f)) << f;
      EXPECT_EQ(read_file(recycled / "messages.csv"), schedule_rows(kept_messages, true));
    }
    EXPECT_EQ(read_file(outs["scheduletrue"] / "routes.csv"), read_file(outs["schedulefalse"] / "routes.csv"));
    EXPECT_EQ(summary_without_manifest(outs["late"]), kept);
    // The manifest's sizes and CRC-32s, whichever way the files were made (renamed spill, copied with late rows).
    const json kept_files = json::parse(read_file(outs["kept"] / "summary.json")).at("outputs");
    for (const char* run : {"late", "alltrue"})
      for (const char* f : {"messages.csv", "routes.csv"})
        EXPECT_EQ(json::parse(read_file(outs[run] / "summary.json")).at("outputs").at(f), kept_files.at(f))
            << run << " " << f;
    for (const char* f : {"messages.csv", "routes.csv"})
      EXPECT_EQ(read_file(outs["late"] / f), read_file(outs["kept"] / f)) << "late rows: " << f;
    for (const auto& e : fs::directory_iterator(outs["late"]))
      EXPECT_EQ(e.path().filename().string().find("tmp"), std::string::npos) << e.path();
  }
}

// A deadlock found after many messages were recycled is the one a run that
// keeps every record (a traced one) finds, and names its worms by the ids of
// their messages.csv rows, not by the table slots they happen to hold.
TEST(Recycling, ADeadlockIsFoundAndNamedAsWithEveryRecordKept) {
  TempDir tmp;
  std::map<std::string, json> summaries;
  std::map<std::string, std::string> logged;
  for (const std::string name : {"kept", "recycled"}) {
    std::vector<std::string> args = {"run", kDefault, "--set", "schedule=null", "--set", "network.topology=torus",
                                     "--set", "network.dims=[8,8]", "--set", "network.vcs=1", "--set",
                                     "network.allow_deadlock=true", "--set",
                                     "traffic={pattern: uniform, rate: 0.02, cycles: 20000}", "--set",
                                     "run.watchdog_cycles=300", "--set", "run.seed=6", "--out", (tmp / name).string(),
                                     "--quiet"};
    if (name == "kept") args.insert(args.end(), {"--trace", "perfetto"});
    const Result r = run_wormsim(args, tmp.path(), 120);
    EXPECT_EXIT_CODE(r, 3);
    std::ifstream in(tmp / name / "summary.json");
    summaries[name] = json::parse(in);
    for (const std::string& line : lines(r.err))
      if (line.find("[error] deadlock: ") != std::string::npos) logged[name] += line + "\n";
  }
  const json& s = summaries["recycled"];
  ASSERT_EQ(s.at("status"), "deadlock");
  EXPECT_EQ(s.at("deadlock"), summaries["kept"].at("deadlock"));
  EXPECT_EQ(logged["recycled"], logged["kept"]);
  EXPECT_FALSE(logged["recycled"].empty());
  EXPECT_EQ(read_file(tmp / "recycled" / "messages.csv"), read_file(tmp / "kept" / "messages.csv"));
  const int64_t messages = s.at("background").at("messages").get<int64_t>();
  EXPECT_GT(s.at("background").at("delivered").get<int64_t>(), 500) << "slots recycled before the deadlock";
  const std::vector<std::string> rows = lines(read_file(tmp / "recycled" / "messages.csv"));
  ASSERT_EQ(static_cast<int64_t>(rows.size()), messages + 1) << "a header and a row per message";
  for (size_t i = 1; i < rows.size(); ++i) ASSERT_EQ(rows[i].substr(0, rows[i].find(',')), std::to_string(i - 1));
  ASSERT_GE(s.at("deadlock").size(), 2u);
  for (const json& w : s.at("deadlock")) {
    const auto id = w.at("message").get<size_t>();
    ASSERT_LT(id, rows.size() - 1);
    const std::string& row = rows[id + 1];
    // id,step,index,src,dst,"src name","dst name",...: its endpoints.
    EXPECT_NE(row.find(",\"" + w.at("message_src").get<std::string>() + "\",\"" +
                       w.at("message_dst").get<std::string>() + "\","),
              std::string::npos)
        << row << " for " << w.dump();
  }
}

// The run's memory holds the messages under way, not every message: ten
// times the cycles (and the messages) leave the peak resident memory nearly
// where it was, whether the background's rows are written or not.
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
  const auto [short_rss, short_msgs] = peak("short", "20000", "all");
  const auto [long_rss, long_msgs] = peak("long", "200000", "all");
  const auto [unlisted_rss, unlisted_msgs] = peak("unlisted", "200000", "schedule");
  ASSERT_GT(long_msgs, 9 * short_msgs);
  EXPECT_EQ(unlisted_msgs, long_msgs);
  EXPECT_EQ(lines(read_file(tmp / "long" / "messages.csv")).size(), static_cast<size_t>(long_msgs) + 1);
  EXPECT_LT(long_rss, short_rss + 4.0) << "MiB: recycled records, rows streamed (about 200k messages)";
  EXPECT_LT(unlisted_rss, short_rss + 4.0) << "MiB: recycled records";
}

// Interrupted, a run writes the rows of every message it created, delivered or not, in id order.
TEST(Recycling, AnInterruptedRunListsEveryMessage) {
  TempDir tmp;
  const fs::path out = tmp / "o";
  const Result r = run_wormsim({"run", kDefault, "--set", "schedule=null", "--set", "network.dims=[16,16]", "--set",
                                "traffic={pattern: uniform, rate: 0.01, flits: 8, cycles: 100000000}", "--out",
                                out.string(), "--quiet"},
                               tmp.path(), 120, 700);
  EXPECT_EXIT_CODE(r, 3);
  std::ifstream in(out / "summary.json");
  const json s = json::parse(in);
  ASSERT_EQ(s.at("status"), "interrupted");
  const int64_t messages = s.at("background").at("messages").get<int64_t>();
  EXPECT_GT(s.at("background").at("delivered").get<int64_t>(), 1000);
  EXPECT_LT(s.at("background").at("delivered").get<int64_t>(), messages) << "some under way when it stopped";
  const std::vector<std::string> rows = lines(read_file(out / "messages.csv"));
  ASSERT_EQ(static_cast<int64_t>(rows.size()), messages + 1);
  int64_t undelivered = 0;
  for (size_t i = 1; i < rows.size(); ++i) {
    ASSERT_EQ(rows[i].substr(0, rows[i].find(',')), std::to_string(i - 1));
    // `delivered`, empty for a message still under way, has 8 columns after it (counted from the end:
    // the quoted names before it hold commas).
    size_t at = rows[i].size();
    for (int column = 0; column < 8; ++column) at = rows[i].rfind(',', at - 1);
    undelivered += rows[i][at - 1] == ',';
  }
  EXPECT_EQ(undelivered, messages - s.at("background").at("delivered").get<int64_t>());
  EXPECT_EQ(lines(read_file(out / "routes.csv")).size(), rows.size());
}

// A trace keeps every record, and output.messages: schedule still lists the schedule's rows alone.
TEST(Recycling, ATraceWithTheScheduleRowsOnly) {
  TempDir tmp;
  for (const char* messages : {"all", "schedule"}) {
    const Result r = run_wormsim({"run", kDefault, "--set", "traffic={pattern: uniform, rate: 0.01, cycles: 300}",
                                  "--set", std::string("output.messages=") + messages, "--trace", "perfetto", "--out",
                                  (tmp / messages).string(), "--quiet"},
                                 tmp.path());
    EXPECT_EXIT_CODE(r, 0);
  }
  EXPECT_TRUE(fs::is_regular_file(tmp / "schedule" / "trace.json"));
  EXPECT_EQ(read_file(tmp / "schedule" / "messages.csv"), schedule_rows(read_file(tmp / "all" / "messages.csv"), true));
  const std::string all = read_file(tmp / "all" / "messages.csv");
  EXPECT_GT(lines(all).size(), lines(read_file(tmp / "schedule" / "messages.csv")).size() + 10) << "background rows";
  const Result bad = run_wormsim({"run", kDefault, "--set", "output.messages=some", "--quiet"}, tmp.path());
  EXPECT_EXIT_CODE(bad, 1);
  EXPECT_NE(bad.err.find("output.messages"), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("all"), std::string::npos) << bad.err;
}

// A schedule's delivered messages give their records back in batches, in id
// order (sim/schedule_retirement.hpp): the figures and the files must be those
// of a run that keeps every record (a traced one), with or without the fast
// paths, with batches that split repetitions and steps (WORMSIM_RETIRE_BATCH),
// whether the schedule runs once or repeats, whether the run completes, stops
// at a cycle limit with messages never released and repetitions never begun,
// deadlocks, or has background traffic beside it.
TEST(Recycling, ScheduleRecordsGiveTheFiguresOfARunThatKeepsEveryRecord) {
  struct Case {
    std::vector<std::string> args;
    int exit_code;
    bool delivers = true;  // some message is delivered: retired during the run in batches of one
  };
  const std::vector<Case> cases = {
      // Once, in barrier mode, with router statistics; then in eager mode on a larger mesh.
      {{kDefault, "--set", "output.router_stats=true"}, 0},
      {{kDefault, "--set", "schedule={algorithm: eye, source: eye, mode: eager, flits: 12}", "--set",
        "network.dims=[8,8]"},
       0},
      // Once, an all-to-all in eager mode, stopped with messages never released (their records made at the end).
      {{kDefault, "--set", "schedule={algorithm: total-exchange, mode: eager, flits: 4}", "--set",
        "network={topology: hypercube, dims: [5], port_model: all-port}", "--set", "run.max_cycles=50"},
       3},
      // Once, deadlocked beside background traffic.
      {{kDefault, "--set", "network.topology=torus", "--set", "network.dims=[4,4]", "--set", "network.vcs=1", "--set",
        "network.allow_deadlock=true", "--set", "schedule={algorithm: binomial, source: 0, mode: eager}", "--set",
        "traffic={pattern: uniform, rate: 0.2, cycles: 20000}", "--set", "run.watchdog_cycles=300"},
       3},
      // Back to back in barrier mode, alone (router statistics: route lengths folded too).
      {{kDefault, "--set", "schedule.repeat={count: 30, gap_cycles: 3}", "--set", "output.router_stats=true"}, 0},
      // Periodic in eager mode on a larger mesh, some repetitions late.
      {{kDefault, "--set",
        "schedule={algorithm: eye, source: eye, mode: eager, flits: 12, repeat: {count: 12, period_cycles: 40}}",
        "--set", "network.dims=[8,8]"},
       0},
      // Once, stopped before it began: every message listed, unreleased.
      {{kDefault, "--set", "schedule.repeat={count: 1, start_cycle: 100}", "--set", "run.max_cycles=50"}, 3, false},
      // Stopped by a cycle limit between two repetitions: every begun one retired, the others never begun.
      {{kDefault, "--set", "schedule.repeat={count: 5, gap_cycles: 400}", "--set", "run.max_cycles=300"}, 3},
      // Stopped by a cycle limit: one repetition under way, eighteen never begun (listed after it).
      {{kDefault, "--set", "schedule.repeat={count: 30, gap_cycles: 3}", "--set", "run.max_cycles=500"}, 3},
      // The same beside background traffic, whose rows are streamed too, and periodic.
      {{kDefault, "--set", "schedule.repeat={count: 30, period_cycles: 50}", "--set", "run.max_cycles=700", "--set",
        "traffic={pattern: uniform, rate: 0.05, flits: 6, cycles: 2000}"},
       3},
      // A deadlock after 21 repetitions were retired: its worms named by their ids, not their slots.
      {{kDefault, "--set", "network.topology=torus", "--set", "network.dims=[4,4]", "--set", "network.vcs=1", "--set",
        "network.allow_deadlock=true", "--set",
        "schedule={algorithm: binomial, source: 0, mode: eager, repeat: {count: 400, gap_cycles: 0}}", "--set",
        "traffic={pattern: uniform, rate: 0.02, cycles: 20000}", "--set", "run.watchdog_cycles=300"},
       3},
      // A long credit delay: a head waiting for credits is charged by the step of the worm that left them, whose
      // slot must not be refilled (by a background message, or one of a later repetition) before they are back.
      {{kStudy, "--set", "timing.credit_delay=30", "--set", "schedule.flits=1", "--set", "traffic.flits=1", "--set",
        "schedule.repeat={count: 30, gap_cycles: 0}", "--set", "traffic.rate=0.1", "--set", "run.max_cycles=5000"},
       3},
      // Stopped with repetitions never begun that start with an empty step, whose row is written before
      // the repetition begins (it ends where the one before does) and must not be written again.
      {{kDefault, "--set", "schedule.file=" + (data_dir() / "schedules" / "mesh4x4_empty_steps.json").string(),
        "--set", "schedule.repeat={count: 20, period_cycles: 30}", "--set", "run.max_cycles=95"},
       3},
      // A schedule without messages, stopped: its steps' and repetitions' rows are written as they end.
      {{kDefault, "--set", "schedule.file=" + (data_dir() / "schedules" / "mesh4x4_no_messages.json").string(),
        "--set", "schedule.repeat={count: 20, period_cycles: 30}", "--set", "run.max_cycles=100"},
       3, false},
      // Under a measured load in eager mode, the background's rows not listed.
      {{kStudy, "--set", "schedule.mode=eager", "--set", "schedule.repeat={count: 15, period_cycles: 60}", "--set",
        "traffic.rate=0.03", "--set", "output.messages=schedule"},
       0},
  };
  TempDir tmp;
  std::string retire_batch;  // WORMSIM_RETIRE_BATCH for the next run, if any
  for (size_t c = 0; c < cases.size(); ++c) {
    SCOPED_TRACE("case " + std::to_string(c));
    // A folder per case: a run leaves the files of an earlier one that it does not write itself.
    const fs::path dir = tmp / ("case" + std::to_string(c));
    auto run = [&](const std::string& name, const std::vector<std::string>& settings) {
      std::vector<std::string> args = {"run"};
      args.insert(args.end(), cases[c].args.begin(), cases[c].args.end());
      args.insert(args.end(), {"--set", "output.host_timing=false", "--out", (dir / name).string(), "--quiet",
                               "--log-level", "info", "--progress", "0"});
      for (const std::string& s : settings) args.insert(args.end(), {"--set", s});
      RunControl ctl;
      ctl.timeout_s = 120;
      if (!retire_batch.empty()) ctl.env.emplace_back("WORMSIM_RETIRE_BATCH", retire_batch);
      const Result r = run_wormsim_with(args, tmp.path(), ctl);
      EXPECT_TRUE(r.exited && r.exit_code == cases[c].exit_code) << r.describe();
      return r;
    };
    const Result kept = run("kept", {"output.trace=perfetto"});
    // The log's error lines (a deadlock's worms), which the recycled runs must repeat.
    const auto errors = [](const Result& r) {
      std::string e;
      for (const std::string& line : lines(r.err))
        if (line.find("[error]") != std::string::npos) e += line + "\n";
      return e;
    };
    EXPECT_EQ(kept.err.find("gave their records back"), std::string::npos) << "a trace keeps every record";
    const json kept_summary = summary_without_manifest(dir / "kept");
    const json kept_files = json::parse(read_file(dir / "kept" / "summary.json")).at("outputs");
    for (const auto& [fast, batch] : {std::pair{"true", "1"}, {"false", "7"}, {"true", "100000"}}) {
      SCOPED_TRACE(std::string("fast paths ") + fast + ", batches of " + batch);
      const std::string name = std::string("recycled") + fast + batch;
      retire_batch = batch;
      const Result r = run(name, {std::string("run.fast_paths=") + fast});
      retire_batch.clear();
      // "N of the M messages ...": in batches of one, some were retired while the run went.
      const auto at = r.err.find(" messages of the schedule gave their records back as the run went");
      ASSERT_NE(at, std::string::npos) << r.err;
      const auto from = r.err.rfind("] ", at) + 2;
      if (std::string(batch) == "1" && cases[c].delivers) {
        EXPECT_GT(std::stoi(r.err.substr(from)), 0) << r.err.substr(from, at - from);
      }
      EXPECT_EQ(summary_without_manifest(dir / name), kept_summary);
      EXPECT_EQ(errors(r), errors(kept));
      const json files = json::parse(read_file(dir / name / "summary.json")).at("outputs");
      size_t compared = 0;
      for (const auto& e : fs::directory_iterator(dir / "kept")) {
        const std::string f = e.path().filename().string();
        if (f == "summary.json" || f == "trace.json" || f[0] == '.') continue;
        EXPECT_EQ(read_file(dir / name / f), read_file(e.path())) << f;
        EXPECT_EQ(files.value(f, json()), kept_files.value(f, json())) << f;
        ++compared;
      }
      EXPECT_GE(compared, 4u) << "messages, routes, links, steps (and repetitions)";
      EXPECT_EQ(files.size() + 1, kept_files.size()) << "the same files but the trace";
      for (const auto& e : fs::directory_iterator(dir / name))
        EXPECT_EQ(e.path().filename().string().find("tmp"), std::string::npos) << "spill files removed: " << e.path();
    }
  }
}

namespace {

// An eye broadcast on `dims` repeated `count` times back to back, run to
// completion into tmp/name; returns its summary.
json repeated_broadcast(const TempDir& tmp, const std::string& name, const std::string& dims, int count) {
  const Result r = run_wormsim({"run", kDefault, "--set", "network.dims=" + dims, "--set",
                                "schedule={algorithm: eye, source: eye, repeat: {count: " + std::to_string(count) +
                                    ", gap_cycles: 10}}",
                                "--out", (tmp / name).string(), "--quiet"},
                               tmp.path(), 300);
  EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const json j = json::parse(read_file(tmp / name / "summary.json"));
  EXPECT_EQ(j["status"], "completed");
  return j;
}

double peak_rss_mib(const json& summary) { return summary["host"]["peak_rss_mib"].get<double>(); }

}  // namespace

// A repeated schedule's memory holds a repetition and a batch of retired
// records, not every one: ten times the repetitions leave the peak resident
// memory nearly where it was, and every message is still listed.
TEST(Recycling, MemoryDoesNotGrowWithRepetitions) {
  TempDir tmp;
  const json short_run = repeated_broadcast(tmp, "short", "[16,16]", 100);
  const json long_run = repeated_broadcast(tmp, "long", "[16,16]", 1000);
  const auto long_msgs = long_run["metrics"]["messages"].get<int64_t>();
  EXPECT_EQ(short_run["metrics"]["messages"], 255 * 100);
  EXPECT_EQ(long_msgs, 255 * 1000);
  EXPECT_EQ(lines(read_file(tmp / "long" / "messages.csv")).size(), static_cast<size_t>(long_msgs) + 1);
  EXPECT_EQ(lines(read_file(tmp / "long" / "routes.csv")).size(), static_cast<size_t>(long_msgs) + 1);
  EXPECT_EQ(lines(read_file(tmp / "long" / "repetitions.csv")).size(), 1001u);
  // Every record kept: about 230k more messages at 350 bytes, some 80 MiB.
  EXPECT_LT(peak_rss_mib(long_run), peak_rss_mib(short_run) + 8.0)
      << "MiB: a repetition's records and a batch at a time (255,000 messages)";
}

// A schedule run once gives its delivered messages' records back too, in
// batches (forced here: WORMSIM_RETIRE_BATCH; by default only a schedule of
// 2^21 messages or more does, sim/schedule_retirement.hpp): a multinode
// broadcast four times as large then grows the peak by the schedule's own
// messages, under 90 bytes each (about 68), where keeping every record grows
// it by about 144; and the files are the same either way.
TEST(Recycling, MemoryOfOneScheduleGrowsByItsMessagesNotTheirRecords) {
  TempDir tmp;
  auto run = [&](const std::string& name, int dims, bool streamed) {
    RunControl ctl;
    ctl.timeout_s = 300;
    if (streamed) ctl.env.emplace_back("WORMSIM_RETIRE_BATCH", "4096");
    const Result r = run_wormsim_with({"run", (source_dir() / "configs" / "bench" / "b4_multinode_10cube.yaml").string(),
                                       "--set", "network.dims=[" + std::to_string(dims) + "]", "--out",
                                       (tmp / name).string(), "--quiet", "--log-level", "info", "--progress", "0"},
                                      tmp.path(), ctl);
    EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    EXPECT_EQ(r.err.find("gave their records back") != std::string::npos, streamed) << r.err;
    const json j = json::parse(read_file(tmp / name / "summary.json"));
    EXPECT_EQ(j["status"], "completed");
    return j;
  };
  const json small_streamed = run("small_streamed", 9, true), large_streamed = run("large_streamed", 10, true);
  const json small_kept = run("small_kept", 9, false), large_kept = run("large_kept", 10, false);
  const double more = static_cast<double>(large_kept["metrics"]["messages"].get<int64_t>() -
                                          small_kept["metrics"]["messages"].get<int64_t>());
  ASSERT_EQ(more, 1024.0 * 1023 - 512.0 * 511);
  const double streamed_bytes = (peak_rss_mib(large_streamed) - peak_rss_mib(small_streamed)) * 1048576 / more;
  const double kept_bytes = (peak_rss_mib(large_kept) - peak_rss_mib(small_kept)) * 1048576 / more;
  EXPECT_LT(streamed_bytes, 90.0) << "bytes a message, records given back";
  EXPECT_GT(kept_bytes - streamed_bytes, 50.0) << "bytes a message: " << kept_bytes << " kept, " << streamed_bytes
                                               << " given back";
  EXPECT_EQ(large_streamed["outputs"], large_kept["outputs"]) << "every file's size and CRC-32";
}

// A repeated run holds nothing per repetition once it has ended: its steps'
// rows of steps.csv and its row of repetitions.csv are written once its
// messages are all retired, and its figures folded into counts per value. The
// peak grows by under 8 bytes a step of a 4-step broadcast (measured: 0.15);
// holding each repetition's row and times to the end took about 48, and each
// step's figures too about 235.
TEST(Recycling, MemoryHoldsNoFiguresOfEndedRepetitions) {
  TempDir tmp;
  const json short_run = repeated_broadcast(tmp, "short", "[4,4]", 5000);
  const json long_run = repeated_broadcast(tmp, "long", "[4,4]", 45000);
  EXPECT_EQ(lines(read_file(tmp / "long" / "steps.csv")).size(), 4u * 45000 + 1);
  EXPECT_EQ(lines(read_file(tmp / "long" / "repetitions.csv")).size(), 45000u + 1);
  EXPECT_EQ(long_run["repetitions"]["completed"], 45000);
  const double steps = 4.0 * (45000 - 5000);
  const double grew = (peak_rss_mib(long_run) - peak_rss_mib(short_run)) * 1024 * 1024;
  EXPECT_LT(grew / steps, 8.0) << "bytes per step";
}

// A stopped run's repetitions that never began are listed one at a time, and
// their steps' and own rows written as they go: 40,000 repetitions stopped
// after a few peak where 5,000 complete ones do (folding every step's figures
// and every repetition's row held about 200 and 130 bytes each, 48 MiB here).
TEST(Recycling, RepetitionsAStoppedRunNeverBeganAreNotHeld) {
  TempDir tmp;
  const json complete = repeated_broadcast(tmp, "complete", "[4,4]", 5000);
  const Result r = run_wormsim({"run", kDefault, "--set", "schedule={algorithm: eye, source: eye, repeat: {count: 40000, "
                                "gap_cycles: 10}}", "--set", "run.max_cycles=1000", "--out", (tmp / "stopped").string(),
                                "--quiet"},
                               tmp.path(), 300);
  EXPECT_EXIT_CODE(r, 3);
  const json stopped = json::parse(read_file(tmp / "stopped" / "summary.json"));
  EXPECT_EQ(stopped["status"], "cycle_limit");
  EXPECT_LT(stopped["repetitions"]["started"].get<int>(), 100);
  EXPECT_EQ(lines(read_file(tmp / "stopped" / "repetitions.csv")).size(), 40000u + 1);
  EXPECT_EQ(lines(read_file(tmp / "stopped" / "steps.csv")).size(), 4u * 40000 + 1);
  EXPECT_LT(peak_rss_mib(stopped), peak_rss_mib(complete) + 4.0) << "MiB";
}

// The memory guard counts the records a run holds at once: a million
// repetitions of a broadcast pass when they are retired and are refused, naming
// the key, when a trace keeps them; ids and steps past 32 bits are refused.
TEST(Recycling, TheMemoryGuardCountsTheRepetitionsHeld) {
  TempDir tmp;
  const std::vector<std::string> base = {"config", "check", kDefault, "--set", "network.dims=[16,16]", "--set",
                                         "schedule={algorithm: eye, source: eye, repeat: {count: 1000000}}"};
  const Result ok = run_wormsim(base, tmp.path());
  EXPECT_EXIT_CODE(ok, 0);
  EXPECT_CONTAINS(ok.out, "255 messages, 1000000 repetitions");
  std::vector<std::string> traced = base;
  traced.insert(traced.end(), {"--set", "output.trace=perfetto"});
  const Result refused = run_wormsim(traced, tmp.path());
  EXPECT_EXIT_CODE(refused, 1);
  EXPECT_CONTAINS(refused.err, "schedule.repeat.count: this run needs about");
  EXPECT_CONTAINS(refused.err, "255000000 messages");
  const Result too_many = run_wormsim({"config", "check", kDefault, "--set", "network.dims=[128,128]", "--set",
                                       "schedule={algorithm: eye, source: eye, repeat: {count: 1000000}}"},
                                      tmp.path());
  EXPECT_EXIT_CODE(too_many, 1);
  EXPECT_CONTAINS(too_many.err, "schedule.repeat.count: 1000000 repetitions of 16383 messages in 14 steps make more "
                                "than 2147483647 messages or steps in one run");
}

// The progress log tells the schedule's deliveries from the background's by
// their steps, not by their table slots, which recycling mixes.
TEST(Recycling, ProgressCountsTheScheduleDeliveriesApart) {
  TempDir tmp;
  const Result r = run_wormsim({"run", kStudy, "--set", "schedule.repeat={count: 60, gap_cycles: 0}", "--log-level",
                                "info", "--progress", "0.0001", "--out", (tmp / "o").string(), "--quiet"},
                               tmp.path(), 120);
  EXPECT_EXIT_CODE(r, 0);
  size_t reports = 0;
  for (const std::string& line : lines(r.err)) {
    const auto at = line.find(" of 3780 messages delivered (and ");
    if (line.find("progress: cycle") == std::string::npos || at == std::string::npos) continue;
    const auto from = line.rfind(", ", at) + 2;
    EXPECT_LE(std::stoll(line.substr(from, at - from)), 3780) << line;
    ++reports;
  }
  EXPECT_GE(reports, 2u) << r.err;
}

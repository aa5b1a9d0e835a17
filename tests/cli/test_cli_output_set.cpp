// A run's outputs are replaced as one set (docs/reliability.md, "Outputs as one
// set"): the summary.json manifest matches the files beside it, a failed or
// killed run never leaves an old summary beside new CSVs, a second run into a
// locked folder is refused, an unwritable folder is refused before simulating,
// stale traces go, packet names round-trip through CSV quoting.
#include <sys/file.h>

#include <algorithm>
#include <thread>

#include <boost/crc.hpp>
#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

using namespace wormsim_cli;
using nlohmann::json;

namespace {

std::string crc32_hex(const std::string& bytes) {
  boost::crc_32_type crc;
  crc.process_bytes(bytes.data(), bytes.size());
  char buf[9];
  std::snprintf(buf, sizeof buf, "%08x", crc.checksum());
  return buf;
}

// "none": no summary.json; "consistent": every file the manifest lists has its
// size and CRC; otherwise what does not match.
std::string set_state(const fs::path& dir) {
  if (!fs::exists(dir / "summary.json")) return "none";
  json s;
  try {
    s = json::parse(read_file(dir / "summary.json"));
  } catch (const std::exception& e) {
    return std::string("summary.json does not parse: ") + e.what();
  }
  if (!s.contains("outputs")) return "no manifest";
  for (const char* name : {"messages.csv", "links.csv", "steps.csv"})
    if (!s["outputs"].contains(name)) return std::string("manifest lacks ") + name;
  for (const auto& [name, f] : s["outputs"].items()) {
    const std::string bytes = read_file(dir / name);
    if (!fs::exists(dir / name)) return name + " missing";
    if (bytes.size() != f["bytes"].get<uint64_t>()) return name + " has another size";
    if (crc32_hex(bytes) != f["crc32"].get<std::string>()) return name + " has another CRC";
  }
  return "consistent";
}

// RFC 4180 parser for one whole file: rows of fields, quotes doubled inside quoted fields.
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row(1);
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') row.back() += '"', ++i;
      else if (c == '"') quoted = false;
      else row.back() += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      row.emplace_back();
    } else if (c == '\n') {
      rows.push_back(row);
      row.assign(1, "");
    } else {
      row.back() += c;
    }
  }
  return rows;
}

std::vector<std::string> run_args(const fs::path& out, std::initializer_list<std::string> sets) {
  std::vector<std::string> a{"run", default_config().string(), "--out", out.string(), "--quiet"};
  for (const auto& s : sets) a.insert(a.end(), {"--set", s});
  return a;
}

}  // namespace

TEST(OutputSet, ManifestListsEveryFileWithItsSizeAndCrc) {
  TempDir tmp;
  const Result r = run_wormsim(run_args(tmp / "o", {}), tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  EXPECT_EQ(set_state(tmp / "o"), "consistent");
  const nlohmann::ordered_json s = nlohmann::ordered_json::parse(read_file(tmp / "o" / "summary.json"));
  std::vector<std::string> names;
  for (const auto& [name, f] : s["outputs"].items()) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"messages.csv", "links.csv", "steps.csv", "routes.csv"}));
  // The lock is gone with the run: the folder holds the outputs alone.
  EXPECT_EQ(std::distance(fs::directory_iterator(tmp / "o"), fs::directory_iterator{}), 5);
}

// A network of 2^18 links or more has links.csv written by a second thread
// while the other tables are written (sim/outputs.cpp), and a routers' pool of
// 64 MiB or more made resident by a second thread while the schedule is
// prepared (models/prefault.hpp): 40x40x40 has 374,400 links and a 78 MB pool.
// The set is as a smaller run's: the manifest in its order, every link's row
// in id order, and the same bytes run after run.
TEST(OutputSet, ABigNetworksSetIsWrittenInPartByASecondThreadAndIsTheSameEveryRun) {
  TempDir tmp;
  const auto big = [&](const fs::path& out) {
    std::vector<std::string> args = run_args(out, {"network.dims=[40,40,40]", "schedule.algorithm=binomial"});
    args.insert(args.end(), {"--log-level", "debug"});
    return run_wormsim(args, tmp.path());
  };
  const Result first = big(tmp / "a");
  ASSERT_EQ(first.exit_code, 0) << first.err;
  // Both second threads ran (with one CPU neither starts).
  const bool two_cpus = std::thread::hardware_concurrency() >= 2;
  EXPECT_EQ(first.err.find("[debug] links.csv: written by a second thread") != std::string::npos, two_cpus) << first.err;
  EXPECT_EQ(first.err.find("[debug] the routers' pool (76.0 MiB) is made resident by a second thread") !=
                std::string::npos,
            two_cpus)
      << first.err;
  EXPECT_EQ(set_state(tmp / "a"), "consistent");
  const nlohmann::ordered_json s = nlohmann::ordered_json::parse(read_file(tmp / "a" / "summary.json"));
  std::vector<std::string> names;
  for (const auto& [name, f] : s["outputs"].items()) names.push_back(name);
  EXPECT_EQ(names, (std::vector<std::string>{"messages.csv", "links.csv", "steps.csv", "routes.csv"}));
  const auto links = parse_csv(read_file(tmp / "a" / "links.csv"));
  ASSERT_EQ(links.size(), 374400u + 1);
  for (size_t l = 0; l < 374400; ++l) ASSERT_EQ(links[l + 1][0], std::to_string(l));
  const Result second = big(tmp / "b");
  ASSERT_EQ(second.exit_code, 0) << second.err;
  for (const char* name : {"messages.csv", "links.csv", "steps.csv", "routes.csv"})
    EXPECT_EQ(read_file(tmp / "a" / name), read_file(tmp / "b" / name)) << name;
}

TEST(OutputSet, ATraceIsPartOfTheSetAndAStaleOneIsRemoved) {
  TempDir tmp;
  std::vector<std::string> traced = run_args(tmp / "o", {});
  traced.insert(traced.end(), {"--trace", "perfetto"});
  EXPECT_EXIT_CODE(run_wormsim(traced, tmp.path()), 0);
  json s = json::parse(read_file(tmp / "o" / "summary.json"));
  EXPECT_TRUE(s["outputs"].contains("trace.json"));
  EXPECT_EQ(set_state(tmp / "o"), "consistent");
  const Result r = run_wormsim({"run", default_config().string(), "--out", (tmp / "o").string()}, tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  EXPECT_FALSE(fs::exists(tmp / "o" / "trace.json"));
  EXPECT_CONTAINS(r.out, "/o/{summary.json,messages.csv,links.csv,steps.csv,routes.csv}\n");
  EXPECT_EQ(set_state(tmp / "o"), "consistent");
}

TEST(OutputSet, AFullDiskLeavesNoOldSummaryBesideNewFiles) {
  TempDir tmp;
  EXPECT_EXIT_CODE(run_wormsim(run_args(tmp / "o", {}), tmp.path()), 0);
  RunControl full;
  full.file_size_limit = 16 * 1024;  // the 20x20 messages.csv (399 rows) does not fit
  const Result r = run_wormsim_with(run_args(tmp / "o", {"network.dims=[20,20]", "schedule.algorithm=binomial"}), tmp.path(), full);
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, "messages.csv: cannot write: File too large");
  EXPECT_EQ(set_state(tmp / "o"), "none");
  for (const auto& e : fs::directory_iterator(tmp / "o"))
    EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos) << e.path();
}

// The background's rows go to disk while the run goes (sim/streamed_message_rows.hpp),
// and so do a repeated schedule's retired repetitions' (sim/schedule_retirement.hpp):
// a disk that fills then stops the run with the file named, leaves the old set
// as it was and no spill file behind.
TEST(OutputSet, AFullDiskWhileRowsAreStreamedStopsTheRun) {
  struct Case {
    std::string set, error;
  };
  // A few hundred rows (some forty repetitions): the spill fills long before the run would end.
  const std::vector<Case> cases = {
      {"traffic={pattern: uniform, rate: 0.05, flits: 4, cycles: 200000}",
       "background-messages.csv: cannot write: File too large (the background's rows, written as the run goes; the "
       "run was stopped at cycle "},
      {"schedule.repeat={count: 100000, gap_cycles: 5}",
       "retired-messages.csv: cannot write: File too large (the rows of the schedule's delivered messages, written as "
       "the run goes; the run was stopped at cycle "},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.set);
    TempDir tmp;
    EXPECT_EXIT_CODE(run_wormsim(run_args(tmp / "o", {}), tmp.path()), 0);
    const std::string old_summary = read_file(tmp / "o" / "summary.json");
    RunControl full;
    full.file_size_limit = 64 * 1024;
    const Result r = run_wormsim_with(run_args(tmp / "o", {c.set}), tmp.path(), full);
    EXPECT_EXIT_CODE(r, 1);
    EXPECT_CONTAINS(r.err, c.error);
    EXPECT_EQ(read_file(tmp / "o" / "summary.json"), old_summary);
    EXPECT_EQ(set_state(tmp / "o"), "consistent");
    for (const auto& e : fs::directory_iterator(tmp / "o"))
      EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos) << e.path();
  }
}

// Killed at any moment, a run leaves either the old set, its own complete set,
// or no summary at all; SIGTERM is handled until its outputs are complete.
TEST(OutputSet, KilledAtAnyMomentTheFolderIsNeverMixed) {
  TempDir tmp;
  for (int sig : {SIGKILL, SIGTERM}) {
    for (int ms = 0; ms <= 240; ms += 20) {
      SCOPED_TRACE("signal " + std::to_string(sig) + " after " + std::to_string(ms) + " ms");
      const fs::path out = tmp / ("o" + std::to_string(sig) + "_" + std::to_string(ms));
      ASSERT_EQ(run_wormsim(run_args(out, {"schedule.mode=eager"}), tmp.path()).exit_code, 0);
      RunControl ctl;
      ctl.signal = sig;
      ctl.signal_after_ms = ms;
      const Result r = run_wormsim_with(run_args(out, {"network.dims=[64,64]", "schedule.algorithm=eye"}), tmp.path(), ctl);
      const std::string state = set_state(out);
      EXPECT_TRUE(state == "consistent" || state == "none") << state;
      if (state == "consistent" && sig == SIGTERM && r.exited) {
        const json s = json::parse(read_file(out / "summary.json"));
        EXPECT_EQ(s["config"]["network"]["dims"], json::array({64, 64}));
        EXPECT_TRUE(s["status"] == "interrupted" || s["status"] == "completed") << s["status"];
      }
    }
  }
}

TEST(OutputSet, ASecondRunIntoALockedFolderIsRefused) {
  TempDir tmp;
  fs::create_directories(tmp / "o");
  const int fd = ::open((tmp / "o" / ".wormsim.lock").c_str(), O_RDWR | O_CREAT, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX), 0);
  ASSERT_EQ(::write(fd, "4242\n", 5), 5);
  const Result r = run_wormsim(run_args(tmp / "o", {}), tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, "error: " + (tmp / "o").string() +
                             ": another wormsim run is writing to this folder (pid 4242); refusing to start");
  EXPECT_FALSE(fs::exists(tmp / "o" / "summary.json"));
  ::close(fd);
  EXPECT_EXIT_CODE(run_wormsim(run_args(tmp / "o", {}), tmp.path()), 0);
  EXPECT_EQ(set_state(tmp / "o"), "consistent");
}

TEST(OutputSet, ConcurrentRunsIntoOneFolderNeverMix) {
  TempDir tmp;
  // Two runs started together: one may be refused, and what is left is one whole set.
  for (int trial = 0; trial < 6; ++trial) {
    const fs::path out = tmp / ("o" + std::to_string(trial));
    Result a, b;
    std::thread ta([&] { a = run_wormsim(run_args(out, {"network.dims=[8,8]", "schedule.algorithm=binomial"}), tmp.path()); });
    std::thread tb([&] { b = run_wormsim(run_args(out, {"network.dims=[9,9]", "schedule.algorithm=binomial"}), tmp.path()); });
    ta.join();
    tb.join();
    for (const Result* r : {&a, &b}) {
      EXPECT_TRUE(r->exited && (r->exit_code == 0 || r->exit_code == 1)) << r->describe();
      if (r->exit_code == 1) {
        EXPECT_CONTAINS(r->err, "another wormsim run is writing to this folder");
      }
    }
    EXPECT_EQ(set_state(out), "consistent");
    const json s = json::parse(read_file(out / "summary.json"));
    const size_t rows = lines(read_file(out / "messages.csv")).size() - 1;
    EXPECT_EQ(s["metrics"]["messages"].get<size_t>(), rows);
  }
}

TEST(OutputSet, AnOutputFolderThatCannotBeMadeIsRefusedBeforeSimulating) {
  TempDir tmp;
  write_file(tmp / "plain_file", "x");
  // A run long enough that simulating first would show in the log.
  std::vector<std::string> args = run_args(tmp / "plain_file", {"network.dims=[64,64]", "schedule.algorithm=eye"});
  args.insert(args.end(), {"--log-level", "info"});
  std::rotate(args.rbegin(), args.rbegin() + 2, args.rend());  // the global option goes first
  const Result r = run_wormsim(args, tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, "error: " + (tmp / "plain_file").string() + ": cannot create output folder");
  EXPECT_EQ(r.err.find("elaborated"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(tmp / "plain_file"), "x");
}

TEST(OutputSet, PacketNamesRoundTripThroughCsvQuoting) {
  TempDir tmp;
  const std::string name = "a\",\"9, \"quoted\"";
  json sched = {{"wormsim_schedule", 1},
                {"topology", {{"kind", "mesh"}, {"dims", {4, 4}}}},
                {"flits", 4},
                {"steps", json::array({json::array({{{"src", 0}, {"dst", 5}, {"packet", name}}})})}};
  write_file(tmp / "s.json", sched.dump());
  write_file(tmp / "c.yaml", "network: {topology: mesh, dims: [4, 4]}\nschedule: {file: s.json}\n");
  const Result r = run_wormsim({"run", (tmp / "c.yaml").string(), "--out", (tmp / "o").string(), "--quiet"}, tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  const auto rows = parse_csv(read_file(tmp / "o" / "messages.csv"));
  ASSERT_EQ(rows.size(), 2u);
  ASSERT_EQ(rows[1].size(), rows[0].size());
  EXPECT_EQ(rows[0][7], "packet");
  EXPECT_EQ(rows[1][7], name);
  EXPECT_EQ(rows[1][5], "(0,0)");
}

// A VCD-traced run that stops before its first traced cycle still writes the
// usual outputs and status, and a valid VCD with the header alone.
TEST(OutputSet, AVcdRunStoppedAtTheFirstCycleWritesEverything) {
  TempDir tmp;
  for (const std::string& extra : {std::string("run.max_cycles=1"), std::string("schedule.flits=1")}) {
    SCOPED_TRACE(extra);
    const fs::path out = tmp / ("o" + std::to_string(extra.size()));
    std::vector<std::string> args = run_args(out, {extra});
    args.insert(args.end(), {"--trace", "vcd"});
    const Result r = run_wormsim(args, tmp.path());
    const json s = json::parse(read_file(out / "summary.json"));
    if (extra == "run.max_cycles=1") {
      EXPECT_EXIT_CODE(r, 3);
      EXPECT_EQ(s["status"], "cycle_limit");
      EXPECT_EQ(s["invariants"]["all_messages_delivered"], false);
      EXPECT_EQ(s["invariants"]["flits_conserved"], true);
      EXPECT_CONTAINS(read_file(out / "trace.vcd"), "$enddefinitions");
    } else {
      EXPECT_EXIT_CODE(r, 0);
    }
    EXPECT_EQ(r.err.find("W715"), std::string::npos) << r.err;
    EXPECT_EQ(set_state(out), "consistent");
    EXPECT_TRUE(s["outputs"].contains("trace.vcd"));
  }
  // Background traffic that generates no packet: nothing is ever traced either.
  write_file(tmp / "idle.yaml",
             "network: {topology: mesh, dims: [4, 4]}\ntraffic: {pattern: uniform, rate: 0.000001, cycles: 1}\n");
  const Result r = run_wormsim({"run", (tmp / "idle.yaml").string(), "--out", (tmp / "idle").string(), "--quiet",
                                "--trace", "vcd"},
                               tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  EXPECT_EQ(set_state(tmp / "idle"), "consistent");
  EXPECT_CONTAINS(read_file(tmp / "idle" / "trace.vcd"), "$enddefinitions");
}

TEST(OutputSet, AnInterruptedRunSaysItsMessagesWereNotDelivered) {
  TempDir tmp;
  RunControl ctl;
  ctl.signal_after_ms = 400;
  // Worms of 100,000 flits beside background traffic: seconds of simulation.
  write_file(tmp / "long.yaml",
             "network: {topology: mesh, dims: [16, 16]}\n"
             "traffic: {pattern: uniform, rate: 0.005, cycles: 100000}\n"
             "schedule: {algorithm: eye, flits: 100000}\n");
  const Result r = run_wormsim_with({"run", "long.yaml", "--out", "o", "--quiet"}, tmp.path(), ctl);
  EXPECT_EXIT_CODE(r, 3);
  const json s = json::parse(read_file(tmp / "o" / "summary.json"));
  EXPECT_EQ(s["status"], "interrupted");
  EXPECT_LT(s["metrics"]["delivered"].get<int>(), s["metrics"]["messages"].get<int>());
  EXPECT_EQ(s["invariants"]["all_messages_delivered"], false);
  EXPECT_EQ(s["invariants"]["flits_conserved"], true);
  EXPECT_EQ(set_state(tmp / "o"), "consistent");
}

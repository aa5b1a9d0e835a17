// Hardware multicast through the command line (docs/multicast.md): runs whose
// multicast worms could deadlock are refused unless network.allow_deadlock,
// naming the message and the reason; a tree worm alone runs without it; a
// schedule mixing unicast steps and path multicasts runs, writing copies.csv
// whose rows are the copies' own figures.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <string>

#include "cli_harness.hpp"

using namespace wormsim_cli;
using nlohmann::json;

namespace {

const std::string kLoad = "traffic={pattern: uniform, rate: 0.01, flits: 4, cycles: 200}";

// The default config on `network` with the schedule tests/data/schedules/SCHEDULE, into TMP/OUT.
Result run_test_schedule(const TempDir& tmp, const std::string& network, const std::string& schedule,
                         const std::string& out) {
  return run_wormsim({"run", default_config().string(), "--set", "network=" + network, "--set",
                      "schedule.file=" + (data_dir() / "schedules" / schedule).string(), "--set",
                      "run.watchdog_cycles=300", "--out", (tmp / out).string(), "--quiet"},
                     tmp.path());
}

TEST(CliMulticast, TreeWormsBesideBackgroundTrafficAreRefusedUnlessAllowed) {
  TempDir tmp;
  const std::vector<std::string> base = {"run", default_config().string(), "--set",
                                         "schedule={algorithm: tree, source: 5, flits: 8}", "--set", kLoad, "--out",
                                         (tmp / "o").string(), "--quiet"};
  const Result refused = run_wormsim(base, tmp.path());
  EXPECT_EXIT_CODE(refused, 1);
  EXPECT_NE(refused.err.find("step 1, message 1 (multicast: tree): tree worms replicate in lock step"),
            std::string::npos)
      << refused.err;
  EXPECT_NE(refused.err.find("network.allow_deadlock: true runs it anyway"), std::string::npos) << refused.err;
  EXPECT_FALSE(fs::exists(tmp / "o" / "summary.json"));
  std::vector<std::string> allowed = base;
  allowed.insert(allowed.end(), {"--set", "network.allow_deadlock=true"});
  const Result ran = run_wormsim(allowed, tmp.path());
  EXPECT_EXIT_CODE(ran, 0);
  const json s = json::parse(read_file(tmp / "o" / "summary.json"));
  EXPECT_NE(s.at("warnings").dump().find("(allowed by network.allow_deadlock)"), std::string::npos);
  EXPECT_EQ(s.at("multicast").at("copies_delivered"), 15);
}

// Alone in the network (barrier mode, its own step, no other traffic) a tree
// worm cannot deadlock: no flag needed. The same holds for path worms with no
// unicast worm beside them; with unicast steps in eager mode they are refused.
TEST(CliMulticast, WormsThatCannotMeetAnotherRunWithoutTheFlag) {
  TempDir tmp;
  for (const char* algo : {"tree", "dual-path", "multi-path", "column-path"}) {
    const Result r = run_wormsim({"run", default_config().string(), "--set",
                                  std::string("schedule={algorithm: ") + algo + ", source: 5, flits: 8}", "--out",
                                  (tmp / algo).string(), "--quiet"},
                                 tmp.path());
    EXPECT_EXIT_CODE(r, 0);
    const json s = json::parse(read_file(tmp / algo / "summary.json"));
    EXPECT_EQ(s.at("status"), "completed") << algo;
    EXPECT_EQ(s.at("multicast").at("copies_delivered"), 15) << algo;
  }
  // On a cmesh the tree's message has another worm (its first), to the other endpoints of
  // the source's router: it takes no link, so the tree worm is still alone.
  const Result cmesh = run_wormsim({"run", default_config().string(), "--set",
                                    "network={topology: cmesh, dims: [4, 4], concentration: 2}", "--set",
                                    "schedule={algorithm: tree, source: 0, flits: 8}", "--out",
                                    (tmp / "cmesh").string(), "--quiet"},
                                   tmp.path());
  EXPECT_EXIT_CODE(cmesh, 0);
  const json c = json::parse(read_file(tmp / "cmesh" / "summary.json"));
  EXPECT_EQ(c.at("status"), "completed");
  EXPECT_EQ(c.at("multicast").at("copies_delivered"), 31);
  EXPECT_EQ(c.at("warnings").size(), 0u) << c.at("warnings").dump();
  const std::string mixed = (source_dir() / "docs" / "examples" / "mesh4x4_rows_multicast.json").string();
  const Result barrier =
      run_wormsim({"run", default_config().string(), "--set", "schedule.file=" + mixed, "--out", (tmp / "b").string(),
                   "--quiet"},
                  tmp.path());
  EXPECT_EXIT_CODE(barrier, 0);
  const Result eager = run_wormsim({"run", default_config().string(), "--set", "schedule.file=" + mixed, "--set",
                                    "schedule.mode=eager", "--out", (tmp / "e").string(), "--quiet"},
                                   tmp.path());
  EXPECT_EXIT_CODE(eager, 1);
  EXPECT_NE(eager.err.find("step 3, message 1 (multicast: dual-path)"), std::string::npos) << eager.err;
}

// The mixed schedule: 3 unicast messages, then a dual-path multicast along
// each row to its 3 other nodes (12 copies, in worms of one or two). Each
// copy's row: its latency from its worm's release, never below its zero-load
// latency, and no later than its worm's last copy.
// Tree worms whose lock-step offers would each win one of the other's output
// ports every cycle (the ports' round-robin pointers move only when their
// winner moves), each holding its output VCs with credits: the first offer
// takes all its ports and the worms move on, alone or under a measured load,
// the same with the fast paths off. Before, they waited for each other until
// the watchdog stopped the run with "held by message ?".
TEST(CliMulticast, TreeWormsCrossedAtASwitchMoveOn) {
  TempDir tmp;
  const std::vector<std::string> base = {
      (source_dir() / "configs" / "cmesh.yaml").string(), "--set",
      "network={topology: cmesh, dims: [4, 4], concentration: 4, vcs: 4, buffer_flits: 8, allow_deadlock: true}",
      "--set", "schedule.file=" + (data_dir() / "schedules" / "cmesh4x4_crossed_tree_worms.json").string(), "--set",
      "run.watchdog_cycles=500"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = base;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  const ComparedRun fast = run_compared(tmp.path(), with({"--set", "traffic=null"}), "fast", {});
  const ComparedRun slow =
      run_compared(tmp.path(), with({"--set", "traffic=null", "--set", "run.fast_paths=false"}), "slow", {});
  EXPECT_EQ(fast.files, slow.files);
  EXPECT_EQ(fast.summary, slow.summary);
  EXPECT_EQ(fast.summary.at("status"), "completed");
  EXPECT_EQ(fast.summary.at("multicast").at("copies_delivered"), 9);
  const ComparedRun loaded = run_compared(
      tmp.path(),
      with({"--set", "traffic={pattern: uniform, rate: 0.005, flits: 8, warmup_cycles: 500, measure_cycles: 2000}"}),
      "loaded", {});
  EXPECT_EQ(loaded.summary.at("status"), "completed");
  EXPECT_EQ(loaded.summary.at("multicast").at("copies_delivered"), 9);
}

// Path worms of two messages to common destinations deadlock on one-port
// ejection channels (each absorbs at one and waits for the channel the other
// holds): refused unless allowed, then the watchdog's loop of the two; with an
// ejection channel per link (all-port) they complete. Steps whose messages
// have no destination in common run as before.
TEST(CliMulticast, PathWormsToCommonDestinationsOnSharedEjectionChannels) {
  TempDir tmp;
  auto run = [&](const std::string& network, const std::string& out) {
    return run_test_schedule(tmp, network, "line4_path_worms_common_destinations.json", out);
  };
  const Result refused = run("{topology: mesh, dims: [4]}", "refused");
  EXPECT_EXIT_CODE(refused, 1);
  EXPECT_CONTAINS(refused.err, "step 1, message 1 (multicast: dual-path): dual-path worms hold a destination's "
                               "ejection channel while they absorb and go on");
  const Result allowed = run("{topology: mesh, dims: [4], allow_deadlock: true}", "allowed");
  EXPECT_EXIT_CODE(allowed, 3);
  const json a = load_json(tmp / "allowed" / "summary.json");
  EXPECT_EQ(a.at("status"), "deadlock");
  ASSERT_EQ(a.at("deadlock").size(), 2u) << a.at("deadlock").dump();
  for (const json& w : a.at("deadlock")) EXPECT_EQ(w.at("waits_for_output"), "ejection");
  const Result all_port = run("{topology: mesh, dims: [4], port_model: all-port}", "all_port");
  EXPECT_EXIT_CODE(all_port, 0);
  EXPECT_EQ(load_json(tmp / "all_port" / "summary.json").at("multicast").at("copies_delivered"), 4);
  // In barrier mode messages of different steps never meet; in eager mode they may.
  write_file(tmp / "two_steps.json",
             R"({"wormsim_schedule": 1, "topology": {"kind": "mesh", "dims": [4]}, "flits": 16, "steps": [)"
             R"([{"src": 0, "dst": [1, 2], "multicast": "dual-path"}], [{"src": 3, "dst": [2, 1], "multicast": "dual-path"}]]})");
  for (const char* mode : {"barrier", "eager"}) {
    const Result r = run_wormsim({"run", default_config().string(), "--set", "network={topology: mesh, dims: [4]}",
                                  "--set", "schedule.file=" + (tmp / "two_steps.json").string(), "--set",
                                  std::string("schedule.mode=") + mode, "--out", (tmp / mode).string(), "--quiet"},
                                 tmp.path());
    EXPECT_EXIT_CODE(r, std::string(mode) == "barrier" ? 0 : 1);
  }
}

// To a scheme, another scheme's worms in the network with its own are worms
// it does not order its channels with: column-path's XY worms beside dual-path
// worms close the cycle XY unicast worms do (refused unless allowed, then the
// watchdog's loop of the four).
TEST(CliMulticast, AnotherSchemesWormsCountAsUnicastWorms) {
  TempDir tmp;
  auto run = [&](const std::string& allow, const std::string& out) {
    return run_test_schedule(tmp, "{topology: mesh, dims: [3, 3], buffer_flits: 1" + allow + "}",
                             "mesh3x3_dual_path_beside_column_path.json", out);
  };
  const Result refused = run("", "refused");
  EXPECT_EXIT_CODE(refused, 1);
  EXPECT_CONTAINS(refused.err, "step 1, message 1 (multicast: dual-path): dual-path worms are deadlock-free among "
                               "themselves (labels only grow on the high network and only shrink on the low one), "
                               "but beside unicast worms or another scheme's worms");
  const Result allowed = run(", allow_deadlock: true", "allowed");
  EXPECT_EXIT_CODE(allowed, 3);
  const json a = load_json(tmp / "allowed" / "summary.json");
  EXPECT_EQ(a.at("status"), "deadlock");
  EXPECT_EQ(a.at("deadlock").size(), 4u) << a.at("deadlock").dump();
}

TEST(CliMulticast, CopiesCsvHasOneRowPerCopyWithItsOwnFigures) {
  TempDir tmp;
  const std::string mixed = (source_dir() / "docs" / "examples" / "mesh4x4_rows_multicast.json").string();
  const Result r = run_wormsim({"run", default_config().string(), "--set", "schedule.file=" + mixed, "--out",
                                (tmp / "o").string(), "--quiet"},
                               tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  const auto rows = csv_rows(tmp / "o" / "copies.csv");
  ASSERT_EQ(rows.size(), 12u);
  const json s = json::parse(read_file(tmp / "o" / "summary.json"));
  EXPECT_EQ(s.at("multicast").at("copies"), 12);
  EXPECT_EQ(s.at("multicast").at("copies_delivered"), 12);
  const auto messages = csv_rows(tmp / "o" / "messages.csv");
  for (const auto& c : rows) {
    const auto& m = messages.at(std::stoul(c.at("id")));
    EXPECT_EQ(m.at("step"), "2");
    EXPECT_EQ(std::stol(c.at("latency")), std::stol(c.at("delivered")) - std::stol(m.at("release")));
    EXPECT_GE(std::stol(c.at("latency")), std::stol(c.at("zero_load_latency")));
    EXPECT_LE(std::stol(c.at("delivered")), std::stol(m.at("delivered")));  // the worm's last copy is its own delivery
  }
  // Routes list each worm's links; its hops count them (no absorb entries).
  const auto routes = csv_rows(tmp / "o" / "routes.csv");
  for (const auto& m : messages) {
    const std::string links = routes.at(std::stoul(m.at("id"))).at("links");
    const long n = links.empty() ? 0 : 1 + static_cast<long>(std::count(links.begin(), links.end(), ' '));
    EXPECT_EQ(n, std::stol(m.at("hops"))) << m.at("id");
  }
  const json flits = s.at("metrics");
  EXPECT_EQ(flits.at("flits_injected"), flits.at("flits_ejected"));
}

// The human summary counts the schedule's messages and, where they differ, the
// worms they travel as (a dual-path broadcast from the middle is two worms).
TEST(CliMulticast, HumanSummarySaysMessagesAndWorms) {
  TempDir tmp;
  const auto run = [&](const std::vector<std::string>& extra) {
    std::vector<std::string> args{"run", default_config().string(), "--set", "schedule.file=null",
                                  "--set", "schedule.source=eye", "--out", (tmp / "o").string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_wormsim(args, tmp.path());
  };
  const Result once = run({"--set", "schedule.algorithm=dual-path"});
  EXPECT_EXIT_CODE(once, 0);
  EXPECT_CONTAINS(once.out, "(1 steps, 1 messages as 2 worms)\n");
  const json s = json::parse(read_file(tmp / "o" / "summary.json"));
  EXPECT_EQ(s.at("schedule").at("messages"), 1);
  EXPECT_EQ(s.at("metrics").at("messages"), 2);
  const Result repeated = run({"--set", "schedule.algorithm=dual-path", "--set", "schedule.repeat.count=3"});
  EXPECT_EXIT_CODE(repeated, 0);
  EXPECT_CONTAINS(repeated.out, "(1 steps, 3 messages as 6 worms in 3 repetitions)\n");
  const Result unicast = run({"--set", "schedule.algorithm=eye"});
  EXPECT_EXIT_CODE(unicast, 0);
  EXPECT_CONTAINS(unicast.out, "(4 steps, 15 messages)\n");
}

}  // namespace

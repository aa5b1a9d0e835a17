// output.router_stats (docs/metrics.md, "Router statistics"): buffer occupancy
// per router and per VC, head stalls by cause, and the hop-count distribution,
// checked against figures derived by hand from the timing model
// (docs/timing-model.md), against the run's own message records, and for bad input.
// The fast-path differential test (test_cli_run.cpp) also compares these files.
#include <cstdlib>
#include <fstream>
#include <map>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

using namespace wormsim_cli;
using nlohmann::json;

namespace {

// Runs `config` with output.router_stats on and the given overrides, into tmp/name.
void run_with_stats(const TempDir& tmp, const std::string& config, const std::string& name,
                    const std::vector<std::string>& sets, bool stats = true) {
  std::vector<std::string> args{"run", config, "--quiet", "--out", (tmp / name).string(), "--set",
                                "output.host_timing=false"};
  if (stats) args.insert(args.end(), {"--set", "output.router_stats=true"});
  for (const auto& s : sets) args.insert(args.end(), {"--set", s});
  const Result r = run_wormsim(args, tmp.path(), 120);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
}

uint64_t as_count(const std::map<std::string, std::string>& row, const std::string& col) {
  return std::stoull(row.at(col));
}

// A schedule file of one step: `pairs` of (src, dst) nodes of a mesh of `dims`, `flits` each.
std::string one_step_schedule(const std::string& dims, int flits,
                              const std::vector<std::pair<std::string, std::string>>& pairs) {
  std::string s = "{\"wormsim_schedule\": 1, \"name\": \"test\", \"topology\": {\"kind\": \"mesh\", \"dims\": " + dims +
                  "}, \"flits\": " + std::to_string(flits) + ", \"steps\": [[";
  for (size_t i = 0; i < pairs.size(); ++i)
    s += std::string(i ? ", " : "") + "{\"src\": " + pairs[i].first + ", \"dst\": " + pairs[i].second + "}";
  return s + "]]}\n";
}

}  // namespace

// The default run (eye broadcast, 16-flit messages of one hop each, no
// contention: every latency is the zero-load 2H + L = 18). On an idle path a
// worm streams one flit per cycle and each flit stays t_r = 1 cycle in the
// source router's injection buffer and t_l + t_r = 2 cycles in each later
// router's link buffer. So a router holds 16 flit-cycles per message it sends
// and 32 per message it receives, and no head ever stalls.
TEST(RouterStats, AnIdleBroadcastsOccupancyIsTheTimingModels) {
  TempDir tmp;
  run_with_stats(tmp, default_config().string(), "eye", {});
  const auto messages = csv_rows(tmp / "eye" / "messages.csv");
  ASSERT_EQ(messages.size(), 15u);
  std::map<uint64_t, uint64_t> expected;  // router -> flit-cycles
  for (const auto& m : messages) {
    ASSERT_EQ(as_count(m, "latency"), as_count(m, "zero_load_latency")) << "the broadcast must be contention-free";
    expected[as_count(m, "src")] += 16 * 1;
    expected[as_count(m, "dst")] += 16 * 2;
  }
  const json s = summary_of(tmp / "eye");
  const json& rs = s.at("router_stats");
  const uint64_t span = s.at("metrics").at("span_cycles").get<uint64_t>();
  EXPECT_EQ(rs.at("cycles").get<uint64_t>(), span);
  EXPECT_EQ(rs.at("flit_cycles").get<uint64_t>(), 15u * (16 + 32));
  EXPECT_EQ(rs.at("vc_alloc_stall_cycles"), 0);
  EXPECT_EQ(rs.at("switch_alloc_stall_cycles"), 0);
  EXPECT_EQ(rs.at("credit_stall_cycles"), 0);
  EXPECT_DOUBLE_EQ(rs.at("occupancy").at("mean").get<double>(), 15.0 * 48 / static_cast<double>(span) / 16);
  const auto routers = csv_rows(tmp / "eye" / "routers.csv");
  ASSERT_EQ(routers.size(), 16u);
  for (const auto& r : routers) {
    const uint64_t id = as_count(r, "router");
    EXPECT_EQ(as_count(r, "flit_cycles"), expected[id]) << "router " << id;
    EXPECT_EQ(as_count(r, "vc_alloc_stall_cycles") + as_count(r, "switch_alloc_stall_cycles") + as_count(r, "credit_stall_cycles"), 0u);
    char mean[64];
    std::snprintf(mean, sizeof mean, "%.6f", static_cast<double>(expected[id]) / static_cast<double>(span));
    EXPECT_EQ(r.at("occupancy_mean"), mean) << "router " << id;
  }
  // Per VC: the injection VC of a sender holds its 16 per message, a link VC 32.
  uint64_t injection = 0, link = 0;
  for (const auto& v : csv_rows(tmp / "eye" / "vcs.csv")) (v.at("input") == "injection" ? injection : link) += as_count(v, "flit_cycles");
  EXPECT_EQ(injection, 15u * 16);
  EXPECT_EQ(link, 15u * 32);
  // Every message of the eye broadcast goes one hop.
  const auto hops = csv_rows(tmp / "eye" / "hops.csv");
  ASSERT_EQ(hops.size(), 1u);
  EXPECT_EQ(as_count(hops[0], "hops"), 1u);
  EXPECT_EQ(as_count(hops[0], "messages"), 15u);
}

// Two 16-flit worms on a line of a 4x4 mesh, released together: A from (0,0)
// and B from (1,0), both to (2,0). B's header takes router (1,0)'s "+" output
// at cycle 1 and holds it until its tail leaves at cycle 1 + 15 = 16. A's header
// reaches (1,0) ready at cycle 3 (t_r + t_l + t_r after its release) and fails
// VC allocation in cycles 3 .. 16: 14 = L - 2 stall cycles, all at router 1's
// input port 1 (the "-" side of dimension 0: flits travelling "+"), VC 0. B's
// tail is ejected at (2,0) at cycle 18, before A's header gets there (19): no
// other stall.
TEST(RouterStats, TwoWormsForOneOutputStallAsDerivedByHand) {
  TempDir tmp;
  write_file(tmp / "two.json", one_step_schedule("[4, 4]", 16, {{"[0, 0]", "[2, 0]"}, {"[1, 0]", "[2, 0]"}}));
  run_with_stats(tmp, default_config().string(), "two", {"schedule.file=" + (tmp / "two.json").string(), "schedule.mode=eager"});
  const json rs = summary_of(tmp / "two").at("router_stats");
  EXPECT_EQ(rs.at("vc_alloc_stall_cycles"), 14);
  EXPECT_EQ(rs.at("switch_alloc_stall_cycles"), 0);
  EXPECT_EQ(rs.at("credit_stall_cycles"), 0);
  for (const auto& v : csv_rows(tmp / "two" / "vcs.csv")) {
    const bool there = as_count(v, "router") == 1 && as_count(v, "port") == 1 && as_count(v, "vc") == 0;
    EXPECT_EQ(as_count(v, "vc_alloc_stall_cycles"), there ? 14u : 0u) << v.at("router") << " " << v.at("port");
  }
  // The messages' own header-stall accounting says the same.
  uint64_t charged = 0;
  for (const auto& m : csv_rows(tmp / "two" / "messages.csv")) charged += as_count(m, "step_contention_cycles");
  EXPECT_EQ(charged, 14u);
}

// Dimension-order routes on a mesh are minimal: the hop histogram of messages
// from corner (0,0) of a 4x4 mesh to every other node is the distribution of
// Manhattan distances from a corner.
TEST(RouterStats, HopHistogramIsTheManhattanDistances) {
  TempDir tmp;
  std::vector<std::pair<std::string, std::string>> pairs;
  std::map<uint64_t, uint64_t> expected;
  uint64_t sum = 0;
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      if (x == 0 && y == 0) continue;
      pairs.emplace_back("[0, 0]", "[" + std::to_string(x) + ", " + std::to_string(y) + "]");
      ++expected[static_cast<uint64_t>(x + y)];
      sum += static_cast<uint64_t>(x + y);
    }
  write_file(tmp / "corner.json", one_step_schedule("[4, 4]", 4, pairs));
  run_with_stats(tmp, default_config().string(), "corner", {"schedule.file=" + (tmp / "corner.json").string()});
  std::map<uint64_t, uint64_t> got;
  for (const auto& h : csv_rows(tmp / "corner" / "hops.csv")) got[as_count(h, "hops")] = as_count(h, "messages");
  EXPECT_EQ(got, expected);
  const json rs = summary_of(tmp / "corner").at("router_stats");
  EXPECT_EQ(rs.at("hops").at("messages"), 15);
  EXPECT_EQ(rs.at("hops").at("min"), 1);
  EXPECT_EQ(rs.at("hops").at("max"), 6);
  EXPECT_DOUBLE_EQ(rs.at("hops").at("mean").get<double>(), static_cast<double>(sum) / 15.0);
}

// Little's law, flit by flit: the buffers' total flit-cycles are the flits'
// total time in the network. Each flit of a message stays at least
// (H+1) t_r + H t_l = 2H + 1 cycles (equality without blocking), and at most
// delivered - inject (it enters no earlier than its header, leaves no later
// than its tail). Under uniform load on a torus with two VCs, both bounds hold.
TEST(RouterStats, OccupancyIsTheFlitsTimeInTheNetwork) {
  TempDir tmp;
  run_with_stats(tmp, default_config().string(), "load",
                 {"schedule=null", "network.topology=torus", "network.dims=[6,6]", "network.vcs=2",
                  "traffic={pattern: uniform, rate: 0.04, flits: 6, cycles: 1500}"});
  uint64_t lower = 0, upper = 0;
  for (const auto& m : csv_rows(tmp / "load" / "messages.csv")) {
    ASSERT_FALSE(m.at("delivered").empty());
    const uint64_t flits = as_count(m, "flits"), hops = as_count(m, "hops");
    lower += flits * (2 * hops + 1);
    upper += flits * (as_count(m, "delivered") - as_count(m, "inject"));
  }
  const json rs = summary_of(tmp / "load").at("router_stats");
  const uint64_t total = rs.at("flit_cycles").get<uint64_t>();
  EXPECT_GE(total, lower);
  EXPECT_LE(total, upper);
  EXPECT_GT(total, lower) << "this load blocks some worms";
  EXPECT_GT(rs.at("vc_alloc_stall_cycles").get<uint64_t>(), 0u);
  EXPECT_GT(rs.at("switch_alloc_stall_cycles").get<uint64_t>(), 0u) << "two VCs share each link's switch port";
  // The per-VC rows add up to the routers', and those to the total.
  uint64_t vcs = 0, routers = 0;
  for (const auto& v : csv_rows(tmp / "load" / "vcs.csv")) vcs += as_count(v, "flit_cycles");
  for (const auto& r : csv_rows(tmp / "load" / "routers.csv")) routers += as_count(r, "flit_cycles");
  EXPECT_EQ(vcs, total);
  EXPECT_EQ(routers, total);
}

// A measured run: the hop histogram covers the packets created in the window
// that were delivered, like load.packet_latency, and the occupancy covers the
// window's cycles (at most every buffer full all the time).
TEST(RouterStats, AMeasuredRunCountsTheWindow) {
  TempDir tmp;
  const std::string config = (source_dir() / "configs" / "load_8x8_uniform.yaml").string();
  run_with_stats(tmp, config, "window", {"traffic.warmup_cycles=300", "traffic.measure_cycles=700"});
  const json s = summary_of(tmp / "window");
  const json& rs = s.at("router_stats");
  EXPECT_EQ(rs.at("cycles"), 700);
  EXPECT_EQ(rs.at("hops").at("messages"), s.at("load").at("delivered"));
  uint64_t hop_sum = 0, measured = 0;
  for (const auto& m : csv_rows(tmp / "window" / "messages.csv")) {
    const uint64_t release = as_count(m, "release");
    if (release < 300 || release >= 1000 || m.at("delivered").empty()) continue;
    hop_sum += as_count(m, "hops");
    ++measured;
  }
  ASSERT_EQ(rs.at("hops").at("messages").get<uint64_t>(), measured);
  EXPECT_DOUBLE_EQ(rs.at("hops").at("mean").get<double>(), static_cast<double>(hop_sum) / static_cast<double>(measured));
  EXPECT_GT(rs.at("flit_cycles").get<uint64_t>(), 0u);
  // One VC per port: an output port's only VC is held by one worm, so no head loses the switch.
  EXPECT_EQ(rs.at("switch_alloc_stall_cycles"), 0);
  EXPECT_GT(rs.at("vc_alloc_stall_cycles").get<uint64_t>(), 0u);
  for (const auto& v : csv_rows(tmp / "window" / "vcs.csv"))
    EXPECT_LE(as_count(v, "flit_cycles"), 700u * 8) << "more than a full buffer (8 flits) for the whole window";
}

// Off by default: no new file, no new block, and the other files are the same
// bytes with it on (summary.json apart from its router_stats block and the
// manifest of files).
TEST(RouterStats, OffByDefaultAndChangesNothingElse) {
  TempDir tmp;
  const std::vector<std::string> sets = {"traffic={pattern: uniform, rate: 0.02, flits: 5, cycles: 400}"};
  run_with_stats(tmp, default_config().string(), "off", sets, false);
  run_with_stats(tmp, default_config().string(), "on", sets, true);
  for (const char* f : {"routers.csv", "vcs.csv", "hops.csv"}) {
    EXPECT_FALSE(fs::exists(tmp / "off" / f)) << f;
    EXPECT_TRUE(fs::exists(tmp / "on" / f)) << f;
  }
  for (const char* f : {"messages.csv", "links.csv", "steps.csv", "routes.csv"})
    EXPECT_EQ(read_file(tmp / "off" / f), read_file(tmp / "on" / f)) << f;
  json off = summary_of(tmp / "off"), on = summary_of(tmp / "on");
  EXPECT_FALSE(off.contains("router_stats"));
  ASSERT_TRUE(on.contains("router_stats"));
  on.erase("router_stats");
  on.erase("outputs");
  off.erase("outputs");
  EXPECT_EQ(on, off);
}

// Same config and seed, same bytes.
TEST(RouterStats, Deterministic) {
  TempDir tmp;
  const std::vector<std::string> sets = {"network.vcs=2", "traffic={pattern: transpose, rate: 0.05, flits: 4, cycles: 500}"};
  run_with_stats(tmp, default_config().string(), "a", sets);
  run_with_stats(tmp, default_config().string(), "b", sets);
  for (const char* f : {"routers.csv", "vcs.csv", "hops.csv", "summary.json"})
    EXPECT_EQ(read_file(tmp / "a" / f), read_file(tmp / "b" / f)) << f;
}

TEST(RouterStats, BadValueIsRefusedByName) {
  TempDir tmp;
  const Result r = run_wormsim({"run", default_config().string(), "--set", "output.router_stats=often", "--quiet",
                                "--out", (tmp / "o").string()},
                               tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, default_config().string() + ": output.router_stats (from --set): expected true or false, got \"often\"");
}

// A ring of 8 with one VC where every node sends a 64-flit worm 3 hops "+":
// the worms deadlock at once, and with the watchdog off the run jumps to the
// cycle limit (Network::skip_frozen), charging every stall of the skipped
// cycles at once. By hand, at every router: the arriving header is ready at
// cycle 3 (t_r + t_l + t_r after its release at 0) and waits for the "+"
// output held by the router's own worm until the limit, 5000: 4997 VC
// allocation stall cycles; the link buffer (2 flits) holds flits sent in at
// cycles 1 and 2 until then: (5000 - 1) + (5000 - 2) = 9997 flit-cycles. The
// injection buffer saw flits 0 and 1 stay one cycle each and holds flits 2
// and 3 (in at cycles 2 and 3): 1 + 1 + 4998 + 4997 = 9997. Fast paths on or off.
TEST(RouterStats, AFrozenDeadlockCountsToTheCycleLimit) {
  TempDir tmp;
  write_file(tmp / "ring.yaml", "network: {topology: ring, dims: [8], vcs: 1, allow_deadlock: true, buffer_flits: 2}\nschedule: {file: " +
                                    (data_dir() / "schedules" / "ring8_shift3_64flits.json").string() + "}\n");
  std::string vcs[2];
  for (int fast = 0; fast < 2; ++fast) {
    const fs::path out = tmp / std::to_string(fast);
    const Result r = run_wormsim({"run", "ring.yaml", "--set", "run.watchdog_cycles=0", "--set", "run.max_cycles=5000",
                                  "--set", std::string("run.fast_paths=") + (fast ? "true" : "false"), "--set",
                                  "output.router_stats=true", "--out", out.string(), "--quiet"},
                                 tmp.path());
    ASSERT_TRUE(r.exited && r.exit_code == 3) << r.describe();
    vcs[fast] = read_file(out / "vcs.csv");
    for (const auto& v : csv_rows(out / "vcs.csv")) {
      const uint64_t flit_cycles = as_count(v, "flit_cycles");
      if (v.at("input") == "injection") {
        EXPECT_EQ(flit_cycles, 9997u) << "router " << v.at("router");
        EXPECT_EQ(as_count(v, "vc_alloc_stall_cycles"), 0u);
      } else if (as_count(v, "port") == 1) {  // the "-" side: flits travelling "+" arrive here
        EXPECT_EQ(flit_cycles, 9997u) << "router " << v.at("router");
        EXPECT_EQ(as_count(v, "vc_alloc_stall_cycles"), 4997u) << "router " << v.at("router");
      } else {
        EXPECT_EQ(flit_cycles, 0u);
      }
    }
    const json rs = summary_of(out).at("router_stats");
    EXPECT_EQ(rs.at("cycles"), 5000);
    EXPECT_EQ(rs.at("flit_cycles"), 8 * 2 * 9997);
  }
  EXPECT_EQ(vcs[0], vcs[1]);
}

// Little's law, exactly: a one-flit worm is in the network from the cycle its
// interface puts it into the injection buffer (inject) to the cycle it is
// ejected (delivered), in exactly one buffer at a time. So the buffers' total
// flit-cycles equal the sum of delivered - inject, whatever the contention: on
// a mesh, on a torus under adaptive routing with three VCs, and on a
// concentrated mesh (several interfaces per router).
TEST(RouterStats, OneFlitWormsObeyLittlesLawExactly) {
  TempDir tmp;
  const std::string traffic = "traffic={pattern: uniform, rate: 0.15, flits: 1, cycles: 800}";
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {default_config().string(), {"schedule=null", "network.dims=[6,6]", traffic}},
      {default_config().string(),
       {"schedule=null", "network.topology=torus", "network.dims=[6,6]", "network.vcs=3",
        "network.routing=minimal-adaptive", traffic}},
      {(source_dir() / "configs" / "cmesh.yaml").string(), {"schedule=null", traffic}}};
  for (size_t c = 0; c < cases.size(); ++c) {
    SCOPED_TRACE("case " + std::to_string(c));
    const std::string name = "c" + std::to_string(c);
    run_with_stats(tmp, cases[c].first, name, cases[c].second);
    uint64_t in_network = 0;
    size_t delivered = 0;
    for (const auto& m : csv_rows(tmp / name / "messages.csv")) {
      ASSERT_FALSE(m.at("delivered").empty());
      in_network += as_count(m, "delivered") - as_count(m, "inject");
      ++delivered;
    }
    ASSERT_GT(delivered, 500u);
    const json rs = summary_of(tmp / name).at("router_stats");
    EXPECT_EQ(rs.at("flit_cycles").get<uint64_t>(), in_network);
    EXPECT_GT(rs.at("vc_alloc_stall_cycles").get<uint64_t>(), 0u) << "the load must make worms wait";
  }
}

// output.messages: schedule folds each background message into the figures as
// it is delivered and recycles its record: the hop counts (retired ones
// included) and everything else must come out as with every record kept, in a
// measured run and in a run with a schedule and background traffic.
TEST(RouterStats, RecycledRecordsGiveTheSameFigures) {
  TempDir tmp;
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {(source_dir() / "configs" / "load_8x8_uniform.yaml").string(), {"traffic.measure_cycles=1500"}},
      {default_config().string(), {"traffic={pattern: uniform, rate: 0.05, flits: 4, cycles: 600}"}}};
  for (size_t c = 0; c < cases.size(); ++c) {
    SCOPED_TRACE("case " + std::to_string(c));
    for (const char* rows : {"all", "schedule"}) {
      std::vector<std::string> sets = cases[c].second;
      sets.push_back(std::string("output.messages=") + rows);
      run_with_stats(tmp, cases[c].first, std::to_string(c) + rows, sets);
    }
    for (const char* f : {"hops.csv", "vcs.csv", "routers.csv"})
      EXPECT_EQ(read_file(tmp / (std::to_string(c) + "all") / f), read_file(tmp / (std::to_string(c) + "schedule") / f)) << f;
    const json all = summary_of(tmp / (std::to_string(c) + "all")).at("router_stats");
    EXPECT_EQ(all, summary_of(tmp / (std::to_string(c) + "schedule")).at("router_stats"));
    EXPECT_GT(all.at("hops").at("messages").get<int>(), 0);
  }
}

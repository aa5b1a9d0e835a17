// Timeline traces: `run --trace perfetto` writes Chrome trace-event JSON with a
// slice per worm per channel, flow arrows, step markers and counters;
// `run --trace vcd` writes a VCD waveform; both refuse what they cannot do.
#include <gtest/gtest.h>

#include <fstream>
#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

using namespace wormsim_cli;

namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}


TEST(CliTrace, PerfettoTraceHasSlicesFlowsMarkersAndCounters) {
  TempDir tmp;
  const auto out = tmp / "out";
  const Result r = run_wormsim({"run", kDefault, "--out", out.string(), "--trace", "perfetto", "--quiet"}, tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  EXPECT_EQ(r.out, "");
  const auto trace = nlohmann::json::parse(slurp(out / "trace.json"));
  std::map<std::string, int> phases;
  int eject_slices = 0, link_slices = 0;
  for (const auto& e : trace["traceEvents"]) {
    ++phases[e["ph"].get<std::string>()];
    if (e["ph"] == "X") {
      EXPECT_GT(e["dur"].get<long>(), 0);
      const int tid = e["tid"].get<int>();
      eject_slices += tid >= 100 && tid < 200;
      link_slices += tid < 100;
    }
  }
  // Default schedule: 15 one-hop messages, each holding an injection channel, one link and an ejection channel.
  EXPECT_EQ(phases["X"], 45);
  EXPECT_EQ(eject_slices, 15);
  EXPECT_EQ(link_slices, 15);
  EXPECT_EQ(phases["s"], 15);
  EXPECT_EQ(phases["f"], 15);
  EXPECT_EQ(phases["i"], 4);  // one marker per step
  EXPECT_GT(phases["C"], 0);
  EXPECT_GT(phases["M"], 16);  // process names for every node, track names
  // A link slice of a 16-flit worm lasts from its reservation to after its tail: at least 16 cycles.
  for (const auto& e : trace["traceEvents"]) {
    if (e["ph"] == "X" && e["tid"].get<int>() < 100) {
      EXPECT_GE(e["dur"].get<long>(), 16);
    }
  }
  EXPECT_TRUE(std::filesystem::exists(out / "summary.json"));
}

TEST(CliTrace, VcdTraceHasOneWaveformPerLinkAndRouter) {
  TempDir tmp;
  const auto out = tmp / "out";
  const Result r = run_wormsim({"run", kDefault, "--out", out.string(), "--trace", "vcd", "--quiet"}, tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  EXPECT_EQ(r.out, "");
  const std::string vcd = slurp(out / "trace.vcd");
  EXPECT_NE(vcd.find("$timescale"), std::string::npos);
  size_t vars = 0;
  for (size_t p = vcd.find("$var"); p != std::string::npos; p = vcd.find("$var", p + 1)) ++vars;
  EXPECT_EQ(vars, 48u + 16u);  // 48 directed links of a 4x4 mesh, 16 routers
  EXPECT_NE(vcd.find("link_5_to_6_flits"), std::string::npos);
  // No temporary file is left behind.
  for (const auto& f : std::filesystem::directory_iterator(out))
    EXPECT_EQ(f.path().filename().string().find(".tmp"), std::string::npos);
}

TEST(CliTrace, VcdRefusesLargeNetworks) {
  TempDir tmp;
  const Result r = run_wormsim({"run", kDefault, "--out", (tmp / "out").string(), "--trace", "vcd", "--set",
                                "network.dims=[64,64]", "--set", "schedule.algorithm=eye"},
                               tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, "output.trace: vcd traces are for small networks");
  // config check says so too (it accepted such a config), and so refuses what a sweep would fail on.
  const Result c = run_wormsim({"config", "check", kDefault, "--set", "output.trace=vcd", "--set",
                                "network.dims=[64,64]", "--set", "schedule.algorithm=eye"},
                               tmp.path());
  EXPECT_EXIT_CODE(c, 1);
  EXPECT_CONTAINS(c.err, "output.trace: vcd traces are for small networks (at most 4096 links; this one has 16128)");
}

TEST(CliTrace, UnknownTraceKindIsAUsageError) {
  TempDir tmp;
  const Result r = run_wormsim({"run", kDefault, "--trace", "gtkwave"}, tmp.path());
  EXPECT_EXIT_CODE(r, 2);
  const Result c = run_wormsim({"run", kDefault, "--set", "output.trace=gtkwave"}, tmp.path());
  EXPECT_EXIT_CODE(c, 1);
  EXPECT_CONTAINS(c.err, "output.trace (from --set): expected none, perfetto or vcd");
}

}  // namespace

// With several VCs, worms overlap in time on one link: each VC has its own
// track, so that slices on every track nest as the trace-event format requires.
TEST(CliTrace, PerfettoSlicesNestOnEveryTrackWithSeveralVcs) {
  TempDir tmp;
  write_file(tmp / "t.yaml",
             "network: {topology: torus, dims: [8, 8], vcs: 2}\n"
             "traffic: {pattern: uniform, rate: 0.02, cycles: 2000}\n"
             "schedule: {algorithm: binomial, mode: eager}\n");
  const Result r = run_wormsim({"run", "t.yaml", "--out", "o", "--trace", "perfetto", "--quiet"}, tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  const auto trace = nlohmann::json::parse(slurp(tmp / "o" / "trace.json"));
  std::map<std::pair<int, int>, std::vector<std::pair<long, long>>> tracks;
  std::map<std::pair<int, int>, std::string> names;
  std::map<long, int> starts, finishes;
  std::map<long, long> start_ts, finish_ts;
  std::set<int> vcs_seen;
  for (const auto& e : trace["traceEvents"]) {
    const std::string ph = e["ph"];
    if (ph == "X") {
      const long ts = e["ts"], dur = e["dur"];
      tracks[{e["pid"].get<int>(), e["tid"].get<int>()}].push_back({ts, ts + dur});
      if (e["args"].contains("vc")) vcs_seen.insert(e["args"]["vc"].get<int>());
    } else if (ph == "M" && e["name"] == "thread_name") {
      names[{e["pid"].get<int>(), e["tid"].get<int>()}] = e["args"]["name"];
    } else if (ph == "s") {
      ++starts[e["id"].get<long>()];
      start_ts[e["id"].get<long>()] = e["ts"];
    } else if (ph == "f") {
      ++finishes[e["id"].get<long>()];
      finish_ts[e["id"].get<long>()] = e["ts"];
    }
  }
  EXPECT_EQ(vcs_seen, (std::set<int>{0, 1}));
  size_t partial_overlaps = 0, slices = 0;
  for (auto& [track, v] : tracks) {
    EXPECT_TRUE(names.count(track)) << "a track without a name";
    std::sort(v.begin(), v.end());
    slices += v.size();
    for (size_t i = 1; i < v.size(); ++i)
      partial_overlaps += v[i].first < v[i - 1].second && v[i].second > v[i - 1].second;
  }
  EXPECT_GT(slices, 1000u);
  EXPECT_EQ(partial_overlaps, 0u);
  EXPECT_CONTAINS(slurp(tmp / "o" / "trace.json"), "\"name\":\"link +x vc1\"");
  // Every flow that starts finishes once, later, and no finish is without a start.
  EXPECT_EQ(starts.size(), finishes.size());
  for (const auto& [id, n] : starts) {
    EXPECT_EQ(n, 1) << id;
    ASSERT_EQ(finishes.count(id), 1u) << id;
    EXPECT_EQ(finishes[id], 1) << id;
    EXPECT_LE(start_ts[id], finish_ts[id]) << id;
  }
}

// Slice names count steps from 1, as the step markers do.
TEST(CliTrace, PerfettoStepsAreNumberedFromOneEverywhere) {
  TempDir tmp;
  const Result r = run_wormsim({"run", kDefault, "--out", "o", "--trace", "perfetto", "--quiet"}, tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  const auto trace = nlohmann::json::parse(slurp(tmp / "o" / "trace.json"));
  std::set<std::string> slice_steps, markers;
  for (const auto& e : trace["traceEvents"]) {
    if (e["ph"] == "i") markers.insert(e["name"].get<std::string>().substr(5));
    if (e["ph"] == "X") {
      const std::string n = e["name"];
      const size_t s = n.find(" s");
      slice_steps.insert(n.substr(s + 2, n.find(' ', s + 2) - s - 2));
    }
  }
  EXPECT_EQ(markers, (std::set<std::string>{"1", "2", "3", "4"}));
  EXPECT_EQ(slice_steps, markers);
}

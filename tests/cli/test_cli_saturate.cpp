// `wormsim saturate` (docs/load-studies.md, "Saturation search"): the search
// brackets the saturation point under its criterion, the point lies below the
// channel-load bound of uniform traffic on a mesh and not far below it,
// accepted throughput flattens past it, the outputs are the same bytes
// whatever the parallelism, and bad input or a failing run is named.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

using namespace wormsim_cli;
using nlohmann::json;

namespace {

const std::string kConfig = (source_dir() / "configs" / "saturate_8x8_uniform.yaml").string();

json json_of(const fs::path& file) {
  std::ifstream in(file);
  return json::parse(in);
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> f;
  std::stringstream in(line);
  for (std::string cell; std::getline(in, cell, ',');) f.push_back(cell);
  if (!line.empty() && line.back() == ',') f.push_back("");
  return f;
}

// curve.csv as rows of column -> text.
std::vector<std::map<std::string, std::string>> curve_rows(const fs::path& file) {
  const std::vector<std::string> text = lines(read_file(file));
  const std::vector<std::string> header = split(text.at(0));
  std::vector<std::map<std::string, std::string>> rows;
  for (size_t i = 1; i < text.size(); ++i) {
    const std::vector<std::string> f = split(text[i]);
    EXPECT_EQ(f.size(), header.size()) << text[i];
    std::map<std::string, std::string> row;
    for (size_t c = 0; c < header.size() && c < f.size(); ++c) row[header[c]] = f[c];
    rows.push_back(row);
  }
  return rows;
}

double as_double(const std::map<std::string, std::string>& row, const std::string& col) { return std::stod(row.at(col)); }

Result saturate(const TempDir& tmp, const std::string& name, const std::vector<std::string>& extra,
                const std::string& config = kConfig) {
  std::vector<std::string> args{"saturate", config, "--out", (tmp / name).string()};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_wormsim(args, tmp.path(), 300);
}

// Mean distance between two distinct nodes of a k x k mesh.
// The shipped search on an 8x8 mesh, checked against theory: uniform traffic
// cannot be accepted above the channel load of the mesh's middle cut,
// 4/k x (N-1)/N flits/node/cycle (the pattern never sends to itself); the
// search must bracket a point below it. It must not be far below either: with
// one VC, head-of-line blocking costs an input-queued switch at most
// 1 - (2 - sqrt 2) = 41% of its capacity under uniform traffic (Karol et al.
// 1987), so a sound router reaches more than half the bound (measured: 0.57, at the
// point where latency passes 3 x zero-load; accepted flattens at 0.61).
TEST(Saturate, BracketsTheSaturationBelowTheChannelLoadBound) {
  TempDir tmp;
  const Result r = saturate(tmp, "s", {"-j", "2", "--points", "6"});
  EXPECT_EXIT_CODE(r, 0);
  const json s = json_of(tmp / "s" / "summary.json");
  const json& sat = s.at("saturation");
  EXPECT_EQ(s.at("command"), "saturate");
  EXPECT_EQ(s.at("status"), "found");
  EXPECT_TRUE(sat.at("found").get<bool>());

  const double bound = 4.0 / 8 * 63.0 / 64;
  EXPECT_DOUBLE_EQ(sat.at("bound").get<double>(), bound);
  const double throughput = sat.at("throughput").get<double>();
  EXPECT_LT(throughput, bound);
  EXPECT_GT(throughput, 0.5 * bound);
  EXPECT_DOUBLE_EQ(sat.at("throughput_over_bound").get<double>(), throughput / bound);

  // The bracket: within the resolution, low end sustained, high end saturated.
  const double lo = sat.at("rate").at("low").get<double>(), hi = sat.at("rate").at("high").get<double>();
  EXPECT_LT(lo, hi);
  EXPECT_LE(hi - lo, 0.02 * lo * (1 + 1e-9));
  // The zero-load latency is the light load's: 2H + L cycles, H the mean distance (docs/timing-model.md).
  const double zero_load = 2 * mean_mesh_distance(8) + 8;
  EXPECT_NEAR(sat.at("zero_load_latency").get<double>(), zero_load, 0.03 * zero_load);

  const auto rows = curve_rows(tmp / "s" / "curve.csv");
  ASSERT_EQ(rows.size(), sat.at("runs").get<size_t>());
  const std::map<std::string, std::string>* below = nullptr;
  const std::map<std::string, std::string>* above = nullptr;
  const std::map<std::string, std::string>* last = &rows.back();
  for (size_t i = 0; i < rows.size(); ++i) {
    if (i > 0) {
      EXPECT_LT(as_double(rows[i - 1], "rate"), as_double(rows[i], "rate"));  // by rate, no repeats
    }
    if (as_double(rows[i], "rate") == lo) below = &rows[i];
    if (as_double(rows[i], "rate") == hi) above = &rows[i];
    // Below saturation the network accepts what is offered.
    if (as_double(rows[i], "rate") <= lo) {
      EXPECT_EQ(rows[i].at("saturated"), "0") << rows[i].at("rate");
      EXPECT_NEAR(as_double(rows[i], "accepted"), as_double(rows[i], "offered"), 0.05 * as_double(rows[i], "offered"));
    }
  }
  ASSERT_TRUE(below && above);
  EXPECT_EQ(above->at("saturated"), "1");
  EXPECT_EQ(above->at("fired"), sat.at("fired").get<std::string>());
  EXPECT_NEAR(as_double(*below, "accepted"), throughput, 1e-6);
  // Past saturation accepted flattens while offered keeps rising: over the
  // runs that could not drain, offered spans more than a factor 3 (the curve
  // goes to 1.5 x the saturation rate, the high bound to 1 flit/node/cycle),
  // accepted stays within 5%, a plateau just above the saturation throughput.
  double offered_min = 1e9, offered_max = 0, accepted_min = 1e9, accepted_max = 0;
  int deep = 0;
  for (const auto& row : rows) {
    if (row.at("status") != "saturated") continue;
    ++deep;
    EXPECT_EQ(row.at("saturated"), "1");
    offered_min = std::min(offered_min, as_double(row, "offered")), offered_max = std::max(offered_max, as_double(row, "offered"));
    accepted_min = std::min(accepted_min, as_double(row, "accepted")), accepted_max = std::max(accepted_max, as_double(row, "accepted"));
  }
  EXPECT_GE(deep, 3);
  EXPECT_GT(offered_max, 3 * offered_min);
  EXPECT_LT(accepted_max, 1.05 * accepted_min);
  EXPECT_GT(accepted_min, throughput);
  EXPECT_LT(accepted_max, 1.15 * throughput);
  EXPECT_LT(as_double(*last, "accepted"), 0.5 * as_double(*last, "offered"));

  // The outputs are one set; the runs' folders are gone (no --keep-runs).
  for (const char* f : {"curve.csv", "curve.svg"}) {
    EXPECT_EQ(s.at("outputs").at(f).at("bytes").get<size_t>(), read_file(tmp / "s" / f).size()) << f;
  }
  EXPECT_FALSE(fs::exists(tmp / "s" / "runs"));
  const std::string svg = read_file(tmp / "s" / "curve.svg");
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0u);
  EXPECT_CONTAINS(svg, "channel-load bound 0.492");
  EXPECT_CONTAINS(r.out, "saturation:  between rate ");
  EXPECT_CONTAINS(r.out, "bound:       0.4922 flits/node/cycle (uniform over a mesh cut");
}

// A smaller search, twice: -j 1 and -j 3 give the same bytes; and once more
// without the fast paths.
TEST(Saturate, SameBytesWhateverTheParallelism) {
  TempDir tmp;
  const std::vector<std::string> small{"--set", "network.dims=[4,4]", "--set", "traffic.measure_cycles=1000",
                                       "--resolution", "0.05", "--points", "3", "--keep-runs"};
  std::vector<std::string> one = small, three = small;
  one.insert(one.end(), {"-j", "1"});
  three.insert(three.end(), {"-j", "3"});
  const Result a = saturate(tmp, "a", one), b = saturate(tmp, "b", three);
  EXPECT_EXIT_CODE(a, 0);
  EXPECT_EXIT_CODE(b, 0);
  for (const char* f : {"summary.json", "curve.csv", "curve.svg"})
    EXPECT_EQ(read_file(tmp / "a" / f), read_file(tmp / "b" / f)) << f;
  // The fast-path differential: the routers' shortcuts off, the same curve to the byte.
  std::vector<std::string> slow = one;
  slow.insert(slow.end(), {"--set", "run.fast_paths=false"});
  EXPECT_EXIT_CODE(saturate(tmp, "slow", slow), 0);
  for (const char* f : {"curve.csv", "curve.svg"}) EXPECT_EQ(read_file(tmp / "a" / f), read_file(tmp / "slow" / f)) << f;
  EXPECT_EQ(json_of(tmp / "a" / "summary.json").at("saturation"), json_of(tmp / "slow" / "summary.json").at("saturation"));
  // --keep-runs keeps every run's own output set, one per row of the curve.
  const auto rows = curve_rows(tmp / "a" / "curve.csv");
  for (const auto& row : rows) {
    const fs::path run = tmp / "a" / "runs" / ("rate-" + row.at("rate"));
    ASSERT_TRUE(fs::exists(run / "summary.json")) << run;
    EXPECT_NEAR(json_of(run / "summary.json").at("load").at("accepted").at("mean").get<double>(), as_double(row, "accepted"),
                5e-7);  // curve.csv has 6 decimals
  }
  // On a 4x4 mesh the middle cut allows 4/4 x 15/16 < 1 flit/node/cycle.
  EXPECT_DOUBLE_EQ(json_of(tmp / "a" / "summary.json").at("saturation").at("bound").get<double>(), 15.0 / 16);
}

TEST(Saturate, NotSaturatedUpToTheHighBoundIsSaid) {
  TempDir tmp;
  const Result r = saturate(tmp, "o", {"--low", "0.002", "--high", "0.01", "--points", "0"});
  EXPECT_EXIT_CODE(r, 0);
  EXPECT_CONTAINS(r.err, "saturate: not saturated up to --high 0.01 packets/node/cycle");
  const json s = json_of(tmp / "o" / "summary.json");
  EXPECT_EQ(s.at("status"), "not_saturated");
  EXPECT_FALSE(s.at("saturation").at("found").get<bool>());
  EXPECT_TRUE(s.at("saturation").at("rate").at("high").is_null());
  EXPECT_EQ(s.at("saturation").at("rate").at("low").get<double>(), 0.01);
  EXPECT_EQ(s.at("saturation").at("runs"), 2);
}

TEST(Saturate, BadInputIsNamed) {
  TempDir tmp;
  write_file(tmp / "window.yaml", "network: {topology: mesh, dims: [4, 4]}\n"
                                  "traffic: {pattern: uniform, rate: 0.01, cycles: 1000}\n");
  const std::string window = (tmp / "window.yaml").string();
  write_file(tmp / "sched.yaml", "network: {topology: mesh, dims: [4, 4]}\nschedule: {algorithm: binomial}\n"
                                 "traffic: {pattern: uniform, rate: 0.01, measure_cycles: 1000}\n");
  const std::string sched = (tmp / "sched.yaml").string();
  const std::string plain = default_config().string();
  struct Case {
    std::string config;
    std::vector<std::string> args;
    int exit;
    std::string error;
  };
  const std::vector<Case> cases = {
      {plain, {}, 1, plain + ": traffic: missing: saturate measures background traffic at a series of rates"},
      {window, {}, 1, window + ": traffic.measure_cycles: missing: saturate needs a measured load run"},
      {sched, {}, 1, sched + ": schedule: saturate measures background traffic alone"},
      {kConfig, {"--set", "traffic.measure_cycles=0"}, 1,
       kConfig + ": traffic.measure_cycles (from --set): expected an integer from 1 to 1099511627776, got 0"},
      {kConfig, {"--tolerance", "1.5"}, 2, "--tolerance: expected a number in (0, 1) (a share of the offered load), got 1.5"},
      {kConfig, {"--latency-multiple", "1"}, 2, "--latency-multiple: expected a number in (1, 1000], got 1"},
      {kConfig, {"--low", "0.2", "--high", "0.1"}, 2, "--low 0.2 must be below --high 0.1"},
      {kConfig, {"--low", "0.2"}, 2, "--low 0.2 must be below --high 0.125 (the default: 1 flit/node/cycle)"},
      {kConfig, {"--high", "2"}, 2, "--high: expected a rate in (0, 1] packets per node per cycle (traffic.rate), got 2"},
      {kConfig, {"--criterion", "throughput,speed"}, 2,
       "--criterion: unknown criterion \"speed\" (expected a comma-separated list of throughput, latency, drain)"},
      {kConfig, {"--resolution", "0"}, 2, "--resolution: expected a number in [0.001, 1) (a share of the rate), got 0"},
      {kConfig, {"--points", "-1"}, 2, "--points: expected an integer from 0 to 100, got -1"},
      {kConfig, {"-j", "0"}, 2, "-j,--jobs: expected an integer from 1 to 256, got 0"},
      {kConfig, {"--tolerance", "lots"}, 2, "--tolerance"},
  };
  for (const Case& c : cases) {
    const Result r = saturate(tmp, "o", c.args, c.config);
    EXPECT_EXIT_CODE(r, c.exit);
    EXPECT_CONTAINS(r.err, c.error);
    EXPECT_FALSE(fs::exists(tmp / "o" / "summary.json"));
  }
}

// A light load that is already saturated cannot start a search.
TEST(Saturate, SaturatedLowBoundIsRefused) {
  TempDir tmp;
  const Result r = saturate(tmp, "o", {"--low", "0.1", "--set", "traffic.measure_cycles=500", "--set",
                                       "traffic.drain_cycles=200"});
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, "error: " + kConfig + ": the low bound is already saturated (traffic.rate=0.1, criterion ");
  EXPECT_CONTAINS(r.err, "): give a lower --low");
  EXPECT_FALSE(fs::exists(tmp / "o" / "summary.json"));
}

// A run that fails is named with its rate, its exit and its own message; its
// folder is kept for inspection.
TEST(Saturate, FailingRunIsReported) {
  TempDir tmp;
  const Result r = saturate(tmp, "o", {"--set", "run.max_cycles=300"});
  EXPECT_EXIT_CODE(r, 3);
  EXPECT_CONTAINS(r.err, "error: saturate: the run at traffic.rate=0.00125 failed (exit 3): run stopped: cycle_limit");
  EXPECT_CONTAINS(r.err, "; its folder: " + (tmp / "o" / "runs" / "rate-0.00125").string());
  EXPECT_TRUE(fs::exists(tmp / "o" / "runs" / "rate-0.00125" / "stderr.log"));
  EXPECT_FALSE(fs::exists(tmp / "o" / "summary.json"));
}

}  // namespace

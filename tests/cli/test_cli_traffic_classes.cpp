// Several traffic classes in one run (traffic.classes): a list of one class is
// the plain form, byte for byte; each class offers its own rate and meets the
// zero-load latency of its own pattern; its figures in summary.json classes
// are those of its rows in messages.csv, and add up to the aggregate blocks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

using namespace wormsim_cli;
using nlohmann::json;

namespace {

const std::string kTwoClasses = (source_dir() / "configs" / "load_8x8_two_classes.yaml").string();

json run_summary(const TempDir& tmp, const std::string& config, const std::string& name,
                 const std::vector<std::string>& sets) {
  std::vector<std::string> args = {"run", config, "--set", "output.host_timing=false"};
  for (const std::string& s : sets) args.insert(args.end(), {"--set", s});
  args.insert(args.end(), {"--out", (tmp / name).string(), "--quiet"});
  const Result r = run_wormsim(args, tmp.path());
  EXPECT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  return json::parse(read_file(tmp / name / "summary.json"));
}

// Nearest rank, as summary.json's percentiles.
uint64_t nearest_rank(std::vector<uint64_t> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const auto rank = static_cast<size_t>(std::max(1.0, std::ceil(p / 100.0 * static_cast<double>(v.size()))));
  return v[rank - 1];
}

void expect_distribution(const json& block, const std::vector<uint64_t>& values, const std::string& what) {
  SCOPED_TRACE(what);
  ASSERT_FALSE(values.empty());
  uint64_t sum = 0;
  for (uint64_t v : values) sum += v;
  EXPECT_DOUBLE_EQ(block.at("mean").get<double>(), static_cast<double>(sum) / static_cast<double>(values.size()));
  EXPECT_EQ(block.at("p50").get<uint64_t>(), nearest_rank(values, 50));
  EXPECT_EQ(block.at("p90").get<uint64_t>(), nearest_rank(values, 90));
  EXPECT_EQ(block.at("p99").get<uint64_t>(), nearest_rank(values, 99));
  EXPECT_EQ(block.at("max").get<uint64_t>(), *std::max_element(values.begin(), values.end()));
}

// A plain traffic section and the same keys as the one entry of traffic.classes
// give the same traffic: every file byte for byte but summary.json, whose
// config echo has the list and whose classes block is new; the rest of it too.
TEST(CliTrafficClasses, AListOfOneClassIsThePlainForm) {
  TempDir tmp;
  const std::string keys = "pattern: hotspot, hotspot: {nodes: [0, 27], fraction: 0.3, weights: [1, 2]}, rate: 0.03, "
                           "flits: {4: 1, 12: 2}, injection: on-off, burst_alpha: 0.2, burst_beta: 0.1";
  for (const std::string& phases : {std::string("cycles: 1500"), std::string("warmup_cycles: 300, measure_cycles: 900")}) {
    SCOPED_TRACE(phases);
    const json plain = run_summary(tmp, kTwoClasses, "plain", {"traffic={" + keys + ", " + phases + "}"});
    const json listed = run_summary(tmp, kTwoClasses, "listed", {"traffic={" + phases + ", classes: [{" + keys + "}]}"});
    for (const std::string& f : output_files()) {
      if (f != "summary.json") {
        EXPECT_TRUE(read_file(tmp / "plain" / f) == read_file(tmp / "listed" / f)) << f;
      }
    }
    json a = plain, b = listed;
    for (json* j : {&a, &b}) j->erase("config");
    const json cls = b.at("classes").at(0);
    b.erase("classes");
    // latency.csv, the classes' histograms, comes with traffic.classes only.
    EXPECT_TRUE(b.at("outputs").contains("latency.csv"));
    EXPECT_FALSE(fs::exists(tmp / "plain" / "latency.csv"));
    b.at("outputs").erase("latency.csv");
    EXPECT_EQ(a, b);
    EXPECT_FALSE(plain.contains("classes"));
    // The one class is the whole background.
    EXPECT_EQ(cls.at("name"), "class0");
    const json& bg = plain.at("background");
    for (const char* k : {"messages", "delivered", "accepted_flits_per_node_cycle"}) EXPECT_EQ(cls.at(k), bg.at(k)) << k;
    for (const char* k : {"mean", "p50", "p99", "max"}) EXPECT_EQ(cls.at("latency").at(k), bg.at("latency").at(k)) << k;
    if (!plain.contains("load")) continue;
    const json& load = plain.at("load");
    const json& cl = cls.at("load");
    EXPECT_EQ(cl.at("packets"), load.at("packets"));
    EXPECT_EQ(cl.at("delivered"), load.at("delivered"));
    EXPECT_DOUBLE_EQ(cl.at("offered_flits_per_node_cycle").get<double>(), load.at("offered").at("mean").get<double>());
    for (const char* l : {"packet_latency", "network_latency"})
      for (const char* k : {"mean", "p50", "p99", "max"}) EXPECT_EQ(cl.at(l).at(k), load.at(l).at(k)) << l << k;
  }
}

struct Row {
  int cls, src, dst, flits, hops;
  uint64_t release, inject, delivered, zero_load;
};

std::vector<Row> background_rows(const fs::path& csv) {
  std::vector<Row> rows;
  for (const auto& r : csv_rows(csv)) {
    const int step = std::stoi(r.at("step"));
    if (step >= 0) continue;
    rows.push_back({-1 - step, std::stoi(r.at("src")), std::stoi(r.at("dst")), std::stoi(r.at("flits")),
                    std::stoi(r.at("hops")), std::stoull(r.at("release")), std::stoull(r.at("inject")),
                    std::stoull(r.at("delivered")), std::stoull(r.at("zero_load_latency"))});
  }
  return rows;
}

// 8x8 mesh, dimension-order routing, t_r = t_l = 1, t_s = 0: a packet of L
// flits over H hops takes 2H + L cycles in an idle network. Class near
// (neighbor: each coordinate + 1 mod 8, so 1 hop per dimension, or 7 from the
// last column or row) has a mean of 2 x 1.75 = 3.5 hops; class far (transpose; the 8 diagonal nodes send nothing) 2|x - y|,
// a mean of 6 over the 56 others. At 0.002 packets/node/cycle the network is
// nearly idle: each class's mean latency is its own formula's.
TEST(CliTrafficClasses, EachClassOffersItsRateAndMeetsItsPatternsZeroLoadLatency) {
  TempDir tmp;
  const uint64_t warmup = 1000, measure = 20000;
  const json s = run_summary(tmp, kTwoClasses, "low",
                             {"traffic.warmup_cycles=1000", "traffic.measure_cycles=20000",
                              "traffic.classes[0].rate=0.002", "traffic.classes[1].rate=0.002"});
  ASSERT_EQ(s.at("status"), "completed");
  const json& classes = s.at("classes");
  ASSERT_EQ(classes.size(), 2u);
  EXPECT_EQ(classes[0].at("name"), "near");
  EXPECT_EQ(classes[1].at("pattern"), "transpose");
  const double node_cycles = 64.0 * measure;
  struct Expect {
    double rate, flits, hops;
  };
  const Expect expect[2] = {{0.002, 4, 3.5}, {0.002 * 56 / 64, 8, 6.0}};
  const std::vector<Row> rows = background_rows(tmp / "low" / "messages.csv");
  for (int c = 0; c < 2; ++c) {
    SCOPED_TRACE(classes[c].at("name").get<std::string>());
    const json& l = classes[c].at("load");
    // Packets created in the window: binomial, within five standard deviations.
    const double mean = expect[c].rate * node_cycles;
    EXPECT_NEAR(l.at("packets").get<double>(), mean, 5 * std::sqrt(mean));
    EXPECT_NEAR(l.at("offered_packets_per_node_cycle").get<double>(), expect[c].rate, 5 * std::sqrt(mean) / node_cycles);
    EXPECT_DOUBLE_EQ(l.at("offered_flits_per_node_cycle").get<double>(),
                     l.at("offered_packets_per_node_cycle").get<double>() * expect[c].flits);
    // Hops of the class's packets: the pattern's, to five standard errors (per-packet sd < 3 hops).
    double hops = 0, n = 0, zero_load = 0;
    for (const Row& r : rows) {
      if (r.cls != c || r.release < warmup || r.release >= warmup + measure) continue;
      EXPECT_EQ(r.flits, expect[c].flits);
      EXPECT_EQ(r.zero_load, static_cast<uint64_t>(2 * r.hops + r.flits));
      hops += r.hops;
      zero_load += static_cast<double>(r.zero_load);
      ++n;
    }
    ASSERT_EQ(n, l.at("packets").get<double>());
    EXPECT_NEAR(hops / n, expect[c].hops, 5 * 3 / std::sqrt(n));
    // Latency: the formula at the sampled hops, plus under 5% of queueing at
    // this load (a pattern off by one hop per packet would be 15% off or more).
    const double formula = 2 * hops / n + expect[c].flits;
    EXPECT_NEAR(zero_load / n, formula, 1e-9);
    EXPECT_GE(l.at("network_latency").at("mean").get<double>(), formula);
    EXPECT_LT(l.at("packet_latency").at("mean").get<double>(), 1.05 * formula);
  }
}

// Every per-class figure recomputed from the class's rows of messages.csv
// (step -1 - class), and the classes adding up to the aggregate blocks.
TEST(CliTrafficClasses, PerClassFiguresAreTheirRowsAndAddUpToTheAggregate) {
  TempDir tmp;
  const json s = run_summary(tmp, kTwoClasses, "r", {"traffic.warmup_cycles=500", "traffic.measure_cycles=3000"});
  const std::vector<Row> rows = background_rows(tmp / "r" / "messages.csv");
  const json& load = s.at("load");
  const uint64_t open = load.at("warmup_cycles").get<uint64_t>(), end = open + 3000;
  const double node_cycles = 64.0 * 3000;
  int64_t packets = 0, delivered = 0, messages = 0;
  double offered = 0;
  // latency.csv: (class, which latency) -> {cycles -> messages}, in file order.
  std::map<std::pair<std::string, std::string>, std::map<uint64_t, uint64_t>> histograms;
  std::vector<std::string> order;
  EXPECT_EQ(read_file(tmp / "r" / "latency.csv").substr(0, 30), "class,latency,cycles,messages\n");
  uint64_t last = 0;
  for (const auto& row : csv_rows(tmp / "r" / "latency.csv")) {
    const std::string key = row.at("class") + "/" + row.at("latency");
    const uint64_t cycles = std::stoull(row.at("cycles")), count = std::stoull(row.at("messages"));
    if (order.empty() || order.back() != key) order.push_back(key);
    else EXPECT_GT(cycles, last) << "values increase within a histogram: " << key;
    last = cycles;
    EXPECT_GT(count, 0u) << key;
    histograms[{row.at("class"), row.at("latency")}][cycles] = count;
  }
  EXPECT_EQ(order, (std::vector<std::string>{"near/latency", "near/packet_latency", "near/network_latency",
                                             "far/latency", "far/packet_latency", "far/network_latency"}));
  const auto expect_histogram = [&](const std::string& cls, const std::string& which,
                                    const std::vector<uint64_t>& values) {
    std::map<uint64_t, uint64_t> want;
    for (uint64_t v : values) ++want[v];
    EXPECT_EQ((histograms[{cls, which}]), want) << cls << " " << which;
  };
  for (int c = 0; c < 2; ++c) {
    SCOPED_TRACE("class " + std::to_string(c));
    const json& cls = s.at("classes").at(c);
    std::vector<uint64_t> latency, window_packet, window_network;
    uint64_t window_flits = 0, accepted_flits = 0;
    for (const Row& r : rows) {
      if (r.cls != c) continue;
      latency.push_back(r.delivered - r.release);
      if (r.delivered >= open && r.delivered < end) accepted_flits += static_cast<uint64_t>(r.flits);
      if (r.release < open || r.release >= end) continue;
      window_flits += static_cast<uint64_t>(r.flits);
      window_packet.push_back(r.delivered - r.release);
      window_network.push_back(r.delivered - r.inject);
    }
    EXPECT_EQ(cls.at("messages").get<size_t>(), latency.size());
    EXPECT_EQ(cls.at("delivered").get<size_t>(), latency.size());
    expect_distribution(cls.at("latency"), latency, "latency");
    const json& l = cls.at("load");
    EXPECT_EQ(l.at("packets").get<size_t>(), window_packet.size());
    EXPECT_EQ(l.at("delivered").get<size_t>(), window_packet.size());
    EXPECT_DOUBLE_EQ(l.at("offered_flits_per_node_cycle").get<double>(), static_cast<double>(window_flits) / node_cycles);
    EXPECT_DOUBLE_EQ(l.at("accepted_flits_per_node_cycle").get<double>(), static_cast<double>(accepted_flits) / node_cycles);
    expect_distribution(l.at("packet_latency"), window_packet, "packet latency");
    expect_distribution(l.at("network_latency"), window_network, "network latency");
    const std::string name = cls.at("name").get<std::string>();
    expect_histogram(name, "latency", latency);
    expect_histogram(name, "packet_latency", window_packet);
    expect_histogram(name, "network_latency", window_network);
    packets += l.at("packets").get<int64_t>();
    delivered += l.at("delivered").get<int64_t>();
    messages += cls.at("messages").get<int64_t>();
    offered += l.at("offered_flits_per_node_cycle").get<double>();
  }
  EXPECT_EQ(packets, load.at("packets").get<int64_t>());
  EXPECT_EQ(delivered, load.at("delivered").get<int64_t>());
  EXPECT_EQ(messages, s.at("background").at("messages").get<int64_t>());
  EXPECT_NEAR(offered, load.at("offered").at("mean").get<double>(), 1e-12);
  EXPECT_EQ(s.at("background").at("pattern"), "neighbor+transpose");
  EXPECT_DOUBLE_EQ(s.at("background").at("offered_rate").get<double>(), 0.03);
  // Whole packets at the tail against single flits: apart by the packets that straddle the window's edges.
  const double accepted = s.at("classes")[0].at("load").at("accepted_flits_per_node_cycle").get<double>() +
                          s.at("classes")[1].at("load").at("accepted_flits_per_node_cycle").get<double>();
  EXPECT_NEAR(accepted, load.at("accepted").at("mean").get<double>(), 2 * 64 * 8 / node_cycles);
}

// Each class draws from its own stream: two classes with the same keys do not
// send the same packets; the same seed gives the same bytes, another seed others.
TEST(CliTrafficClasses, EachClassHasItsOwnStreamAndTheSameSeedGivesTheSameBytes) {
  TempDir tmp;
  const std::string twins = "traffic={cycles: 3000, classes: [{pattern: uniform, rate: 0.01}, {pattern: uniform, rate: 0.01}]}";
  run_summary(tmp, kTwoClasses, "t", {twins});
  std::set<std::tuple<int, int, uint64_t>> sent[2];
  for (const Row& r : background_rows(tmp / "t" / "messages.csv")) sent[r.cls].insert({r.src, r.dst, r.release});
  ASSERT_GT(sent[0].size(), 1000u);
  ASSERT_GT(sent[1].size(), 1000u);
  size_t common = 0;
  for (const auto& p : sent[0]) common += sent[1].count(p);
  EXPECT_LT(common, sent[0].size() / 20) << "the classes repeat each other's draws";
  run_summary(tmp, kTwoClasses, "a", {});
  run_summary(tmp, kTwoClasses, "b", {});
  for (const std::string& f : output_files()) EXPECT_TRUE(read_file(tmp / "a" / f) == read_file(tmp / "b" / f)) << f;
  run_summary(tmp, kTwoClasses, "seed2", {"run.seed=2"});
  EXPECT_NE(read_file(tmp / "a" / "messages.csv"), read_file(tmp / "seed2" / "messages.csv"));
}

// Records recycled as they are delivered (output.messages: schedule) give the
// same per-class figures as the full table; an adaptive warm-up too (on the
// aggregate), and a schedule repeated under two classes runs to completion.
TEST(CliTrafficClasses, RecyclingAdaptiveWarmupAndASchedule) {
  TempDir tmp;
  const json kept = run_summary(tmp, kTwoClasses, "kept", {"traffic.measure_cycles=2000"});
  const json recycled = run_summary(tmp, kTwoClasses, "recycled", {"traffic.measure_cycles=2000", "output.messages=schedule"});
  EXPECT_EQ(kept.at("classes"), recycled.at("classes"));
  EXPECT_EQ(kept.at("load"), recycled.at("load"));
  const json adaptive = run_summary(tmp, kTwoClasses, "auto",
                                    {"traffic.warmup_cycles=auto", "traffic.warmup_sample_cycles=300",
                                     "traffic.measure_cycles=2000"});
  EXPECT_TRUE(adaptive.at("warmup").at("stabilised").get<bool>());
  EXPECT_EQ(adaptive.at("classes").at(1).at("load").at("delivered"), adaptive.at("classes").at(1).at("load").at("packets"));
  const json bcast = run_summary(tmp, kTwoClasses, "bcast",
                                 {"schedule={algorithm: umesh, source: [0, 0], flits: 12, repeat: {count: 3, gap_cycles: 50}}",
                                  "traffic.measure_cycles=2000"});
  EXPECT_EQ(bcast.at("status"), "completed");
  EXPECT_EQ(bcast.at("repetitions").at("completed"), 3);
  EXPECT_GT(bcast.at("repetitions").at("background_contention_cycles").at("max").get<int>(), 0);
  EXPECT_EQ(bcast.at("classes").size(), 2u);
}

TEST(CliTrafficClasses, BadClassesAreRefusedByKey) {
  TempDir tmp;
  const std::vector<BadSetting> cases = {
      {{"traffic.pattern=uniform"}, "traffic.pattern", "with classes, give pattern per class under traffic.classes"},
      {{"traffic.rate=0.1"}, "traffic.rate", "with classes, give rate per class"},
      {{"traffic.classes=[]"}, "traffic.classes", "expected a list of 1 to 64 traffic classes"},
      {{"traffic.classes=5"}, "traffic.classes", "expected a list of 1 to 64 traffic classes"},
      {{"traffic.classes[1].name=near"}, "traffic.classes[1].name", "duplicate class name \"near\""},
      {{"traffic.classes[0].name=a b"}, "traffic.classes[0].name", "expected a name of 1 to 64 letters"},
      {{"traffic.classes[0].rate=2"}, "traffic.classes[0].rate", "expected a number in (0, 1]"},
      {{"traffic.classes[1].measure_cycles=10"}, "traffic.classes[1].measure_cycles",
       "a phase key, shared by every class: give measure_cycles once at traffic level"},
      {{"traffic.classes[0].burst_alpha=0.5"}, "traffic.classes[0].burst_alpha",
       "only meaningful with traffic.classes[0].injection: on-off"},
      {{"traffic.classes[0].rtae=0.1"}, "traffic.classes[0].rtae", "did you mean rate?"},
      {{"traffic.classes[1].pattern=hotspot"}, "traffic.classes[1].hotspot", "missing: pattern hotspot needs hotspot"},
      {{"traffic.classes[1].pattern=hotspot", "traffic.classes[1].hotspot={nodes: [0], fraction: 2}"},
       "traffic.classes[1].hotspot.fraction", "expected a number in [0, 1]"},
      {{"traffic.classes[1].pattern=hotspot", "traffic.classes[1].hotspot={nodes: [64], fraction: 0.5}"},
       "traffic.classes[1].hotspot.nodes[0]", "64"},
      {{"network.dims=[6,6]", "traffic.classes[1].pattern=shuffle"}, "traffic.classes[1]",
       "shuffle permutes the bits of endpoint ids"},
  };
  EXPECT_SETTINGS_REFUSED(tmp, kTwoClasses, cases);
  // The plain form has no class name.
  const std::vector<BadSetting> plain = {
      {{"traffic={pattern: uniform, rate: 0.01, cycles: 100, name: a}"}, "traffic.name",
       "only meaningful in an entry of traffic.classes"}};
  EXPECT_SETTINGS_REFUSED(tmp, kTwoClasses, plain);
  // --set changes a list's entries, it does not add any.
  const Result r = run_wormsim({"run", kTwoClasses, "--set", "traffic.classes[2].rate=0.1", "--out",
                                (tmp / "o").string()}, tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, "--set traffic.classes[2].rate=0.1: classes has no entry 2");
}

TEST(CliTrafficClasses, SaturateRefusesClassesWithTheReason) {
  TempDir tmp;
  const Result r = run_wormsim({"saturate", kTwoClasses, "--out", (tmp / "s").string()}, tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, kTwoClasses + ": traffic.classes: saturate searches the rate of one traffic pattern");
}

}  // namespace

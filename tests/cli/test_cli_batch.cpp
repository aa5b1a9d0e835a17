// `wormsim batch`: many points on one elaborated network (sim/batch_command.hpp).
// The differential test is the one that matters: every point of a varied batch
// -- algorithms, sources, lengths, barrier and eager, traffic with and without a
// measurement window, seeds, traces, a point that fails in the middle -- must
// write exactly the bytes a `wormsim run` of it writes, with the fast paths on
// and off. Any state a point could inherit from the one before it shows up here.
#include <set>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

namespace wormsim_cli {
namespace {

using nlohmann::json;

// Points of one 8x8 mesh (configs/default.yaml with network.dims=[8,8]).
const std::vector<std::vector<std::string>>& varied_points() {
  static const std::vector<std::vector<std::string>> points = {
      {"schedule={algorithm: eye, source: eye, flits: 16}", "output.router_stats=true", "output.trace=perfetto"},
      {"schedule={algorithm: binomial, source: 5, mode: eager, flits: 8}",
       "traffic={pattern: uniform, rate: 0.04, flits: 6, cycles: 500}", "run.seed=7"},
      {"schedule.algorithm=no-such-algorithm"},  // fails in the middle: the others must not notice
      {"schedule=null", "traffic={pattern: transpose, rate: 0.05, flits: 5, warmup_cycles: 200, measure_cycles: 400}",
       "run.seed=3", "output.router_stats=true"},
      {"schedule={algorithm: umesh, source: [3, 4], flits: 32}", "output.trace=vcd"},
      {"schedule={algorithm: corner, source: 63, mode: eager, flits: 4}"},
      {"schedule={algorithm: binomial, source: 5, mode: eager, flits: 8}",
       "traffic={pattern: uniform, rate: 0.04, flits: 6, cycles: 500}", "run.seed=8"},
      {"schedule={algorithm: eye, source: eye, flits: 16, repeat: {count: 3, gap_cycles: 20}}",
       "traffic={pattern: uniform, rate: 0.02, flits: 4, warmup_cycles: 100, measure_cycles: 300}"},
      {"schedule={algorithm: eye, source: eye, flits: 16}"},  // the first point again, after all the others
  };
  return points;
}
constexpr size_t kFailingPoint = 2;

std::vector<std::string> common_sets(const char* fast) {
  return {"network.dims=[8,8]", "output.host_timing=false", std::string("run.fast_paths=") + fast};
}

json point_line(const fs::path& out, const std::vector<std::string>& sets) {
  return json{{"out", out.string()}, {"set", sets}};
}

// The batch's result lines, by line of the points file.
std::vector<json> results_of(const Result& r) {
  std::vector<json> v;
  for (const std::string& l : lines(r.out)) v.push_back(json::parse(l));
  return v;
}

// Every file of `a` equals the same file of `b`, and both hold the same files.
void expect_same_folder(const fs::path& a, const fs::path& b, const std::string& what) {
  std::set<std::string> names_a, names_b;
  for (const auto& e : fs::directory_iterator(a)) names_a.insert(e.path().filename().string());
  for (const auto& e : fs::directory_iterator(b)) names_b.insert(e.path().filename().string());
  EXPECT_EQ(names_a, names_b) << what;
  for (const std::string& n : names_a) {
    const std::string x = read_file(a / n);
    EXPECT_FALSE(x.empty()) << what << ": " << n;
    EXPECT_TRUE(x == read_file(b / n)) << what << ": " << n << " differs";
  }
}

TEST(CliBatch, EveryPointWritesTheBytesOfItsOwnRun) {
  TempDir tmp;
  for (const char* fast : {"true", "false"}) {
    SCOPED_TRACE(std::string("run.fast_paths=") + fast);
    const std::string tag = std::string("fast_") + fast;
    std::string points;
    for (size_t i = 0; i < varied_points().size(); ++i) {
      std::vector<std::string> sets = common_sets(fast);
      sets.insert(sets.end(), varied_points()[i].begin(), varied_points()[i].end());
      points += point_line(tmp / tag / "batch" / std::to_string(i), sets).dump() + "\n";
      std::vector<std::string> args = {"run", default_config().string()};
      for (const auto& s : sets) args.insert(args.end(), {"--set", s});
      args.insert(args.end(), {"--out", (tmp / tag / "run" / std::to_string(i)).string(), "--quiet"});
      const Result r = run_wormsim(args, tmp.path());
      ASSERT_TRUE(r.exited) << r.describe();
      EXPECT_EQ(r.exit_code, i == kFailingPoint ? 1 : 0) << r.describe();
    }
    write_file(tmp / (tag + ".jsonl"), points);
    const Result b =
        run_wormsim({"batch", default_config().string(), "--points", (tmp / (tag + ".jsonl")).string()}, tmp.path(), 120);
    EXPECT_EXIT_CODE(b, 1);  // the failing point's code
    const std::vector<json> results = results_of(b);
    ASSERT_EQ(results.size(), varied_points().size()) << b.describe();
    for (size_t i = 0; i < results.size(); ++i) {
      SCOPED_TRACE("point " + std::to_string(i));
      EXPECT_EQ(results[i]["line"], i + 1);
      EXPECT_EQ(results[i]["refused"], false);
      if (i == kFailingPoint) {
        EXPECT_EQ(results[i]["exit_code"], 1);
        EXPECT_CONTAINS(results[i]["stderr"].get<std::string>(), "no-such-algorithm");
        EXPECT_CONTAINS(b.err, (tmp / (tag + ".jsonl")).string() + ":3");
        EXPECT_FALSE(fs::exists(tmp / tag / "batch" / std::to_string(i) / "summary.json"));
        continue;
      }
      EXPECT_EQ(results[i]["exit_code"], 0) << results[i].dump();
      EXPECT_TRUE(results[i]["error"].is_null());
      expect_same_folder(tmp / tag / "batch" / std::to_string(i), tmp / tag / "run" / std::to_string(i),
                         "batch point against its own run");
    }
  }
  // The fast-path differential test, for batches: the shortcuts change no byte of any point.
  for (size_t i = 0; i < varied_points().size(); ++i)
    if (i != kFailingPoint)
      expect_same_folder(tmp / "fast_true" / "batch" / std::to_string(i), tmp / "fast_false" / "batch" / std::to_string(i),
                         "point " + std::to_string(i) + " with run.fast_paths=false");
  // The traces are there to be compared, and SystemC's time starts afresh in every point: the
  // VCD of point 4, after four points have run, begins at its first cycle as a run's does.
  EXPECT_TRUE(fs::exists(tmp / "fast_true" / "batch" / "0" / "trace.json"));
  const std::string vcd = read_file(tmp / "fast_true" / "batch" / "4" / "trace.vcd");
  const size_t first = vcd.find("\n#");
  ASSERT_NE(first, std::string::npos);
  EXPECT_EQ(vcd.substr(first, 4), "\n#1\n");
}

TEST(CliBatch, APointOfAnotherNetworkIsRefusedNamingItsLineAndKey) {
  TempDir tmp;
  const std::string points = point_line(tmp / "a", {"network.dims=[8,8]"}).dump() + "\n\n" +
                             point_line(tmp / "b", {"network.dims=[8,8]", "network.vcs=2"}).dump() + "\n" +
                             point_line(tmp / "c", {"network.dims=[8,8]", "schedule={algorithm: eye, source: 0}"}).dump() +
                             "\n" + point_line(tmp / "d", {"network.dims=[8,8]", "timing.link_delay=2"}).dump() + "\n";
  write_file(tmp / "p.jsonl", points);
  const Result r = run_wormsim({"batch", default_config().string(), "--points", (tmp / "p.jsonl").string()}, tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  const std::vector<json> res = results_of(r);
  ASSERT_EQ(res.size(), 4u) << r.describe();
  // Line 1 (the base's 4x4 schedule file on an 8x8 mesh) fails as `run` does; it still defines the network.
  EXPECT_EQ(res[0]["exit_code"], 1);
  EXPECT_CONTAINS(res[0]["stderr"].get<std::string>(), "schedule is for mesh 4x4");
  EXPECT_EQ(res[1]["line"], 3);
  EXPECT_EQ(res[1]["refused"], true);
  EXPECT_TRUE(res[1]["exit_code"].is_null());
  EXPECT_CONTAINS(res[1]["error"].get<std::string>(), "p.jsonl:3: network.vcs: 2 here, 1 on the batch's network (line 1)");
  EXPECT_EQ(res[2]["exit_code"], 0) << res[2].dump();
  EXPECT_TRUE(fs::exists(tmp / "c" / "summary.json"));
  EXPECT_CONTAINS(res[3]["error"].get<std::string>(), "timing.link_delay: 2 here, 1");
  EXPECT_FALSE(fs::exists(tmp / "b"));
}

TEST(CliBatch, BadPointsFilesAreRefusedNamingTheLineAndKey) {
  TempDir tmp;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{\"out\": \"a\"}\nnot json\n", "p.jsonl:2: not a JSON object"},
      {"{\"out\": \"a\", \"sets\": []}\n", "p.jsonl:1: unknown key \"sets\" (did you mean set?)"},
      {"{\"set\": [\"run.seed=1\"]}\n", "p.jsonl:1: \"out\": expected the point's output folder"},
      {"{\"out\": \"a\", \"set\": [\"run.seed\"]}\n", "p.jsonl:1: \"set\"[0]: expected a \"key.path=value\" string"},
      {"{\"out\": \"a\"}\n{\"out\": \"a\"}\n", "p.jsonl:2: \"out\": a is also the folder of line 1"},
      // One folder however spelt (the second point's outputs replaced the first's).
      {"{\"out\": \"a\"}\n{\"out\": \"./a/\"}\n", "p.jsonl:2: \"out\": ./a/ is also the folder of line 1"},
      {"{\"out\": \"x/../a\"}\n{\"out\": \"" + (tmp / "a").string() + "\"}\n",
       "p.jsonl:2: \"out\": " + (tmp / "a").string() + " is also the folder of line 1"},
      {"\n\n", "p.jsonl: no point"},
      {"[1]\n", "p.jsonl:1: expected a JSON object"},
      {"{\"out\": \"a\", \"out\": \"b\"}\n", "p.jsonl:1: key \"out\" given twice (give each key once)"},
  };
  for (const auto& [text, error] : cases) {
    write_file(tmp / "p.jsonl", text);
    const Result r = run_wormsim({"batch", default_config().string(), "--points", "p.jsonl"}, tmp.path());
    EXPECT_EXIT_CODE(r, 1);
    EXPECT_CONTAINS(r.err, error);
    EXPECT_TRUE(r.out.empty());
    EXPECT_FALSE(fs::exists(tmp / "a"));
  }
  const Result missing = run_wormsim({"batch", default_config().string(), "--points", "nope.jsonl"}, tmp.path());
  EXPECT_EXIT_CODE(missing, 1);
  EXPECT_CONTAINS(missing.err, "nope.jsonl: cannot read the points file: No such file or directory");
}

TEST(CliBatch, APointOverItsTimeLimitIsKilledAndTheNextRuns) {
  TempDir tmp;
  const std::string points =
      point_line(tmp / "slow", {"network.dims=[8,8]", "schedule=null", "output.messages=schedule",
                                "traffic={pattern: uniform, rate: 0.01, flits: 6, cycles: 100000000}"}).dump() + "\n" +
      point_line(tmp / "quick", {"network.dims=[8,8]", "schedule={algorithm: eye, source: eye}"}).dump() + "\n";
  write_file(tmp / "p.jsonl", points);
  const Result r = run_wormsim(
      {"batch", default_config().string(), "--points", (tmp / "p.jsonl").string(), "--timeout", "0.5"}, tmp.path());
  EXPECT_EXIT_CODE(r, 3);
  const std::vector<json> res = results_of(r);
  ASSERT_EQ(res.size(), 2u) << r.describe();
  EXPECT_TRUE(res[0]["exit_code"].is_null());
  EXPECT_CONTAINS(res[0]["error"].get<std::string>(), "timeout: killed after 0.5 s");
  EXPECT_EQ(res[1]["exit_code"], 0);
  EXPECT_TRUE(fs::exists(tmp / "quick" / "summary.json"));
}

TEST(CliBatch, CheckChecksEveryPointWithoutRunningIt) {
  TempDir tmp;
  const std::string points = point_line(tmp / "a", {"network.dims=[8,8]", "schedule={algorithm: eye, source: eye}"}).dump() +
                             "\n" + point_line(tmp / "b", {"schedule.mode=sideways"}).dump() + "\n" +
                             point_line(tmp / "c", {"network.dims=[4,4]", "network.vcs=2"}).dump() + "\n";
  write_file(tmp / "p.jsonl", points);
  const Result r =
      run_wormsim({"batch", default_config().string(), "--points", (tmp / "p.jsonl").string(), "--check"}, tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  const std::vector<json> res = results_of(r);
  ASSERT_EQ(res.size(), 3u) << r.describe();
  EXPECT_EQ(res[0]["exit_code"], 0);
  EXPECT_EQ(res[1]["exit_code"], 1);
  EXPECT_CONTAINS(res[1]["stderr"].get<std::string>(), "schedule.mode");
  EXPECT_EQ(res[2]["exit_code"], 0);  // a check elaborates nothing: another network is fine
  EXPECT_FALSE(fs::exists(tmp / "a"));
}

}  // namespace
}  // namespace wormsim_cli

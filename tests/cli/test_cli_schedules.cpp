// Schedules on the command line: bad schedules (tests/bad_inputs/schedules/*.json)
// through `schedule check` and through `run`, and the figures and warnings of
// `schedule check`.
#include <gtest/gtest.h>

#include <cctype>
#include <set>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

using namespace wormsim_cli;
using nlohmann::json;

namespace {

struct BadSchedule {
  const char* file;                  // in tests/bad_inputs/schedules
  std::string network;               // the run config's network block (flow style)
  std::vector<std::string> expected; // stderr has "PATH: <first>" and the others anywhere
};

void PrintTo(const BadSchedule& c, std::ostream* os) { *os << c.file; }

const std::string kMesh = "{topology: mesh, dims: [4, 4]}";
const std::string kLine3 = "{topology: line, dims: [3]}";
const std::string kLine4 = "{topology: line, dims: [4]}";

const std::vector<BadSchedule>& bad_schedules() {
  static const std::vector<BadSchedule> v = {
      {"truncated.json", kMesh, {"error: not valid JSON: ", "parse error at line 6"}},
      {"number_overflow.json", kMesh, {"error: not valid JSON: ", "number overflow parsing '1e999'"}},
      {"top_level_array.json", kMesh, {"error: expected a JSON object at the top level, got array"}},
      {"unknown_top_field.json", kMesh, {"field \"stpes\": error: unknown field (expected wormsim_schedule, "}},
      {"unknown_message_field.json", kMesh,
       {"step 2, message 1, field \"flit\": error: unknown field (expected src, dst, packet, flits, route, multicast)"}},
      {"missing_src.json", kMesh, {"step 1, message 1, field \"src\": error: missing"}},
      {"missing_dst.json", kMesh, {"step 1, message 2, field \"dst\": error: missing"}},
      {"src_string.json", kMesh,
       {"step 1, message 1, field \"src\": error: expected a node id (integer) or a coordinate list, got string"}},
      {"flits_float.json", kMesh,
       {"step 1, message 1, field \"flits\": error: expected an integer from 1 to 16777216, got 2.5"}},
      {"flits_zero.json", kMesh,
       {"step 1, message 1, field \"flits\": error: expected an integer from 1 to 16777216, got 0"}},
      {"flits_negative.json", kMesh,
       {"step 1, message 1, field \"flits\": error: expected an integer from 1 to 16777216, got -3"}},
      {"flits_huge.json", kMesh,
       {"step 1, message 1, field \"flits\": error: expected an integer from 1 to 16777216, got 16777217"}},
      {"node_id_out_of_range.json", kMesh,
       {"step 1, message 1, field \"dst\": error: node id 16 is out of range 0..15 for mesh 4x4"}},
      {"coords_out_of_range.json", kMesh,
       {"step 1, message 1, field \"dst\": error: coordinate 0 = 4 is out of range 0..3"}},
      {"coords_wrong_arity.json", kMesh,
       {"step 1, message 1, field \"dst\": error: node has 3 coordinates but mesh 4x4 has 2 dimensions"}},
      {"topology_unknown_kind.json", kMesh,
       {"field \"topology.kind\": error: expected one of cmesh, hypercube, mesh, torus, line, ring"}},
      {"topology_dims_empty.json", kMesh,
       {"field \"topology.dims\": error: expected a non-empty list of positive integers"}},
      {"topology_dims_zero.json", kMesh, {"field \"topology.dims\": error: expected positive integers, got 0"}},
      {"topology_dims_negative.json", kMesh, {"field \"topology.dims\": error: expected positive integers, got -4"}},
      {"hypercube_two_dims.json", kMesh,
       {"field \"topology\": error: a hypercube takes one number, its dimension d (dims: [d])"}},
      {"hypercube_d17.json", kMesh, {"field \"topology\": error: hypercube dimension must be 1..16, got 17"}},
      {"route_wrong_start.json", kMesh,
       {"step 1, message 1, field \"route\": error: must start at src (0,0), starts at (1,0)"}},
      {"route_wrong_end.json", kMesh,
       {"step 1, message 1, field \"route\": error: must end at dst (2,0), ends at (1,0)"}},
      {"route_jump.json", kMesh,
       {"step 1, message 1, field \"route\": error: entry 3 = (2,1) is not a neighbour of entry 2 = (1,0)"}},
      {"route_too_short.json", kMesh,
       {"step 1, message 1, field \"route\": error: expected a list of at least two nodes (src first, dst last)"}},
      {"broadcast_without_source.json", kMesh, {"field \"broadcast\": error: expected {\"source\": node}"}},
      {"duplicate_packet.json", kMesh, {"field \"packets.0\": error: packet declared twice"}},
      {"wrong_version.json", kMesh, {"field \"wormsim_schedule\": error: format version must be 1, got 2"}},
      {"non_utf8.json", kMesh, {"error: not valid JSON: ", "ill-formed UTF-8"}},
      // Semantic problems, found by the validator.
      {"src_equals_dst.json", kMesh, {"step 1, message 1, field \"dst\": error: src and dst are the same node (2,2)"}},
      {"multicast_list_without_scheme.json", kMesh,
       {"step 1, message 1, field \"dst\": error: a list of destinations needs \"multicast\": SCHEME (one of: "
        "dual-path, multi-path, column-path, tree)"}},
      {"multicast_source_in_set.json", kMesh,
       {"step 1, message 1, field \"dst\": error: destination (1,1) is the source of the multicast (multicast "
        "dual-path)"}},
      {"multicast_duplicate.json", kMesh,
       {"step 1, message 1, field \"dst\": error: destination (0,0) comes twice in the multicast (multicast tree)"}},
      {"multicast_unknown_scheme.json", kMesh,
       {"step 1, message 1, field \"multicast\": error: unknown multicast scheme \"hamilton\" (expected one of: "
        "dual-path, multi-path, column-path, tree)"}},
      {"sent_before_held.json", kLine3,
       {"step 1, message 2, field \"src\": error: (1) sends packet \"0\" before it holds it"}},
      {"informed_twice.json", kLine3, {"step 2, message 2, field \"dst\": error: (2) is informed twice"}},
      {"never_informed.json", kLine4, {"broadcast: error: 2 node(s) never informed: (2), (3)"}},
  };
  return v;
}

fs::path bad_schedule(const std::string& f) { return bad_inputs_dir() / "schedules" / f; }

class BadScheduleTest : public ::testing::TestWithParam<BadSchedule> {};

std::string param_name(const ::testing::TestParamInfo<BadSchedule>& i) {
  std::string n = i.param.file;
  n = n.substr(0, n.find('.'));
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

json check_json(const fs::path& file, const TempDir& tmp, std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"schedule", "check", file.string(), "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const Result r = run_wormsim(args, tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  return json::parse(r.out);
}

}  // namespace

TEST_P(BadScheduleTest, ScheduleCheckReportsLocatedError) {
  const BadSchedule& c = GetParam();
  TempDir tmp;
  const std::string path = bad_schedule(c.file).string();
  const Result r = run_wormsim({"schedule", "check", path}, tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_CONTAINS(r.err, path + ": " + c.expected[0]);
  for (size_t i = 1; i < c.expected.size(); ++i) EXPECT_CONTAINS(r.err, c.expected[i]);
}

TEST_P(BadScheduleTest, ScheduleCheckJsonReportsLocatedError) {
  const BadSchedule& c = GetParam();
  TempDir tmp;
  const std::string path = bad_schedule(c.file).string();
  const Result r = run_wormsim({"schedule", "check", path, "--json"}, tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_CONTAINS(r.err, path + ": " + c.expected[0]);
}

TEST_P(BadScheduleTest, RunReportsLocatedError) {
  const BadSchedule& c = GetParam();
  TempDir tmp;
  const std::string path = bad_schedule(c.file).string();
  write_file(tmp / "c.yaml", "network: " + c.network + "\nschedule:\n  file: " + path + "\n");
  const Result r = run_wormsim({"run", "c.yaml", "--out", (tmp / "out").string()}, tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_CONTAINS(r.err, path + ": " + c.expected[0]);
  for (size_t i = 1; i < c.expected.size(); ++i) EXPECT_CONTAINS(r.err, c.expected[i]);
  EXPECT_FALSE(fs::exists(tmp / "out"));
}

INSTANTIATE_TEST_SUITE_P(CliBadSchedule, BadScheduleTest, ::testing::ValuesIn(bad_schedules()), param_name);

TEST(CliBadSchedule, CorpusFilesAreAllCovered) {
  std::set<std::string> used;
  for (const auto& c : bad_schedules()) used.insert(c.file);
  for (const auto& e : fs::directory_iterator(bad_inputs_dir() / "schedules"))
    EXPECT_TRUE(used.count(e.path().filename().string())) << e.path() << " is not used by any test";
}

TEST(CliBadSchedule, MissingScheduleFile) {
  TempDir tmp;
  const Result r = run_wormsim({"schedule", "check", "nope.json"}, tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, "nope.json: error: cannot open schedule file");
}

TEST(CliBadSchedule, ManyErrorsAreAllReportedInOnePass) {
  TempDir tmp;
  write_file(tmp / "s.json",
             R"({"wormsim_schedule": 1, "topology": {"kind": "mesh", "dims": [4, 4]},
                 "steps": [[{"src": [0, 0], "dst": [9, 9]}, {"src": 99, "dst": 1}], [{"src": 0, "dst": 1, "flits": 0}]]})");
  const Result r = run_wormsim({"schedule", "check", "s.json"}, tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, "s.json: step 1, message 1, field \"dst\": error: coordinate 0 = 9 is out of range");
  EXPECT_CONTAINS(r.err, "s.json: step 1, message 2, field \"src\": error: node id 99 is out of range");
  EXPECT_CONTAINS(r.err, "s.json: step 2, message 1, field \"flits\": error: expected an integer from 1");
}

TEST(CliBadSchedule, LongErrorListIsCapped) {
  TempDir tmp;
  std::string steps;
  for (int i = 0; i < 60; ++i) steps += std::string(i ? "," : "") + R"([{"src": 0, "dst": 99}])";
  write_file(tmp / "s.json", R"({"topology": {"kind": "mesh", "dims": [4, 4]}, "steps": [)" + steps + "]}");
  const Result r = run_wormsim({"schedule", "check", "s.json"}, tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_EQ(lines(r.err).size(), 51u) << r.err;
  EXPECT_CONTAINS(r.err, "s.json: ... and 10 more problems\n");
}

// --- schedule check on good schedules ------------------------------------------

TEST(CliScheduleCheck, DefaultScheduleFigures) {
  TempDir tmp;
  const json j = check_json(default_schedule(), tmp);
  EXPECT_EQ(j.at("file"), default_schedule().string());
  EXPECT_EQ(j.at("topology"), "mesh 4x4");
  EXPECT_EQ(j.at("broadcast"), true);
  EXPECT_EQ(j.at("steps"), 4);
  EXPECT_EQ(j.at("messages"), 15);
  EXPECT_EQ(j.at("tcd"), 15);
  EXPECT_EQ(j.at("flit_hops"), 240);
  EXPECT_EQ(j.at("max_hops"), 1);
  EXPECT_EQ(j.at("lower_bound_steps"), 4);
  EXPECT_EQ(j.at("port_model"), "one-port");
  EXPECT_EQ(j.at("port_model_violations"), 0);
  EXPECT_EQ(j.at("step_contention_pairs"), 0);
  EXPECT_EQ(j.at("step_tcd"), json::array({1, 2, 4, 8}));
  EXPECT_EQ(j.at("contention"), json::array());
}

TEST(CliScheduleCheck, UnicastScheduleHasNoMulticastFigures) {
  TempDir tmp;
  const json j = check_json(default_schedule(), tmp);
  EXPECT_FALSE(j.contains("multicast_messages"));
  EXPECT_FALSE(j.contains("multicast_channel_use"));
}

// A generated multi-path broadcast from (1,1) of a 4x4 mesh: four worms of 3, 6, 2
// and 5 links (docs/multicast.md), the longest header path 6 hops.
TEST(CliScheduleCheck, MulticastFiguresOfAGeneratedBroadcast) {
  TempDir tmp;
  const Result g = run_wormsim(
      {"schedule", "generate", "-a", "multi-path", "-d", "4", "4", "--source", "1,1", "-o", "mp.json"}, tmp.path());
  ASSERT_EQ(g.exit_code, 0) << g.describe();
  const json j = check_json(tmp / "mp.json", tmp);
  EXPECT_EQ(j.at("steps"), 1);
  EXPECT_EQ(j.at("messages"), 1);
  EXPECT_EQ(j.at("tcd"), 16);
  EXPECT_EQ(j.at("max_hops"), 6);
  EXPECT_EQ(j.at("multicast_messages"), 1);
  EXPECT_EQ(j.at("multicast_worms"), 4);
  EXPECT_EQ(j.at("multicast_channel_use"), 16);
  EXPECT_EQ(j.at("multicast_longest_path"), 6);
  const Result text = run_wormsim({"schedule", "check", "mp.json"}, tmp.path());
  EXPECT_CONTAINS(text.out, "TCD:                   16 hops (a multicast message counts its channel use)\n");
  EXPECT_CONTAINS(text.out, "multicast:             1 message(s), 4 worm(s), channel use 16 links, longest path 6 hops\n");
}

TEST(CliScheduleCheck, DefaultScheduleHumanOutput) {
  TempDir tmp;
  const Result r = run_wormsim({"schedule", "check", default_schedule().string()}, tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  EXPECT_EQ(r.err, "");
  EXPECT_CONTAINS(r.out, "steps:                 4 (lower bound for a one-port broadcast: 4)\n");
  EXPECT_CONTAINS(r.out, "messages:              15\n");
  EXPECT_CONTAINS(r.out, "TCD:                   15 hops\n");
  EXPECT_CONTAINS(r.out, "step contention:       0 pair(s)");
}

TEST(CliScheduleCheck, SharedLinkIsOneContentionPair) {
  TempDir tmp;
  const json j = check_json(data_dir() / "schedules" / "mesh4x4_shared_link.json", tmp);
  EXPECT_EQ(j.at("step_contention_pairs"), 1);
  EXPECT_EQ(j.at("tcd"), 4);
  ASSERT_EQ(j.at("contention").size(), 1u);
  const json& p = j.at("contention")[0];
  EXPECT_EQ(p.at("step"), 1);
  EXPECT_EQ(p.at("first"), 1);
  EXPECT_EQ(p.at("second"), 2);
  EXPECT_EQ(p.at("link"), "(1,0)->(2,0)");
}

TEST(CliScheduleCheck, OnePortViolationIsAWarning) {
  TempDir tmp;
  const fs::path file = data_dir() / "schedules" / "mesh4x4_one_port_violation.json";
  const Result r = run_wormsim({"schedule", "check", file.string(), "--json"}, tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  EXPECT_CONTAINS(r.err, file.string() + ": step 1: warning: (0,0) sends 2 messages but the one-port model allows 1 "
                                         "at once; they will be serialised");
  EXPECT_EQ(json::parse(r.out).at("port_model_violations"), 1);
}

TEST(CliScheduleCheck, OnePortViolationWithStrictIsAnError) {
  TempDir tmp;
  const fs::path file = data_dir() / "schedules" / "mesh4x4_one_port_violation.json";
  const Result r = run_wormsim({"schedule", "check", file.string(), "--strict"}, tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_CONTAINS(r.err, file.string() + ": step 1: error: (0,0) sends 2 messages");
}

TEST(CliScheduleCheck, PortModelOption) {
  TempDir tmp;
  const fs::path file = data_dir() / "schedules" / "mesh4x4_one_port_violation.json";
  for (const char* pm : {"all-port", "2-port"}) {
    const Result r = run_wormsim({"schedule", "check", file.string(), "--strict", "--port-model", pm}, tmp.path());
    EXPECT_EXIT_CODE(r, 0);
    EXPECT_EQ(r.err, "") << pm;
  }
  const Result bad = run_wormsim({"schedule", "check", file.string(), "--port-model", "many-port"}, tmp.path());
  EXPECT_EXIT_CODE(bad, 2);
  EXPECT_CONTAINS(bad.err, "error: --port-model: expected one-port, all-port or N-port (e.g. 2-port), got \"many-port\"");
}

TEST(CliScheduleCheck, GeneratedScheduleRoundTripsThroughCheck) {
  TempDir tmp;
  const Result g = run_wormsim(
      {"schedule", "generate", "-a", "hypercube-binomial", "-t", "hypercube", "-d", "4", "-o", "h.json"}, tmp.path());
  ASSERT_EQ(g.exit_code, 0) << g.describe();
  const json j = check_json(tmp / "h.json", tmp);
  EXPECT_EQ(j.at("topology"), "hypercube d=4");
  EXPECT_EQ(j.at("messages"), 15);
  EXPECT_EQ(j.at("steps"), 4);
}

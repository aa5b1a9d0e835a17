// The concentrated mesh from the command line: configs/cmesh.yaml runs, its
// keys are checked, and what cannot work on it is refused with the reason.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

using namespace wormsim_cli;
using nlohmann::json;

namespace {

fs::path cmesh_config() { return source_dir() / "configs" / "cmesh.yaml"; }


TEST(CliCmesh, ShippedConfigRunsBetweenEndpoints) {
  TempDir tmp;
  const Result r = run_wormsim({"run", cmesh_config().string(), "--out", (tmp / "o").string(), "--quiet"}, tmp.path());
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const json s = load_json(tmp / "o" / "summary.json");
  EXPECT_EQ(s.at("status"), "completed");
  EXPECT_EQ(s.at("config").at("network").at("topology"), "cmesh");
  EXPECT_EQ(s.at("config").at("network").at("concentration"), 4);
  EXPECT_EQ(s.at("metrics").at("delivered"), 63);
  EXPECT_GT(s.at("background").at("delivered").get<int>(), 1000);  // 64 endpoints x 2000 cycles x 0.01
  EXPECT_EQ(s.at("background").at("delivered"), s.at("background").at("messages"));
  const std::vector<std::string> rows = lines(read_file(tmp / "o" / "messages.csv"));
  ASSERT_GT(rows.size(), 64u);
  // Step 1: (0,0).0 -> (0,0).1 inside one router, 0 hops, 16 flits: t_r + L - 1 = 16 cycles.
  EXPECT_EQ(rows[1].rfind("0,0,0,0,1,\"(0,0).0\",\"(0,0).1\",", 0), 0u) << rows[1];
  // links.csv lists router links, named by router.
  const std::vector<std::string> links = lines(read_file(tmp / "o" / "links.csv"));
  EXPECT_EQ(links.size(), 1u + 48);
  EXPECT_NE(links[1].find(",\"(0,0)\",\"(1,0)\","), std::string::npos) << links[1];
}

TEST(CliCmesh, ConcentrationIsCheckedAndOnlyACmeshKey) {
  TempDir tmp;
  Result r = run_wormsim({"run", cmesh_config().string(), "--set", "network.concentration=17"}, tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, "network.concentration (from --set): expected an integer from 1 to 16, got 17");
  r = run_wormsim({"run", default_config().string(), "--set", "network.concentration=2"}, tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, "network.concentration (from --set): only meaningful with network.topology: cmesh");
  // The schedule is for 4 endpoints per router; a network of 2 is another network.
  r = run_wormsim({"run", cmesh_config().string(), "--set", "network.concentration=2"}, tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, "schedule is for cmesh 4x4 concentration=4 but the network is cmesh 4x4 concentration=2");
}

TEST(CliCmesh, MeshGeneratorsAndDrawingsRefuseIt) {
  TempDir tmp;
  Result r = run_wormsim({"run", cmesh_config().string(), "--set", "schedule={algorithm: umesh, source: 0}",
                          "--set", "traffic=null"},
                         tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, "works on meshes and tori (one node per router), got cmesh 4x4 concentration=4");
  // The binomial tree works on node ids of any topology: on a cmesh, its 64 endpoints.
  r = run_wormsim({"run", cmesh_config().string(), "--set", "schedule={algorithm: binomial, source: [1, 1, 2]}",
                   "--set", "traffic=null", "--out", (tmp / "b").string(), "--quiet"},
                  tmp.path());
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  EXPECT_EQ(load_json(tmp / "b" / "summary.json").at("metrics").at("delivered"), 63);
  r = run_wormsim({"schedule", "generate", "-a", "total-exchange", "-t", "cmesh", "-d", "4,4"}, tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, "expects a hypercube, got cmesh 4x4 concentration=4");
  const std::string sched = (source_dir() / "configs" / "schedules" / "cmesh4x4_binomial.json").string();
  r = run_wormsim({"schedule", "draw", sched, "-o", (tmp / "x.svg").string()}, tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, "cannot draw cmesh 4x4 concentration=4: drawings show one node per router");
  // Static analysis works: 63 messages, 0 hops for the first three.
  r = run_wormsim({"schedule", "check", sched, "--json"}, tmp.path());
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
  const json j = json::parse(r.out);
  EXPECT_EQ(j.at("messages"), 63);
  EXPECT_EQ(j.at("steps"), 6);
  EXPECT_EQ(j.at("lower_bound_steps"), 6);
}

}  // namespace

// The express loop's moves shared with a second thread (models/express_worms.hpp,
// "Two threads"): a run in which every cycle is shared writes the same bytes as
// one in which none is, on the cases that put off each kind of move (headers'
// buffers fed, tails leaving stages, tails ejected), buffers two worms share,
// frozen worms thawed, and a run stopped while worms are frozen; and the same
// bytes as the full pipeline (run.fast_paths: false). The tests force the
// sharing on small runs (WORMSIM_PARALLEL_FROM=1) and turn it off (0).
#include <algorithm>
#include <thread>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

using namespace wormsim_cli;
using nlohmann::json;

namespace {

const std::string kB1 = (source_dir() / "configs" / "bench" / "b1_uniform_16x16.yaml").string();

std::vector<std::vector<std::string>> parallel_cases() {
  return {
      // An eager eye broadcast: worms frozen and thawed, visited through the awake list.
      {kDefault, "--set", "schedule={algorithm: eye, source: eye, mode: eager, flits: 64}", "--set",
       "network.dims=[16,16]"},
      // Uniform load under BookSim2's pipeline: headers wait behind tails, in buffers two worms share.
      {kB1, "--set", "timing.router_delay=3", "--set", "traffic.cycles=3000"},
      // Short worms, many tails: lengths on both sides of the shortest that join the express loop with one VC
      // (ExpressWorms::worth_joining), so that worms the loop moves and worms their routers move share buffers.
      {kB1, "--set", "network.dims=[8,8]", "--set", "traffic.rate=0.016", "--set",
       "traffic.flits={2: 1, 4: 1, 5: 2, 9: 1}", "--set", "traffic.cycles=3000"},
      // A 3-D broadcast with a timeline trace (each output's holder, written as the tail leaves), barrier mode.
      {kDefault, "--set", "schedule={algorithm: eye, source: eye, mode: barrier, flits: 40}", "--set",
       "network.dims=[8,8,8]", "--trace", "perfetto"},
      // Stopped (exit code 3) while worms are frozen: they are brought to the last cycle.
      {kDefault, "--set", "schedule={algorithm: eye, source: eye, mode: eager, flits: 200}", "--set",
       "network.dims=[8,8]", "--set", "run.max_cycles=600"},
      // All-port interfaces on a hypercube, every node broadcasting: several worms leave and reach each node at once.
      {kDefault, "--set", "network={topology: hypercube, dims: [6], port_model: all-port}", "--set",
       "schedule={algorithm: multinode-broadcast, flits: 24}"},
  };
}

// A run with the sharing from `parallel_from` worms ("": the default), and the cycles it shared.
struct SharedRun : ComparedRun {
  long parallel_cycles = 0;
};

SharedRun run_with(const TempDir& tmp, const std::vector<std::string>& args, const std::string& name,
                   const std::string& parallel_from) {
  std::vector<std::pair<std::string, std::string>> env;
  if (!parallel_from.empty()) env.emplace_back("WORMSIM_PARALLEL_FROM", parallel_from);  // else the default
  const bool limited = std::find(args.begin(), args.end(), "run.max_cycles=600") != args.end();
  SharedRun run{run_compared(tmp.path(), args, name, env, limited ? 3 : 0)};
  run.parallel_cycles = run.host.at("express_parallel_cycles").get<long>();
  return run;
}

class ParallelExpress : public ::testing::TestWithParam<size_t> {};

TEST_P(ParallelExpress, ChangesNoByteOfAnyOutput) {
  const std::vector<std::string> c = parallel_cases().at(GetParam());
  TempDir tmp;
  const SharedRun alone = run_with(tmp, c, "alone", "0");
  const SharedRun shared = run_with(tmp, c, "shared", "1");
  // And the full pipeline, every flit moved by its router (run.fast_paths: false).
  std::vector<std::string> slow_args = c;
  slow_args.insert(slow_args.end(), {"--set", "run.fast_paths=false"});
  const SharedRun slow = run_with(tmp, slow_args, "slow", "1");
  EXPECT_EQ(alone.parallel_cycles, 0);
  EXPECT_EQ(slow.parallel_cycles, 0) << "no express loop without the fast paths";
  EXPECT_GT(shared.parallel_cycles, 10) << "the sharing must really run, or this compares a run with itself";
  EXPECT_GE(alone.files.size(), 4u);
  ASSERT_EQ(alone.files.size(), shared.files.size());
  ASSERT_EQ(alone.files.size(), slow.files.size());
  for (const auto& [file, bytes] : alone.files) {
    EXPECT_FALSE(bytes.empty()) << file;
    EXPECT_TRUE(shared.files.at(file) == bytes) << file << " differs when the express loop's moves are shared";
    EXPECT_TRUE(slow.files.at(file) == bytes) << file << " differs with run.fast_paths=false";
  }
  EXPECT_EQ(alone.summary, shared.summary);
  EXPECT_EQ(alone.summary, slow.summary);
}

INSTANTIATE_TEST_SUITE_P(Cases, ParallelExpress, ::testing::Range<size_t>(0, parallel_cases().size()));

// The sharing is for big networks: by default not below 65,536 routers, even with
// enough worms (a 9-cube's 512 nodes each broadcasting), and one VC per port is
// needed (with several, a stage may go back to its router within a cycle).
TEST(ParallelExpress, ByDefaultOnlyOnBigNetworksWithOneVcPerPort) {
  TempDir tmp;
  const std::vector<std::string> eye = parallel_cases().at(0);
  EXPECT_EQ(run_with(tmp, eye, "small", "").parallel_cycles, 0) << "255 worms at most: below 4096";
  const std::vector<std::string> cube = {kDefault, "--set",
                                         "network={topology: hypercube, dims: [9], port_model: all-port}", "--set",
                                         "schedule={algorithm: multinode-broadcast, flits: 8}"};
  EXPECT_EQ(run_with(tmp, cube, "cube", "").parallel_cycles, 0) << "512 routers";
  EXPECT_GT(run_with(tmp, cube, "cube_forced", "4096").parallel_cycles, 0) << "it has cycles of 4096 worms";
  // A barrier broadcast's last steps put tens of thousands of short worms in flight at once.
  const std::vector<std::string> big = {kDefault, "--set", "network.dims=[256,256]", "--set",
                                        "schedule={algorithm: eye, source: eye, mode: barrier, flits: 5}"};
  const long big_cycles = run_with(tmp, big, "big", "").parallel_cycles;
  if (std::thread::hardware_concurrency() >= 2) EXPECT_GT(big_cycles, 0) << "65,536 routers";
  else EXPECT_EQ(big_cycles, 0) << "one CPU: no second thread";
  std::vector<std::string> two_vcs = eye;
  two_vcs.insert(two_vcs.end(), {"--set", "network.vcs=2"});
  EXPECT_EQ(run_with(tmp, two_vcs, "two_vcs", "1").parallel_cycles, 0);
}

}  // namespace

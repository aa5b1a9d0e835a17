// A cycle's lists of events walked in prefetched batches (Network::prefetches_events:
// the eager schedule's tries after deliveries and injections, the headers that
// left a stage for the express loop): a run that takes the batches writes the
// same bytes as one that walks the lists event by event. By default only a
// network of 16,384 routers or more takes them; the tests force them on small
// runs (WORMSIM_PREFETCH_EVENTS_FROM=1) against the plain walk (0), on the
// cases that fill the lists in different ways, and with the full pipeline
// (run.fast_paths: false: no headers for the express loop, the tries only).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_harness.hpp"

using namespace wormsim_cli;
using nlohmann::json;

namespace {

const std::string kB1 = (source_dir() / "configs" / "bench" / "b1_uniform_16x16.yaml").string();
const std::string kCmesh = (source_dir() / "configs" / "cmesh.yaml").string();

struct BatchCase {
  std::vector<std::string> args;
  bool tries;  // an eager schedule: its tries are batched without the fast paths too
};

std::vector<BatchCase> batch_cases() {
  return {
      // An eager eye broadcast: many deliveries and injections per cycle, each a try.
      {{kDefault, "--set", "schedule={algorithm: eye, source: eye, mode: eager, flits: 8}", "--set",
       "network.dims=[16,16]"}, true},
      // Every node broadcasting on an all-port hypercube: several sends per node, tries that release nothing.
      {{kDefault, "--set", "network={topology: hypercube, dims: [6], port_model: all-port}", "--set",
       "schedule={algorithm: multinode-broadcast, mode: eager, flits: 6}"}, true},
      // A broadcast repeated over background traffic: the background's tails are tries too, and deliveries
      // of messages not the schedule's are passed over.
      {{kDefault, "--set", "schedule={algorithm: binomial, source: eye, mode: eager, flits: 12, repeat: {count: 4}}",
       "--set", "network.dims=[8,8]", "--set", "traffic={pattern: uniform, rate: 0.03, flits: 6, cycles: 600}"}, true},
      // Multidestination worms beside unicast ones (their deliveries release nothing), two VCs.
      {{kDefault, "--set", "schedule={algorithm: column-path, source: eye, mode: eager, flits: 10}", "--set",
       "network.dims=[8,8]", "--set", "network.vcs=2", "--set",
       "traffic={pattern: transpose, rate: 0.02, flits: 4, cycles: 400}"}, true},
      // Several endpoints per router, 0-hop messages.
      {{kCmesh, "--set", "schedule.mode=eager"}, true},
      // Load alone (no schedule): the headers that left a stage are the only list.
      {{kB1, "--set", "network.dims=[8,8]", "--set", "traffic.cycles=2000", "--set", "timing.router_delay=3"}, false},
      // A barrier broadcast: its steps are released whole, not tried per delivery.
      {{kDefault, "--set", "schedule={algorithm: eye, source: eye, mode: barrier, flits: 20}", "--set",
       "network.dims=[8,8,8]"}, false},
  };
}

// A run with the batches from `from` routers on ("": the default), and the batches it walked.
struct BatchRun : ComparedRun {
  long batches = 0;
};

BatchRun run_with(const TempDir& tmp, const std::vector<std::string>& args, const std::string& name,
                  const std::string& from) {
  std::vector<std::pair<std::string, std::string>> env;
  if (!from.empty()) env.emplace_back("WORMSIM_PREFETCH_EVENTS_FROM", from);  // else the default
  BatchRun run{run_compared(tmp.path(), args, name, env)};
  run.batches = run.host.at("event_batches").get<long>();
  return run;
}

class EventBatches : public ::testing::TestWithParam<size_t> {};

TEST_P(EventBatches, ChangeNoByteOfAnyOutput) {
  const BatchCase c = batch_cases().at(GetParam());
  TempDir tmp;
  std::vector<std::pair<std::vector<std::string>, std::string>> runs = {{c.args, "fast"}};
  if (c.tries) {
    runs.push_back({c.args, "slow"});
    runs.back().first.insert(runs.back().first.end(), {"--set", "run.fast_paths=false"});
  }
  for (const auto& [args, tag] : runs) {
    SCOPED_TRACE(tag);
    const BatchRun plain = run_with(tmp, args, tag + "_plain", "0");
    const BatchRun batched = run_with(tmp, args, tag + "_batched", "1");
    EXPECT_EQ(plain.batches, 0);
    EXPECT_GT(batched.batches, 10) << "the batches must really be walked, or this compares a run with itself";
    EXPECT_GE(plain.files.size(), 4u);
    ASSERT_EQ(plain.files.size(), batched.files.size());
    for (const auto& [file, bytes] : plain.files) {
      EXPECT_FALSE(bytes.empty()) << file;
      EXPECT_TRUE(batched.files.at(file) == bytes) << file << " differs when a cycle's events are walked in batches";
    }
    EXPECT_EQ(plain.summary, batched.summary);
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, EventBatches, ::testing::Range<size_t>(0, batch_cases().size()));

// By default the batches are for big networks only: a small run walks none.
TEST(EventBatches, ByDefaultOnlyFrom16384Routers) {
  TempDir tmp;
  EXPECT_EQ(run_with(tmp, batch_cases().at(0).args, "small", "").batches, 0) << "256 routers";
  const std::vector<std::string> big = {kDefault, "--set", "network.dims=[128,128]", "--set",
                                        "schedule={algorithm: eye, source: eye, mode: eager, flits: 2}"};
  EXPECT_GT(run_with(tmp, big, "big", "").batches, 0) << "16,384 routers";
  EXPECT_EQ(run_with(tmp, big, "big_off", "0").batches, 0) << "turned off";
}

}  // namespace

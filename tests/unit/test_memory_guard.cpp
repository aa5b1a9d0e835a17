// The memory guard (models/memory_guard.*, schedules/schedule_memory.*): the
// largest term names the key, allocation failures become error codes, and the
// schedule loader asks before it builds anything; the diagnostics cap
// (schedules/diagnostics.*) that keeps huge warning lists out of memory.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <fstream>
#include <limits>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/memory_guard.hpp"
#include "models/topology.hpp"
#include "schedules/diagnostics.hpp"
#include "schedules/schedule_json.hpp"
#include "schedules/schedule_memory.hpp"

using namespace wormsim;

TEST(MemoryEstimate, DominantTermIsTheLargest) {
  MemoryEstimate e{"run", "16 routers, 0 messages", {}};
  e.add("network.dims", "the routers", 100);
  e.add("network.buffer_flits", "the input buffers", 300);
  e.add("traffic.cycles", "the background traffic", 200);
  EXPECT_EQ(e.total(), 600);
  EXPECT_EQ(e.dominant().key, "network.buffer_flits");
}

TEST(MemoryGuard, FormatsBytes) {
  EXPECT_EQ(format_bytes(512.0 * 1024 * 1024), "512.0 MiB");
  EXPECT_EQ(format_bytes(9.3 * 1024 * 1024 * 1024), "9.3 GiB");
}

TEST(MemoryGuard, RefusesWhatNoMachineHasAndNamesTheKey) {
  MemoryEstimate e{"schedule check", "16777216 nodes, 0 messages", {}};
  e.add("topology.dims", "the topology's tables", 1e18);
  e.add("steps", "the messages", 1.0);
  try {
    require_memory(e, "big.json");
    FAIL() << "an exabyte was not refused";
  } catch (const MemoryRefused& r) {
    const std::string what = r.what();
    EXPECT_EQ(what.rfind("big.json: topology.dims: this schedule check needs about ", 0), 0u) << what;
    EXPECT_NE(what.find(" GiB (16777216 nodes, 0 messages; the topology's tables: "), std::string::npos) << what;
    EXPECT_NE(what.find("; refusing to start"), std::string::npos) << what;
  }
  MemoryEstimate small{"run", "1 routers, 0 messages", {}};
  small.add("network.dims", "the routers", 1024);
  EXPECT_NO_THROW(require_memory(small, "small.yaml"));
}

// A routers' pool taken before the schedule is prepared (sim/run.cpp,
// models/prefault.hpp) is memory the schedule's checks must not count on.
TEST(MemoryGuard, MemoryHeldEarlyIsLeftOutOfWhatIsAvailable) {
  note_command_start();  // the figures fixed, as in a command: under strict overcommit the live ones move
  const AvailableMemory all = available_memory();
  ASSERT_GT(all.bytes, 0);
  set_memory_held_early(all.bytes / 4);
  const AvailableMemory left = available_memory();
  EXPECT_DOUBLE_EQ(left.bytes, all.bytes - all.bytes / 4);
  EXPECT_EQ(left.phrase, all.phrase + ", besides the routers' pool already taken,");
  MemoryEstimate e{"run", "1 routers, 0 messages", {}};
  e.add("network.dims", "the routers", 0.8 * all.bytes * 0.9);  // fits in all of it, not in what is left
  EXPECT_THROW(require_memory(e, "c.yaml"), MemoryRefused);
  set_memory_held_early(0);
  EXPECT_DOUBLE_EQ(available_memory().bytes, all.bytes);
  EXPECT_NO_THROW(require_memory(e, "c.yaml"));
}

// Under strict overcommit (mode 2) a mapping counts against the commit limit
// whether or not it is touched: the express loop's room for every message is
// asked for only where that limit, too, would leave as much again.
TEST(MemoryGuard, CommitLimitCountsOnlyUnderStrictOvercommit) {
  const std::string meminfo =
      "MemTotal:       24576000 kB\nMemFree:        20000000 kB\nCommitLimit:    12288000 kB\n"
      "Committed_AS:    2288000 kB\nVmallocTotal:   34359738367 kB\n";
  const double kib = 1024.0, inf = std::numeric_limits<double>::infinity();
  EXPECT_DOUBLE_EQ(commit_left_after(0, "2\n", meminfo), 10000000 * kib);
  EXPECT_DOUBLE_EQ(commit_left_after(4000000 * kib, "2\n", meminfo), 6000000 * kib);
  EXPECT_LT(commit_left_after(12000000 * kib, "2\n", meminfo), 0) << "more than the limit leaves";
  // Heuristic (0) and always (1) overcommit: an untouched mapping costs no commit.
  EXPECT_EQ(commit_left_after(1e15, "0\n", meminfo), inf);
  EXPECT_EQ(commit_left_after(1e15, "1\n", meminfo), inf);
  // Nothing to go by (no /proc, or a kernel without the figures): no bound of its own.
  EXPECT_EQ(commit_left_after(1e15, "", meminfo), inf);
  EXPECT_EQ(commit_left_after(1e15, "2\n", ""), inf);
  EXPECT_EQ(commit_left_after(1e15, "2\n", "CommitLimit:    12288000 kB\n"), inf) << "no Committed_AS";
  EXPECT_EQ(commit_left_after(1e15, "2\n", "XCommitLimit: 1 kB\nCommitted_AS: 0 kB\n"), inf) << "a key is a whole name";
  EXPECT_DOUBLE_EQ(commit_left_after(0, "2\n", "Committed_AS: 1000 kB\nCommitLimit: 3000 kB"), 2000 * kib)
      << "in either order, the last line without a newline";
  // This machine: without a limit of either kind the room is unbounded; with one, it is finite.
  std::ifstream mode_file("/proc/sys/vm/overcommit_memory");
  std::string mode;
  mode_file >> mode;
  rlimit lim{};
  ASSERT_EQ(getrlimit(RLIMIT_AS, &lim), 0);
  const bool bounded = mode == "2" || lim.rlim_cur != RLIM_INFINITY;
  const double here = address_space_left_after(1 << 20);
  if (bounded) EXPECT_LT(here, inf) << "mode " << mode;
  else EXPECT_EQ(here, inf) << "mode " << mode;
}

// What a command may plan to use is the least of the machine's memory, what
// ulimit -v leaves and what the commit limit leaves under strict overcommit,
// named by the phrase of the refusal.
TEST(MemoryGuard, TheTightestLimitIsTheOneNamed) {
  const double gib = 1024.0 * 1024.0 * 1024.0, inf = std::numeric_limits<double>::infinity();
  const AvailableMemory machine = tightest_memory(24 * gib, inf, inf);
  EXPECT_DOUBLE_EQ(machine.bytes, 24 * gib);
  EXPECT_EQ(machine.phrase, "the machine has");
  const AvailableMemory ulimit = tightest_memory(24 * gib, 2 * gib, inf);
  EXPECT_DOUBLE_EQ(ulimit.bytes, 2 * gib);
  EXPECT_EQ(ulimit.phrase, "the address-space limit (ulimit -v) leaves");
  const AvailableMemory commit = tightest_memory(24 * gib, inf, 12 * gib);
  EXPECT_DOUBLE_EQ(commit.bytes, 12 * gib);
  EXPECT_EQ(commit.phrase, "the commit limit (vm.overcommit_memory = 2) leaves");
  EXPECT_EQ(tightest_memory(24 * gib, 2 * gib, 12 * gib).phrase, ulimit.phrase);
  EXPECT_EQ(tightest_memory(24 * gib, 12 * gib, 2 * gib).phrase, commit.phrase);
  EXPECT_EQ(tightest_memory(0, inf, 3 * gib).phrase, commit.phrase) << "physical memory unknown";
  EXPECT_DOUBLE_EQ(tightest_memory(0, inf, inf).bytes, 0) << "nothing known: nothing is refused";
  // A limit that leaves nothing (other processes committed it all) refuses every estimate.
  const AvailableMemory none = tightest_memory(24 * gib, inf, -5 * gib);
  EXPECT_DOUBLE_EQ(none.bytes, 1);
  EXPECT_EQ(none.phrase, commit.phrase);
  EXPECT_DOUBLE_EQ(tightest_memory(24 * gib, 0, inf).bytes, 1);
  // This process: without either limit what is available is the machine's memory; with one, at most that.
  std::ifstream mode_file("/proc/sys/vm/overcommit_memory");
  std::string mode;
  mode_file >> mode;
  rlimit lim{};
  ASSERT_EQ(getrlimit(RLIMIT_AS, &lim), 0);
  note_command_start();
  const AvailableMemory here = available_memory();
  const double physical = static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
  if (mode != "2" && lim.rlim_cur == RLIM_INFINITY) {
    EXPECT_EQ(here.phrase, machine.phrase);
    EXPECT_DOUBLE_EQ(here.bytes, physical);
  } else {
    EXPECT_TRUE(here.phrase == machine.phrase || here.phrase == ulimit.phrase || here.phrase == commit.phrase)
        << here.phrase;
    EXPECT_LE(here.bytes, physical) << "mode " << mode;
  }
}

TEST(MemoryGuard, AllocationFailuresBecomeTheErrorCode) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(run_guarded([]() -> int { throw std::bad_alloc(); }, 1), 1);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "error: out of memory: an allocation failed (std::bad_alloc); the input is too large for the memory "
            "available (see docs/reliability.md, \"Memory\")\n");
  testing::internal::CaptureStderr();
  EXPECT_EQ(run_guarded(
                []() -> int {
                  std::vector<int> v;
                  v.reserve(v.max_size() + 1);
                  return 0;
                },
                1),
            1);
  EXPECT_NE(testing::internal::GetCapturedStderr().find("error: out of memory: a size too large to allocate ("),
            std::string::npos);
  testing::internal::CaptureStderr();
  EXPECT_EQ(run_guarded([]() -> int { throw MemoryRefused("f.json: steps: too big"); }, 1), 1);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "error: f.json: steps: too big\n");
  EXPECT_EQ(run_guarded([] { return 3; }, 1), 3);
}

// The loader asks with the topology and the message count before it builds
// either: a 65,536-node hypercube with no message costs no topology at all.
TEST(ScheduleLoaderMemory, AsksBeforeBuildingAndStopsWhenRefused) {
  std::vector<std::string> asked;
  const ScheduleMemoryCheck refuse = [&asked](const TopologySpec* t, size_t messages, size_t text_bytes,
                                              const std::string& file) {
    asked.push_back(file + " " + (t ? t->describe() : "(not parsed)") + " " + std::to_string(messages) + " " +
                    std::to_string(text_bytes));
    if (t) throw MemoryRefused("refused");
  };
  const std::string text = R"({"topology": {"kind": "hypercube", "dims": [16]}, "steps": [[{"src": 0, "dst": 1}], []]})";
  Schedule s;
  Diagnostics d("h.json");
  EXPECT_THROW(parse_schedule_json(text, s, d, refuse), MemoryRefused);
  ASSERT_EQ(asked.size(), 2u);
  EXPECT_EQ(asked[0], "h.json (not parsed) 0 " + std::to_string(text.size()));
  EXPECT_EQ(asked[1], "h.json hypercube d=16 1 " + std::to_string(text.size()));
  EXPECT_TRUE(s.steps.empty()) << "no message read before the check";
}

TEST(ScheduleLoaderMemory, DefaultCheckLetsOrdinaryFilesThrough) {
  Schedule s;
  Diagnostics d("h.json");
  EXPECT_TRUE(parse_schedule_json(R"({"topology": {"kind": "hypercube", "dims": [16]}, "steps": []})", s, d))
      << d.format();
  EXPECT_EQ(s.topology.dims, std::vector<int>{16});
}

TEST(ScheduleMemory, ModelsNameTheirKeys) {
  const TopologySpec torus{"torus", {4096, 4096}};
  const MemoryEstimate e = schedule_file_estimate(ScheduleCommand::Check, &torus, 0, 60);
  EXPECT_EQ(e.command, "schedule check");
  EXPECT_EQ(e.sizes, "16777216 nodes, 0 messages");
  EXPECT_EQ(e.dominant().key, "topology.dims");
  // 16M nodes x 4 ports x 2 tables of ints, 64M links x 3 ints and a bit.
  EXPECT_GT(e.total(), 16777216.0 * 4 * 8 + 67108864.0 * 12);
  const MemoryEstimate text = schedule_file_estimate(ScheduleCommand::Check, nullptr, 0, 1000000);
  EXPECT_EQ(text.sizes, "1000000 bytes of JSON");
  EXPECT_EQ(text.dominant().key, "steps");
  const TopologySpec cube{"hypercube", {16}};
  const MemoryEstimate g = generator_estimate(cube, 65536LL * 65535, GeneratorOutput::ScheduleText);
  EXPECT_EQ(g.command, "schedule generate");
  EXPECT_EQ(g.dominant().key, "--algorithm");
  EXPECT_EQ(generator_estimate(cube, 65535, GeneratorOutput::SurveyRows).command, "schedule survey");
}

TEST(TopologySize, LinksAndFootprintWithoutBuilding) {
  for (const TopologySpec& spec :
       {TopologySpec{"mesh", {5, 3}}, TopologySpec{"torus", {2, 3, 1}},
        TopologySpec{"torus", {7}}, TopologySpec{"hypercube", {5}},
        TopologySpec{"mesh", {1, 4, 2}}}) {
    const Topology t(spec);
    EXPECT_EQ(Topology::links_of(spec), t.num_links()) << spec.describe();
    EXPECT_GT(Topology::footprint_bytes(spec), 0.0);
  }
}

TEST(DiagnosticsCap, KeepsTheFirstOfEachSeverityAndCountsTheRest) {
  Diagnostics d("w.json");
  const size_t cap = Diagnostics::kMaxKeptPerSeverity;
  for (size_t i = 0; i < cap + 1500; ++i) d.warning("step " + std::to_string(i + 1), "w");
  d.error("field \"x\"", "e");
  EXPECT_EQ(d.warnings(), static_cast<long long>(cap + 1500));
  EXPECT_EQ(d.errors(), 1);
  EXPECT_EQ(d.warnings_not_kept(), 1500);
  ASSERT_EQ(d.items().size(), cap + 1);
  EXPECT_EQ(d.items().back().what, "e") << "an error after the cap of warnings is still kept";
  const std::string text = d.format(50);
  EXPECT_NE(text.find("w.json: ... and " + std::to_string(cap + 1501 - 50) + " more problems\n"), std::string::npos)
      << text;
  d.promote_warnings();
  EXPECT_EQ(d.errors(), static_cast<long long>(cap + 1501));
  EXPECT_EQ(d.warnings(), 0);
  EXPECT_EQ(d.warnings_not_kept(), 0);
}

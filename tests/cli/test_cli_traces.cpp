// Timeline traces: `run --trace perfetto` writes Chrome trace-event JSON with a
// slice per worm per channel, flow arrows, step markers and counters;
// `run --trace vcd` writes a VCD waveform; both refuse what they cannot do.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
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

const std::string kDefault = std::string(WORMSIM_SOURCE_DIR) + "/configs/default.yaml";

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

// Golden reference outputs (as SST Merlin keeps tests/refFiles and gem5 its
// trusted_stats.json): each case below runs a shipped config, with overrides
// that cover every topology, port model, VC count, traffic pattern and trace
// format, and its summary.json must equal tests/golden/<case>.json byte for
// byte. summary.json ends with the size and CRC-32 of every other output file
// (the `outputs` manifest), so the one file pins every byte of every output.
//
// A change that is meant to change outputs regenerates the goldens with
//   WORMSIM_UPDATE_GOLDEN=1 ctest -R Golden
// and the diff of tests/golden/ in the commit shows what changed.
#include <cstdlib>

#include "cli_harness.hpp"

namespace wormsim_cli {
namespace {

struct GoldenCase {
  const char* name;
  const char* config;  // relative to the source folder
  std::vector<std::string> overrides;
};
void PrintTo(const GoldenCase& c, std::ostream* os) { *os << c.name; }

std::vector<std::string> set(std::initializer_list<const char*> assignments) {
  std::vector<std::string> args;
  for (const char* a : assignments) {
    args.emplace_back("--set");
    args.emplace_back(a);
  }
  return args;
}

const std::vector<GoldenCase>& golden_cases() {
  static const std::vector<GoldenCase> cases = {
      {"default", "configs/default.yaml", {}},
      {"default_eager", "configs/default.yaml", set({"schedule.mode=eager"})},
      {"b2_eye_64x64", "configs/bench/b2_eye_64x64.yaml", {}},
      {"b3_eye_32x32x32", "configs/bench/b3_eye_32x32x32.yaml", {}},
      {"b1_uniform_16x16", "configs/bench/b1_uniform_16x16.yaml", {}},
      {"b4_total_exchange_8cube", "configs/bench/b4_total_exchange_8cube.yaml", {}},
      {"b5_setup_128x128", "configs/bench/b5_setup_128x128.yaml", {}},
      {"b6_window_near_saturation_16x16", "configs/bench/b6_window_near_saturation_16x16.yaml", {}},
      {"b7_multicast_32x32", "configs/bench/b7_multicast_32x32.yaml", {}},
      {"torus_binomial_allport",
       "configs/default.yaml",
       set({"schedule={algorithm: binomial, source: 0, mode: eager}", "network.topology=torus", "network.dims=[8,8]",
            "network.vcs=3", "network.port_model=all-port", "timing.credit_delay=3", "network.buffer_flits=2"})},
      {"torus3d_hotspot",
       "configs/default.yaml",
       set({"schedule={algorithm: binomial, source: 5, mode: barrier, flits: 8}", "network.topology=torus",
            "network.dims=[4,4,4]", "network.allow_deadlock=true", "traffic={pattern: hotspot, hotspot: {nodes: [0, 21], fraction: 0.3}, rate: 0.01, flits: {4: 0.5, 12: 0.5}, cycles: 400}"})},
      {"hypercube_multinode_2port",
       "configs/default.yaml",
       set({"schedule={algorithm: multinode-broadcast, mode: eager, flits: 4}", "network.topology=hypercube",
            "network.dims=[5]", "network.port_model=2-port", "network.vcs=2", "network.buffer_flits=1"})},
      {"mesh_eye_transpose_perfetto",
       "configs/default.yaml",
       [] {
         auto a = set({"schedule={algorithm: eye, source: eye, mode: eager, flits: 24}", "network.dims=[8,8]",
                       "network.port_model=all-port", "timing.link_delay=0", "timing.credit_delay=3",
                       "network.buffer_flits=3", "traffic={pattern: transpose, rate: 0.03, flits: 5, cycles: 500}"});
         a.insert(a.end(), {"--trace", "perfetto"});
         return a;
       }()},
      {"ring_line_cycle_vcd",
       "configs/default.yaml",
       [] {
         auto a = set({"schedule={algorithm: line-cycle, source: 3}", "network.topology=ring", "network.dims=[16]",
                       "network.allow_deadlock=true"});
         a.insert(a.end(), {"--trace", "vcd"});
         return a;
       }()},
      {"mesh_bit_complement_2vcs",
       "configs/bench/b1_uniform_16x16.yaml",
       set({"traffic={pattern: bit-complement, rate: 0.02, flits: 6, cycles: 600}", "network.dims=[8,8]",
            "network.vcs=2"})},
      // Four VCs per port, short worms, near saturation: several VCs of a port hold an output at once, so the
      // switch's round-robin offer among them (Router::offer, read from a mask of such VCs) decides the moves.
      {"mesh_short_worms_4vcs_loaded",
       "configs/bench/b1_uniform_16x16.yaml",
       set({"traffic={pattern: uniform, rate: 0.07, flits: 4, cycles: 800}", "network.dims=[8,8]", "network.vcs=4",
            "network.buffer_flits=4", "timing.router_delay=3", "output.router_stats=true"})},
      // Routers with more than 64 input VCs (16 VCs on each of five links, five injection channels: 85),
      // beyond which the routers keep no VC masks and scan their VCs; then exactly 64 (9 VCs on each of
      // seven links, one injection channel), the most the masks (holding_vcs_) cover.
      {"hypercube_85_input_vcs_allport_loaded",
       "configs/default.yaml",
       set({"schedule={algorithm: multinode-broadcast, mode: eager, flits: 6}", "network.topology=hypercube",
            "network.dims=[5]", "network.vcs=16", "network.port_model=all-port", "network.buffer_flits=2",
            "traffic={pattern: uniform, rate: 0.15, flits: 3, cycles: 400}", "output.router_stats=true"})},
      {"hypercube_64_input_vcs_loaded",
       "configs/default.yaml",
       set({"schedule={algorithm: hypercube-binomial, source: 5, mode: eager, flits: 10}", "network.topology=hypercube",
            "network.dims=[7]", "network.vcs=9", "network.buffer_flits=2",
            "traffic={pattern: uniform, rate: 0.06, flits: 4, cycles: 400}", "output.router_stats=true"})},
      {"mesh_deadlock_free_umesh_kport",
       "configs/default.yaml",
       set({"schedule={algorithm: umesh, source: [2, 5], mode: eager, flits: 9}", "network.dims=[8,8]",
            "network.port_model=k-port", "network.ports=2"})},
      {"multicast_dual_path_8x8",
       "configs/default.yaml",
       set({"schedule={algorithm: dual-path, source: eye, flits: 16}", "network.dims=[8,8]"})},
      {"multicast_tree_torus_alone",
       "configs/default.yaml",
       set({"schedule={algorithm: tree, source: 14, flits: 24}", "network.topology=torus", "network.dims=[6,6]",
            "network.vcs=2"})},
      {"multicast_column_path_under_load",
       "configs/default.yaml",
       set({"schedule={algorithm: column-path, source: eye, mode: eager, flits: 12}", "network.dims=[8,8]",
            "traffic={pattern: uniform, rate: 0.02, flits: 6, cycles: 400}"})},
      // Adaptive routing functions (hops chosen in the router at every try, under heavy load):
      // Duato's protocol on a mesh and on a torus with dateline escape VCs, and two turn models.
      {"mesh_minimal_adaptive_uniform",
       "configs/bench/b1_uniform_16x16.yaml",
       set({"traffic={pattern: uniform, rate: 0.06, flits: 6, cycles: 600}", "network.dims=[8,8]",
            "network.vcs=2", "network.routing=minimal-adaptive"})},
      {"torus_minimal_adaptive_bit_complement",
       "configs/default.yaml",
       set({"schedule={algorithm: binomial, source: 0, mode: eager}", "network.topology=torus", "network.dims=[6,6]",
            "network.vcs=3", "network.routing=minimal-adaptive", "network.buffer_flits=2",
            "traffic={pattern: bit-complement, rate: 0.05, flits: 6, cycles: 500}"})},
      {"mesh_west_first_transpose",
       "configs/bench/b1_uniform_16x16.yaml",
       set({"traffic={pattern: transpose, rate: 0.06, flits: 5, cycles: 600}", "network.dims=[8,8]",
            "network.routing=west-first", "timing.router_delay=3"})},
      {"mesh_odd_even_hotspot",
       "configs/bench/b1_uniform_16x16.yaml",
       set({"traffic={pattern: hotspot, hotspot: {nodes: [27, 36], fraction: 0.3}, rate: 0.05, flits: 6, cycles: 600}",
            "network.dims=[8,8]", "network.routing=odd-even", "network.buffer_flits=4"})},
      {"load_8x8_uniform", "configs/load_8x8_uniform.yaml", {}},
      {"load_8x8_two_classes", "configs/load_8x8_two_classes.yaml", {}},
      {"bcast_under_load_8x8", "configs/studies/bcast_under_load_8x8.yaml", {}},
      {"load_8x8_adaptive_warmup_bcast",
       "configs/load_8x8_uniform.yaml",
       set({"traffic.warmup_cycles=auto", "traffic.warmup_sample_cycles=300", "traffic.warmup_tolerance=0.08",
            "traffic.measure_cycles=3000", "schedule={algorithm: umesh, source: [0, 0], flits: 12}",
            "schedule.repeat={count: 4, gap_cycles: 100}"})},
      // Repetitions whose records are recycled as the run goes (sim/schedule_retirement.hpp), due more often
      // than one lasts: each starts late, in the cycle the one before completes.
      {"mesh_eye_repeated_periodic",
       "configs/default.yaml",
       set({"schedule={algorithm: eye, source: eye, mode: eager, flits: 10, repeat: {count: 25, period_cycles: 45}}",
            "network.dims=[8,8]", "network.vcs=2", "network.buffer_flits=3"})},
      {"load_8x8_saturated",
       "configs/load_8x8_uniform.yaml",
       set({"traffic.rate=0.08", "traffic.warmup_cycles=500", "traffic.measure_cycles=1000",
            "traffic.drain_cycles=1000"})},
  };
  return cases;
}

// The source folder differs between clones: paths under it are kept relative.
std::string normalise(std::string text) {
  const std::string root = source_dir().string() + "/";
  for (size_t at; (at = text.find(root)) != std::string::npos;) text.replace(at, root.size(), "$SOURCE/");
  return text;
}

class Golden : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(Golden, SummaryMatchesTheReference) {
  const GoldenCase& c = GetParam();
  TempDir tmp;
  std::vector<std::string> args = {"run", (source_dir() / c.config).string()};
  args.insert(args.end(), c.overrides.begin(), c.overrides.end());
  args.insert(args.end(), {"--set", "output.host_timing=false", "--out", (tmp / "o").string(), "--quiet"});
  const Result r = run_wormsim(args, tmp.path(), 120);
  ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();

  const std::string got = normalise(read_file(tmp / "o" / "summary.json"));
  const fs::path golden = source_dir() / "tests" / "golden" / (std::string(c.name) + ".json");
  const char* update = std::getenv("WORMSIM_UPDATE_GOLDEN");
  if (update && std::string(update) == "1") write_file(golden, got);
  ASSERT_TRUE(fs::is_regular_file(golden)) << golden << " is missing (WORMSIM_UPDATE_GOLDEN=1 writes it)";
  const std::string want = read_file(golden);
  if (got == want) return;
  // Say which lines differ first: a metric, the config echo, or one file's CRC.
  const auto a = lines(want), b = lines(got);
  std::string diff;
  for (size_t i = 0, n = std::max(a.size(), b.size()); i < n && diff.size() < 2000; ++i) {
    const std::string x = i < a.size() ? a[i] : "", y = i < b.size() ? b[i] : "";
    if (x != y) diff += "line " + std::to_string(i + 1) + ": golden `" + x + "`, run `" + y + "`\n";
  }
  ADD_FAILURE() << c.name << ": outputs differ from " << golden << "\n" << diff;
}

INSTANTIATE_TEST_SUITE_P(ShippedConfigs, Golden, ::testing::ValuesIn(golden_cases()),
                         [](const ::testing::TestParamInfo<GoldenCase>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace wormsim_cli

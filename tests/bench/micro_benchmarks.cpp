// Google Benchmark micro-benchmarks of the hot paths (docs/performance.md).
// These measure; they never pass or fail. CI builds them and runs each briefly.
//   build/tests/wormsim_micro_bench                       # all
//   build/tests/wormsim_micro_bench --benchmark_filter=Route
#include <benchmark/benchmark.h>

#include <systemc>

#include <cstdlib>
#include <memory>

#include "models/channel.hpp"
#include "models/network.hpp"
#include "models/routing.hpp"
#include "sim/background_traffic.hpp"

namespace {

using namespace wormsim;

// Route lookup: dimension-order routes on a 64x64 mesh, across the whole diagonal.
void BM_RouteLookupMesh64(benchmark::State& state) {
  const Topology topo({"mesh", {64, 64}});
  int src = 0;
  for (auto _ : state) {
    const int dst = topo.num_nodes() - 1 - src;
    Route r = dimension_order_route(topo, src, dst == src ? 0 : dst);
    benchmark::DoNotOptimize(r.links.data());
    src = (src + 97) % topo.num_nodes();
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RouteLookupMesh64);

// Credit round trip: the sender checks its credit and sends, the receiver frees
// the slot with a one-cycle credit delay, as on every hop.
void BM_CreditRoundTrip(benchmark::State& state) {
  Flit store[8] = {};
  FlitQueue q;
  q.bind(store, 8);
  Flit f;
  uint64_t now = 0;
  for (auto _ : state) {
    if (q.has_credit(now)) q.push(f);
    benchmark::DoNotOptimize(q.pop(now + 1));
    ++now;
  }
  benchmark::DoNotOptimize(q.has_credit(now));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CreditRoundTrip);

// Flit buffer: push and pop through a 4-flit ring.
void BM_FlitQueuePushPop(benchmark::State& state) {
  Flit store[4];
  FlitQueue q;
  q.bind(store, 4);
  Flit f;
  for (auto _ : state) {
    f.msg++;
    q.push(f);
    benchmark::DoNotOptimize(q.pop(0));
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_FlitQueuePushPop);

// Router steps: a 16x16 mesh under uniform traffic at 0.01 packets/node/cycle;
// each iteration simulates 100 cycles (SystemC elaborates once per process, so
// this is the only benchmark that builds a network). Reports router-steps/s.
struct LoadedMesh {
  Topology topo{TopologySpec{"mesh", {16, 16}}};
  std::unique_ptr<Network> net;
  std::unique_ptr<BackgroundTraffic> traffic;
  LoadedMesh() {
    NetworkParams p;
    p.buffer_flits = 8;
    net = std::make_unique<Network>("bench_network", topo, p);
    BackgroundSpec b;
    b.rate = 0.01;
    b.lengths = {{16, 1.0}};
    b.cycles = 1ULL << 40;  // never ends
    traffic = std::make_unique<BackgroundTraffic>(std::vector<BackgroundSpec>{b}, topo);
    net->add_traffic(traffic.get());
  }
};

void BM_RouterStepsUniform16x16(benchmark::State& state) {
  static LoadedMesh mesh;
  sc_core::sc_start(1000, sc_core::SC_NS);  // warm up to steady state
  mesh.net->rethrow_failure();
  const uint64_t moved0 = mesh.net->context().flits_moved;
  const uint64_t express0 = mesh.net->express_worms().flit_moves();
  for (auto _ : state) sc_core::sc_start(100, sc_core::SC_NS);
  mesh.net->rethrow_failure();  // a failure ends the simulation: the figures would be of a stopped network
  const double moved = static_cast<double>(mesh.net->context().flits_moved - moved0);
  state.counters["flit_moves_per_s"] = benchmark::Counter(moved, benchmark::Counter::kIsRate);
  // Share of the moves made by the express loop (worms whose header has left; models/express_worms.hpp).
  state.counters["express_share"] =
      moved > 0 ? static_cast<double>(mesh.net->express_worms().flit_moves() - express0) / moved : 0.0;
  state.SetItemsProcessed(state.iterations() * 100 * 256);  // router-cycles
}
BENCHMARK(BM_RouterStepsUniform16x16)->Iterations(200);

}  // namespace

int sc_main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}

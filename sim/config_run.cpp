// The `run` section: seed, limits, and the routers' shortcuts.
#include "sim/config_reader.hpp"
#include "models/limits.hpp"

namespace wormsim {

namespace {

using P = ParamDecl;

const ParamSection kRunParams{
    "run", "run", "the seed and the limits of a run", {}, 40,
    {P::integer("seed", 0, kMaxCycleCount)
         .by_default(1)
         .range("0..2^62")
         .describe("seed of the background traffic (the only random element; schedules are deterministic)"),
     P::integer("max_cycles", 1, kMaxCycleCount)
         .by_default(1000000000)
         .range("1..2^62")
         .in("cycles")
         .describe("stop with status cycle_limit when the next cycle to simulate reaches this"),
     P::integer("watchdog_cycles", 0, kMaxCycleCount)
         .by_default(100000)
         .range("0..2^62")
         .in("cycles")
         .describe("stop with status deadlock or no_progress after this many cycles without a flit moving (while a measured load run offers traffic, also when a loop of waits and its worms' flits stay unchanged this long, or a third of traffic.drain_cycles if less); 0 disables"),
     // Not echoed: the same run with and without the fast paths gives the same bytes.
     P::boolean("fast_paths")
         .by_default(true)
         .not_echoed()
         .describe("false steps every router through the full pipeline, every flit by its router, and one cycle per SystemC activation (same outputs, slower)")}};
WORMSIM_DECLARE_PARAMS(kRunParams);

}  // namespace

void read_run(ConfigSection& s, Config& c) {
  s.check_keys();
  c.seed = static_cast<uint64_t>(s.integer("seed"));
  c.max_cycles = static_cast<uint64_t>(s.integer("max_cycles"));
  c.watchdog_cycles = static_cast<uint64_t>(s.integer("watchdog_cycles"));
  c.fast_paths = s.boolean("fast_paths");
}

}  // namespace wormsim

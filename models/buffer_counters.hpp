// Per input VC counters behind output.router_stats (docs/metrics.md, "Router
// statistics"): the occupancy integral of the VC's buffer and the cycles its
// front head stalled, by cause. Kept only when asked for (SimContext::vc_counters
// is null otherwise), so a run without them pays one test per flit move.
//
// The occupancy integral is exact without touching a buffer on every cycle: a
// flit put into a buffer at cycle t_in and taken out at t_out adds t_out - t_in
// flit-cycles (it is counted at the end of cycles t_in .. t_out - 1), added
// when it leaves; a flit still there at cycle T adds T - t_in when a snapshot
// is taken (Network::vc_counters_at). t_in is known from the flit itself: its
// `ready` is t_in + link_delay + router_delay on a link input, t_in +
// router_delay on an injection input (models/flit_transfer.hpp).
#pragma once

#include <cstdint>

namespace wormsim {

struct VcCounters {
  uint64_t flit_cycles = 0;   // occupancy integral of the flits that have left (or, in a snapshot, up to it)
  uint64_t vc_alloc = 0;      // a ready head at the front found no free output VC
  uint64_t switch_alloc = 0;  // it held an output VC and a credit, and lost switch arbitration
  uint64_t credit = 0;        // it held an output VC but no credit downstream

  VcCounters& operator+=(const VcCounters& o) {
    flit_cycles += o.flit_cycles;
    vc_alloc += o.vc_alloc;
    switch_alloc += o.switch_alloc;
    credit += o.credit;
    return *this;
  }
  VcCounters operator-(const VcCounters& o) const {
    return VcCounters{flit_cycles - o.flit_cycles, vc_alloc - o.vc_alloc, switch_alloc - o.switch_alloc,
                      credit - o.credit};
  }
};

}  // namespace wormsim

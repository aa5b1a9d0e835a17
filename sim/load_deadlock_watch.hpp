// The watchdog waits for the network to fall quiet, and while background
// traffic is offered it never does: each packet's arrival falls due, and the
// worms that can still move keep moving. In a measured load run, which offers
// until its window has drained (and on, for a schedule run under it), a
// deadlock among some of the worms then went unseen: a schedule's kept the
// load on until run.max_cycles, the background's own stopped the run as
// saturated. So while the load is offered, this looks at cycle 0 and every
// period() cycles after for a loop of waits unchanged since its last look,
// none of whose worms' flits has moved (Network::lasting_wait_cycle), and the
// run stops as deadlock at the first look that finds one. A loop needs two
// looks, so the period is at most a third of the drain cap: a loop formed by
// the window's end is found before the cap would stop the run as saturated.
// Off with the watchdog (run.watchdog_cycles: 0). A traffic.cycles run ends
// its load on its own, and the watchdog then sees what is stuck.
#pragma once

#include <cstdint>

#include "models/sim_context.hpp"
#include "models/traffic_source.hpp"

namespace wormsim {

class LoadDeadlockWatch : public TrafficSource {
 public:
  // `load`: the background traffic, looked after while it offers packets.
  // `drain_cap`: traffic.drain_cycles.
  LoadDeadlockWatch(const TrafficSource& load, uint64_t drain_cap) : load_(load), drain_cap_(drain_cap) {}

  void start(Network& net, uint64_t now) override;
  void after_routers(Network&, uint64_t) override {}
  void after_interfaces(Network& net, uint64_t now) override;
  bool finished() const override { return true; }
  // The looks fall on cycles that every run simulates (fast paths or not).
  uint64_t next_event() const override { return load_.finished() || next_look_ == kNever ? kNever : next_look_ - 1; }
  bool deadlocked() const override { return deadlocked_; }

 private:
  // run.watchdog_cycles or a third of the drain cap, whichever is less, but
  // never below Network::lasting_wait_floor() (longer than any flit
  // or credit takes).
  uint64_t period(const Network& net) const;

  const TrafficSource& load_;
  uint64_t drain_cap_;
  uint64_t next_look_ = kNever;  // the next look's cycle + 1
  bool deadlocked_ = false;
};

}  // namespace wormsim

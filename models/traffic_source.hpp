// What decides when messages are released into the network: the schedule
// executor (sim/executor.hpp), background traffic (sim/background_traffic.hpp),
// and observers of the run (measurement window, progress log). The network
// calls it once per simulated cycle, never per flit.
#pragma once

#include <cstdint>
#include <limits>

namespace wormsim {

class Network;

class TrafficSource {
 public:
  virtual ~TrafficSource() = default;
  // Cycle 0: release what is due at the start.
  virtual void start(Network& net, uint64_t now) = 0;
  // After the routers stepped: the tails ejected this cycle are in
  // SimContext::delivered_now. Releases made here happen at `now`.
  virtual void after_routers(Network& net, uint64_t now) = 0;
  // After the interfaces stepped: tails that left their injection channel are in
  // SimContext::injected_now. Releases made here happen at `now + 1`.
  virtual void after_interfaces(Network& net, uint64_t now) = 0;
  // True once nothing more will ever be released.
  virtual bool finished() const = 0;
  // The next cycle at which the source releases something on its own (not in
  // reaction to a delivery), so that the network can skip idle cycles up to it.
  virtual uint64_t next_event() const { return UINT64_MAX; }
  // True when the source finds that the network cannot deliver what it offers
  // (a measurement window that does not drain): the run stops with status
  // saturated after the current cycle.
  virtual bool saturated() const { return false; }
  // True when the source has found a deadlock that the watchdog cannot see,
  // because other worms keep moving (Network::lasting_wait_cycle, whose loop
  // is then the network's deadlock_cycle): the run stops with status deadlock
  // after the current cycle.
  virtual bool deadlocked() const { return false; }
};

}  // namespace wormsim

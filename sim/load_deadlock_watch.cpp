#include "sim/load_deadlock_watch.hpp"

#include <algorithm>

#include "models/network.hpp"

namespace wormsim {

void LoadDeadlockWatch::start(Network& net, uint64_t now) {
  if (net.watchdog_cycles()) next_look_ = now + 1;  // the first look is at the end of this cycle
}

void LoadDeadlockWatch::after_interfaces(Network& net, uint64_t now) {
  if (load_.finished() || now + 1 < next_look_) return;
  next_look_ = now + 1 + period(net);
  deadlocked_ = net.lasting_wait_cycle(now);
}

uint64_t LoadDeadlockWatch::period(const Network& net) const {
  return std::max(net.lasting_wait_floor(), std::min(net.watchdog_cycles(), drain_cap_ / 3));
}

}  // namespace wormsim

#include "sim/load_deadlock_watch.hpp"

#include "models/network.hpp"

namespace wormsim {

void LoadDeadlockWatch::start(Network& net, uint64_t now) {
  if (net.watchdog_cycles()) next_look_ = now + 1;  // the first look is at the end of this cycle
}

void LoadDeadlockWatch::after_interfaces(Network& net, uint64_t now) {
  if (load_.finished() || now + 1 < next_look_) return;
  next_look_ = now + 1 + net.lasting_wait_period();
  deadlocked_ = net.lasting_wait_cycle(now);
}

}  // namespace wormsim

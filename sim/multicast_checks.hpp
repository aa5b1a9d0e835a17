// Whether the multicast messages of a run's schedule (docs/multicast.md) can
// run (their routes' length) and deadlock, given what shares the network with their worms: each scheme's
// MulticastInfo::deadlock_risk, asked with the run's facts.
#pragma once

#include <string>
#include <vector>

#include "models/topology.hpp"
#include "schedules/schedule.hpp"
#include "sim/config.hpp"

namespace wormsim {

// One text per scheme that can deadlock in this run, naming the first message
// that uses it, counted from 1 as the validator does ("step 1, message 1 (multicast: tree): ..."); empty when none can.
std::vector<std::string> multicast_deadlock_risks(const Config& cfg, const Schedule& s, const Topology& topo);

// The first multicast message one of whose worms has more route entries than a
// header can index (kMaxMulticastRouteEntries), named as above with what it
// has; empty when none has. Such a worm could not run.
std::string multicast_route_too_long(const Config& cfg, const Schedule& s, const Topology& topo);

}  // namespace wormsim

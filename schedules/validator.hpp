// Semantic checks of a loaded schedule against the network it will run on:
// topology mismatch, src = dst, packets sent before they are held, broadcast
// coverage (nodes informed twice or never), and port-model violations (more
// sends per node per step than the port model allows: a warning, since the
// simulator serialises them; an error with --strict).
#pragma once

#include <string>

#include "models/port_model.hpp"
#include "models/topology.hpp"
#include "schedules/diagnostics.hpp"
#include "schedules/schedule.hpp"

namespace wormsim {

// `network` is the topology the run uses; a schedule written for another one is an error.
// `routing` (network.routing) routes the messages without an explicit route for the all-port check.
void validate_schedule(const Schedule& schedule, const TopologySpec& network, const PortModel& ports,
                       Diagnostics& diag, const std::string& routing = "dimension-order");
// The same on a topology already built for the schedule (`network.spec()` is
// the network the run uses).
void validate_schedule(const Schedule& schedule, const Topology& network, const PortModel& ports, Diagnostics& diag,
                       const std::string& routing = "dimension-order");

}  // namespace wormsim

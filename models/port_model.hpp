// The network interface's port model: how many messages an endpoint (node) can
// inject and eject at once. Every endpoint of a router has its own channels.
//   one-port: one injection and one ejection channel per endpoint (default);
//   all-port: one injection channel per outgoing link and one ejection channel
//             per incoming link; a message injects on the channel of its first
//             hop and ejects on the channel of the link it arrives on (a
//             message between two endpoints of one router uses channel 0);
//   k-port:   k injection and k ejection channels, any free one is used.
#pragma once

#include <string>

#include "models/topology.hpp"

namespace wormsim {

enum class PortKind { OnePort, AllPort, KPort };

// A router's input ports (link ports + injection channels) and output ports
// (link ports + ejection channels) are tracked in 64-bit masks.
constexpr int kMaxRouterPorts = 64;

struct PortModel {
  PortKind kind = PortKind::OnePort;
  int k = 1;  // channels per direction for k-port

  int injection_channels(const Topology& topo) const {
    return kind == PortKind::OnePort ? 1 : kind == PortKind::AllPort ? topo.num_ports() : k;
  }
  int ejection_channels(const Topology& topo) const { return injection_channels(topo); }
  // How many messages an endpoint may start in one step without serialisation.
  int sends_per_step(const Topology& topo, int node) const;
  std::string describe() const;
};

// Accepts "one-port", "all-port", "k-port" (with k given separately) and "N-port".
bool parse_port_model(const std::string& text, PortModel& out);

}  // namespace wormsim

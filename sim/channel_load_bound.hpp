// The throughput no routing can beat, where it is known in closed form: the
// channel load of uniform traffic across the worst cut of a mesh or torus
// (Dally & Towles, ch. 3). `wormsim saturate` reports the saturation it
// measures against it (docs/load-studies.md, "Saturation search").
#pragma once

#include <string>

#include "models/topology.hpp"

namespace wormsim {

struct ChannelLoadBound {
  bool known = false;
  double flits = 0.0;   // flits per node per cycle
  std::string formula;  // how it was worked out (known), or why it is not known
};

// Uniform traffic (every other endpoint equally likely, as the uniform pattern
// draws them) on a mesh or torus; any other pattern or topology: not known.
ChannelLoadBound channel_load_bound(const TopologySpec& topology, const std::string& pattern);

}  // namespace wormsim

// The figures of a measured load run (traffic.measure_cycles; sim/measurement_window.hpp),
// as BookSim reports them: over the packets created in the measurement window,
// offered and accepted throughput side by side, per endpoint (min, mean, max),
// and latency from creation (packet latency, source queueing included) and from
// injection (network latency). docs/load-studies.md defines each.
#pragma once

#include <cstdint>
#include <vector>

#include "models/network.hpp"
#include "sim/measurement_window.hpp"
#include "sim/metrics.hpp"

namespace wormsim {

struct PerEndpoint {
  double min = 0.0, mean = 0.0, max = 0.0;
};

struct LoadMetrics {
  uint64_t warmup = 0, measure = 0, drain_limit = 0;
  bool saturated = false;
  bool backlogged = false;  // saturated by the sources' backlog after the window drained (MeasurementWindow)
  uint64_t drain_cycles = 0;  // window end to the last measured delivery (0 if they were all in before)
  int64_t packets = 0, delivered = 0;  // created in the window; of those delivered
  PerEndpoint offered;   // flits per endpoint per cycle, of packets created in the window (by source)
  PerEndpoint accepted;  // flits per endpoint per cycle ejected during the window (by destination)
  double offered_packets = 0.0;  // packets per endpoint per cycle created in the window
  LatencyStats packet_latency;   // delivered - created
  LatencyStats network_latency;  // delivered - injected
  double link_utilisation_mean = 0.0, link_utilisation_max = 0.0;  // flits carried per link per window cycle
  LatencyHistogram hops;  // route lengths of the delivered measured packets
  const WarmupDetector* adaptive = nullptr;  // the adaptive warm-up's samples, if it had one
};

// The packets created in the window, folded in one at a time (live ones at the
// end of the run, retired ones as they are delivered: sim/message_retirement.hpp).
struct WindowTally {
  // `count_hops`: also fold the route lengths of the delivered packets (output.router_stats).
  WindowTally(int endpoints, bool count_hops) : offered(static_cast<size_t>(endpoints), 0), count_hops(count_hops) {}
  void add(const MessageRecord& m, const MeasurementWindow& window);
  void merge(const WindowTally& other);

  int64_t packets = 0, delivered = 0;
  std::vector<uint64_t> offered;  // flits per source endpoint
  LatencyHistogram packet, network, hops;
  bool count_hops;
};

// `retired`: measured packets retired during the run.
// `hops`: fill LoadMetrics::hops (output.router_stats).
LoadMetrics compute_load_metrics(const Network& net, const MeasurementWindow& window,
                                 const WindowTally* retired = nullptr, bool hops = false);

}  // namespace wormsim

// Per-class figures of a run with several traffic classes (traffic.classes;
// sim/background_traffic.hpp): each class's messages, deliveries and latency
// over the whole run, and over its packets created in the measurement window
// (traffic.measure_cycles) the same figures as the aggregate load block:
// offered and accepted flits per node per cycle, packet and network latency
// with nearest-rank percentiles (docs/metrics.md, summary.json classes).
//
// A class's accepted throughput counts whole packets: the flits of its packets
// whose tail was ejected during the window (the aggregate load.accepted counts
// single flits ejected during it, so the classes' sum may differ from it by the
// packets that straddle the window's edges).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "models/sim_context.hpp"
#include "sim/latency_histogram.hpp"
#include "sim/measurement_window.hpp"

namespace wormsim {

class Network;

struct ClassFigures {
  // The whole run.
  int64_t messages = 0, delivered = 0, flits_delivered = 0;
  LatencyHistogram latency;  // delivered - created
  // The packets created in the measurement window.
  int64_t packets = 0, window_delivered = 0;
  uint64_t offered_flits = 0;
  LatencyHistogram packet, network;  // delivered - created, delivered - injected
};

// The background messages folded in one at a time, by class: live ones at the
// end of the run, retired ones as they are delivered (sim/message_retirement.hpp).
class ClassTally {
 public:
  explicit ClassTally(size_t classes) : figures_(classes) {}
  // `window`: the measurement window, if the run has one.
  void add(const MessageRecord& m, const MeasurementWindow* window);
  void merge(const ClassTally& other);
  const std::vector<ClassFigures>& figures() const { return figures_; }

 private:
  std::vector<ClassFigures> figures_;
};

// The classes' figures: the table's live background messages, plus `retired` ones.
ClassTally tally_classes(const Network& net, size_t classes, const MeasurementWindow* window,
                         const ClassTally* retired);

}  // namespace wormsim

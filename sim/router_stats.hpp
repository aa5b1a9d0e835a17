// output.router_stats (docs/metrics.md, "Router statistics"): per input VC
// buffer occupancy and head stalls (models/buffer_counters.hpp), summed per
// router, and the hop-count distribution of the delivered messages; over the
// measurement window in a measured run (its snapshots), else over the run's
// span. Written as routers.csv, vcs.csv, hops.csv and summary.json's
// router_stats block. The figures are plain counters and a LatencyHistogram,
// so a later split per traffic class keeps one RouterStats per class.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/network.hpp"
#include "sim/latency_histogram.hpp"
#include "sim/load_metrics.hpp"
#include "sim/measurement_window.hpp"
#include "sim/metrics.hpp"

namespace wormsim {

struct RouterStats {
  uint64_t cycles = 0;            // the divisor of every mean occupancy
  std::vector<VcCounters> vcs;    // indexed by Router::counter_index
  std::vector<VcCounters> routers;  // summed per router
  LatencyHistogram hops;
};

// After the run (Network::count_vc_statistics was called before it). `window`
// and `load`: a measured run's window and figures, else null.
RouterStats compute_router_stats(const Network& net, const RunMetrics& metrics, const MeasurementWindow* window,
                                 const LoadMetrics* load);

nlohmann::ordered_json router_stats_json(const RouterStats& stats);
std::string routers_csv(const Network& net, const RouterStats& stats);
std::string vcs_csv(const Network& net, const RouterStats& stats);
std::string hops_csv(const RouterStats& stats);

}  // namespace wormsim

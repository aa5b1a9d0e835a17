// The saturation search of `wormsim saturate` (docs/load-studies.md,
// "Saturation search"): bisection on offered load (traffic.rate) between a
// light load the network sustains and a load it does not, under a stated
// criterion, then a latency-throughput curve around the point found. The
// search only decides which rates to measure; measuring one rate (a whole
// `wormsim run` in a child process) is the caller's PointRunner, so the search
// itself is deterministic and independent of how many runs go in parallel.
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace wormsim {

// Which observations mark a point as saturated; any one that holds does.
struct SaturationCriterion {
  bool throughput = true;  // accepted < (1 - tolerance) x offered
  bool latency = true;     // mean packet latency > latency_multiple x zero-load latency
  bool drain = true;       // the run itself stopped as saturated (traffic.drain_cycles hit)
  double tolerance = 0.05;
  double latency_multiple = 3.0;

  // "throughput,latency,drain": the criteria in force, as --criterion takes them.
  std::string names() const;
};

struct SaturationOptions {
  SaturationCriterion criterion;
  double low = 0.0, high = 0.0;  // packets per node per cycle (traffic.rate)
  double resolution = 0.02;      // stop when high - low <= resolution x low
  int curve_points = 8;          // evenly spaced rates up to curve_to x the saturation rate
  double curve_to = 1.5;
};

// What one measured run says (its summary.json "status" and "load" block).
struct PointMeasure {
  std::string status;                   // completed, saturated, ...
  double offered_packets = 0.0;         // packets per node per cycle created in the window
  double offered = 0.0, accepted = 0.0; // flits per node per cycle
  double packet_latency = 0.0, network_latency = 0.0;  // means over the window's delivered packets, cycles
  int64_t packets = 0, delivered = 0;
};

// One point of the curve: the rate it ran at, what it measured, and how the
// criterion judged it.
struct CurvePoint {
  double rate = 0.0;  // traffic.rate given to the run
  std::string role;   // "low", "high", "bisection" or "curve"
  PointMeasure m;
  bool throughput_fired = false, latency_fired = false, drain_fired = false;
  bool saturated() const { return throughput_fired || latency_fired || drain_fired; }
  // The criteria that fired, comma-separated ("" when none).
  std::string fired() const;
};

enum class SearchOutcome {
  Found,           // the bracket [low, high] holds the saturation rate, within the resolution
  NotSaturated,    // even the high bound is not saturated
};

struct SearchResult {
  SearchOutcome outcome = SearchOutcome::Found;
  double zero_load_latency = 0.0;  // mean packet latency at the low bound
  std::vector<CurvePoint> curve;   // every point measured, by rate
  int below = -1;  // index in curve of the highest rate the search found not saturated (the bracket's low end)
  int above = -1;  // index of the lowest rate it found saturated (-1: none, NotSaturated)
  int bisection_steps = 0;
};

// Measures a batch of rates (in parallel if it can) and returns one measure per
// rate, in order. Throws std::runtime_error naming the rate that failed.
using PointRunner = std::function<std::vector<PointMeasure>(const std::vector<double>& rates)>;

// Thrown when the search cannot start: the low bound is already saturated, or
// a run measured no packets. The message says which and what to change.
struct SearchError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Rounds a rate to the 6 significant digits it is given to a run with, so
// that the rate measured is exactly the rate reported.
double round_rate(double rate);
// A rate as runs are given it (traffic.rate=...): 6 significant digits.
std::string rate_text(double rate);

SearchResult search_saturation(const SaturationOptions& opt, const PointRunner& run);

}  // namespace wormsim

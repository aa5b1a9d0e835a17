// The figures of a repeated schedule (schedule.repeat; sim/repetitions.hpp):
// per repetition, its completion time from its own start and the split of its
// messages' header stalls into step, depth and background contention
// (docs/metrics.md); over the repetitions that completed, the distribution of
// each. repetitions.csv and summary.json `repetitions` are written from these.
#pragma once

#include <cstdint>
#include <vector>

#include "models/network.hpp"
#include "sim/metrics.hpp"
#include "sim/repetitions.hpp"

namespace wormsim {

struct RepetitionRow {
  uint32_t repetition = 0;
  RepetitionTimes times;
  int64_t messages = 0, delivered = 0;
  ContentionTotals step_contention, depth_contention, background_contention, port_wait;
  uint64_t max_latency = 0;
  bool completed() const { return times.end != kNever; }
  uint64_t completion() const { return times.end - times.start; }
  uint64_t late() const { return times.start != kNever && times.start > times.due ? times.start - times.due : 0; }
};

// Over the completed repetitions (all zero when none completed): nearest-rank
// percentiles as everywhere; stdev is the sample standard deviation (n - 1; 0 for one).
struct Distribution {
  uint64_t min = 0, p50 = 0, p95 = 0, max = 0;
  double mean = 0.0, stdev = 0.0;
};
Distribution distribution(const std::vector<uint64_t>& values);

struct RepetitionMetrics {
  RepeatSpec spec;
  uint32_t started = 0, completed = 0, late = 0, under_load = 0;
  std::vector<RepetitionRow> rows;
  Distribution completion, step_contention, depth_contention, background_contention;
};

// Counts message `m` of a repetition into its row.
void count_repetition_message(RepetitionRow& row, const SimContext& ctx, const MessageRecord& m);

// Per repetition, the counts of its messages whose records were retired
// (sim/schedule_retirement.hpp); the others' records are in the table.
using RetiredRepetitions = std::vector<RepetitionRow>;

// `retired`: one row per repetition, or none when no record was retired; its
// rows become the result's, so that a long run holds each repetition's once.
RepetitionMetrics compute_repetition_metrics(const Network& net, const RepeatedSchedule& repeated,
                                             const ScheduleExecutor& exec, RetiredRepetitions retired);

}  // namespace wormsim

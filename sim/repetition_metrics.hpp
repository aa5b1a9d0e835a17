// The figures of a repeated schedule (schedule.repeat; sim/repetitions.hpp):
// per repetition, its completion time from its own start and the split of its
// messages' header stalls into step, depth and background contention
// (docs/metrics.md); over the repetitions that completed, the distribution of
// each. repetitions.csv and summary.json `repetitions` are written from these.
#pragma once

#include <cstdint>
#include <vector>

#include "models/network.hpp"
#include "sim/latency_histogram.hpp"
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
// Read from the counts per value, so that a run holds no list of every
// repetition's figures: the squared deviations are summed value by value, in
// increasing order, which no order of the repetitions changes.
Distribution distribution(const LatencyHistogram& values);

// The figures over repetitions, folded one repetition's row at a time: a long
// repeated run holds counts per distinct value, not a row per repetition.
struct RepetitionTally {
  uint32_t started = 0, completed = 0, late = 0, under_load = 0;
  LatencyHistogram completion, step_contention, depth_contention, background_contention;
  void add(const RepetitionRow& row);
};

struct RepetitionMetrics {
  RepeatSpec spec;
  uint32_t started = 0, completed = 0, late = 0, under_load = 0;
  // The rows not yet written: those of repetitions first_row.. (the ones before
  // went to repetitions.csv's file as the run went, and those of the
  // repetitions a stopped run never began when it stopped: sim/schedule_retirement.hpp).
  uint32_t first_row = 0;
  std::vector<RepetitionRow> rows;
  Distribution completion, step_contention, depth_contention, background_contention;
};

// Counts message `m` of a repetition into its row.
void count_repetition_message(RepetitionRow& row, const SimContext& ctx, const MessageRecord& m);

// What a run that retires its schedule's records has of its repetitions
// (sim/schedule_retirement.hpp): the rows of repetitions [first, end) with the
// figures of their retired messages (the others' records are in the table), and
// the tally of the rows written, before them and, for the repetitions a stopped
// run never began, after them.
struct RetiredRepetitions {
  uint32_t first = 0;
  uint32_t end = UINT32_MAX;  // every repetition's, up to the count
  std::vector<RepetitionRow> rows;
  RepetitionTally tally;
};

// `retired` (empty when no record was retired): its rows become the result's,
// so that a long run holds each repetition's once.
RepetitionMetrics compute_repetition_metrics(const Network& net, const RepeatedSchedule& repeated,
                                             const ScheduleExecutor& exec, RetiredRepetitions retired);

}  // namespace wormsim

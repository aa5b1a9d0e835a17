#include "sim/repetition_metrics.hpp"

#include "sim/latency_histogram.hpp"

#include <algorithm>
#include <cmath>

namespace wormsim {

namespace {

// Adds the figures of the messages in `slots` to `row`.
void count_slots(RepetitionRow& row, const SimContext& ctx, const std::vector<uint32_t>& slots) {
  for (uint32_t slot : slots) count_repetition_message(row, ctx, ctx.msgs[slot]);
}

}  // namespace

void count_repetition_message(RepetitionRow& row, const SimContext& ctx, const MessageRecord& m) {
  const MessageView v = view_message(ctx, m);
  ++row.messages;
  row.step_contention.add(m.stall_step);
  row.depth_contention.add(m.stall_depth);
  row.background_contention.add(m.stall_background);
  if (m.inject != kNever) row.port_wait.add(v.port_wait);
  if (!v.delivered) return;
  ++row.delivered;
  row.max_latency = std::max(row.max_latency, v.latency);
}

Distribution distribution(const LatencyHistogram& h) {
  Distribution d;
  if (h.count() == 0) return d;
  const LatencyStats s = h.stats();
  d.mean = s.mean;
  d.p50 = s.p50;
  d.max = s.max;
  d.min = h.min();
  d.p95 = h.percentile(95);
  double squares = 0.0;
  for (const auto& [x, n] : h.counts()) {
    const double dev = static_cast<double>(x) - d.mean;
    squares += static_cast<double>(n) * (dev * dev);
  }
  d.stdev = h.count() > 1 ? std::sqrt(squares / static_cast<double>(h.count() - 1)) : 0.0;
  return d;
}

void RepetitionTally::add(const RepetitionRow& row) {
  if (row.times.start != kNever) ++started;
  if (row.late()) ++late;
  if (!row.completed()) return;
  ++completed;
  under_load += row.times.under_load;
  completion.add(row.completion());
  step_contention.add(static_cast<uint64_t>(row.step_contention.cycles));
  depth_contention.add(static_cast<uint64_t>(row.depth_contention.cycles));
  background_contention.add(static_cast<uint64_t>(row.background_contention.cycles));
}

RepetitionMetrics compute_repetition_metrics(const Network& net, const RepeatedSchedule& repeated,
                                             const ScheduleExecutor& exec, RetiredRepetitions retired) {
  RepetitionMetrics out;
  out.spec = repeated.spec();
  RepetitionTally& tally = retired.tally;
  out.first_row = retired.first;
  const uint32_t end = std::min(retired.end, out.spec.count);
  out.rows = std::move(retired.rows);
  out.rows.resize(end - retired.first);
  for (uint32_t r = retired.first; r < end; ++r) {
    // Its retired messages' figures, and its messages' still in the table.
    RepetitionRow& row = out.rows[r - retired.first];
    count_slots(row, net.context(), exec.slots_of(r));
    row.repetition = r;
    row.times = repeated.times(r);
    tally.add(row);
  }
  out.started = tally.started;
  out.completed = tally.completed;
  out.late = tally.late;
  out.under_load = tally.under_load;
  out.completion = distribution(tally.completion);
  out.step_contention = distribution(tally.step_contention);
  out.depth_contention = distribution(tally.depth_contention);
  out.background_contention = distribution(tally.background_contention);
  return out;
}

}  // namespace wormsim

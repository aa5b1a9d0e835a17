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

Distribution distribution(const std::vector<uint64_t>& v) {
  Distribution d;
  if (v.empty()) return d;
  LatencyHistogram h;  // nearest-rank percentiles and the mean, as for latencies
  for (uint64_t x : v) h.add(x);
  const LatencyStats s = h.stats();
  d.mean = s.mean;
  d.p50 = s.p50;
  d.max = s.max;
  d.min = *std::min_element(v.begin(), v.end());
  d.p95 = h.percentile(95);
  double squares = 0.0;
  for (uint64_t x : v) squares += (static_cast<double>(x) - d.mean) * (static_cast<double>(x) - d.mean);
  d.stdev = v.size() > 1 ? std::sqrt(squares / static_cast<double>(v.size() - 1)) : 0.0;
  return d;
}

RepetitionMetrics compute_repetition_metrics(const Network& net, const RepeatedSchedule& repeated,
                                             const ScheduleExecutor& exec, RetiredRepetitions retired) {
  RepetitionMetrics out;
  out.spec = repeated.spec();
  std::vector<uint64_t> completion, step, depth, background;
  const auto& times = repeated.times();
  out.rows = std::move(retired);
  out.rows.resize(times.size());
  for (uint32_t r = 0; r < times.size(); ++r) {
    // Its retired messages' figures, and its messages' still in the table.
    RepetitionRow& row = out.rows[r];
    count_slots(row, net.context(), exec.slots_of(r));
    row.repetition = r;
    row.times = times[r];
    if (row.times.start != kNever) ++out.started;
    if (row.late()) ++out.late;
    if (row.completed()) {
      ++out.completed;
      out.under_load += row.times.under_load;
      completion.push_back(row.completion());
      step.push_back(static_cast<uint64_t>(row.step_contention.cycles));
      depth.push_back(static_cast<uint64_t>(row.depth_contention.cycles));
      background.push_back(static_cast<uint64_t>(row.background_contention.cycles));
    }
  }
  out.completion = distribution(completion);
  out.step_contention = distribution(step);
  out.depth_contention = distribution(depth);
  out.background_contention = distribution(background);
  return out;
}

}  // namespace wormsim

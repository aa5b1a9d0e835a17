#include "sim/repetition_outputs.hpp"

#include <string>
#include <utility>

#include "sim/csv_text.hpp"
#include "sim/output_tables.hpp"

namespace wormsim {

nlohmann::ordered_json repetitions_json(const RepetitionMetrics& r) {
  StatBlock b(repetition_stats());
  b.set("count", r.spec.count)
      .set("start_cycle", r.spec.start)
      .set("period_cycles", r.spec.period)
      .set("gap_cycles", r.spec.gap)
      .set("started", r.started)
      .set("completed", r.completed)
      .set("late", r.late)
      .set("under_load", r.under_load);
  for (const auto& [name, d] : {std::pair<const char*, const Distribution*>{"completion_cycles", &r.completion},
                                {"step_contention_cycles", &r.step_contention},
                                {"depth_contention_cycles", &r.depth_contention},
                                {"background_contention_cycles", &r.background_contention}}) {
    const std::string n = name;
    b.set(n + ".min", d->min).set(n + ".mean", d->mean).set(n + ".max", d->max);
    b.set(n + ".p50", d->p50).set(n + ".p95", d->p95).set(n + ".stdev", d->stdev);
  }
  return b.json();
}

void write_repetition_row(CsvText& os, const RepetitionRow& r) {
  os << r.repetition << ',';
  if (r.times.due != kNever) os << r.times.due;
  os << ',';
  if (r.times.start != kNever) os << r.times.start;
  os << ',';
  if (r.completed()) os << r.times.end << ',' << r.completion();
  else os << ',';
  os << ',' << r.late() << ',' << r.messages << ',' << r.delivered << ',' << r.max_latency << ','
     << r.step_contention.messages << ',' << r.step_contention.cycles << ',' << r.depth_contention.messages << ','
     << r.depth_contention.cycles << ',' << r.background_contention.messages << ','
     << r.background_contention.cycles << ',' << r.port_wait.cycles << ',';
  if (r.completed()) os << (r.times.under_load ? 1 : 0);
  os << '\n';
}

void write_repetitions_csv(CsvText& os, const RepetitionMetrics& reps, const RowWriter& rows_before,
                           const RowWriter& rows_after) {
  os << repetition_columns().csv_header();
  if (rows_before) rows_before(os);
  for (const RepetitionRow& r : reps.rows) write_repetition_row(os, r);
  if (rows_after) rows_after(os);
}

}  // namespace wormsim

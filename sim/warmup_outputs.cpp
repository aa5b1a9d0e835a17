#include "sim/warmup_outputs.hpp"

#include <utility>

#include "sim/csv_text.hpp"
#include "sim/output_tables.hpp"

namespace wormsim {


nlohmann::ordered_json warmup_json(const WarmupDetector& w, uint64_t opened_at) {
  const WarmupSample last = w.samples().empty() ? WarmupSample{} : w.samples().back();
  return StatBlock(warmup_stats())
      .set("sample_cycles", w.spec().sample)
      .set("tolerance", w.spec().tolerance)
      .set("max_cycles", w.spec().max)
      .set("samples", w.samples().size())
      .set("stabilised", w.stabilised())
      .set("cycles", opened_at)
      .set("latency_change", last.latency_change)
      .set("accepted_change", last.accepted_change)
      .json();
}

std::string warmup_csv(const WarmupDetector& w) {
  CsvText os;
  os << warmup_columns().csv_header();
  size_t i = 0;
  for (const WarmupSample& s : w.samples()) {
    os << i++ << ',' << s.start << ',' << s.end << ',' << s.delivered << ',' << fixed_text(s.latency, 6) << ','
       << s.ejected_flits << ',' << fixed_text(s.accepted, 6) << ',';
    if (s.latency_change >= 0) os << fixed_text(s.latency_change, 6);
    os << ',';
    if (s.accepted_change >= 0) os << fixed_text(s.accepted_change, 6);
    os << ',' << (s.stable ? 1 : 0) << '\n';
  }
  return std::move(os).str();
}

}  // namespace wormsim

// summary.json "classes": the figures of each traffic class (traffic.classes;
// sim/class_metrics.hpp), declared in sim/output_tables.cpp.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/outputs.hpp"

namespace wormsim {

// One entry per class, in order. `offered_cycles`: the cycles traffic was
// offered (the background block's denominator).
nlohmann::ordered_json classes_json(const RunReport& report, uint64_t offered_cycles);

// The printed summary's lines, one per class: "class NAME: D of N packets
// delivered, latency mean M, p99 P cycles" and, with a window, "; window:
// offered O, accepted A flits/node/cycle, packet latency mean L cycles".
std::string classes_text(const RunReport& report);
// latency.csv: each class's latency histograms, in class order, values increasing.
std::string class_latency_csv(const RunReport& report);

// The background block's pattern and offered rate over all classes: the
// patterns joined by "+" (the plain form's one pattern), the rates summed.
std::string aggregate_pattern(const Config& config);
double aggregate_rate(const Config& config);

}  // namespace wormsim

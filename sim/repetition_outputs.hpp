// summary.json `repetitions` and repetitions.csv (docs/metrics.md), written
// from the figures of a repeated schedule (sim/repetition_metrics.hpp). Apart
// from sim/outputs.cpp so that its hot CSV writers keep their code.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "sim/csv_text.hpp"
#include "sim/repetition_metrics.hpp"

namespace wormsim {

nlohmann::ordered_json repetitions_json(const RepetitionMetrics& repetitions);
void write_repetitions_csv(CsvText& os, const RepetitionMetrics& repetitions);

}  // namespace wormsim

// summary.json `repetitions` and repetitions.csv (docs/metrics.md), written
// from the figures of a repeated schedule (sim/repetition_metrics.hpp). Apart
// from sim/outputs.cpp so that its hot CSV writers keep their code.
#pragma once

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/csv_text.hpp"
#include "sim/repetition_metrics.hpp"

namespace wormsim {

nlohmann::ordered_json repetitions_json(const RepetitionMetrics& repetitions);
// One repetition's row of repetitions.csv.
void write_repetition_row(CsvText& os, const RepetitionRow& row);
using RowWriter = std::function<void(CsvText&)>;
// The header, the rows `rows_before` writes (those written as the run went:
// repetitions before repetitions.first_row), the rows held, then the rows
// `rows_after` writes (those of the repetitions a stopped run never began).
void write_repetitions_csv(CsvText& os, const RepetitionMetrics& repetitions, const RowWriter& rows_before = {},
                           const RowWriter& rows_after = {});

}  // namespace wormsim

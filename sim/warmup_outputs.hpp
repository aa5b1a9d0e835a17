// summary.json `warmup` and warmup.csv (docs/metrics.md): the samples of an
// adaptive warm-up (sim/warmup_detector.hpp).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "sim/warmup_detector.hpp"

namespace wormsim {

// `opened_at`: the cycle the measurement window opened.
nlohmann::ordered_json warmup_json(const WarmupDetector& warmup, uint64_t opened_at);
std::string warmup_csv(const WarmupDetector& warmup);

}  // namespace wormsim

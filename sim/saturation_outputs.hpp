// What `wormsim saturate` writes (docs/load-studies.md, "Saturation search"):
// curve.csv (one row per measured rate), curve.svg (the plot), and
// summary.json with the "saturation" block, as one output set
// (sim/output_set.hpp); and the text it prints. Columns and fields are
// declared once here (decl/stat.hpp).
#pragma once

#include <string>
#include <vector>

#include "sim/channel_load_bound.hpp"
#include "sim/config.hpp"
#include "sim/output_set.hpp"
#include "sim/saturation_search.hpp"

namespace wormsim {

struct SaturationReport {
  const Config* config = nullptr;
  const SaturationOptions* options = nullptr;
  const SearchResult* result = nullptr;
  ChannelLoadBound bound;
  double mean_flits = 0.0;  // mean packet length of traffic.flits
};

inline constexpr const char* kCurveCsv = "curve.csv";
inline constexpr const char* kCurveSvg = "curve.svg";

std::string curve_csv(const SaturationReport& report);
std::string saturation_summary_json(const SaturationReport& report, const std::vector<OutputFile>& outputs);
// The curve and the result, as printed on stdout.
std::string saturation_text(const SaturationReport& report, const std::string& dir);

}  // namespace wormsim

// The plot `wormsim saturate` writes (curve.svg): packet and network latency
// against offered load, and accepted against offered load with the
// channel-load bound, the saturation bracket shaded in both. Plain SVG, the
// same bytes for the same curve (numbers through std::to_chars).
#pragma once

#include <string>

#include "sim/saturation_outputs.hpp"

namespace wormsim {

std::string curve_svg(const SaturationReport& report);

}  // namespace wormsim

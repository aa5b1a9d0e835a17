// Shared by the generator tests: the GeneratorError message a generator gives
// for some options, or "" if it accepts them.
#pragma once

#include <string>

#include "schedules/generators/generators.hpp"

namespace wormsim {

inline std::string generation_error(const std::string& algorithm, const TopologySpec& topo,
                                    const GeneratorOptions& options) {
  try {
    generate_schedule(algorithm, topo, options);
  } catch (const GeneratorError& e) {
    return e.what();
  }
  return "";
}

}  // namespace wormsim

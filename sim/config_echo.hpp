// summary.json's "config" block: the effective value of every echoed key, in
// the order the declarations (decl/param.hpp) and the readers give them.
#pragma once

#include <nlohmann/json.hpp>

#include "sim/config.hpp"

namespace wormsim {

// Top-level sections in declared order; a section that echoes keys but was not
// given is null (schedule, traffic); keys declared not_echoed() are left out.
nlohmann::ordered_json config_echo(const Config& config);

}  // namespace wormsim

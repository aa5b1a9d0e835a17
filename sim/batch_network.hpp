// Which config keys decide the network `wormsim batch` elaborates once for all
// its points: the topology and every field of NetworkParams (sim/run.hpp,
// network_params). Two configs that agree on these run on the same network.
#pragma once

#include <optional>
#include <string>

#include "sim/config.hpp"

namespace wormsim {

// The first config key whose value makes `b`'s network differ from `a`'s, with
// both values ("network.dims: [8, 8] here, [4, 4] there"); nullopt when both
// elaborate the same network. Keep in step with network_params().
std::optional<std::string> network_difference(const Config& a, const Config& b);

}  // namespace wormsim

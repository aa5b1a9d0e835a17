// summary.json `multicast` and copies.csv (docs/metrics.md, "Multicast"): the
// copies of a run's multidestination worms, one per destination, with their
// latencies and what the worms waited for. Written only when the run has such worms.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "models/network.hpp"

namespace wormsim {

nlohmann::ordered_json multicast_json(const Network& net);
std::string copies_csv(const Network& net);

}  // namespace wormsim

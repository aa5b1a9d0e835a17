// The peak-memory model of `wormsim run` (see models/memory_guard.hpp): per
// router its module, an interface and the topology's tables, per further
// endpoint its interface, per VC its buffer, per message its record and route.
// Each term names the config key that drives it, so a refusal says which
// setting to change.
#pragma once

#include <cstddef>

#include "models/memory_guard.hpp"
#include "sim/config.hpp"

namespace wormsim {

// `messages` is a guess before the schedule exists (one per node, as for a
// broadcast) and exact after: those the table holds at once; `hops` is their
// total route length (0 if unknown); `steps` and `repetitions` those whose
// figures are held at once (0 if unknown): every one's when the schedule's
// records are kept to the end, a few repetitions' when they are retired.
MemoryEstimate run_estimate(const Config& cfg, size_t messages, size_t hops, size_t steps = 0,
                            size_t repetitions = 0);

}  // namespace wormsim

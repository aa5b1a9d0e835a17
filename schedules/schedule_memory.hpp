// Peak-memory models of the schedule commands (see models/memory_guard.hpp),
// in terms of what is known before anything large is built: the topology, the
// number of messages and the size of the schedule text. The constants are
// calibrated on measured peak RSS (docs/performance.md, "Memory").
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "models/memory_guard.hpp"
#include "models/topology.hpp"

namespace wormsim {

// What the schedule loader knows: called once with the size of the text before
// it is parsed (topology null, messages 0), and again once the topology and
// the number of messages are read, before the loader builds either. Throws
// MemoryRefused (naming `file`) when the command would not fit.
using ScheduleMemoryCheck =
    std::function<void(const TopologySpec* topology, size_t messages, size_t text_bytes, const std::string& file)>;

// The commands that load a schedule file, each with its own model.
enum class ScheduleCommand { Load, Check, Draw, Run };

// A check for the loader, for `command` (Run: the run's own estimate comes later,
// with the network; the loader checks what loading costs).
ScheduleMemoryCheck schedule_memory_check(ScheduleCommand command);

// The estimate behind schedule_memory_check (for tests and docs).
// A null topology: only the program and the parsed document are known.
MemoryEstimate schedule_file_estimate(ScheduleCommand command, const TopologySpec* topology, size_t messages,
                                      size_t text_bytes);

// What a generator command keeps besides the schedule: `schedule generate`
// writes it as JSON text; `schedule survey` makes one schedule at a time and
// keeps a row per source.
enum class GeneratorOutput { ScheduleText, SurveyRows };

// `schedule generate` / `schedule survey`, before generating `messages` messages.
MemoryEstimate generator_estimate(const TopologySpec& topology, long long messages, GeneratorOutput output);

}  // namespace wormsim

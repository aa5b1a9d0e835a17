// Reading and writing schedules in the JSON format of docs/schedule-format.md.
#pragma once

#include <iosfwd>
#include <string>

#include "schedules/diagnostics.hpp"
#include "schedules/schedule.hpp"
#include "schedules/schedule_memory.hpp"

namespace wormsim {

// Parses schedule text. Structural problems (bad JSON, wrong types, unknown
// fields, nodes out of range, routes that jump) go to diag; returns false if any.
// Once the topology and the number of messages are known, and before either is
// built, `memory` is asked whether the command fits (default: what loading
// alone costs); it throws MemoryRefused if not (models/memory_guard.hpp).
bool parse_schedule_json(const std::string& text, Schedule& out, Diagnostics& diag,
                         const ScheduleMemoryCheck& memory = {});

// Reads and parses a file; a missing or unreadable file is a diagnostic too.
bool load_schedule_file(const std::string& path, Schedule& out, Diagnostics& diag,
                        const ScheduleMemoryCheck& memory = {});

// Serialises a schedule, one message per line so that diffs stay readable.
// Nodes are written as their topology writes them: integers for hypercubes
// (TopologyShape::writes_endpoint_ids), coordinate lists otherwise.
std::string schedule_to_json(const Schedule& schedule);

}  // namespace wormsim

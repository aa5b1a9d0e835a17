#include "schedules/schedule_memory.hpp"

#include <algorithm>

namespace wormsim {

namespace {

// Calibrated on measured peak RSS of each command (docs/performance.md,
// "Memory"); an upper estimate.
constexpr double kProcessBytes = 12.6 * 1024 * 1024;  // the program with its libraries, before any input
constexpr double kJsonBytesPerTextByte = 10.0;        // the parsed JSON document, per byte of schedule text
constexpr double kMessageBytes = 200.0;               // a loaded message: ScheduledMessage, packet, document object
constexpr double kCheckBytesPerMessage = 90.0;        // validator (packet holdings) and analysis (routes per step)
constexpr double kSvgBytesPerNode = 1100.0;           // a drawn node: circle, label, grid lines (text, copied)
constexpr double kSvgBytesPerMessage = 1100.0;        // a drawn message: its path, arrow and tooltip
constexpr double kGeneratedMessageBytes = 100.0;      // a generated ScheduledMessage with vector slack
constexpr double kJsonTextBytesPerMessage = 80.0;     // a message written as JSON, twice (stream and string)
constexpr double kSurveyRowBytes = 300.0;             // a survey's JSON row for one source

std::string sizes_text(const TopologySpec& topology, double messages) {
  return std::to_string(Topology::validate(topology)) + " nodes, " +
         std::to_string(static_cast<long long>(messages)) + " messages";
}

const char* command_name(ScheduleCommand c) {
  switch (c) {
    case ScheduleCommand::Check: return "schedule check";
    case ScheduleCommand::Draw: return "schedule draw";
    case ScheduleCommand::Run: return "run";
    case ScheduleCommand::Load: break;
  }
  return "schedule load";
}

}  // namespace

MemoryEstimate schedule_file_estimate(ScheduleCommand command, const TopologySpec* topology, size_t messages,
                                      size_t text_bytes) {
  const auto n = static_cast<double>(messages);
  const double json = static_cast<double>(text_bytes) * kJsonBytesPerTextByte;
  if (!topology) {
    MemoryEstimate e{command_name(command), std::to_string(text_bytes) + " bytes of JSON", {}};
    e.add("steps", "the parsed JSON text", kProcessBytes + json);
    return e;
  }
  MemoryEstimate e{command_name(command), sizes_text(*topology, n), {}};
  e.add("topology.dims", "the topology's tables", kProcessBytes + Topology::footprint_bytes(*topology));
  e.add("steps", "the messages", n * kMessageBytes);
  // The parsed document is gone before the command's own work starts: count the larger of the two.
  double work = 0;
  if (command == ScheduleCommand::Check) work = n * kCheckBytesPerMessage;
  if (command == ScheduleCommand::Draw) {
    const double nodes = static_cast<double>(Topology::validate(*topology));
    const double svg_nodes = nodes * kSvgBytesPerNode;
    const double svg_msgs = n * kSvgBytesPerMessage;
    if (svg_nodes + svg_msgs > json) {
      e.add("topology.dims", "the drawing's nodes", svg_nodes);
      e.add("steps", "the drawing's messages", svg_msgs);
      return e;
    }
  }
  e.add("steps", json >= work ? "the parsed JSON text" : "validation and analysis", std::max(json, work));
  return e;
}

ScheduleMemoryCheck schedule_memory_check(ScheduleCommand command) {
  return [command](const TopologySpec* topology, size_t messages, size_t text_bytes, const std::string& file) {
    require_memory(schedule_file_estimate(command, topology, messages, text_bytes), file);
  };
}

MemoryEstimate generator_estimate(const TopologySpec& topology, long long messages, GeneratorOutput output) {
  const auto n = static_cast<double>(messages);
  const bool text = output == GeneratorOutput::ScheduleText;
  MemoryEstimate e{text ? "schedule generate" : "schedule survey", sizes_text(topology, n), {}};
  e.add("--dims", "the topology's tables", kProcessBytes + Topology::footprint_bytes(topology));
  if (!text) e.add("--dims", "a row per source", static_cast<double>(Topology::validate(topology)) * kSurveyRowBytes);
  e.add("--algorithm", "the generated messages",
        n * (kGeneratedMessageBytes + (text ? kJsonTextBytesPerMessage : kCheckBytesPerMessage)));
  return e;
}

}  // namespace wormsim

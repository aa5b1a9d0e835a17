#include "sim/run_memory.hpp"

#include <algorithm>
#include <string>

namespace wormsim {

namespace {

// Calibrated on peak RSS (docs/performance.md, "Memory"); an upper estimate.
constexpr double kProgramBytes = 16.0 * 1024 * 1024;  // the program with SystemC and its other libraries, before any input
constexpr double kNodeBytes = 800.0;       // a Router and a NetworkInterface (plain objects) with their arenas
constexpr double kLinkPortBytes = 48.0;    // per link port: output VC wiring and topology tables
constexpr double kVcBytes = 48.0;          // per input VC: its state and credit times
constexpr double kFlitSlotBytes = 24.0;    // per buffer slot: a 16-byte flit, cache-line padded
constexpr double kMessageBytes = 350.0;    // a message record and its executor state (output rows are streamed)
constexpr double kHopBytes = 8.0;          // a route hop
constexpr double kStepBytes = 200.0;       // a step's figures (tallied, then moved into the run's) and the executor's counters
constexpr double kRepetitionBytes = 400.0;  // a repetition's times and its row of repetitions.csv
constexpr double kInterfaceBytes = 300.0;  // a further NetworkInterface, on a router with several endpoints
constexpr double kLiveMessagesPerEndpoint = 128.0;  // background messages under way, and delivered ones waiting for their rows (sim/streamed_message_rows.cpp)
constexpr double kRecycleHintBytes = 1024.0 * 1024.0 * 1024.0;  // above this, a refusal says why records are kept

}  // namespace

MemoryEstimate run_estimate(const Config& cfg, size_t messages, size_t hops, size_t steps, size_t repetitions) {
  const double nodes = static_cast<double>(Topology::validate(cfg.topology));
  const double endpoints = static_cast<double>(Topology::endpoints_of(cfg.topology));
  const int links = Topology::ports_of(cfg.topology);
  const int inj = cfg.ports.kind == PortKind::OnePort ? 1 : cfg.ports.kind == PortKind::AllPort ? links : cfg.ports.k;
  const double vcs = (nodes * links + endpoints * inj) * cfg.vcs;
  double traffic = 0.0;
  for (const TrafficClass& tc : cfg.classes) traffic += tc.spec.rate * static_cast<double>(cfg.traffic_cycles) * endpoints;
  // Delivered background records are recycled (their rows are written as they
  // go): the table holds the messages under way, which a network that is not
  // saturated keeps to a few per endpoint (and a saturated window stops at its
  // drain cap). A trace keeps every record.
  if (recycles_background(cfg)) traffic = std::min(traffic, endpoints * kLiveMessagesPerEndpoint);
  const auto sched = static_cast<double>(messages);

  MemoryEstimate e{"run",
                   std::to_string(static_cast<long long>(nodes)) + " routers, " +
                       std::to_string(static_cast<long long>(sched + traffic)) + " messages",
                   {}};
  // Never the largest term of a refused run; it keeps small runs' estimates above their peak.
  e.add("network.dims", "the program", kProgramBytes);
  e.add("network.dims", "the routers and interfaces", nodes * (kNodeBytes + links * kLinkPortBytes));
  if (endpoints > nodes) e.add("network.dims", "the further interfaces", (endpoints - nodes) * kInterfaceBytes);
  e.add("network.vcs", "the virtual channels", vcs * kVcBytes);
  e.add("network.buffer_flits", "the input buffers", vcs * cfg.buffer_flits * kFlitSlotBytes);
  if (cfg.has_traffic) {
    // Name the key the user set: the phases' length, or the injection window;
    // with recycling, the size of the network bounds what is under way.
    if (recycles_background(cfg))
      e.add("network.dims", "the background messages under way", traffic * kMessageBytes);
    else
      e.add(cfg.window.enabled ? "traffic.measure_cycles" : "traffic.cycles",
            "the background traffic's messages" + std::string(traffic * kMessageBytes > kRecycleHintBytes
                                                                  ? ", kept for the trace (without output.trace, "
                                                                    "they are recycled)"
                                                                  : ""),
            traffic * kMessageBytes);
  }
  // `messages` and `hops` count every repetition: their number is to blame once there are several.
  const std::string schedule_key = cfg.repeat.count > 1       ? "schedule.repeat.count"
                                   : cfg.schedule.file.empty() ? "schedule.algorithm"
                                                               : "schedule.file";
  if (cfg.has_schedule)
    e.add(schedule_key, "the schedule's messages", sched * kMessageBytes + static_cast<double>(hops) * kHopBytes);
  if (cfg.has_schedule && cfg.repeat.count > 1)
    e.add("schedule.repeat.count", "the figures of every step and repetition",
          static_cast<double>(steps) * kStepBytes + static_cast<double>(repetitions) * kRepetitionBytes);
  return e;
}

}  // namespace wormsim

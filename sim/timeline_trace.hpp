// Timeline traces of a run (`wormsim run --trace perfetto|vcd`, docs/traces.md).
//   perfetto: Chrome trace-event JSON (opens in ui.perfetto.dev or chrome://tracing):
//             a process per router, a track per channel, a slice per worm holding a
//             channel, flow arrows from send to receive, step markers and a
//             busy-links counter per router. One microsecond on the timeline is one cycle.
//   vcd:      a VCD waveform (GTKWave) written by SystemC's sc_trace: per directed
//             link its cumulative flit count, per router its buffered flits.
#pragma once

#include <string>
#include <vector>

#include "models/network.hpp"
#include "schedules/schedule.hpp"

namespace wormsim {

enum class TraceKind { None, Perfetto, Vcd };
bool parse_trace_kind(const std::string& text, TraceKind& out);
std::string to_string(TraceKind k);

// VCD traces are for small networks: one waveform per link and router.
constexpr int kMaxVcdLinks = 4096;

// The trace-event JSON for a finished run.
std::string perfetto_trace_json(const Network& net, int vcs, const std::vector<ChannelUse>& uses,
                                const Schedule& schedule);

}  // namespace wormsim

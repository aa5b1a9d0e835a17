// One row of messages.csv, of routes.csv and of steps.csv (docs/metrics.md),
// written by the tables at the end of a run and by the rows streamed while it
// runs (sim/streamed_message_rows.hpp, sim/schedule_retirement.hpp), so both
// give the same bytes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/sim_context.hpp"
#include "models/topology.hpp"
#include "schedules/schedule.hpp"
#include "sim/csv_text.hpp"
#include "sim/metrics.hpp"

namespace wormsim {

// A cycle, or nothing for one that never came (kNever).
inline void put_cycle(CsvText& out, uint64_t c) {
  if (c != kNever) out << c;
}

// Quoted names, each built once: a run names the same endpoints and packets in
// many rows.
class QuotedNames {
 public:
  QuotedNames(const Topology& topo, const Schedule& sched);
  const std::string& node(int endpoint);
  const std::string& packet(int pk);  // pk < 0: no named packet

 private:
  const Topology& topo_;
  const Schedule& sched_;
  std::vector<std::string> nodes_, packets_;
  const std::string unnamed_;
};

// The messages.csv row of the message in table slot `m` (a reference into
// ctx.msgs), whose id is `id`: `index` is its index within its step (< 0: a
// background message, which has none) and `packet` its named packet (< 0: none).
void write_message_row(CsvText& os, QuotedNames& names, const SimContext& ctx, uint64_t id, const MessageRecord& m,
                       int64_t index, int packet);

// The steps.csv row of a step's figures.
void write_step_row(CsvText& os, const StepMetrics& s);

// routes.csv's first line.
inline constexpr std::string_view kRoutesHeader = "id,links\n";

// The routes.csv row of the message in table slot `slot`, whose id is `id`.
void write_route_row(CsvText& os, const Topology& topo, const SimContext& ctx, uint32_t slot, uint64_t id);

}  // namespace wormsim

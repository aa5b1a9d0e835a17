// The files a run leaves in its output folder (docs/metrics.md lists every
// column): summary.json and the CSV files (write_csv_outputs), written as one set
// (sim/output_set.hpp): summary.json last, with the size and CRC-32 of the others.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "models/network.hpp"
#include "schedules/schedule.hpp"
#include "sim/class_metrics.hpp"
#include "sim/config.hpp"
#include "sim/csv_text.hpp"
#include "sim/load_metrics.hpp"
#include "sim/metrics.hpp"
#include "sim/output_set.hpp"
#include "sim/repetition_metrics.hpp"
#include "sim/router_stats.hpp"

namespace wormsim {

class ScheduleExecutor;
class ScheduleRetirement;
class StreamedMessageRows;

struct HostTiming {
  double elaboration_seconds = 0.0;
  double simulation_seconds = 0.0;
  double wall_seconds = 0.0;
  uint64_t express_worms = 0;       // worms whose body the express loop moved (models/express_worms.hpp)
  uint64_t express_flit_moves = 0;  // flit moves and injections it made
  uint64_t steady_worms = 0;        // express worms frozen in steady streaming
  uint64_t steady_cycles = 0;       // worm-cycles skipped that way
  uint64_t express_handbacks = 0;   // express stages handed back to their routers
  uint64_t express_parallel_cycles = 0;  // cycles whose express moves were shared with a second thread
  uint64_t event_batches = 0;       // a cycle's events walked in prefetched batches (Network::prefetches_events)
  double peak_rss_mib = 0.0;        // the process's peak resident memory once the metrics are computed
};

struct RunReport {
  const Config* config = nullptr;
  const Schedule* schedule = nullptr;
  const Network* network = nullptr;
  const ScheduleExecutor* executor = nullptr;  // the schedule's message ids: steps and packets
  const std::vector<OutputFile>* outputs = nullptr;  // the rest of the set, for the manifest
  // The background's rows of messages.csv and routes.csv, written as the run
  // went (null: every row comes from the message table).
  StreamedMessageRows* streamed_rows = nullptr;
  // The rows of the schedule's repetitions retired as the run went (null: every
  // schedule row comes from the message table).
  const ScheduleRetirement* retired_schedule = nullptr;
  RunMetrics metrics;
  // Network::buffers_consistent() once the run ended (a walk over every router: taken once).
  bool buffers_consistent = false;
  std::optional<LoadMetrics> load;  // a measured load run (traffic.measure_cycles)
  std::optional<RepetitionMetrics> repetitions;  // a repeated schedule (schedule.repeat)
  std::optional<RouterStats> router_stats;       // output.router_stats
  std::optional<ClassTally> classes;             // traffic.classes: per class
  std::vector<uint64_t> class_accepted;          // with a window: per class, flits accepted in it
  HostTiming host;
  std::vector<std::string> warnings;
};

std::string summary_json(const RunReport& report);
// The tables, written into `out` (a bounded buffer streaming to its file: OutputSet::add_streamed).
void write_messages_csv(CsvText& out, const RunReport& report);
void write_links_csv(CsvText& out, const RunReport& report);
void write_steps_csv(CsvText& out, const RunReport& report);
void write_routes_csv(CsvText& out, const RunReport& report);

// Writes messages.csv, links.csv, steps.csv and routes.csv (and repetitions.csv
// for a repeated schedule; warmup.csv after an adaptive warm-up; routers.csv,
// vcs.csv and hops.csv with output.router_stats) into the set (after begin()).
// Throws std::runtime_error.
void write_csv_outputs(OutputSet& set, const RunReport& report);

// Whether `dir` holds the outputs of a run with another effective configuration
// than `config` (compared as summary.json's "config" block echoes it).
bool holds_other_config(const std::string& dir, const Config& config);

// RFC 4180 field: quoted, with inner quotes doubled.
std::string csv_quoted(const std::string& s);

// The short human-readable summary printed on stdout.
std::string human_summary(const RunReport& report, const std::string& dir, const std::vector<OutputFile>& files);

}  // namespace wormsim

// Keeps a schedule's memory to the messages under way, however many it has
// and however many times it repeats (schedule.repeat.count): once a message is
// delivered with every message before it (ScheduleExecutor::take_retirable),
// its rows of messages.csv and routes.csv are written to files in the output
// folder, its figures are folded into the run's tallies (steps, contention,
// latency, its repetitions.csv row) and its table slot is recycled
// (Network::recycle). When the run ends, the messages of the repetition begun
// last that were not retired stay in the table, those never ready to be sent
// added to it; the repetitions a stopped run never began are added after it
// ends, listed and folded one at a time, their rows of steps.csv and
// repetitions.csv written as they go. The files and figures come out as if
// every record had been kept: the retired messages' rows go before the
// table's, the rows of the repetitions never begun after them (messages are
// retired in id order, and repetitions run in id order and never overlap).
// When every row was retired, the file of retired rows, which starts with the
// header, becomes messages.csv (routes.csv) as it is. A step whose messages
// are all retired is complete: its row of steps.csv is written then, and its
// figures dropped, so that a long repeated run does not hold every step's; a
// repetition's row of repetitions.csv likewise, once its messages are all
// retired (they were then all delivered: it has ended).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "models/network.hpp"
#include "models/traffic_source.hpp"
#include "schedules/schedule.hpp"
#include "sim/csv_text.hpp"
#include "sim/executor.hpp"
#include "sim/message_rows.hpp"
#include "sim/metrics.hpp"
#include "sim/output_set.hpp"
#include "sim/repetition_metrics.hpp"
#include "sim/repetitions.hpp"
#include "sim/streamed_file.hpp"

namespace wormsim {

// Records retired at once: a repetition's, within these bounds. Writing rows a
// few at a time, cycle after cycle, would evict the routers' state from the
// caches each time; larger batches cost a large schedule less CPU, smaller ones
// hold less memory (docs/performance.md, "A schedule's records streamed").
inline constexpr size_t kRetireBatchMin = size_t{1} << 12, kRetireBatchMax = size_t{1} << 16;
// The fewest messages a schedule run once must have for its records to be
// retired, and the largest share of them one of its steps may hold: below
// that, its records take a few hundred MB at most, and keeping them is faster
// (docs/performance.md, "A schedule's records streamed"); a step that large
// (a broadcast's last steps hold half its messages) has them under way at once anyway.
inline constexpr size_t kStreamedFrom = size_t{1} << 21;
inline constexpr size_t kStepShareDivisor = 16;

// The batch for a schedule of `per_repetition` messages, or the environment's
// WORMSIM_RETIRE_BATCH (a positive number), with which the tests retire a
// small run's records as it goes: every schedule's then are, whatever its size and shape.
size_t retire_batch(size_t per_repetition);
bool retire_batch_forced();

// Whether a schedule's messages give their records back as the run goes: but
// for a trace (its timeline names every message), and for a schedule with
// multicast messages (whose worms keep their copies' records), a repeated
// schedule's always; one run once, when it is large and no step holds much of it.
bool retires_schedule(const Schedule& schedule, uint32_t repetitions, bool traced);

class ScheduleRetirement : public TrafficSource {
 public:
  // `num_steps`: the run's steps (every repetition's); `hops`: fold route
  // lengths too (output.router_stats); `repetition_rows`: count each
  // repetition's figures (repetitions.csv), whose times `repeated` keeps.
  // Throws std::runtime_error naming the file when the folder cannot be written.
  ScheduleRetirement(OutputSet& set, Network& net, ScheduleExecutor& exec, const Schedule& sched, int num_steps,
                     bool hops, RepeatedSchedule& repeated, bool repetition_rows);
  ScheduleRetirement(const ScheduleRetirement&) = delete;
  ScheduleRetirement& operator=(const ScheduleRetirement&) = delete;

  void start(Network&, uint64_t) override {}
  // Runs after every other source has looked at this cycle's deliveries.
  void after_routers(Network& net, uint64_t now) override;
  void after_interfaces(Network&, uint64_t) override {}
  bool finished() const override { return true; }

  // After the run: lists and folds the repetitions that never began, and writes their steps' and own rows.
  void finish(Network& net);
  // Throws the first write error as a std::runtime_error, if there was one.
  void throw_if_failed() const;

  // The retired messages' figures; compute_metrics folds the table's into them.
  MessageTally& retired() { return tally_; }
  // Messages retired while the run went (for the log and the tests).
  uint64_t retired_during_run() const { return during_run_; }
  // The rows of the repetitions not written yet, with the figures of their
  // retired messages (compute_repetition_metrics adds the table's), and the
  // tally of those written; none without `repetition_rows`.
  RetiredRepetitions take_repetitions();
  // After finish(): every message's rows are in the file of retired rows (none in the table, no repetition never begun).
  bool holds_every_row() const { return rows_before_ == total_; }
  // The rows of the messages retired during the run (before the table's), and
  // of the repetitions never begun (after it). Throw std::runtime_error.
  void copy_rows_before(CsvText& messages_or_routes, bool routes) const;
  void copy_rows_after(CsvText& messages_or_routes, bool routes) const;
  // The steps.csv rows of the steps whose messages were all retired as the run
  // went, in step order (RunMetrics::steps holds the rest). Throws std::runtime_error.
  void copy_step_rows(CsvText& steps) const;
  // The steps.csv rows of the repetitions that never began (after RunMetrics::steps). Throws std::runtime_error.
  void copy_step_rows_after(CsvText& steps) const;
  // The repetitions.csv rows of the repetitions whose messages were all
  // retired as the run went, in order (before RepetitionMetrics::first_row). Throws std::runtime_error.
  void copy_repetition_rows(CsvText& repetitions) const;
  // The repetitions.csv rows of the repetitions that never began (after the
  // rows RepetitionMetrics holds). Throws std::runtime_error.
  void copy_repetition_rows_after(CsvText& repetitions) const;
  // With holds_every_row(): commits the file of retired rows, header and all,
  // into `set` as messages.csv or routes.csv. Throws std::runtime_error.
  void commit_rows(OutputSet& set, bool routes) const;

 private:
  // One spill file of rows.
  struct Spill {
    std::unique_ptr<StreamedFile> file;
    std::unique_ptr<CsvText> text;
    size_t header = 0;  // bytes of the header it starts with
  };
  void open(Spill& spill, OutputSet& set, const std::string& name, std::string_view header = {});
  // Retires the messages the executor has handed over.
  void retire_retirable(Network& net);
  // The same while the run goes, counted (out of line: after_routers runs every cycle and mostly returns).
  [[gnu::noinline]] void retire_during_run(Network& net);
  // Writes the rows of the steps whose messages are now all retired.
  void write_retired_steps();
  // Writes the rows of the repetitions whose messages are now all retired, and folds them into rep_tally_.
  void write_retired_repetitions();
  // Repetition r's row (r >= rows_first_).
  RepetitionRow& row_of(uint64_t r);
  // Lists and folds the messages in slots `slots` (id order) into `messages` and `routes`, then frees their slots.
  void retire(Network& net, const std::vector<uint32_t>& slots, Spill& messages, Spill& routes);
  void write_rows(const Network& net, const std::vector<uint32_t>& slots, Spill& messages, Spill& routes);
  // Lists and folds repetition `r`, which never began: its messages' rows, its steps' and its own.
  void retire_unbegun(Network& net, uint32_t r);
  static void copy(const Spill& spill, CsvText& out);

  ScheduleExecutor& exec_;
  OutputSet& set_;
  QuotedNames names_;
  MessageTally tally_;
  RepeatedSchedule& repeated_;
  std::deque<RepetitionRow> rows_;  // of repetitions rows_first_.., made when their first message retires
  uint32_t rows_first_ = 0;
  RepetitionTally rep_tally_;        // of the rows written
  Spill messages_before_, routes_before_, messages_after_, routes_after_;  // after: opened when a stopped run left some
  Spill steps_;         // the rows of the steps written
  Spill repetitions_file_;  // the rows of the repetitions written
  Spill steps_after_, repetitions_after_;  // those of the repetitions that never began
  int steps_written_ = 0;  // the steps before it are in steps_
  const uint32_t repetitions_;
  const bool repetition_rows_;
  // A schedule without messages has none to retire: its repetitions' rows are written as they end (after_routers).
  const bool rows_without_messages_;
  const size_t batch_;
  uint64_t during_run_ = 0, rows_before_ = 0;  // rows_before_: in the files of retired rows
  const uint64_t total_;  // messages of every repetition
  std::string error_;  // the first write error
};

}  // namespace wormsim

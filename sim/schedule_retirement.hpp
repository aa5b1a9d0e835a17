// Keeps a repeated schedule's memory to two repetitions, however many it runs
// (schedule.repeat.count): once a repetition is over and the next has begun,
// its messages' rows of messages.csv and routes.csv go to spill files in the
// output folder, their figures are folded into the run's tallies (steps,
// contention, latency, its repetitions.csv row) and their table slots are
// recycled (Network::recycle). The last repetition begun keeps its records to
// the end, as every message of a run without repetitions does; the
// repetitions a stopped run never began are added after it ends, listed and
// folded one at a time. The files and figures come out as if every record had
// been kept: the retired repetitions' rows go before the table's, the rows of
// those never begun after them (repetitions run in id order and never overlap).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
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
#include "sim/streamed_file.hpp"

namespace wormsim {

class ScheduleRetirement : public TrafficSource {
 public:
  // `num_steps`: the run's steps (every repetition's); `hops`: fold route
  // lengths too (output.router_stats). Throws std::runtime_error naming the
  // file when the folder cannot be written.
  ScheduleRetirement(OutputSet& set, Network& net, ScheduleExecutor& exec, const Schedule& sched, int num_steps,
                     bool hops, uint32_t repetitions);
  ScheduleRetirement(const ScheduleRetirement&) = delete;
  ScheduleRetirement& operator=(const ScheduleRetirement&) = delete;

  void start(Network&, uint64_t) override {}
  // Runs after every other source has looked at this cycle's deliveries.
  void after_routers(Network& net, uint64_t now) override;
  void after_interfaces(Network&, uint64_t) override {}
  bool finished() const override { return true; }

  // After the run: lists and folds the repetitions that never began.
  void finish(Network& net);
  // Throws the first write error as a std::runtime_error, if there was one.
  void throw_if_failed() const;

  // The retired messages' figures; compute_metrics folds the table's into them.
  MessageTally& retired() { return tally_; }
  // Repetitions retired while the run went (for the log and the tests).
  uint32_t retired_during_run() const { return during_run_; }
  const RetiredRepetitions& repetitions() const { return rows_; }
  // The rows of the repetitions retired during the run (before the table's),
  // and of those never begun (after it). Throw std::runtime_error.
  void copy_rows_before(CsvText& messages_or_routes, bool routes) const;
  void copy_rows_after(CsvText& messages_or_routes, bool routes) const;

 private:
  // One spill file of rows.
  struct Spill {
    std::unique_ptr<StreamedFile> file;
    std::unique_ptr<CsvText> text;
  };
  void open(Spill& spill, OutputSet& set, const std::string& name);
  // Lists and folds repetition `r`'s messages (in slots `slots`, id order) into `messages` and `routes`, then frees their slots.
  void retire(Network& net, uint32_t r, const std::vector<uint32_t>& slots, Spill& messages, Spill& routes);
  static void copy(const Spill& spill, CsvText& out);

  ScheduleExecutor& exec_;
  QuotedNames names_;
  MessageTally tally_;
  RetiredRepetitions rows_;
  Spill messages_before_, routes_before_, messages_after_, routes_after_;
  uint32_t during_run_ = 0;
  std::string error_;  // the first write error
};

}  // namespace wormsim

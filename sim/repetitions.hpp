// When a schedule runs, and how often (schedule.repeat; docs/load-studies.md,
// "Broadcasts under steady load"): the first repetition starts at
// `start_cycle` (after the warm-up when the run has a measurement window), and
// each further one either
//   - back to back: `gap_cycles` after the previous one completed (its last
//     tail ejected; gap 0 starts it in that very cycle, as a barrier step), or
//   - periodically: at start + r * period_cycles. A repetition still running
//     when the next is due delays it: the next starts the cycle the previous
//     completes (it is late by the difference), and the ones after it keep
//     their own due cycles, so a run can catch up. Repetitions never overlap,
//     so each one's contention is its own broadcast's and the background's.
// The executor (sim/executor.hpp) releases each repetition's messages; this
// source only says when a repetition starts and records when it ended.
#pragma once

#include <cstdint>
#include <deque>

#include "models/sim_context.hpp"
#include "models/traffic_source.hpp"
#include "sim/executor.hpp"

namespace wormsim {

struct RepeatSpec {
  // Whether the run reports repetitions (summary.json `repetitions`,
  // repetitions.csv): schedule.repeat given, or a schedule timed against a
  // measurement window. Otherwise the schedule runs once from cycle 0, as ever.
  bool reported = false;
  uint64_t start = 0;   // cycle the first repetition starts
  bool at_window_open = false;  // start: when the adaptive warm-up ends (start_at)
  uint32_t count = 1;   // repetitions
  uint64_t period = 0;  // cycles between due starts; 0: back to back
  uint64_t gap = 0;     // back to back: cycles from one's completion to the next's start
};

// One repetition's cycles (kNever: did not happen).
struct RepetitionTimes {
  uint64_t due = kNever;    // when it was due to start
  uint64_t start = kNever;  // when its first messages were released
  uint64_t end = kNever;    // when its last tail was ejected
  bool under_load = false;  // background traffic was still being offered when it ended
};

class RepeatedSchedule : public TrafficSource {
 public:
  // `background` (may be null) is asked whether it is still offering when a repetition ends.
  RepeatedSchedule(const RepeatSpec& spec, ScheduleExecutor& exec, const TrafficSource* background);

  void start(Network& net, uint64_t now) override;
  // The first repetition's start, once an adaptive warm-up has ended.
  void start_at(uint64_t cycle);
  void after_routers(Network& net, uint64_t now) override;
  void after_interfaces(Network& net, uint64_t now) override;
  bool finished() const override { return started_ == spec_.count && exec_.finished(); }
  uint64_t next_event() const override { return running_ || started_ == spec_.count ? kNever : next_due_; }

  // Every repetition has completed.
  bool complete() const { return completed_ == spec_.count; }
  // Repetition r's cycles (all kNever for one not yet due); r >= forgotten().
  const RepetitionTimes& times(uint32_t r) const;
  // Drops the times of the completed repetitions before r (their rows are
  // written): a long run holds those of the repetition under way and the next.
  void forget_before(uint32_t r);
  uint32_t forgotten() const { return first_; }
  const RepeatSpec& spec() const { return spec_; }

 private:
  void advance(Network& net, uint64_t now);
  void end(uint64_t now);

  RepeatSpec spec_;
  ScheduleExecutor& exec_;
  const TrafficSource* background_;
  RepetitionTimes& at(uint32_t r) { return times_[r - first_]; }

  std::deque<RepetitionTimes> times_;  // of repetitions first_.. up to the next one due
  uint32_t first_ = 0;
  uint32_t started_ = 0, completed_ = 0;
  bool running_ = false;
  uint64_t next_due_ = 0;
};

}  // namespace wormsim

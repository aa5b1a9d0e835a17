#include "sim/repetitions.hpp"

#include <algorithm>

namespace wormsim {

RepeatedSchedule::RepeatedSchedule(const RepeatSpec& spec, ScheduleExecutor& exec, const TrafficSource* background)
    : spec_(spec), exec_(exec), background_(background), next_due_(spec.start) {
  if (spec.count > 0) times_.push_back(RepetitionTimes{spec.start, kNever, kNever, false});
}

const RepetitionTimes& RepeatedSchedule::times(uint32_t r) const {
  static const RepetitionTimes kNotDue;
  return r - first_ < times_.size() ? times_[r - first_] : kNotDue;
}

void RepeatedSchedule::forget_before(uint32_t r) {
  for (r = std::min(r, completed_); first_ < r; ++first_) times_.pop_front();
}

void RepeatedSchedule::start(Network& net, uint64_t now) { advance(net, now); }

void RepeatedSchedule::start_at(uint64_t cycle) {
  spec_.start = next_due_ = cycle;
  if (first_ == 0 && !times_.empty()) times_[0].due = cycle;
}

void RepeatedSchedule::after_routers(Network& net, uint64_t now) {
  if (running_) {
    exec_.after_routers(net, now);
    if (exec_.repetition_done()) end(now);
  }
  advance(net, now);
}

void RepeatedSchedule::after_interfaces(Network& net, uint64_t now) {
  if (running_) exec_.after_interfaces(net, now);
}

// Starts every repetition that is due (one, unless a repetition has no messages).
void RepeatedSchedule::advance(Network& net, uint64_t now) {
  while (!running_ && started_ < spec_.count && now >= next_due_) {
    at(started_).start = now;
    ++started_;
    running_ = true;
    exec_.begin_repetition(net, now);
    if (exec_.repetition_done()) end(now);
  }
}

void RepeatedSchedule::end(uint64_t now) {
  RepetitionTimes& t = at(started_ - 1);
  t.end = now;
  t.under_load = background_ && !background_->finished();
  running_ = false;
  ++completed_;
  if (started_ == spec_.count) return;
  next_due_ = spec_.period ? spec_.start + started_ * spec_.period : now + spec_.gap;
  times_.push_back(RepetitionTimes{next_due_, kNever, kNever, false});
}

}  // namespace wormsim

#include "sim/repetitions.hpp"

namespace wormsim {

RepeatedSchedule::RepeatedSchedule(const RepeatSpec& spec, ScheduleExecutor& exec, const TrafficSource* background)
    : spec_(spec), exec_(exec), background_(background), times_(spec.count), next_due_(spec.start) {
  if (!times_.empty()) times_[0].due = spec.start;
}

void RepeatedSchedule::start(Network& net, uint64_t now) { advance(net, now); }

void RepeatedSchedule::start_at(uint64_t cycle) {
  spec_.start = next_due_ = cycle;
  if (!times_.empty()) times_[0].due = cycle;
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
    times_[started_].start = now;
    ++started_;
    running_ = true;
    exec_.begin_repetition(net, now);
    if (exec_.repetition_done()) end(now);
  }
}

void RepeatedSchedule::end(uint64_t now) {
  RepetitionTimes& t = times_[started_ - 1];
  t.end = now;
  t.under_load = background_ && !background_->finished();
  running_ = false;
  ++completed_;
  if (started_ == spec_.count) return;
  next_due_ = spec_.period ? spec_.start + started_ * spec_.period : now + spec_.gap;
  times_[started_].due = next_due_;
}

}  // namespace wormsim

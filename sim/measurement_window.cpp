#include "sim/measurement_window.hpp"

#include <algorithm>

#include "models/network.hpp"
#include "sim/background_traffic.hpp"

namespace wormsim {

MeasurementWindow::MeasurementWindow(const WindowSpec& spec, BackgroundTraffic& background)
    : spec_(spec), background_(background), class_accepted_(background.classes(), 0),
      warmup_(spec.adaptive.automatic ? kNever : spec.warmup), drained_at_(kNever), next_backlog_check_(kNever) {}

void MeasurementWindow::start(Network& net, uint64_t) {
  net.count_ejections_per_endpoint();
  if (spec_.adaptive.automatic) detector_.emplace(spec_.adaptive, net.topology().num_endpoints());
  else if (spec_.warmup == 0) {  // nothing has happened before cycle 0
    ejected_start_.assign(static_cast<size_t>(net.topology().num_endpoints()), 0);
    carried_start_.assign(net.context().link_busy.size(), 0);
    if (net.counts_vc_statistics()) vc_start_ = net.vc_counters_at(0);
    opened_ = true;
    if (on_open_) on_open_(0);
  }
}

uint64_t MeasurementWindow::next_event() const {
  // The last cycle of a phase (or of a warm-up sample) must be simulated, not
  // skipped as idle, so that its counters can be read at its end.
  if (!opened_) return (detector_ ? detector_->sample_end() : warmup_) - 1;
  if (!closed_) return window_end() - 1;
  if (drained_at_ == kNever) return offer_end() - 1;
  // The backlog's checks fall on cycles that every run simulates (fast paths or not).
  return offering_ ? next_backlog_check_ - 1 : kNever;
}

void MeasurementWindow::after_routers(Network& net, uint64_t now) {
  const SimContext& ctx = net.context();
  for (uint32_t id : ctx.delivered_now) {
    const MessageRecord& m = ctx.msgs[id];
    if (m.step >= 0) continue;
    if (opened_ && !closed_) class_accepted_[class_of_step(m.step)] += m.flits;
    if (in_window(m.release)) {
      ++delivered_;
      last_delivery_ = now;
    } else if (detector_ && !opened_) {
      detector_->delivered(m.delivered - m.release);
    }
  }
}

// Adaptive warm-up: at the end of a sample, whether the network is warm.
bool MeasurementWindow::warm_after(Network& net, uint64_t now) {
  if (now + 1 < detector_->sample_end()) return false;
  net.settle_counts(now);
  uint64_t ejected = 0;
  for (uint64_t n : net.context().ejected_at) ejected += n;
  return detector_->close_sample(ejected);
}

// Background packets are created with release = the current cycle, so the
// ones created in the window are those generated between the two snapshots.
void MeasurementWindow::open(Network& net, uint64_t now) {
  snapshot(net, now, ejected_start_, carried_start_, vc_start_);
  generated_start_ = background_.generated();
  if (detector_) warmup_ = now + 1;
  opened_ = true;
  if (on_open_) on_open_(warmup_);
}

void MeasurementWindow::after_interfaces(Network& net, uint64_t now) {
  if (!opened_ && (detector_ ? warm_after(net, now) : now + 1 >= warmup_)) open(net, now);
  if (opened_ && !closed_ && now + 1 >= window_end()) {
    snapshot(net, now, ejected_end_, carried_end_, vc_end_);
    created_ = background_.generated() - generated_start_;
    closed_ = true;
  }
  if (!closed_) return;
  if (drained_at_ == kNever) {
    if (delivered_ == created_) {
      drained_at_ = created_ ? last_delivery_ : now;
      next_backlog_check_ = now + 1 + backlog_period();
    } else if (now + 1 >= offer_end()) {
      saturated_ = true;
    }
  }
  if (drained_at_ != kNever && offering_ && (!schedule_done_ || schedule_done_())) {
    background_.stop_offering();
    offering_ = false;
  }
  if (offering_ && drained_at_ != kNever && now + 1 >= next_backlog_check_) check_backlog(net, now);
}

// The load stays on for a schedule after the window drained: a packet that has
// waited at its source longer than the window's own cap on delivery, plus the
// schedule's flit span, means the sources fall behind what is offered (past
// saturation their queues grow without end, and the schedule's messages wait
// behind them). The span: a schedule's worms hold channels, and the packets
// behind them wait, for as long as their flits take, however light the load.
void MeasurementWindow::check_backlog(const Network& net, uint64_t now) {
  next_backlog_check_ = now + 1 + backlog_period();
  const uint64_t oldest = net.oldest_waiting_background();
  if (oldest != kNever && now + 1 - oldest > backlog_limit()) saturated_ = backlogged_ = true;
  const uint64_t held = schedule_held_back_ && !backlogged_ ? schedule_held_back_() : kNever;
  if (held != kNever && now + 1 - held > backlog_limit()) saturated_ = backlogged_ = schedule_starved_ = true;
}

void MeasurementWindow::snapshot(Network& net, uint64_t now, std::vector<uint64_t>& ejected,
                                 std::vector<uint64_t>& carried, std::vector<VcCounters>& vcs) {
  net.settle_counts(now);
  ejected = net.context().ejected_at;
  carried = net.context().link_busy;
  if (net.counts_vc_statistics()) vcs = net.vc_counters_at(now + 1);
}

namespace {
std::vector<uint64_t> difference(const std::vector<uint64_t>& end, const std::vector<uint64_t>& start) {
  std::vector<uint64_t> d(end.size(), 0);
  for (size_t i = 0; i < end.size() && i < start.size(); ++i) d[i] = end[i] - start[i];
  return d;
}
}  // namespace

std::vector<uint64_t> MeasurementWindow::ejected_in_window() const { return difference(ejected_end_, ejected_start_); }
std::vector<uint64_t> MeasurementWindow::carried_in_window() const { return difference(carried_end_, carried_start_); }

std::vector<VcCounters> MeasurementWindow::vc_counters_in_window() const {
  std::vector<VcCounters> d(vc_end_.size());
  for (size_t i = 0; i < vc_end_.size() && i < vc_start_.size(); ++i) d[i] = vc_end_[i] - vc_start_[i];
  return d;
}

}  // namespace wormsim

#include "sim/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

namespace wormsim {

MessageView view_message(const SimContext& ctx, const MessageRecord& m) {
  MessageView v;
  // A multidestination worm's record is always the table's own (never retired or copied).
  const int hops = m.multicast ? ctx.zero_load_hops(static_cast<uint32_t>(&m - ctx.msgs.data())) : m.hops;
  v.zero_load = static_cast<uint64_t>(ctx.timing.zero_load_latency(hops, m.flits));
  v.delivered = m.delivered != kNever;
  if (m.inject != kNever && m.release != kNever) {
    const uint64_t earliest = m.release + static_cast<uint64_t>(ctx.timing.startup);
    v.port_wait = m.inject > earliest ? m.inject - earliest : 0;
  }
  if (!v.delivered) return v;
  v.latency = m.delivered - m.release;
  v.blocked = v.latency > v.zero_load ? v.latency - v.zero_load : 0;
  const uint64_t explained = v.port_wait + m.stall_step + m.stall_depth + m.stall_background;
  v.other = v.blocked > explained ? v.blocked - explained : 0;
  return v;
}

MessageTally::MessageTally(int num_steps, bool scheduled, bool hops)
    : num_steps_(num_steps), kept_steps_(num_steps), scheduled_(scheduled), count_hops_(hops) {}

void MessageTally::extend_to(int step) {
  for (int s = step_base_ + static_cast<int>(steps_.size()); s < std::min(step, kept_steps_); ++s) {
    steps_.emplace_back().step = s;
    step_latency_sum_.push_back(0);
  }
}

void MessageTally::keep_steps_before(int step) {
  kept_steps_ = std::max(step_base_, std::min(kept_steps_, step));
  while (step_base_ + static_cast<int>(steps_.size()) > kept_steps_) {
    if (steps_.back().messages != 0) throw std::logic_error("the figures of a step kept apart were counted already");
    steps_.pop_back();
    step_latency_sum_.pop_back();
  }
}

void MessageTally::start_at_step(int step) {
  if (!steps_.empty() || main_.messages != 0) throw std::logic_error("a tally started at a step after it counted");
  step_base_ = step;
}

void MessageTally::add(const SimContext& ctx, const MessageRecord& m) {
  const MessageView v = view_message(ctx, m);
  if (v.delivered) last_any_ = std::max(last_any_, m.delivered);
  if (m.step < 0) {
    has_background_ = true;
    ++background_.messages;
    if (v.delivered) {
      ++background_.delivered;
      background_.flits_delivered += m.flits;
      background_latency_.add(v.latency);
    }
    if (scheduled_) return;
  }
  Figures& f = main_;
  ++f.messages;
  f.tcd += m.hops;
  if (m.step >= 0 && m.step < step_base_)
    throw std::logic_error("a message of step " + std::to_string(m.step) + " counted after its step was written");
  const size_t at = static_cast<size_t>(m.step - step_base_);
  if (m.step >= 0 && at >= steps_.size()) extend_to(m.step + 1);
  StepMetrics* st = m.step >= 0 && m.step < kept_steps_ ? &steps_[at] : nullptr;
  if (st) {
    ++st->messages;
    st->tcd += m.hops;
    st->max_zero_load = std::max(st->max_zero_load, v.zero_load);
    if (m.release != kNever) st->start = std::min(st->start, m.release);
    st->step_contention.add(m.stall_step);
    st->depth_contention.add(m.stall_depth);
  }
  if (m.inject != kNever) f.port_wait.add(v.port_wait);
  f.step_contention.add(m.stall_step);
  f.depth_contention.add(m.stall_depth);
  f.background_contention.add(m.stall_background);
  if (!v.delivered) return;
  ++f.delivered;
  f.other_delay.add(v.other);
  f.latency.add(v.latency);
  if (count_hops_) f.hops.add(m.hops);
  f.last = std::max(f.last, m.delivered);
  if (st) {
    ++st->delivered;
    st->end = std::max(st->end, m.delivered);
    st->max_latency = std::max(st->max_latency, v.latency);
    step_latency_sum_[at] += v.latency;
  }
}

namespace {

void merge(ContentionTotals& into, const ContentionTotals& from) {
  into.messages += from.messages;
  into.cycles += from.cycles;
}

}  // namespace

void MessageTally::merge_background(const MessageTally& retired) {
  has_background_ = has_background_ || retired.has_background_;
  last_any_ = std::max(last_any_, retired.last_any_);
  background_.messages += retired.background_.messages;
  background_.delivered += retired.background_.delivered;
  background_.flits_delivered += retired.background_.flits_delivered;
  background_latency_.merge(retired.background_latency_);
  if (!scheduled_) merge_main(retired.main_);
}

void MessageTally::merge_main(const Figures& from) {
  main_.messages += from.messages;
  main_.delivered += from.delivered;
  main_.tcd += from.tcd;
  merge(main_.step_contention, from.step_contention);
  merge(main_.depth_contention, from.depth_contention);
  merge(main_.background_contention, from.background_contention);
  merge(main_.port_wait, from.port_wait);
  merge(main_.other_delay, from.other_delay);
  main_.latency.merge(from.latency);
  main_.hops.merge(from.hops);
  main_.last = std::max(main_.last, from.last);
}

StepMetrics MessageTally::completed_front() const {
  StepMetrics s = steps_.front();
  if (s.delivered) s.mean_latency = static_cast<double>(step_latency_sum_.front()) / static_cast<double>(s.delivered);
  return s;
}

void MessageTally::pop_steps_before(int step, const std::function<void(const StepMetrics&)>& emit) {
  for (; step_base_ < std::min(step, kept_steps_); ++step_base_) {
    if (steps_.empty()) {  // no message of it was counted: its figures are all zero, made here rather than held
      StepMetrics empty;
      empty.step = step_base_;
      emit(empty);
      continue;
    }
    emit(completed_front());
    steps_.pop_front();
    step_latency_sum_.pop_front();
  }
}

void MessageTally::finish(RunMetrics& r) && {
  extend_to(kept_steps_);
  r.steps.clear();
  r.steps.reserve(steps_.size());
  for (; !steps_.empty(); steps_.pop_front(), step_latency_sum_.pop_front()) r.steps.push_back(completed_front());
  r.messages = main_.messages;
  r.delivered = main_.delivered;
  r.tcd = main_.tcd;
  r.step_contention = main_.step_contention;
  r.depth_contention = main_.depth_contention;
  r.background_contention = main_.background_contention;
  r.port_wait = main_.port_wait;
  r.other_delay = main_.other_delay;
  const LatencyStats ls = main_.latency.stats();
  r.latency_mean = ls.mean;
  r.latency_p50 = ls.p50;
  r.latency_p99 = ls.p99;
  r.latency_max = ls.max;
  r.hops = main_.hops;
  r.has_background = has_background_;
  r.background = background_;
  r.background.latency = background_latency_.stats();
}

RunMetrics compute_metrics(const Network& net, int num_steps, const MessageTally* retired, bool hops,
                           MessageTally* retired_schedule) {
  const SimContext& ctx = net.context();
  RunMetrics r;
  r.status = to_string(net.status());
  // A schedule without messages has no message retired, but may have had its steps' rows written.
  const bool any_retired = retired_schedule && (retired_schedule->messages() > 0 || retired_schedule->first_step() > 0);
  bool scheduled = any_retired;
  for (const MessageRecord& m : ctx.msgs) scheduled = scheduled || (!m.free() && m.step >= 0);
  if (any_retired && (retired_schedule->num_steps() != num_steps || retired_schedule->counts_hops() != hops))
    throw std::logic_error("the retired schedule messages were tallied with other steps or hop counts");
  // The figures add up the same in any order: the retired messages' tally
  // takes the table's in, rather than a second tally of every step.
  MessageTally tally = any_retired ? std::move(*retired_schedule) : MessageTally(num_steps, scheduled, hops);
  for (const MessageRecord& m : ctx.msgs)
    if (!m.free()) tally.add(ctx, m);
  if (retired) tally.merge_background(*retired);
  const bool complete = r.status == "completed";
  r.completion = complete ? tally.last_delivery() : std::max(tally.last_delivery(), net.cycle());
  r.span = complete ? tally.last_any_delivery() : std::max(tally.last_any_delivery(), net.cycle());
  std::move(tally).finish(r);
  r.links = static_cast<int64_t>(ctx.link_busy.size());
  for (uint64_t b : ctx.link_busy) {
    r.flit_hops += static_cast<int64_t>(b);
    if (!b) continue;
    ++r.links_used;
    if (r.span) r.link_util_max = std::max(r.link_util_max, static_cast<double>(b) / static_cast<double>(r.span));
  }
  if (r.span && r.links)
    r.link_util_mean = static_cast<double>(r.flit_hops) / static_cast<double>(r.span) / static_cast<double>(r.links);
  r.flits_injected = ctx.flits_injected;
  r.flits_ejected = ctx.flits_ejected;
  return r;
}

}  // namespace wormsim

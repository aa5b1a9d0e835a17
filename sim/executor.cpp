#include "sim/executor.hpp"

#include <algorithm>
#include <stdexcept>

#include <spdlog/spdlog.h>

#include "models/network.hpp"

#include "schedules/analysis.hpp"
#include "schedules/multicast_plan.hpp"

namespace wormsim {

bool parse_execution_mode(const std::string& text, ExecutionMode& out) {
  if (text == "barrier") out = ExecutionMode::Barrier;
  else if (text == "eager") out = ExecutionMode::Eager;
  else return false;
  return true;
}

std::string to_string(ExecutionMode m) { return m == ExecutionMode::Barrier ? "barrier" : "eager"; }

namespace {
// The most (node, packet) pairs a repetition can hold: the origins, and one per destination of each
// message (only eager mode asks who holds what; barrier mode keeps the origins alone).
uint64_t held_pairs(const Schedule& s) {
  uint64_t pairs = s.packets.size();
  for (const auto& step : s.steps)
    for (const auto& m : step) pairs += m.is_multicast() ? m.dsts().size() : 1;
  return pairs;
}
}  // namespace

ScheduleExecutor::ScheduleExecutor(const Schedule& s, Network& net, ExecutionMode mode, uint32_t repetitions,
                                   bool recycled)
    : schedule_(s),
      mode_(mode),
      recycled_(recycled),
      num_nodes_(net.topology().num_endpoints()),
      log_steps_(spdlog::should_log(spdlog::level::debug)),
      log_worms_(spdlog::should_log(spdlog::level::trace)),
      steps_(s.steps.size()),
      held_(s.packets.size(), static_cast<uint64_t>(num_nodes_), mode == ExecutionMode::Eager ? held_pairs(s) : 0) {
  if (net.messages_added() != 0) throw std::logic_error("the schedule's messages must be the network's first");
  if (!recycled) net.reserve_messages(static_cast<size_t>(s.num_messages()) * repetitions);
  MulticastPlanner planner(net.topology(), &net.routing(), net.context().vcs);
  for (uint32_t r = 0; r < repetitions; ++r)
    for (size_t st = 0; st < s.steps.size(); ++st) {
      const int step = static_cast<int>(r * steps_ + st);
      if (r == 0) step_first_.push_back(total_);
      for (const auto& m : s.steps[st]) {
        const auto flits = static_cast<uint32_t>(s.message_flits(m));
        if (m.is_multicast()) {
          if (recycled) throw std::logic_error("multicast messages are never recycled");
          // One message id per worm: a multicast message may take several (docs/multicast.md).
          for (const MulticastWorm& w : planner.plan(m)) {
            net.add_multicast_message(w, flits, step);
            add_send(m, r);
          }
          continue;
        }
        // Recycled, a message's record is added when it may be sent.
        if (!recycled) net.add_message(m.src, m.dst, message_route(net.topology(), net.routing(), m), flits, step);
        add_send(m, r);
      }
    }
  if (recycled) net.reserve_message_ids(total_);
  per_repetition_ = repetitions ? total_ / repetitions : 0;
  step_first_.push_back(per_repetition_);
  if (log_steps_) {
    step_released_.assign(steps_ * repetitions, 0);
    step_delivered_.assign(steps_ * repetitions, 0);
  }
  for (const auto& p : s.packets) origins_.push_back(p.origin);
  if (mode_ == ExecutionMode::Eager) index_sends();  // a barrier releases whole steps
  std::vector<uint32_t>().swap(sender_);
}

// Counting sort of the first repetition's messages by sender, ids ascending within each.
void ScheduleExecutor::index_sends() {
  first_send_.assign(static_cast<size_t>(num_nodes_) + 1, 0);
  for (uint32_t src : sender_) ++first_send_[src + 1];
  for (int node = 0; node < num_nodes_; ++node) first_send_[node + 1] += first_send_[node];
  std::vector<uint32_t> at(first_send_.begin(), first_send_.end() - 1);
  sends_.resize(sender_.size());
  for (uint32_t id = 0; id < sender_.size(); ++id) sends_[at[sender_[id]]++] = Send{id, packet_[id]};
  restart_sends();
  for (int o : origins_)
    if (o >= 0) origin_nodes_.push_back(o);
  std::sort(origin_nodes_.begin(), origin_nodes_.end());
  origin_nodes_.erase(std::unique(origin_nodes_.begin(), origin_nodes_.end()), origin_nodes_.end());
}

std::vector<uint32_t> ScheduleExecutor::add_repetition(Network& net, uint32_t r) {
  std::vector<uint32_t> slots;
  slots.reserve(per_repetition_);
  uint64_t id = static_cast<uint64_t>(r) * per_repetition_;
  for (size_t st = 0; st < steps_; ++st) {
    const int step = static_cast<int>(r * steps_ + st);
    for (const auto& m : schedule_.steps[st])
      slots.push_back(net.add_reserved_message(id++, m.src, m.dst, message_route(net.topology(), net.routing(), m),
                                               static_cast<uint32_t>(schedule_.message_flits(m)), step));
  }
  return slots;
}

void ScheduleExecutor::make_records(Network& net, uint32_t upto) {
  const uint32_t end = std::min(base_ + per_repetition_, std::max(upto, made_end_ + kMakeAhead));
  const int first_step = static_cast<int>((repetition_ - 1) * steps_);
  for (; made_end_ < end; ++made_end_) {
    const uint32_t k = made_end_ - base_;
    while (step_first_[made_step_ + 1] <= k) ++made_step_;
    const ScheduledMessage& m = schedule_.steps[made_step_][k - step_first_[made_step_]];
    slots_[k] = net.add_reserved_message(made_end_, m.src, m.dst, message_route(net.topology(), net.routing(), m),
                                         static_cast<uint32_t>(schedule_.message_flits(m)),
                                         first_step + static_cast<int>(made_step_));
  }
}

void ScheduleExecutor::add_unmade(Network& net) {
  if (recycled_ && repetition_ > 0) make_records(net, base_ + per_repetition_);
}

void ScheduleExecutor::collect_retirable(const SimContext& ctx) {
  for (; retire_next_ < made_end_; ++retire_next_) {
    const uint32_t slot = slots_[retire_next_ - base_];
    if (ctx.msgs[slot].delivered == kNever) return;
    retirable_.push_back(slot);
  }
}

std::vector<uint32_t> ScheduleExecutor::add_unreleased(Network& net, uint32_t r) {
  if (!recycled_ || r < repetition_) throw std::logic_error("repetition " + std::to_string(r) + " has begun");
  return add_repetition(net, r);
}

std::vector<uint32_t> ScheduleExecutor::slots_of(uint32_t r) const {
  if (recycled_) {
    std::vector<uint32_t> slots;
    if (r + 1 != repetition_) return slots;
    for (uint32_t id = retire_next_; id < made_end_; ++id) slots.push_back(slots_[id - base_]);
    return slots;
  }
  std::vector<uint32_t> slots(per_repetition_);
  for (uint32_t i = 0; i < per_repetition_; ++i) slots[i] = r * per_repetition_ + i;
  return slots;
}

void ScheduleExecutor::begin_repetition(Network& net, uint64_t now) {
  if (recycled_) {
    // The one before has ended (repetitions never overlap): every record of it is retirable.
    collect_retirable(net.context());
    if (repetition_ > 0 && retire_next_ != base_ + per_repetition_)
      throw std::logic_error("repetition " + std::to_string(repetition_) + " began before the one before was delivered");
  }
  base_ = repetition_ * per_repetition_;
  step_ = repetition_ * steps_;
  rep_end_step_ = step_ + steps_;
  if (recycled_) {
    slots_.resize(per_repetition_);
    made_end_ = retire_next_ = base_;
    made_step_ = 0;
  }
  ++repetition_;
  held_.clear();
  for (size_t p = 0; p < origins_.size(); ++p)
    if (origins_[p] >= 0) give(origins_[p], static_cast<int>(p));
  if (mode_ == ExecutionMode::Barrier) {
    release_barrier_step(net, now);
  } else {
    restart_sends();
    // Only a node that holds a packet can send: at the start, the packets' origins.
    for (int node : origin_nodes_) try_release(net, node, now);
  }
}

void ScheduleExecutor::restart_sends() {
  next_send_.resize(static_cast<size_t>(num_nodes_));
  for (int node = 0; node < num_nodes_; ++node) next_send_[node] = NextSend{first_send_[node], first_send_[node + 1]};
  held_back_since_.assign(static_cast<size_t>(num_nodes_), kNever);
}

uint64_t ScheduleExecutor::oldest_held_back() const {
  uint64_t oldest = kNever;
  for (uint64_t since : held_back_since_) oldest = std::min(oldest, since);
  return oldest;
}

// Releases the repetition's next non-empty step.
void ScheduleExecutor::release_barrier_step(Network& net, uint64_t now) {
  while (step_ < rep_end_step_ && step_first(step_) == step_first(step_ + 1)) ++step_;
  if (step_ >= rep_end_step_) return;
  const auto first = static_cast<uint32_t>(step_first(step_)), end = static_cast<uint32_t>(step_first(step_ + 1));
  for (uint32_t id = first; id < end; ++id) release(net, id, now);
  outstanding_ = end - first;
  released_ += outstanding_;
  ++step_;
}

void ScheduleExecutor::try_release(Network& net, int node, uint64_t when) {
  NextSend& n = next_send_[node];
  while (n.next < n.end) {
    const Send& send = sends_[n.next];
    const uint32_t id = base_ + send.id;
    if (!holds(node, send.packet)) return;
    if (!net.can_start(made_slot(net, id))) {
      held_back_since_[node] = std::min(held_back_since_[node], when);
      return;
    }
    release(net, id, when);
    held_back_since_[node] = kNever;
    ++released_;
    ++n.next;
  }
}

void ScheduleExecutor::after_routers(Network& net, uint64_t now) {
  const SimContext& ctx = net.context();
  const auto& delivered = ctx.delivered_now;
  if (log_steps_)
    for (uint32_t slot : delivered)
      if (is_mine(ctx, slot)) note_delivery(net, slot, now);
  if (mode_ == ExecutionMode::Barrier) {
    uint32_t mine = 0;
    for (uint32_t slot : delivered) mine += is_mine(ctx, slot);
    outstanding_ -= mine;
    delivered_ += mine;
    if (mine && recycled_) collect_retirable(ctx);
    if (mine && outstanding_ == 0) release_barrier_step(net, now);
    return;
  }
  // A multicast worm's copies each hand its packet to their destination as their tail arrives.
  for (const CopyDelivered& c : ctx.copies_delivered_now) {
    if (!is_mine(ctx, c.msg)) continue;
    give(c.dst, packet_of(net.message_id(c.msg)));
    try_release(net, c.dst, now);
  }
  const auto deliver = [&](uint32_t slot) {
    if (!is_mine(ctx, slot)) return;
    const MessageRecord& m = ctx.msgs[slot];
    ++delivered_;
    if (m.multicast) return;
    give(m.dst, packet_of(net.message_id(slot)));
    try_release(net, m.dst, now);
  };
  if (!net.prefetches_events()) {
    for (uint32_t slot : delivered) deliver(slot);
  } else {
    int nodes[Network::kEventBatch];
    for (size_t b = 0; b < delivered.size(); b += Network::kEventBatch) {
      const size_t end = std::min(delivered.size(), b + Network::kEventBatch);
      net.note_event_batch();
      size_t tries = 0;
      for (size_t i = b; i < end; ++i) {
        const MessageRecord& m = ctx.msgs[delivered[i]];
        if (is_mine(ctx, delivered[i]) && !m.multicast) nodes[tries++] = m.dst;
      }
      prefetch_tries(net, nodes, tries);
      for (size_t i = b; i < end; ++i) deliver(delivered[i]);
    }
  }
  if (recycled_ && !delivered.empty()) collect_retirable(ctx);
}

// Each level's loads are started for the whole batch before the next level
// reads them, so that the batch waits for memory about once per level.
void ScheduleExecutor::prefetch_tries(const Network& net, const int* nodes, size_t n) const {
  for (size_t k = 0; k < n; ++k) {
    __builtin_prefetch(&next_send_[static_cast<size_t>(nodes[k])]);
    net.prefetch_interface(nodes[k]);
  }
  for (size_t k = 0; k < n; ++k) {
    const NextSend& s = next_send_[static_cast<size_t>(nodes[k])];
    if (s.next < s.end) __builtin_prefetch(&sends_[s.next]);
  }
  for (size_t k = 0; k < n; ++k) {
    const NextSend& s = next_send_[static_cast<size_t>(nodes[k])];
    if (s.next >= s.end) continue;
    const Send& send = sends_[s.next];
    held_.prefetch(nodes[k], send.packet);
    if (!recycled_) net.prefetch_message(base_ + send.id);
  }
}

void ScheduleExecutor::release(Network& net, uint32_t id, uint64_t when) {
  const uint32_t slot = made_slot(net, id);
  net.release(slot, when);
  if (!log_steps_) return;
  const MessageRecord& m = net.context().msgs[slot];
  const size_t step = static_cast<size_t>(m.step);
  if (step_released_[step]++ == 0)
    spdlog::debug("cycle {}: step {} begins ({} messages)", when, step + 1, step_first(step + 1) - step_first(step));
  if (log_worms_)
    spdlog::trace("cycle {}: message {} released: {} -> {}, step {}, {} flits, {} hops", when, id,
                  net.topology().node_name(m.src), net.topology().node_name(m.dst), step + 1, m.flits, m.hops);
}

void ScheduleExecutor::note_delivery(const Network& net, uint32_t slot, uint64_t now) {
  const MessageRecord& m = net.context().msgs[slot];
  const size_t step = static_cast<size_t>(m.step);
  if (log_worms_)
    spdlog::trace("cycle {}: message {} delivered at {}, latency {}", now, net.message_id(slot),
                  net.topology().node_name(m.dst), m.delivered - m.release);
  if (++step_delivered_[step] == step_first(step + 1) - step_first(step))
    spdlog::debug("cycle {}: step {} complete: all {} messages delivered", now, step + 1, step_delivered_[step]);
}

void ScheduleExecutor::after_interfaces(Network& net, uint64_t now) {
  if (mode_ != ExecutionMode::Eager) return;
  // Any tail leaving a channel (background traffic's too) may unblock this node's next send.
  const SimContext& ctx = net.context();
  const auto& injected = ctx.injected_now;
  if (!net.prefetches_events()) {
    for (uint32_t id : injected) try_release(net, ctx.msgs[id].src, now + 1);
    return;
  }
  int nodes[Network::kEventBatch];
  for (size_t b = 0; b < injected.size(); b += Network::kEventBatch) {
    const size_t n = std::min(Network::kEventBatch, injected.size() - b);
    net.note_event_batch();
    for (size_t k = 0; k < n; ++k) nodes[k] = ctx.msgs[injected[b + k]].src;
    prefetch_tries(net, nodes, n);
    for (size_t k = 0; k < n; ++k) try_release(net, nodes[k], now + 1);
  }
}

}  // namespace wormsim

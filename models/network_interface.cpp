#include "models/network_interface.hpp"

#include <algorithm>

#include "models/flit_transfer.hpp"
#include "models/router.hpp"

namespace wormsim {

NetworkInterface::NetworkInterface(int node, int channels, Router* router, int first_channel, SimContext* ctx,
                                   std::byte* arena)
    : node_(node),
      router_(router),
      first_port_(router->link_ports() + first_channel),
      ctx_(ctx),
      channels_(channels) {
  // Layout: channel states, then claimed flags (see arena_bytes).
  ch_ = new (arena) Channel[channels];
  for (int c = 0; c < channels; ++c) ch_[c].buffer = router->injection_buffer(first_channel + c);
  claimed_ = reinterpret_cast<char*>(arena + sizeof(Channel) * channels);
}

size_t NetworkInterface::arena_bytes(int channels) {
  const auto n = static_cast<size_t>(channels);
  return sizeof(Channel) * n + n;
}

void NetworkInterface::submit(uint32_t msg) {
  queue_.push_back(msg);
  most_queued_ = std::max(most_queued_, queue_.size());
}

uint64_t NetworkInterface::oldest_background_release() const {
  // In release order: the first background packet is the oldest (schedule messages may be ahead of it).
  for (uint32_t msg : queue_)
    if (ctx_->msgs[msg].step < 0) return ctx_->msgs[msg].release;
  return kNever;
}

// The channel a message may start on now, or -1. `claimed` marks channels that an
// earlier waiting message is entitled to first.
int NetworkInterface::usable_channel(uint32_t msg, const char* claimed) const {
  if (ctx_->ports.kind == PortKind::AllPort) {
    const int c = ctx_->msgs[msg].inj_channel;
    return (ch_[c].msg == kNoMessage && !claimed[c]) ? c : -1;
  }
  for (int c = 0; c < channels_; ++c)
    if (ch_[c].msg == kNoMessage && !claimed[c]) return c;
  return -1;
}

bool NetworkInterface::can_start(uint32_t msg) const {
  if (ctx_->ports.kind == PortKind::AllPort) {
    const int c = ctx_->msgs[msg].inj_channel;
    if (ch_[c].msg != kNoMessage) return false;
    for (uint32_t q : queue_)
      if (ctx_->msgs[q].inj_channel == c) return false;
    return true;
  }
  // One-port / k-port: a channel must be idle beyond those the queued messages will take.
  size_t idle = 0;
  for (int c = 0; c < channels_; ++c) idle += ch_[c].msg == kNoMessage;
  return idle > queue_.size();
}

uint64_t NetworkInterface::next_startup_end(uint64_t now) const {
  uint64_t next = kNever;
  for (uint32_t msg : queue_) {
    const uint64_t t = ctx_->msgs[msg].release + ctx_->timing.startup;
    if (t > now) next = std::min(next, t);
  }
  return next;
}

void NetworkInterface::start_waiting(uint64_t now) {
  // Nothing can start while every channel is busy (a saturated node's queue can be long).
  bool idle = false;
  for (int c = 0; c < channels_ && !idle; ++c) idle = ch_[c].msg == kNoMessage;
  if (!idle) return;
  std::fill(claimed_, claimed_ + channels_, 0);
  const bool per_channel = ctx_->ports.kind == PortKind::AllPort;
  size_t keep = 0;
  for (size_t i = 0; i < queue_.size(); ++i) {
    const uint32_t msg = queue_[i];
    int c = -1;
    if (ctx_->msgs[msg].release + ctx_->timing.startup <= now) c = usable_channel(msg, claimed_);
    if (c < 0) {
      // All-port keeps order per channel: a waiting message holds its channel for later ones.
      // One-port / k-port keep order for the whole node: everything behind it waits too.
      if (!per_channel) {
        keep = static_cast<size_t>(std::copy(queue_.begin() + static_cast<std::ptrdiff_t>(i), queue_.end(),
                                             queue_.begin() + static_cast<std::ptrdiff_t>(keep)) -
                                   queue_.begin());
        break;
      }
      claimed_[ctx_->msgs[msg].inj_channel] = 1;
      queue_[keep++] = msg;
      continue;
    }
    ch_[c].msg = msg;
    ch_[c].next_flit = 0;
    ch_[c].flits = ctx_->msgs[msg].flits;
    ch_[c].since = now;
    claimed_[c] = 1;  // starts now; its header goes in this cycle
  }
  queue_.resize(keep);
  if (queue_.empty() && queue_.capacity() > 64) queue_.shrink_to_fit();
}

void NetworkInterface::inject(int c, uint64_t now) {
  Channel& ch = ch_[c];
  if (!ch.buffer->has_credit(now)) return;
  const Flit f = FlitTransfer(ctx_->timing, now).injected(ch.msg, ch.next_flit == 0, ch.next_flit + 1 == ch.flits);
  if (f.head) ctx_->msgs[ch.msg].inject = now;
  router_->accept(first_port_ + c, *ch.buffer, f);
  ++ctx_->flits_moved;
  ++ctx_->flits_injected;
  if (f.tail) finish(c, now);
  else ++ch.next_flit;
}

NetworkInterface::ExpressChannel NetworkInterface::begin_express(uint32_t msg) {
  for (int c = 0; c < channels_; ++c)
    if (ch_[c].msg == msg) {
      ch_[c].express = true;
      return ExpressChannel{c, ch_[c].buffer, ch_[c].next_flit, ch_[c].flits};
    }
  return ExpressChannel{};
}

void NetworkInterface::end_express(int c, uint64_t now) {
  ch_[c].express = false;
  finish(c, now);
  wake = std::min(wake, now + 1);
}

void NetworkInterface::resume_after_express(int c, uint32_t left) {
  ch_[c].express = false;
  ch_[c].next_flit = ch_[c].flits - left;
}

// The tail of channel `c`'s message has gone into the router: the channel is free.
void NetworkInterface::finish(int c, uint64_t now) {
  Channel& ch = ch_[c];
  if (ctx_->channel_trace)
    ctx_->channel_trace->push_back(
        ChannelUse{router_->node(), static_cast<int16_t>(kInjectionPort - (first_port_ - router_->link_ports() + c)), 0,
                   ch.msg, ch.since, now + 1});
  ctx_->injected_now.push_back(ch.msg);
  ch.msg = kNoMessage;
}

// Flattened: inject is inlined (it runs once per flit).
// While every channel is busy and the busy ones are express worms', nothing can
// happen here until one of their tails goes in, and that wakes the interface.
[[gnu::flatten]] uint64_t NetworkInterface::step(uint64_t now) {
  if (!queue_.empty()) start_waiting(now);
  bool busy_channel = false;
  for (int c = 0; c < channels_; ++c) {
    if (ch_[c].msg == kNoMessage || ch_[c].express) continue;
    inject(c, now);
    busy_channel = busy_channel || ch_[c].msg != kNoMessage;
  }
  if (busy_channel) return now + 1;
  bool idle_channel = false;
  for (int c = 0; c < channels_ && !idle_channel; ++c) idle_channel = ch_[c].msg == kNoMessage;
  if (!idle_channel) return kNever;
  uint64_t next = kNever;
  for (uint32_t msg : queue_)
    next = std::min(next, std::max(now + 1, ctx_->msgs[msg].release + ctx_->timing.startup));
  return next;
}

}  // namespace wormsim

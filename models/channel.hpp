// The two ends of a wormhole channel with credit-based flow control.
//
// The downstream end is an input virtual channel: a fixed-capacity FIFO of flits
// (buffer_flits deep) plus the state of the worm at its front (which output VC
// it holds). The upstream end is an output virtual channel: which worm holds it
// and how many free slots (credits) the downstream FIFO has. A credit comes back
// `credit_delay` cycles after the downstream flit leaves; the pending returns
// are kept in a small ring of timestamps so no per-cycle work is needed while
// the channel is idle.
#pragma once

#include <cstdint>

#include "models/flit.hpp"

namespace wormsim {

// Fixed-capacity ring buffer over storage owned by the router.
class FlitQueue {
 public:
  void bind(Flit* storage, uint16_t capacity) {
    buf_ = storage;
    cap_ = capacity;
  }
  bool empty() const { return count_ == 0; }
  uint16_t size() const { return count_; }
  uint16_t capacity() const { return cap_; }
  Flit& front() { return buf_[head_]; }
  const Flit& front() const { return buf_[head_]; }
  const Flit& at(uint16_t i) const { return buf_[wrap(head_ + i)]; }
  void push(const Flit& f) {
    buf_[wrap(head_ + count_)] = f;
    ++count_;
  }
  Flit pop() {
    Flit f = buf_[head_];
    head_ = static_cast<uint16_t>(wrap(head_ + 1));
    --count_;
    return f;
  }

 private:
  // Indices stay below 2 * cap_, so one compare replaces a division on every flit.
  uint32_t wrap(uint32_t i) const { return i >= cap_ ? i - cap_ : i; }

  Flit* buf_ = nullptr;
  uint16_t cap_ = 0, head_ = 0, count_ = 0;
};

// Credits of one output VC: `capacity` minus the flits sent whose slot has not
// been seen free yet.
class CreditCounter {
 public:
  void bind(uint64_t* ring, uint16_t capacity) {
    ring_ = ring;
    cap_ = capacity;
    credits_ = capacity;
  }
  // Credits usable at cycle `now` (collects the returns that have arrived).
  uint16_t available(uint64_t now) {
    while (pending_ && ring_[head_] <= now) {
      head_ = static_cast<uint16_t>(head_ + 1 == cap_ ? 0 : head_ + 1);
      --pending_;
      ++credits_;
    }
    return credits_;
  }
  void consume() { --credits_; }
  // A slot was freed downstream; the upstream sees it at cycle `when`.
  void give_back(uint64_t when) {
    const uint32_t i = static_cast<uint32_t>(head_) + pending_;
    ring_[i >= cap_ ? i - cap_ : i] = when;
    ++pending_;
  }
  // Slots the downstream FIFO may be holding (sent and not yet credited back).
  uint16_t outstanding() const { return static_cast<uint16_t>(cap_ - credits_); }
  // Slots that should hold flits downstream now: sent, and not freed (even by a credit still in flight).
  int occupied_downstream() const { return cap_ - credits_ - pending_; }
  uint16_t capacity() const { return cap_; }

 private:
  uint64_t* ring_ = nullptr;
  uint16_t cap_ = 0, head_ = 0, pending_ = 0, credits_ = 0;
};

}  // namespace wormsim

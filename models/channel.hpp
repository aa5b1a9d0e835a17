// A wormhole channel with credit-based flow control, kept in one place: the
// downstream input buffer.
//
// The buffer is a fixed-capacity FIFO of flits (buffer_flits deep). The sender
// may put a flit in only when it holds a credit, i.e. when it has seen a free
// slot; a slot freed at cycle t is seen by the sender at t + credit_delay.
//
// Rather than keep a credit counter at the sender and send credits back, the
// buffer remembers in each freed slot the cycle the sender will see it free. Slots
// are freed in FIFO order at non-decreasing cycles, and the next slot the sender
// fills (the tail) is the one freed longest ago, so the sender holds a credit
// exactly when the tail slot is free and its time has come; the buffer keeps a
// copy of that time. This is the same rule as a counter plus a ring of pending
// credits, with no state at the sender:
// a flit hop reads and writes only the downstream buffer, which it must touch
// anyway to deposit the flit, and never the upstream router's memory (in a big
// network a credit returned there is a cache miss per flit; docs/performance.md).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>

#include "models/flit.hpp"

namespace wormsim {

class FlitQueue {
 public:
  static constexpr uint64_t kNoCredit = std::numeric_limits<uint64_t>::max();

  // `storage` holds `capacity` flits, zeroed: every slot starts free and seen free.
  void bind(Flit* storage, uint16_t capacity) {
    buf_ = storage;
    cap_ = capacity;
    credit_at_ = buf_[0].ready;
    front_ready_ = kNoCredit;
  }
  bool empty() const { return count_ == 0; }
  uint16_t size() const { return count_; }
  uint16_t capacity() const { return cap_; }
  const Flit& front() const { return buf_[head_]; }
  // front().ready, kept here so that a router polling a waiting worm does not
  // read the buffer; kNoCredit (never ready) while the buffer is empty.
  uint64_t front_ready() const { return front_ready_; }
  // Ask for the lines the next take() and push() touch (a loop over many
  // queues spread over a big network waits on memory, not on its arithmetic).
  void prefetch_front() const { __builtin_prefetch(buf_ + head_); }
  void prefetch_tail() const { __builtin_prefetch(buf_ + tail_, 1); }
  const Flit& at(uint16_t i) const { return buf_[wrap(head_ + i)]; }

  // True when the sender holds a credit at cycle `now`: a free slot it has seen
  // freed. The sender reads only this object, not the slots.
  bool has_credit(uint64_t now) const { return credit_at_ <= now; }
  // The cycle from which the sender holds a credit; kNoCredit while the buffer is full.
  uint64_t credit_time() const { return credit_at_; }
  // Puts a flit in the tail slot; the sender must hold a credit (has_credit).
  // Field by field: a flit made in registers and copied as one 16-byte block
  // went through the stack in two halves and was read back whole, a load the
  // processor cannot forward from the two stores (docs/performance.md).
  void push(const Flit& f) {
    static_assert(sizeof(Flit) == 16, "a field added to Flit must be copied here too");
    Flit& slot = buf_[tail_];
    slot.ready = f.ready;
    slot.msg = f.msg;
    slot.hop = f.hop;
    slot.head = f.head;
    slot.tail = f.tail;
    if (count_ == 0) front_ready_ = f.ready;
    tail_ = static_cast<uint16_t>(wrap(tail_ + 1u));
    ++count_;
    credit_at_ = count_ < cap_ ? buf_[tail_].ready : kNoCredit;
  }
  // Takes the front flit out; its slot is seen free by the sender from cycle `seen_free_at`.
  Flit pop(uint64_t seen_free_at) {
    Flit& slot = buf_[head_];
    const Flit f = slot;
    slot.ready = seen_free_at;  // a free slot's `ready` is when the sender sees it free
    if (count_ == cap_) credit_at_ = seen_free_at;  // the slot just freed is the new tail
    head_ = static_cast<uint16_t>(wrap(head_ + 1u));
    --count_;
    front_ready_ = count_ > 0 ? buf_[head_].ready : kNoCredit;
    return f;
  }
  // Credits the sender holds at cycle `now`: free slots it has seen freed.
  int credits(uint64_t now) const { return cap_ - count_ - credits_in_flight(now); }
  // Free slots the sender has not seen freed yet at cycle `now` (credits in
  // flight). Free slots are seen free at non-decreasing cycles from the tail on
  // (consistent()), so those still in flight are the last ones: counted from
  // the end, usually none.
  int credits_in_flight(uint64_t now) const {
    int n = 0;
    for (uint32_t i = cap_; i > count_ && buf_[wrap(head_ + i - 1)].ready > now; --i) ++n;
    return n;
  }
  // --- Steady streaming (models/express_worms.hpp) ---------------------------
  // A queue that takes one flit in and sends one out every cycle, in a pattern
  // that repeats, is d cycles later in the state shift(d): every slot's content
  // d places further round the ring, every time d cycles later. `State` and a
  // copy of the slots (capacity() flits from slots()) make a snapshot.
  struct State {
    uint64_t credit_at, front_ready;
    uint16_t head, count, tail;
  };
  State state() const { return State{credit_at_, front_ready_, head_, count_, tail_}; }
  const Flit* slots() const { return buf_; }
  // True when this queue is exactly shift(d) of the snapshot (`s`, `slots`).
  bool is_shift_of(const State& s, const Flit* slots, uint64_t d) const {
    const uint32_t r = static_cast<uint32_t>(d % cap_);
    if (count_ != s.count || head_ != wrap(s.head + r) || tail_ != wrap(s.tail + r)) return false;
    if (credit_at_ != later(s.credit_at, d) || front_ready_ != later(s.front_ready, d)) return false;
    for (uint32_t i = 0; i < cap_; ++i) {
      const Flit& a = buf_[wrap(i + r)];
      const Flit& b = slots[i];
      if (a.ready != b.ready + d || a.msg != b.msg || a.hop != b.hop || a.head != b.head || a.tail != b.tail)
        return false;
    }
    return true;
  }
  // Moves this queue to shift(d) of its state.
  void shift(uint64_t d) {
    const uint32_t r = static_cast<uint32_t>(d % cap_);
    if (r) std::rotate(buf_, buf_ + (cap_ - r), buf_ + cap_);
    for (uint32_t i = 0; i < cap_; ++i) buf_[i].ready += d;
    head_ = static_cast<uint16_t>(wrap(head_ + r));
    tail_ = static_cast<uint16_t>(wrap(tail_ + r));
    credit_at_ = later(credit_at_, d);
    front_ready_ = later(front_ready_, d);
  }

  // Checks what has_credit relies on: free slots, from the tail on, are seen
  // free at non-decreasing cycles; and that the kept copies of the front's and
  // the tail's times agree with the slots.
  bool consistent() const {
    for (uint32_t i = count_ + 1; i < cap_; ++i)
      if (buf_[wrap(head_ + i)].ready < buf_[wrap(head_ + i - 1)].ready) return false;
    if (front_ready_ != (count_ > 0 ? buf_[head_].ready : kNoCredit)) return false;
    if (tail_ != wrap(head_ + count_)) return false;
    return credit_at_ == (count_ < cap_ ? buf_[wrap(head_ + count_)].ready : kNoCredit);
  }
  // Empty, and every slot seen free by the sender at cycle `now` (it holds all
  // its credits back): the buffer a worm has left, as its sender sees it. Read
  // from the slots' times, not the flit count, so that a router reading another
  // router's buffer sees the same whichever of the two steps first in a cycle.
  bool drained_by(uint64_t now) const { return count_ == 0 && all_credits_seen_by(now); }
  // For a consistent() queue: credits_in_flight(t) == 0, read from the free slot seen free last.
  bool all_credits_seen_by(uint64_t t) const { return count_ == cap_ || buf_[wrap(head_ + cap_ - 1u)].ready <= t; }
  // When the sender sees the free slot freed last (all_credits_seen_by from then on); kNoCredit while full.
  uint64_t last_credit_time() const { return count_ == cap_ ? kNoCredit : buf_[wrap(head_ + cap_ - 1u)].ready; }

 private:
  // Indices stay below 2 * cap_, so one compare replaces a division on every flit.
  uint32_t wrap(uint32_t i) const { return i >= cap_ ? i - cap_ : i; }
  static uint64_t later(uint64_t t, uint64_t d) { return t == kNoCredit ? t : t + d; }

  Flit* buf_ = nullptr;
  uint64_t credit_at_ = 0;    // when the sender sees the tail slot free; kNoCredit while full
  uint64_t front_ready_ = 0;  // front().ready; kNoCredit while empty
  uint16_t cap_ = 0, head_ = 0, count_ = 0;
  uint16_t tail_ = 0;  // the slot the next push fills: wrap(head_ + count_)
};

}  // namespace wormsim

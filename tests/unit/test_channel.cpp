// The credited FIFO (models/channel.hpp) keeps a channel's credits in the
// downstream buffer: a freed slot records when the sender sees it free. Checked
// against the textbook model it replaces (a credit counter at the sender plus a
// queue of credits in flight), on random traffic, and on the exact cycles.
#include <gtest/gtest.h>

#include <deque>
#include <random>
#include <vector>

#include "models/channel.hpp"

namespace wormsim {
namespace {

// Sender-side credit counter with credits travelling back for `delay` cycles.
class ReferenceCredits {
 public:
  explicit ReferenceCredits(int capacity) : credits_(capacity) {}
  bool has_credit(uint64_t now) {
    while (!in_flight_.empty() && in_flight_.front() <= now) {
      in_flight_.pop_front();
      ++credits_;
    }
    return credits_ > 0;
  }
  void send() { --credits_; }
  void freed(uint64_t seen_at) { in_flight_.push_back(seen_at); }
  int in_flight(uint64_t now) const {
    int n = 0;
    for (uint64_t t : in_flight_) n += t > now;
    return n;
  }

 private:
  int credits_;
  std::deque<uint64_t> in_flight_;
};

struct Buffer {
  std::vector<Flit> slots;
  FlitQueue q;
  explicit Buffer(uint16_t cap) : slots(cap) { q.bind(slots.data(), cap); }
};

TEST(FlitQueue, CreditsMatchASenderSideCounterOnRandomTraffic) {
  std::mt19937 rng(7);
  for (uint16_t cap = 1; cap <= 9; ++cap) {
    for (int delay = 1; delay <= 5; ++delay) {
      Buffer b(cap);
      ReferenceCredits ref(cap);
      std::deque<uint32_t> expected;  // flit ids in the buffer, in order
      uint32_t next_id = 0;
      for (uint64_t now = 0; now < 3000; ++now) {
        // The receiver drains first (as a downstream router stepped earlier in the cycle might)...
        if (!b.q.empty() && rng() % 3 != 0) {
          const Flit f = b.q.pop(now + delay);
          ASSERT_EQ(f.msg, expected.front());
          expected.pop_front();
          ref.freed(now + delay);
        }
        // ...then the sender sends whenever it holds a credit, most of the time.
        const bool credit = b.q.has_credit(now);
        ASSERT_EQ(credit, ref.has_credit(now)) << "cap " << cap << " delay " << delay << " cycle " << now;
        if (credit && rng() % 4 != 0) {
          Flit f;
          f.msg = next_id;
          f.ready = now + 2;
          expected.push_back(next_id++);
          b.q.push(f);
          ref.send();
        }
        ASSERT_EQ(b.q.size(), expected.size());
        ASSERT_EQ(b.q.credits_in_flight(now), ref.in_flight(now));
        ASSERT_TRUE(b.q.consistent());
        for (uint64_t t = now; t <= now + delay; ++t)  // the checked build's O(1) form of the same question
          ASSERT_EQ(b.q.all_credits_seen_by(t), b.q.credits_in_flight(t) == 0) << "cycle " << now << " asked at " << t;
        if (!b.q.empty()) {
          ASSERT_EQ(b.q.front_ready(), b.q.front().ready);
        }
      }
      EXPECT_GT(next_id, 200u) << "the run must exercise the buffer";
    }
  }
}

TEST(FlitQueue, AFreedSlotIsSeenExactlyCreditDelayLater) {
  Buffer b(2);
  Flit f;
  EXPECT_TRUE(b.q.has_credit(0)) << "a fresh buffer is all credits";
  b.q.push(f);
  b.q.push(f);
  EXPECT_FALSE(b.q.has_credit(0)) << "full";
  b.q.pop(10 + 3);  // freed at cycle 10 with a 3-cycle credit delay
  EXPECT_FALSE(b.q.has_credit(10));
  EXPECT_FALSE(b.q.has_credit(12));
  EXPECT_EQ(b.q.credits_in_flight(12), 1);
  EXPECT_TRUE(b.q.has_credit(13));
  EXPECT_EQ(b.q.credits_in_flight(13), 0);
}

TEST(FlitQueue, TheOldestFreedSlotGivesTheCredit) {
  // Two slots freed at cycles 5 and 6 (delay 1): one credit from 6, two from 7.
  Buffer b(3);
  Flit f;
  for (int i = 0; i < 3; ++i) b.q.push(f);
  b.q.pop(6);
  b.q.pop(7);
  EXPECT_FALSE(b.q.has_credit(5));
  EXPECT_TRUE(b.q.has_credit(6));
  b.q.push(f);  // uses the slot seen free at 6
  EXPECT_FALSE(b.q.has_credit(6)) << "the other slot is not seen free before 7";
  EXPECT_TRUE(b.q.has_credit(7));
}

TEST(FlitQueue, KeepsFifoOrderAcrossWraparound) {
  Buffer b(3);
  uint32_t in = 0, out = 0;
  for (uint64_t now = 0; now < 50; ++now) {
    while (b.q.has_credit(now)) {
      Flit f;
      f.msg = in++;
      b.q.push(f);
    }
    EXPECT_EQ(b.q.size(), 3);
    EXPECT_EQ(b.q.at(2).msg, in - 1);
    EXPECT_EQ(b.q.pop(now + 1).msg, out++);
    EXPECT_EQ(b.q.pop(now + 1).msg, out++);
  }
  EXPECT_EQ(in, out + 1);
}

// push() copies a flit field by field (models/channel.hpp): every field comes
// back out of pop() as it went in, whatever its value.
TEST(FlitQueue, PushKeepsEveryFieldOfAFlit) {
  Buffer b(2);
  Flit f;
  f.ready = 0x0123456789abcdefULL;
  f.msg = 0xfedcba98u;
  f.hop = 0xbeef;
  f.head = 1;
  f.tail = 0xff;
  Flit g;
  g.ready = 7;
  g.msg = 1;
  g.head = 0;
  g.tail = 1;
  b.q.push(f);
  b.q.push(g);
  EXPECT_EQ(b.q.front_ready(), f.ready);
  const Flit a = b.q.pop(1);
  EXPECT_EQ(a.ready, f.ready);
  EXPECT_EQ(a.msg, f.msg);
  EXPECT_EQ(a.hop, f.hop);
  EXPECT_EQ(a.head, f.head);
  EXPECT_EQ(a.tail, f.tail);
  const Flit c = b.q.pop(2);
  EXPECT_EQ(c.ready, g.ready);
  EXPECT_EQ(c.msg, g.msg);
  EXPECT_EQ(c.hop, 0);
  EXPECT_EQ(c.head, 0);
  EXPECT_EQ(c.tail, 1);
}

// One cycle of a stream through `b`: the front leaves if it is ready (unless
// `stall`), and a body flit of worm 9, ready a cycle later, comes in on a credit.
void stream_cycle(Buffer& b, uint64_t now, int credit_delay, bool stall = false) {
  if (!stall && b.q.front_ready() <= now) b.q.pop(now + credit_delay);
  if (!b.q.has_credit(now)) return;
  Flit f;
  f.ready = now + 1;
  f.msg = 9;
  b.q.push(f);
}

// A queue in steady streaming (one body flit in and one out per cycle) is,
// d cycles later, shift(d) of its state now; shift(d) done in place gives the
// same queue as d cycles of streaming (models/express_worms.hpp relies on both).
TEST(FlitQueue, SteadyStreamingIsAShift) {
  for (uint16_t cap = 2; cap <= 7; ++cap) {
    for (int delay = 1; delay + 1 <= cap; ++delay) {  // the buffer covers the round trip: one flit per cycle
      SCOPED_TRACE("capacity " + std::to_string(cap) + ", credit delay " + std::to_string(delay));
      Buffer live(cap);
      uint64_t now = 0;
      for (; now < 3u * cap; ++now) stream_cycle(live, now, delay);  // every slot has cycled
      const FlitQueue::State s = live.q.state();
      const std::vector<Flit> slots(live.q.slots(), live.q.slots() + cap);
      EXPECT_TRUE(live.q.is_shift_of(s, slots.data(), 0));
      for (uint64_t d = 1; d <= 2u * cap + 3; ++d) {
        stream_cycle(live, now++, delay);
        ASSERT_TRUE(live.q.is_shift_of(s, slots.data(), d)) << "after " << d << " cycles";
        EXPECT_FALSE(live.q.is_shift_of(s, slots.data(), d + 1));
      }
    }
  }
}

// shift(d) on a copy of the snapshot reaches exactly the live queue; a queue
// whose stream stalled for a cycle is no shift of its snapshot.
TEST(FlitQueue, ShiftInPlaceMatchesStreamingAndDetectsAStall) {
  const uint16_t cap = 5;
  const int delay = 2;
  Buffer live(cap), copy(cap);
  auto cycle = [&](Buffer& b, uint64_t now, bool stall) { stream_cycle(b, now, delay, stall); };
  uint64_t now = 0;
  for (; now < 20; ++now) {
    cycle(live, now, false);
    cycle(copy, now, false);
  }
  const FlitQueue::State s = copy.q.state();
  const std::vector<Flit> slots(copy.slots);
  for (uint64_t d = 1; d <= 13; ++d) cycle(live, now++, false);
  copy.q.shift(13);
  EXPECT_TRUE(live.q.is_shift_of(copy.q.state(), copy.slots.data(), 0));
  EXPECT_TRUE(copy.q.is_shift_of(s, slots.data(), 13));
  EXPECT_TRUE(copy.q.consistent());
  // Both go on streaming in lockstep.
  for (int i = 0; i < 7; ++i, ++now) {
    cycle(live, now, false);
    cycle(copy, now, false);
    EXPECT_TRUE(live.q.is_shift_of(copy.q.state(), copy.slots.data(), 0));
  }
  const FlitQueue::State before = live.q.state();
  const std::vector<Flit> before_slots(live.slots);
  cycle(live, now++, true);  // the front does not leave this cycle
  EXPECT_FALSE(live.q.is_shift_of(before, before_slots.data(), 1));
}

}  // namespace
}  // namespace wormsim

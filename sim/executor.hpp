// Runs a schedule on a network: decides when each message is released.
//   barrier: every message of step s+1 is released in the cycle the last tail of
//            step s is ejected (step 0 at cycle 0; empty steps take no time).
//   eager:   a message is released as soon as its sender holds its packet and
//            the sender's earlier sends, in schedule order, have left the
//            injection channel it needs (the port model decides which).
// A node holds a packet from the cycle the tail of a message carrying it is
// ejected there (or from the start if it is the packet's origin); a multicast
// message's worms (docs/multicast.md) hand it to each destination as their
// copy's tail is ejected there, and each worm is a message of its own.
//
// A schedule can run as several repetitions (schedule.repeat; the timing is
// sim/repetitions.hpp's): each repetition's messages are new messages, so that
// each has its own record, and step s of repetition r is step r * S + s of the
// run (S steps per repetition): a worm meeting one of another repetition counts
// as depth contention, as for any other step. begin_repetition() starts the
// next one from scratch (every packet back at its origin).
//
// Streamed (`recycled`), a message's record is made only once its sender may
// send it (it holds the packet, or its step begins) or a message a little
// before it in id order needs its own, and the records whose messages are
// delivered, every earlier one included, are handed to take_retirable() in id
// order, so that the table holds only the messages under way
// (sim/schedule_retirement.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/sim_context.hpp"
#include "models/traffic_source.hpp"
#include "schedules/schedule.hpp"
#include "sim/held_packets.hpp"

namespace wormsim {

enum class ExecutionMode { Barrier, Eager };
bool parse_execution_mode(const std::string& text, ExecutionMode& out);
std::string to_string(ExecutionMode m);

class ScheduleExecutor : public TrafficSource {
 public:
  // Registers every message of every repetition with the network (message ids
  // follow schedule order: repetition by repetition, step by step, message by
  // message). With `recycled`, only the ids are set aside: a message's record
  // is added when it may be sent, and handed to take_retirable() once it and
  // every earlier message are delivered. Not for multicast messages.
  ScheduleExecutor(const Schedule& schedule, Network& net, ExecutionMode mode, uint32_t repetitions = 1,
                   bool recycled = false);

  // Starts the first repetition.
  void start(Network& net, uint64_t now) override { begin_repetition(net, now); }
  void after_routers(Network& net, uint64_t now) override;
  void after_interfaces(Network& net, uint64_t now) override;
  bool finished() const override { return released_ == total_; }

  // Releases what the next repetition releases at its start (the first step, or
  // every eager send whose packet is at its origin).
  void begin_repetition(Network& net, uint64_t now);
  // Every message of the repetition begun last has been delivered.
  bool repetition_done() const { return delivered_ == repetition_ * per_repetition_; }
  uint32_t messages_per_repetition() const { return per_repetition_; }
  uint32_t steps_per_repetition() const { return static_cast<uint32_t>(steps_); }
  uint32_t repetitions_begun() const { return repetition_; }
  // Eager mode: since when the send held back longest has waited (its packet
  // at its sender, whose interface still holds a message); kNever if none waits.
  uint64_t oldest_held_back() const;

  // The index of the message with id `id` within its step (`step`, the run's).
  int64_t index_in_step(uint64_t id, int step) const {
    return static_cast<int64_t>(id - step_first(static_cast<size_t>(step)));
  }
  // The id of the first message of step `step` (the run's); step_first(step + 1) ends the step.
  uint64_t step_first(size_t step) const {
    return steps_ ? step / steps_ * per_repetition_ + step_first_[step % steps_] : 0;
  }
  // Recycled: the messages with ids below this one were handed to take_retirable.
  uint64_t handed_over() const { return retire_next_; }
  // The packet the message with id `id` carries.
  int packet_of(uint64_t id) const {
    return packet_[static_cast<size_t>(id < per_repetition_ ? id : id % per_repetition_)];
  }
  // The slots of repetition `r`'s messages in the network's table, in id
  // order: recycled, those of the repetition begun last not yet handed to
  // take_retirable (none for the others).
  std::vector<uint32_t> slots_of(uint32_t r) const;

  // Recycled: the slots, in id order, of the messages delivered since the last
  // call with every message before them. Their records are the caller's to retire.
  std::vector<uint32_t> take_retirable() { return std::move(retirable_); }
  size_t retirable() const { return retirable_.size(); }
  // Recycled, after the run: adds the records of the messages of the
  // repetition begun last that have none yet, without releasing them, so that
  // the table lists every message of the begun repetitions not retired.
  void add_unmade(Network& net);
  // Recycled: adds the messages of repetition `r`, which never began, without
  // releasing them; returns their slots in id order.
  std::vector<uint32_t> add_unreleased(Network& net, uint32_t r);

 private:
  // Registers the next message id (total_), of scheduled message `m` in repetition `repetition`.
  [[gnu::always_inline]] void add_send(const ScheduledMessage& m, uint32_t repetition) {
    if (repetition == 0) {
      packet_.push_back(m.packet);
      sender_.push_back(static_cast<uint32_t>(m.src));
    }
    ++total_;
  }
  // Adds the messages of repetition `r`, with their reserved ids; returns their slots.
  std::vector<uint32_t> add_repetition(Network& net, uint32_t r);
  // Adds the records of the current repetition's messages from made_end_ up to
  // `upto` (an id), and kMakeAhead more: in id order, a run at a time, which
  // reads the schedule in order.
  void make_records(Network& net, uint32_t upto);
  // The table slot of the current repetition's message `id`, its record added if it has none yet.
  uint32_t made_slot(Network& net, uint32_t id) {
    if (!recycled_) return id;
    if (id >= made_end_) make_records(net, id + 1);
    return slots_[id - base_];
  }
  // Recycled: hands the delivered messages from retire_next_ on, up to the first one not delivered, to retirable_.
  void collect_retirable(const SimContext& ctx);
  // Whether the message in table slot `slot` is the schedule's (other traffic
  // sources' messages have no step; without recycling they come after ours).
  bool is_mine(const SimContext& ctx, uint32_t slot) const {
    return recycled_ ? ctx.msgs[slot].step >= 0 : slot < total_;
  }
  void release_barrier_step(Network& net, uint64_t now);
  void try_release(Network& net, int node, uint64_t when);
  // Tries come in batches (the deliveries and the tails that left a channel in
  // a cycle): on a big network (Network::prefetches_events) a try misses the
  // cache at the node's next send, then the send, then its message and the
  // node's interface, so a batch's loads are started before its tries.
  void prefetch_tries(const Network& net, const int* nodes, size_t n) const;
  // Releases a message, logging step starts (debug) and the message (trace).
  void release(Network& net, uint32_t id, uint64_t when);
  // Logs a delivery (trace) and the step it completes (debug).
  void note_delivery(const Network& net, uint32_t slot, uint64_t now);
  bool holds(int node, int packet) const { return held_.holds(node, packet); }
  void give(int node, int packet) { held_.give(node, packet); }

  const Schedule& schedule_;
  ExecutionMode mode_;
  bool recycled_;
  int num_nodes_;
  bool log_steps_, log_worms_;  // --log-level debug / trace, read once
  std::vector<uint32_t> step_released_, step_delivered_;  // per step of the run, with --log-level debug only
  uint32_t total_ = 0, released_ = 0, delivered_ = 0;  // over all repetitions
  uint32_t per_repetition_ = 0;
  uint32_t repetition_ = 0;  // repetitions begun
  size_t steps_ = 0;         // per repetition
  std::vector<uint32_t> step_first_;  // per step of a repetition, and its end: step_first()
  std::vector<int> packet_;   // per message of a repetition
  std::vector<int> origins_;  // per packet of the schedule: its origin node, or -1
  // recycled
  static constexpr uint32_t kMakeAhead = 4096;
  std::vector<uint32_t> slots_;          // the current repetition's, by message, those below made_end_ made
  uint32_t made_end_ = 0;                // id of the first message of the current repetition without a record
  size_t made_step_ = 0;                 // its step within the repetition
  uint32_t retire_next_ = 0;             // id of the first message not handed to retirable_
  std::vector<uint32_t> retirable_;      // delivered, handed over in id order, and not yet taken
  // barrier
  size_t step_ = 0, rep_end_step_ = 0;  // the next step to release; the end of the repetition's steps
  uint32_t outstanding_ = 0;
  // eager: each node's sends, in schedule order, are sends_[first_send_[node],
  // first_send_[node + 1]): one array, not a vector per node, and what a try
  // reads side by side, since a 2M-node broadcast's tries each miss the cache
  struct Send {
    uint32_t id;     // in the first repetition
    int32_t packet;  // the packet it carries
  };
  struct NextSend {
    uint32_t next, end;  // the node's next send and the end of its sends, indices into sends_
  };
  void index_sends();
  void restart_sends();  // every node at its first send
  std::vector<uint32_t> sender_;  // per message of a repetition, while the sends are indexed
  std::vector<uint32_t> first_send_;
  std::vector<Send> sends_;
  std::vector<NextSend> next_send_;  // per node
  std::vector<uint64_t> held_back_since_;  // per node: since when its next send, due, has been held back (kNever: not)
  std::vector<int> origin_nodes_;    // the nodes that hold a packet as a repetition begins, ascending
  uint32_t base_ = 0;                // id of the current repetition's first message
  HeldPackets held_;
};

}  // namespace wormsim

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
#pragma once

#include <cstdint>
#include <string>
#include <vector>

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
  // follow schedule order: repetition by repetition, step by step, message by message).
  ScheduleExecutor(const Schedule& schedule, Network& net, ExecutionMode mode, uint32_t repetitions = 1);

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

  // Id of the first message of each step (plus one past the last).
  const std::vector<uint32_t>& step_offsets() const { return step_first_; }
  const std::vector<int>& message_packets() const { return packet_; }

 private:
  // Registers message `id`, of scheduled message `m` in repetition `repetition`.
  [[gnu::always_inline]] void add_send(uint32_t id, const ScheduledMessage& m, uint32_t repetition) {
    packet_.push_back(m.packet);
    if (repetition == 0) sends_[m.src].push_back(id);
    ++total_;
  }
  void release_barrier_step(Network& net, uint64_t now);
  void try_release(Network& net, int node, uint64_t when);
  // Releases a message, logging step starts (debug) and the message (trace).
  void release(Network& net, uint32_t id, uint64_t when);
  // Logs a delivery (trace) and the step it completes (debug).
  void note_delivery(const Network& net, uint32_t id, uint64_t now);
  bool holds(int node, int packet) const { return held_.holds(node, packet); }
  void give(int node, int packet) { held_.give(node, packet); }

  ExecutionMode mode_;
  int num_nodes_;
  bool log_steps_, log_worms_;  // --log-level debug / trace, read once
  std::vector<uint32_t> step_released_, step_delivered_;
  uint32_t total_ = 0, released_ = 0, delivered_ = 0;  // over all repetitions
  uint32_t per_repetition_ = 0;
  uint32_t repetition_ = 0;  // repetitions begun
  size_t steps_ = 0;         // per repetition
  std::vector<uint32_t> step_first_;
  std::vector<int> packet_;  // per message
  std::vector<int> origins_;  // per packet of the schedule: its origin node, or -1
  // barrier
  size_t step_ = 0, rep_end_step_ = 0;  // the next step to release; the end of the repetition's steps
  uint32_t outstanding_ = 0;
  // eager
  std::vector<std::vector<uint32_t>> sends_;  // per node, in schedule order: ids of the first repetition
  uint32_t base_ = 0;                         // id of the current repetition's first message
  std::vector<size_t> next_send_;
  HeldPackets held_;
};

}  // namespace wormsim

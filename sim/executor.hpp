// Runs a schedule on a network: decides when each message is released.
//   barrier: every message of step s+1 is released in the cycle the last tail of
//            step s is ejected (step 0 at cycle 0; empty steps take no time).
//   eager:   a message is released as soon as its sender holds its packet and
//            the sender's earlier sends, in schedule order, have left the
//            injection channel it needs (the port model decides which).
// A node holds a packet from the cycle the tail of a message carrying it is
// ejected there (or from the start if it is the packet's origin).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

#include "models/network.hpp"
#include "models/traffic_source.hpp"
#include "schedules/schedule.hpp"

namespace wormsim {

enum class ExecutionMode { Barrier, Eager };
bool parse_execution_mode(const std::string& text, ExecutionMode& out);
std::string to_string(ExecutionMode m);

class ScheduleExecutor : public TrafficSource {
 public:
  // Registers every message of the schedule with the network (message ids
  // follow schedule order: step by step, message by message).
  ScheduleExecutor(const Schedule& schedule, Network& net, ExecutionMode mode);

  void start(Network& net, uint64_t now) override;
  void after_routers(Network& net, uint64_t now) override;
  void after_interfaces(Network& net, uint64_t now) override;
  bool finished() const override { return released_ == total_; }

  // Id of the first message of each step (plus one past the last).
  const std::vector<uint32_t>& step_offsets() const { return step_first_; }
  const std::vector<int>& message_packets() const { return packet_; }

 private:
  void release_barrier_step(Network& net, uint64_t now);
  void try_release(Network& net, int node, uint64_t when);
  // Releases a message, logging step starts (debug) and the message (trace).
  void release(Network& net, uint32_t id, uint64_t when);
  // Logs a delivery (trace) and the step it completes (debug).
  void note_delivery(const Network& net, uint32_t id, uint64_t now);
  bool holds(int node, int packet) const;
  void give(int node, int packet);

  ExecutionMode mode_;
  int num_nodes_;
  bool log_steps_, log_worms_;  // --log-level debug / trace, read once
  std::vector<uint32_t> step_released_, step_delivered_;
  uint32_t total_ = 0, released_ = 0;
  std::vector<uint32_t> step_first_;
  std::vector<int> packet_;  // per message
  // barrier
  size_t step_ = 0;
  uint32_t outstanding_ = 0;
  // eager
  std::vector<std::vector<uint32_t>> sends_;  // per node, in schedule order
  std::vector<size_t> next_send_;
  std::unordered_set<uint64_t> held_;         // packet * nodes + node
};

}  // namespace wormsim

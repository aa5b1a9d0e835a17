// The in-memory form of a step-indexed communication schedule (see
// docs/schedule-format.md). Loaders, generators, the validator and the
// simulator's executor all speak this type.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/topology.hpp"

namespace wormsim {

// A multicast message's destinations, in the schedule's order, and the scheme
// that carries it (models/multicast/registry.hpp).
struct MulticastTarget {
  std::vector<int> dsts;
  std::string scheme;
};

struct ScheduledMessage {
  int src = -1;
  int dst = -1;             // unicast destination; -1 for a multicast message
  int packet = -1;          // index into Schedule::packets
  int flits = 0;            // 0: the schedule's default length
  std::vector<int> route;   // explicit route as nodes (src first, dst last); empty: routing decides
  // Multicast messages only (docs/multicast.md): held apart, shared and
  // immutable, so that a unicast message, of which a schedule may hold
  // millions, pays one pointer for it.
  std::shared_ptr<const MulticastTarget> multicast_target;

  bool is_multicast() const { return multicast_target != nullptr; }
  // Its destinations (none for a unicast message) and its scheme ("" for a unicast message).
  const std::vector<int>& dsts() const { return multicast_target ? multicast_target->dsts : kNoDsts; }
  const std::string& scheme() const { return multicast_target ? multicast_target->scheme : kNoScheme; }
  void set_multicast(std::string scheme, std::vector<int> dsts) {
    multicast_target = std::make_shared<const MulticastTarget>(MulticastTarget{std::move(dsts), std::move(scheme)});
  }

 private:
  static inline const std::vector<int> kNoDsts{};
  static inline const std::string kNoScheme{};
};

struct Packet {
  std::string name;
  int origin = -1;  // the node that holds it before step 0
};

struct Schedule {
  std::string name;
  std::string algorithm;    // generator name, or empty for hand-written schedules
  TopologySpec topology;
  int flits = 16;           // default message length in flits
  bool broadcast = false;   // one packet from `source` must reach every other node exactly once
  int source = -1;          // broadcast source
  std::vector<Packet> packets;
  std::vector<std::vector<ScheduledMessage>> steps;

  // Adds a packet and returns its index.
  int add_packet(std::string packet_name, int origin);
  // Index of a packet by name, or -1.
  int find_packet(const std::string& packet_name) const;
  size_t num_messages() const;
  bool has_multicast() const;
  int message_flits(const ScheduledMessage& m) const { return m.flits > 0 ? m.flits : flits; }
};

// A broadcast schedule skeleton: one packet named "0" held by `source`.
Schedule make_broadcast_schedule(const TopologySpec& topo, int source, int flits, std::string name,
                                 std::string algorithm);

}  // namespace wormsim

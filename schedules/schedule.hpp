// The in-memory form of a step-indexed communication schedule (see
// docs/schedule-format.md). Loaders, generators, the validator and the
// simulator's executor all speak this type.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/topology.hpp"

namespace wormsim {

// What few messages have: an explicit route, or multicast destinations and
// the scheme that carries them (models/multicast/registry.hpp).
struct MessageExtras {
  std::vector<int> route;  // explicit route as nodes (src first, dst last); empty: routing decides
  bool multicast = false;
  std::vector<int> dsts;   // multicast: its destinations, in the schedule's order
  std::string scheme;      // multicast: its scheme
};

struct ScheduledMessage {
  int src = -1;
  int dst = -1;             // unicast destination; -1 for a multicast message
  int packet = -1;          // index into Schedule::packets
  int flits = 0;            // 0: the schedule's default length
  // Held apart, shared and immutable (set through set_route and
  // set_multicast), so that a plain unicast message, of which a schedule may
  // hold millions, pays one pointer for them (docs/performance.md, "Memory").
  std::shared_ptr<const MessageExtras> extras;

  // Its explicit route as nodes (src first, dst last); empty: routing decides.
  const std::vector<int>& route() const { return extras ? extras->route : kNone; }
  bool is_multicast() const { return extras && extras->multicast; }
  // Its destinations (none for a unicast message) and its scheme ("" for a unicast message) (docs/multicast.md).
  const std::vector<int>& dsts() const { return extras ? extras->dsts : kNone; }
  const std::string& scheme() const { return extras ? extras->scheme : kNoScheme; }
  void set_route(std::vector<int> nodes) {
    MessageExtras e = extras ? *extras : MessageExtras{};
    e.route = std::move(nodes);
    extras = std::make_shared<const MessageExtras>(std::move(e));
  }
  void set_multicast(std::string scheme, std::vector<int> dsts) {
    MessageExtras e = extras ? *extras : MessageExtras{};
    e.multicast = true;
    e.dsts = std::move(dsts);
    e.scheme = std::move(scheme);
    extras = std::make_shared<const MessageExtras>(std::move(e));
  }

 private:
  static inline const std::vector<int> kNone{};
  static inline const std::string kNoScheme{};
};
static_assert(sizeof(ScheduledMessage) == 32, "a schedule may hold millions of messages: keep them small");

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
  // The sum over the steps of each step's longest message, in flits: how long
  // the schedule's worms can keep a channel busy, one step after another.
  uint64_t flit_span() const;
};

// A broadcast schedule skeleton: one packet named "0" held by `source`.
Schedule make_broadcast_schedule(const TopologySpec& topo, int source, int flits, std::string name,
                                 std::string algorithm);

}  // namespace wormsim

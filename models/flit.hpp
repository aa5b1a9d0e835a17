// A flit as it sits in a buffer: 16 bytes, no pointers, copied by value.
#pragma once

#include <cstdint>

namespace wormsim {

struct Flit {
  // First cycle it may leave the router it is in. In a free buffer slot: the
  // cycle the sender sees the slot free (models/channel.hpp).
  uint64_t ready = 0;
  uint32_t msg = 0;    // message (worm) it belongs to
  uint16_t hop = 0;    // head only: index of the hop it takes next (== hops: eject)
  uint8_t head = 0;
  uint8_t tail = 0;
};
static_assert(sizeof(Flit) == 16, "flits stay small: they are copied on every hop");

// Where a worm's buffered flits are, in short: any flit that moves gets a new
// ready cycle, so the sum changes (Network::lasting_wait_cycle).
struct FlitTrace {
  uint32_t flits = 0;
  uint64_t ready_sum = 0;
  bool operator==(const FlitTrace& o) const { return flits == o.flits && ready_sum == o.ready_sum; }
};

// One hop of a message's route: the output port to take and the dateline VC
// class. A hop an adaptive routing function chooses in the router starts as
// port kChosenInRouter; the router writes the port and VC it took (vc_class is
// then that VC) when the header gets its output.
constexpr uint16_t kChosenInRouter = 0xffff;
struct RouteHop {
  uint16_t port = 0;
  uint8_t vc_class = 0;
  uint8_t more = 0;  // multidestination worms only: another branch of the same visit follows
};
static_assert(sizeof(RouteHop) == 4, "one route entry per hop of every message: keep it small");

// A multidestination worm's route (models/multicast/multicast_route.hpp) is a
// tree of visits, one per router it enters: a visit is a run of entries, one
// per branch (the last has more == 0). A branch is a link port with its VC
// class, or kEjectBranch, which ejects a copy to the router's endpoint whose
// local index is vc_class. A head copy's hop is the index of its visit.
constexpr uint16_t kEjectBranch = 0xfffe;

}  // namespace wormsim

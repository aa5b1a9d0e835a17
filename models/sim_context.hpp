// State shared by every module of one simulated network: the message table
// (routes, timestamps, stall counters), per-link counters, the lists of active
// routers and interfaces, and the events of the current cycle. Routers and
// network interfaces hold a pointer to it instead of calling each other through
// callbacks, so the per-flit path has no virtual calls.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <vector>

#include "models/buffer_counters.hpp"
#include "models/flit.hpp"
#include "models/port_model.hpp"
#include "models/routing/routing_function.hpp"
#include "models/timing.hpp"

namespace wormsim {

class Router;
class NetworkInterface;
class ExpressWorms;

constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();
constexpr uint32_t kNoMessage = std::numeric_limits<uint32_t>::max();

// Runtime record of one message (worm).
struct MessageRecord {
  // Static
  int32_t src = -1, dst = -1;
  int32_t step = -1;           // schedule step; -1 for background traffic
  uint32_t flits = 1;
  uint32_t route_begin = 0;    // first hop in SimContext::hops
  uint16_t hops = 0;           // route length; multicast: the links of its tree
  int8_t inj_channel = -1;     // all-port: the channel of the first hop
  uint8_t multicast = 0;       // a multidestination worm: dst is its last destination; the rest in SimContext::copies
  // Timestamps (kNever until they happen)
  uint64_t release = kNever;         // handed to the sender's interface
  uint64_t inject = kNever;          // header entered the source router
  uint64_t header_arrival = kNever;  // header ejected at the destination (multicast: its first copy)
  uint64_t delivered = kNever;       // tail ejected at the destination (multicast: its last copy)
  // Cycles the header waited (see docs/metrics.md)
  uint64_t stall_step = 0;     // behind a worm of the same step
  uint64_t stall_depth = 0;    // behind a worm of another step
  uint64_t stall_background = 0;  // behind background traffic

  // A slot freed by Network::recycle, waiting for its next message.
  bool free() const { return src < 0; }
};

// The copies of a multidestination worm: one per destination, each with the
// cycles its header and its tail were ejected there.
struct MulticastCopies {
  uint32_t msg = 0;
  std::vector<int32_t> dsts;      // destination endpoints, in the worm's order
  std::vector<uint32_t> by_endpoint_order;  // indices into dsts, sorted by endpoint (lookup at ejection)
  std::vector<uint64_t> header, tail;       // per destination (kNever until it happens)
  std::vector<int32_t> depth;     // per destination: links from the source to it along the worm's tree
  uint32_t entries = 0;           // its route's entries in SimContext::hops (MessageRecord::hops counts links)
  int32_t max_depth = 0;          // the deepest destination's depth: the H of the worm's zero-load latency
  uint32_t left = 0;              // tails still to eject
  uint64_t absorb_stalls = 0;     // cycles its ready head waited for an ejection channel
  uint64_t branch_stalls = 0;     // cycles its ready head waited for a link branch (VC or credit) or the switch
  // Position of `endpoint` in dsts (it is one of them).
  size_t index_of(int32_t endpoint) const {
    const auto it = std::lower_bound(by_endpoint_order.begin(), by_endpoint_order.end(), endpoint,
                                     [this](uint32_t i, int32_t e) { return dsts[i] < e; });
    return *it;
  }
};
struct CopyDelivered {
  uint32_t msg;
  int32_t dst;
};

// One worm holding one channel, for timeline traces: from the cycle its header
// reserved the channel to the cycle after its tail left it.
struct ChannelUse {
  int32_t node = 0;  // the router whose channel it is (not an endpoint)
  int16_t port = 0;  // output link port; kInjectionPort - k: injection channel k; ports >= link ports: ejection
  int16_t vc = 0;
  uint32_t msg = 0;
  uint64_t from = 0, to = 0;
};
constexpr int16_t kInjectionPort = -1;

// Per-cycle working arrays of a router step; one set serves every router because
// routers are stepped one after the other. Sized for the largest router.
struct RouterScratch {
  std::vector<int> offer;          // per input port: offered input VC or -1 (set for occupied ports)
  std::vector<uint64_t> requests;  // per output port: mask of input ports requesting it (zero between steps)
  std::vector<uint32_t> granted;   // per output port: worm granted this cycle (valid for requested_outs)
  uint64_t requested_outs = 0;     // mask of output ports requested this cycle
  // An input port moves at most one flit per cycle: which VC and which worm.
  uint64_t moved_ports = 0;        // mask of input ports that moved a flit this cycle
  std::vector<int> moved_vc;       // per input port, valid for moved_ports
  std::vector<uint32_t> moved_msg; // per input port, valid for moved_ports
  void reserve(int in_ports, int out_ports) {
    offer.assign(in_ports, -1);
    requests.assign(out_ports, 0);
    granted.assign(out_ports, kNoMessage);
    moved_vc.assign(in_ports, -1);
    moved_msg.assign(in_ports, kNoMessage);
  }
  bool moved(int in_port, int in_vc) const {
    return (moved_ports >> in_port & 1) && moved_vc[in_port] == in_vc;
  }
};

struct SimContext {
  Timing timing;
  PortModel ports;
  int vcs = 1;
  int buffer_flits = 4;
  bool dateline_classes = false;  // torus with >= 2 VCs: VC v serves class v % 2
  bool fast_paths = true;         // streaming shortcut and express worms allowed (same results, less work)
  bool express = false;           // worms whose header has left go to the express loop (models/express_worms.hpp)
  ExpressWorms* express_loop = nullptr;  // the network's, for routers that hand a stage back to themselves
  // The routing function; the router asks it only for hops marked kChosenInRouter (adaptive functions).
  const RoutingFunction* routing = nullptr;
  bool adaptive_routing = false;
  bool adaptive_empty_vcs = false;  // routing->needs_empty_vcs(): adaptive hops take VCs with an empty downstream buffer
  std::vector<RouteOutput> route_outputs;  // scratch for the router's questions to `routing`

  RouterScratch scratch;
  std::vector<ChannelUse>* channel_trace = nullptr;  // set when a timeline trace is requested
  std::vector<RouteHop> hops;
  // Multidestination worms (models/multicast/): per entry of their routes in
  // `hops`, the visit a branch's head copy goes to (index in its route); sized
  // to cover the last multidestination worm's route, empty without one.
  std::vector<uint16_t> hop_next;
  std::vector<MulticastCopies> copies;           // one per multidestination worm
  std::unordered_map<uint32_t, uint32_t> copies_of;  // message -> index in copies
  MulticastCopies& copies_of_msg(uint32_t msg) { return copies[copies_of.at(msg)]; }
  const MulticastCopies& copies_of_msg(uint32_t msg) const { return copies[copies_of.at(msg)]; }
  // H in a message's zero-load latency: its route length; a multidestination worm's deepest destination.
  int zero_load_hops(uint32_t msg) const { return msgs[msg].multicast ? copies_of_msg(msg).max_depth : msgs[msg].hops; }
  std::vector<MessageRecord> msgs;
  std::vector<uint64_t> link_busy;  // flits carried per directed link

  // Activity
  std::vector<Router*> woken_routers;  // activated during the current cycle
  // Events of the current cycle, consumed by the traffic sources
  std::vector<uint32_t> delivered_now;  // tails ejected (multicast: the last copy's)
  std::vector<CopyDelivered> copies_delivered_now;  // multicast: every copy's tail ejected
  std::vector<uint32_t> injected_now;   // tails that left their injection channel
  // Headers that left an input VC this cycle (while express is on): that VC's
  // rest of the worm goes to the express loop (models/express_worms.hpp).
  struct HeaderLeft {
    Router* router;
    int16_t in_vc, in_port;
    uint32_t msg;
  };
  std::vector<HeaderLeft> headers_left;
  // Every route stored so far is Route::simple (uses no link twice); once one
  // is not, the express loop checks each worm's route before it joins.
  bool routes_simple = true;
  // Progress counters for the watchdog and the invariants
  uint64_t flits_moved = 0;     // flit movements of any kind (cumulative)
  uint64_t flits_injected = 0;
  uint64_t flits_ejected = 0;
  // Per input VC of every router (Router::counters), only with output.router_stats; null otherwise.
  VcCounters* vc_counters = nullptr;
  // Flits ejected per endpoint (cumulative): kept only when a measurement
  // window asks for it (sim/measurement_window.hpp); empty otherwise.
  std::vector<uint64_t> ejected_at;
  void count_ejected(uint32_t msg, uint64_t flits) {
    if (!ejected_at.empty()) ejected_at[static_cast<size_t>(msgs[msg].dst)] += flits;
  }

  const RouteHop* route_of(uint32_t msg) const { return hops.data() + msgs[msg].route_begin; }

  // Adds a header's waiting cycles to the right counter for the worm it waited behind.
  void charge_stall(uint32_t msg, uint32_t blocker, uint64_t cycles) {
    MessageRecord& m = msgs[msg];
    if (blocker == kNoMessage || blocker == msg) return;
    const int32_t bstep = msgs[blocker].step;
    if (bstep < 0) m.stall_background += cycles;
    else if (bstep == m.step) m.stall_step += cycles;
    else m.stall_depth += cycles;
  }
};

}  // namespace wormsim

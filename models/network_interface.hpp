// The network interface (NI) of one endpoint (node): it takes released messages, waits out
// the startup time, and feeds their flits into the router's injection channels,
// one flit per channel per cycle, under the same credit flow control as a link.
// Which channels a message may use is the port model's (models/port_model.hpp);
// messages that cannot start at once wait in release order ("port wait").
// Ejection needs no NI state: the router's ejection channels are always drained.
#pragma once

#include <cstddef>
#include <vector>

#include "models/channel.hpp"
#include "models/sim_context.hpp"

namespace wormsim {

class Router;

// A plain object, like the Router (models/router.hpp): the network steps it.
class NetworkInterface {
 public:
  // `arena` is zeroed memory of arena_bytes(...) bytes owned by the caller (the
  // network's ModulePool); the channel states live there. `router` is built;
  // this interface (endpoint `node`) feeds its injection channels first_channel..
  NetworkInterface(int node, int channels, Router* router, int first_channel, SimContext* ctx, std::byte* arena);
  static size_t arena_bytes(int channels);

  // A released message (its release time is set) joins the queue.
  void submit(uint32_t msg);
  // Released messages not yet started (the source queue, unbounded), now and at its longest.
  size_t queued() const { return queue_.size(); }
  size_t most_queued() const { return most_queued_; }
  // The release cycle of the longest-waiting background packet (step < 0) in the source queue; kNever if none.
  uint64_t oldest_background_release() const;
  // Starts waiting messages and injects one flit per busy channel. Returns the
  // next cycle at which it has work (kNever when idle).
  uint64_t step(uint64_t now);
  // The earliest cycle after `now` at which a waiting message's startup time is
  // over; kNever if none.
  uint64_t next_startup_end(uint64_t now) const;
  // True when a message could start on a channel right now (eager release rule).
  bool can_start(uint32_t msg) const;

  int node() const { return node_; }
  // Starts loading the fields a step reads (the network calls it one interface ahead).
  void prefetch() const {
    __builtin_prefetch(&node_);
    __builtin_prefetch(&wake);
  }
  // Express worms (models/express_worms.hpp): hands the channel carrying `msg`
  // to the express loop, which injects the rest of its flits into `buffer`
  // (channel -1 if the tail has gone in already). The interface's own step
  // leaves the channel alone from then on.
  struct ExpressChannel {
    int channel = -1;
    FlitQueue* buffer = nullptr;
    uint32_t next_flit = 0, flits = 0;
  };
  ExpressChannel begin_express(uint32_t msg);
  // The express loop has put the tail of channel `c`'s message in: the channel
  // is free, and a waiting message may start on it from the next cycle.
  void end_express(int c, uint64_t now);
  // The express worm on channel `c` gave its first stage back to its router
  // (ExpressWorms::hand_back_marked) with `left` flits still to inject: the
  // interface injects them from now on.
  void resume_after_express(int c, uint32_t left);

  bool active = false;  // in the network's bitmap of interfaces with work
  uint64_t wake = kNever;  // next cycle the network steps it (kNever: nothing to do)

 private:
  struct Channel {
    // The router's injection buffer this channel feeds; its credits are kept there (models/channel.hpp).
    FlitQueue* buffer = nullptr;
    uint32_t msg = kNoMessage;
    uint32_t next_flit = 0;
    uint32_t flits = 0;  // the message's length, copied so a flit does not read the cold message record
    uint64_t since = 0;  // cycle the message started on this channel (timeline traces)
    bool express = false;  // its message is an express worm's: the express loop injects it
  };
  int usable_channel(uint32_t msg, const char* claimed) const;
  void start_waiting(uint64_t now);
  void inject(int ch, uint64_t now);
  [[gnu::noinline]] void finish(int ch, uint64_t now);

  int node_;
  Router* router_;
  int first_port_;
  SimContext* ctx_;
  int channels_;
  Channel* ch_;     // channels_ (in the arena)
  char* claimed_;   // channels_, scratch for start_waiting (in the arena)
  // Released messages waiting for a channel, in release order. A vector (not a
  // deque, whose empty state already costs ~600 bytes) that grows only when used.
  std::vector<uint32_t> queue_;
  size_t most_queued_ = 0;
};

}  // namespace wormsim

// Express worms: a worm whose header has reached its destination, moved by one
// tight loop instead of by the routers it passes through.
//
// Once a worm's header is ejected, the worm holds every channel from the one
// its tail is in to its ejection channel. With one VC per port nothing else can
// use those channels or compete for their input ports and outputs, so the rest
// of the worm's life depends on nothing but its own flits and credits: each
// stage moves its front flit when it is ready and the next stage's buffer has
// a credit, as the router's switch allocation would. The express loop makes
// exactly those moves, on the same buffers, in the same cycles; the routers
// ignore the worm's input ports until its tail has passed (Router::begin_express,
// Router::express_move). Nothing observable changes (docs/timing-model.md,
// "Express worms"); a busy run costs less because a streaming flit no longer
// pays for a router step, its activity bitmap and its allocation checks.
//
// Every event of a cycle happens after all routers have stepped in that cycle;
// with router_delay >= 1 and credit_delay >= 1 a move at cycle c is seen by
// nobody before c + 1, so the order of moves within a cycle changes nothing.
#pragma once

#include <cstdint>
#include <vector>

#include "models/channel.hpp"
#include "models/sim_context.hpp"

namespace wormsim {

class NetworkInterface;
class Router;

class ExpressWorms {
 public:
  explicit ExpressWorms(SimContext* ctx) : ctx_(ctx) {}
  // A worm qualifies only with one VC per port (then its held channels are its own).
  static bool enabled(const SimContext& ctx) { return ctx.fast_paths && ctx.vcs == 1; }

  // Takes the worm `msg`, whose header was ejected this cycle, off its routers,
  // from the first channel it still holds on, and off its source interface
  // `ni` if its tail has not gone in yet. `source` is the router of its source node.
  // Returns false (the worm stays with its routers) when its route uses a link twice.
  bool admit(uint32_t msg, Router* source, NetworkInterface* ni);
  // Moves every express worm's flits through its routers for cycle `now` (after the routers' steps).
  void step_routers(uint64_t now);
  // Injects the next flit of every express worm still entering the network (after
  // the interfaces' steps); interfaces whose channel the tail freed go to `woken`.
  void step_interfaces(uint64_t now, std::vector<NetworkInterface*>& woken);
  bool empty() const { return worms_.empty(); }
  size_t size() const { return worms_.size(); }
  // For the summary's host block: worms admitted, and flit moves (injections included) made here.
  uint64_t admitted() const { return admitted_; }
  uint64_t flit_moves() const { return flit_moves_; }

 private:
  // One router the worm passes: its buffer there and where its flits go next,
  // resolved once at admission so that a flit move reads no wiring.
  struct Stage {
    FlitQueue* q;     // the worm's input buffer at this router
    FlitQueue* down;  // the next stage's buffer; null at the last stage (ejection)
    Router* router;
    int32_t link;     // the link to the next stage (flit counts)
    int16_t in_vc, in_port;
  };
  struct Worm {
    uint32_t first, end;  // its stages in stages_, from the one its tail is in to the last (ejection)
  };
  // A worm whose tail has not gone into the network yet: its interface's channel and the buffer it feeds.
  struct Entering {
    FlitQueue* inj;
    NetworkInterface* ni;
    uint32_t msg;
    uint32_t left;  // flits still to inject
    int32_t channel;
  };
  void end_stage(Worm& w, uint32_t k, const Flit& tail, uint64_t now);
  void drop_finished();

  SimContext* ctx_;
  std::vector<Stage> stages_;
  std::vector<Worm> worms_;
  std::vector<Entering> entering_;
  std::vector<Stage> path_;          // admit's scratch: the route's stages
  std::vector<uint32_t> link_seen_;  // admit's scratch: per directed link, the last admission that used it
  uint32_t admissions_ = 0;
  uint64_t admitted_ = 0, flit_moves_ = 0;
};

}  // namespace wormsim

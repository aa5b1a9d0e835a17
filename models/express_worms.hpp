// Express worms: the body of a worm, behind its header, moved by one tight
// loop instead of by the routers it passes through.
//
// Once a worm's header has left an input VC, the worm holds that VC's output
// until its tail has passed, and every channel behind it back to the one its
// tail is in. With one VC per port nothing else can use those channels or
// compete for their input ports and outputs, so the worm's body moves by
// nothing but its own flits and credits: each stage moves its front flit when
// it is ready and the next stage's buffer has a credit, as the router's switch
// allocation would. The express loop makes exactly those moves, on the same
// buffers, in the same cycles; the routers keep only the header (allocation,
// stalls) and ignore the worm's input ports behind it until its tail has
// passed (Router::begin_express, Router::end_express). Nothing observable
// changes (docs/timing-model.md, "Express worms"); a busy run costs less
// because a streaming flit no longer pays for a router step, its activity
// bitmap and its allocation checks.
//
// With several VCs per port the same holds for a stage while no other worm
// shares its input port or its output port: a stage goes express only if none
// does (Router::can_go_express), and goes back to its router as soon as one
// does. Competition can start only in two ways, each seen where it starts:
// another worm's header coming into another VC of the stage's input port (it
// cannot move before the next cycle, so the stage goes back at the end of the
// routers' part of this cycle, hand_back_later), or a head taking another VC
// of the stage's output port (it may want the switch in this very cycle, so
// the stage goes back at once, before that router's switch allocation,
// hand_back_now). Only that stage goes back: the worm's stages in front of it
// stay express (they receive its flits through the router's normal arrival),
// and so do the ones behind it (which deliver into it the same way), and the
// header's next stages may still go express. A worm whose first stage goes
// back hands its injection channel back to its interface.
//
// Every event of a cycle happens after all routers have stepped in that cycle;
// with router_delay >= 1 and credit_delay >= 1 a move at cycle c is seen by
// nobody before c + 1, so the order of moves within a cycle changes nothing.
//
// Steady streaming. While its interface is still putting body flits in, a
// worm that streams at one flit per cycle through every stage repeats itself:
// its state one cycle later is its state now with every buffer's slots one
// place further round and every time one cycle later (FlitQueue::shift), and
// no tail is anywhere, so nothing happens that anyone else could see. Once a
// worm has been seen to do exactly that (a snapshot compared with the next
// cycle's state), it is frozen until the cycle before its tail goes in, and
// then moved there in one step: shift by the number of cycles skipped, with
// the flit and link counts those cycles would have added. Only with one VC per
// port: with several, competition may come in any cycle and would need the
// worm's state in the middle of a skip. A run that stops
// while a worm is frozen first brings it to the last simulated cycle (sync).
//
// Frozen worms leave the list of worms the loops visit (awake_) and each comes
// back to it in the cycle it thaws: in a big broadcast most worms are frozen
// most of the time, and visiting each of them every cycle cost more than all
// the moves of the others. The loops go through the list only once it leaves
// out an eighth of the worms, and then ask for each worm's buffers a few worms
// ahead; otherwise they visit every worm, as the indirection would cost more
// than it saves (docs/performance.md).
//
// Two threads. On a big network the moves of step_routers wait on memory, and
// with one VC per port a worm's moves read and write nothing but its own
// buffers and links, and the buffer its header is in. What reaches beyond
// them is three things: a router told that a flit came into its header's
// buffer (Router::body_arrived), a router told that the tail left a stage
// (Router::end_express), and the ejected tail (its message's record, the
// network's list of deliveries, the worm done). So once a cycle has many worms
// to visit (parallel_from), the visits are split in two halves, one per
// thread; each thread makes its worms' moves and notes those three things, in
// worm order, instead of doing them; then the calling thread does what the
// first half noted, then the second's. They happen in the order one thread
// would give them, and nothing a worm's moves read is written by what was put
// off (the routers' fields are read and written only then). The one buffer two
// worms share is a header's, which may still hold the tail of the worm ahead
// (its express stage, until end_express): the worm behind stops before it
// reads it, and the calling thread finishes that worm's visit in its turn.
// Within a cycle the order of two worms' moves changes nothing (a flit or a
// credit is seen from the next cycle on), so the outputs are the same bytes.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "models/channel.hpp"
#include "models/helper_thread.hpp"
#include "models/sim_context.hpp"

namespace wormsim {

class FlitTransfer;
class NetworkInterface;
class Router;

class ExpressWorms {
 public:
  explicit ExpressWorms(SimContext* ctx) : ctx_(ctx) {}
  // Under an adaptive routing function too: a stage is linked to the next
  // from the output its router gave the header (link_next_stage), never from
  // the route ahead, and adaptive routes are minimal, so no two stages of a
  // worm share a buffer.
  static bool enabled(const SimContext& ctx) { return ctx.fast_paths; }
  // A worm that fits in one buffer has too few body moves to repay its stages
  // (their joining, linking and release) and, with several VCs per port, their
  // hand-backs; with one VC, from kFlitsWorthJoining flits on it repays them
  // (docs/performance.md). Its router does not report its header's moves
  // (Router::move_flit), so it never joins.
  static constexpr uint32_t kFlitsWorthJoining = 5;
  static bool worth_joining(const SimContext& ctx, uint32_t flits) {
    return flits > static_cast<uint32_t>(ctx.buffer_flits) || (ctx.vcs == 1 && flits >= kFlitsWorthJoining);
  }
  // Off when per-cycle values are traced (VCD): frozen worms' buffers and links are only brought up to date later.
  void allow_freezing(bool allow) { allow_freezing_ = allow; }
  // step_routers shares its visits with a second thread in a cycle with at
  // least this many worms to visit (see the header); 0: never.
  void parallel_from(size_t visits) { parallel_from_ = visits; }
  // By default: from 4,096 worms, on a network of at least 65,536 routers. On a
  // smaller one the worms' memory stays in the caches, and moving it from one
  // CPU's to the other's every cycle costs more than the second thread saves
  // (docs/performance.md).
  static constexpr size_t kParallelFrom = 4096;
  static constexpr size_t kParallelRouters = 65536;
  static size_t default_parallel_from(size_t routers) { return routers >= kParallelRouters ? kParallelFrom : 0; }

  // The header of `e.msg` left input VC `e.in_vc` of `e.router` in this cycle:
  // that stage is the express loop's from the next cycle. On its first hop (from
  // the source's injection channel) the worm joins, with its source interface
  // `ni` if its tail has not gone in yet. A worm whose route uses a link twice
  // never joins (two of its stages would share a buffer). A stage that cannot
  // go express (Router::can_go_express) stays its router's.
  void header_left(const SimContext::HeaderLeft& e, NetworkInterface* ni);
  // What header_left(e) reads, level by level, for a caller about to pass it
  // many events (a 2M-router broadcast's each miss the cache at the message's
  // worm index, then its worm, then the stage the header left): each returns
  // whether the message has a worm, the last starts loading its stages.
  bool prefetch_worm(uint32_t msg) const {
    if (msg >= worm_of_msg_.size()) return false;
    const uint32_t at = worm_of_msg_[msg];
    if (at != kNoWorm) __builtin_prefetch(&worms_[at]);
    return at != kNoWorm;
  }
  void prefetch_worm_index(uint32_t msg) const {
    if (msg < worm_of_msg_.size()) __builtin_prefetch(&worm_of_msg_[msg]);
  }
  void prefetch_stage(uint32_t msg) const {
    if (msg >= worm_of_msg_.size() || worm_of_msg_[msg] == kNoWorm) return;
    const Worm& w = worms_[worm_of_msg_[msg]];
    if (w.end < w.limit) {
      __builtin_prefetch(&stages_[w.end]);
      __builtin_prefetch(&stages_[w.end + 1 < w.limit ? w.end + 1 : w.end]);
    }
  }
  // Several VCs per port (see the header): the express stage at input VC
  // `in_vc` of `router` goes back to that router at the end of the routers'
  // part of this cycle (hand_back_marked), or now (the router is stepping).
  void hand_back_later(Router* router, int in_vc);
  void hand_back_now(Router* router, int in_vc);
  // Hands back the stages marked by hand_back_later (after step_routers);
  // interfaces given back an injection channel go to `woken`.
  void hand_back_marked(std::vector<NetworkInterface*>& woken);
  // Moves every express worm's flits through its routers for cycle `now` (after the routers' steps).
  void step_routers(uint64_t now);
  // Injects the next flit of every express worm still entering the network (after
  // the interfaces' steps); interfaces whose channel the tail freed go to `woken`.
  // Then checks for, and freezes, worms in steady streaming.
  void step_interfaces(uint64_t now, std::vector<NetworkInterface*>& woken);
  // Brings every frozen worm to its state at the end of cycle `now` (the run stops).
  void sync(uint64_t now);
  bool empty() const { return worms_.size() == done_; }
  // Once the run is over, if no worm is left: gives the storage back.
  void release_storage();
  // Calls fn(router) for the router of every express stage of the worms still
  // in the loop, and the router each feeds (a router may come more than once):
  // the routers whose buffers the loop moves flits in (Network::check_invariants).
  template <typename Fn>
  void for_each_stage_router(Fn fn) const {
    for (const Worm& w : worms_) {
      if (w.done) continue;
      for (uint32_t k = w.first; k < w.end; ++k) {
        fn(stages_[k].router);
        if (stages_[k].next) fn(stages_[k].next);
      }
    }
  }
  // Frozen worms move flits every cycle, although no counter shows it until they thaw.
  bool any_frozen() const { return frozen_ > 0; }
  // For the summary's host block: worms that joined, and flit moves (injections included) made here.
  uint64_t joined() const { return joined_; }
  uint64_t flit_moves() const { return flit_moves_; }
  // Stages handed back to their routers because another worm shared a port (several VCs per port).
  uint64_t handbacks() const { return handbacks_; }
  // Cycles in which step_routers shared its visits with a second thread.
  uint64_t parallel_cycles() const { return parallel_cycles_; }
  // Worms frozen in steady streaming, and the cycles skipped that way (summed over worms).
  uint64_t frozen_worms() const { return frozen_total_; }
  uint64_t frozen_cycles() const { return frozen_cycles_; }

 private:
  // One router the worm passes: its buffer there and where its flits go next,
  // resolved once, as the header leaves the stage before (link_next_stage), so
  // that a flit move reads no wiring. Until then all but `routed` are unset.
  struct Stage {
    FlitQueue* q;     // the worm's input buffer at this router
    FlitQueue* down;  // the next stage's buffer; null at the last stage (ejection)
    Router* router;
    Router* next;     // the next stage's router, and the input port `down` belongs to
    int32_t link;     // the link to the next stage (flit counts)
    int16_t in_vc, in_port, next_port;
    bool routed;      // its router's: it could not go express, or was handed back
  };
  struct Worm {
    // Its route's stages are stages_[base, base + hops + 1); those in [first, end)
    // are express: from the one its tail is in to the one its header left last.
    uint32_t base, first, end, limit;
    bool complete;           // end == limit: the header has been ejected
    bool done;               // the tail has been ejected, or every stage left is its router's
    uint32_t msg;
    uint32_t left;           // flits its source interface has still to inject
    NetworkInterface* ni;    // while left > 0: its source interface, channel, and the buffer that channel feeds
    FlitQueue* inj;
    int32_t channel;
    uint32_t streak;         // consecutive cycles in which every stage moved a flit and one went in
    bool moved_all;          // every stage moved a flit in this cycle
    uint32_t snap_at;        // its snapshot in snap_states_/snap_slots_, taken at the end of cycle snap_cycle
    uint64_t snap_cycle;
    uint64_t frozen_from;    // frozen: its state is that at the end of frozen_from ...
    uint64_t frozen_until;   // ... shifted, up to the end of this cycle (0: not frozen)
    bool awake;              // listed in awake_ (it may be frozen all the same)
  };
  // What a pass of the loops adds to the network's flit counts.
  struct Tally {
    uint64_t moved = 0, injected = 0, ejected = 0;
    uint32_t thawed = 0;  // worms whose freeze ended
  };
  void add(const Tally& t);
  static void add_to(Tally& to, const Tally& t);
  // What a half of a shared pass puts off (see the header), for worms_[worm].
  struct Deferred {
    enum Kind : uint32_t {
      kArrival,   // stage k's flit came into the header's buffer: tell its router
      kTailLeft,  // the tail `tail` left stage k: tell its router
      kTailOut,   // the tail `tail` was ejected from stage k: its record, its router, the worm done
      kResume,    // the visit stopped at stage k, with `moved` of its `stages` stages' flits moved
    };
    uint32_t worm;
    Kind kind;
    uint32_t k, stages, moved;
    Flit tail;
  };
  // What one thread's half of a shared pass leaves to the calling thread, in worm order.
  struct Half {
    Tally tally;
    std::vector<Deferred> put_off;
  };
  // listed: visit the worms in awake_, not every worm (see visit_listed).
  template <bool counting, bool shared_ports, bool listed>
  void step_routers_with(uint64_t now);
  // The same, in two halves (see the header): one VC per port, no counting.
  template <bool listed>
  void step_routers_shared(uint64_t now);
  bool share_step_routers();
  // Moves worm w's flits for one cycle from stage k on, a visit having found
  // `stages` stages and moved `moved` flits so far. `split` (a half of a
  // shared pass): what reaches beyond the worm goes to `put_off` instead.
  template <bool counting, bool shared_ports, bool split>
  [[gnu::always_inline]] void move_worm(Worm& w, uint32_t k, uint32_t stages, uint32_t moved, const FlitTransfer& move,
                                        uint64_t now, Tally& t, bool& finished, std::vector<Deferred>* put_off);
  void do_deferred(const Deferred& d, const FlitTransfer& move, uint64_t now, Tally& t, bool& finished);
  void put_off_tail(Worm& w, uint32_t k, Deferred::Kind kind, const Flit& tail, uint64_t now,
                    std::vector<Deferred>& put_off);
  template <bool listed>
  void step_interfaces_with(uint64_t now, std::vector<NetworkInterface*>& woken);
  void grow(size_t stages);  // room for at least `stages` stages
  template <bool listed, typename Far, typename Near, typename Step>
  void visit(const Far& far, const Near& near, const Step& step);
  // Calls step for the worms at places [lo, hi) of the visiting order.
  template <bool listed, typename Far, typename Near, typename Step>
  void visit_range(size_t lo, size_t hi, const Far& far, const Near& near, const Step& step);
  // The number of places in the visiting order.
  template <bool listed>
  size_t visits() const {
    return listed ? awake_.size() : worms_.size();
  }
  // Going through awake_ costs an indirection per visit: worth it once it
  // leaves out more than an eighth of the worms.
  bool visit_listed() const { return 8 * (worms_.size() - awake_.size()) > worms_.size(); }
  // Ask for what moving worm w's flits will read, in two waves: a few worms
  // ahead its stages' buffers, nearer its buffers' slots (which the buffers point to).
  void prefetch_buffers(const Worm& w) const;
  void prefetch_slots(const Worm& w) const;
  // Stage k is hop `hop` of message msg's route (checked builds compare the two).
  void link_next_stage(uint32_t k, uint32_t msg, uint32_t hop);
  void route_stage(Worm& w, uint32_t k);
  void check_done(Worm& w);
  void end_stage(Worm& w, uint32_t k, const Flit& tail, uint64_t now);
  // Checked builds: the tail leaves stage k in order (see end_stage).
  void check_tail_order(const Worm& w, uint32_t k, uint64_t now) const;
  void mark_done(Worm& w);
  void drop_finished();
  void snapshot(Worm& w, uint64_t now);
  bool repeats_snapshot(const Worm& w) const;
  void freeze(Worm& w, uint64_t now);
  void thaw(Worm& w, uint64_t to);
  // thaw, its flit counts added to t.
  void thaw_into(Worm& w, uint64_t to, Tally& t);
  // Puts the worms whose freeze ends before cycle `now` back in awake_.
  void wake_due(uint64_t now);
  // Takes the frozen (and done) worms out of awake_.
  void unlist_frozen();

  SimContext* ctx_;
  std::vector<Stage> stages_;
  std::vector<Worm> worms_;
  // The worms the loops visit, in increasing order (join order): all but the
  // frozen ones taken out by unlist_frozen (and the done ones dropped, drop_finished).
  std::vector<uint32_t> awake_;
  size_t frozen_listed_ = 0;  // worms frozen since awake_ was last cleared of them
  // Frozen worms by the cycle they thaw in: their message ids (stable while a
  // worm is dropped and the others move down).
  std::map<uint64_t, std::vector<uint32_t>> wakes_;
  std::map<uint64_t, std::vector<uint32_t>>::iterator last_wake_;  // freeze's last entry, if has_last_wake_
  bool has_last_wake_ = false;
  std::vector<uint32_t> woken_, merged_;  // wake_due's scratch
  std::vector<uint32_t> worm_of_msg_;  // per message: its index in worms_, or kNoWorm
  static constexpr uint32_t kNoWorm = 0xffffffffu;
  // How far ahead in awake_ the loops ask for a worm's buffers and then their
  // slots, and for how many of its stages.
  static constexpr size_t kPrefetchBuffers = 40, kPrefetchSlots = 20;
  static constexpr uint32_t kPrefetchStages = 3;
  std::vector<uint32_t> link_seen_;   // uses_a_link_twice's scratch: per directed link, the last check that saw it
  uint32_t checks_ = 0;
  bool join(const SimContext::HeaderLeft& e, NetworkInterface* ni);
  bool uses_a_link_twice(uint32_t msg);
  // Snapshots of the previous cycle (being compared) and of this one (taken), by parity of the cycle.
  std::vector<FlitQueue::State> snap_states_[2];
  std::vector<Flit> snap_slots_[2];
  bool allow_freezing_ = true;
  struct HandBack {
    Router* router;
    int in_vc;
  };
  std::vector<HandBack> hand_backs_;  // marked by hand_back_later in this cycle
  std::vector<uint32_t> touched_;     // worms with a stage handed back in this cycle
  uint32_t frozen_ = 0;
  size_t done_ = 0;  // done worms not dropped yet
  uint64_t joined_ = 0, flit_moves_ = 0, frozen_total_ = 0, frozen_cycles_ = 0, handbacks_ = 0;
  size_t parallel_from_ = 0;
  HelperThread helper_;
  Half halves_[2];
  uint64_t parallel_cycles_ = 0;
};

}  // namespace wormsim

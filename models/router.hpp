// Input-buffered wormhole router with credit-based flow control.
//
// Ports: link ports 0..L-1 (see topology.hpp), then its endpoints' interface
// channels: input ports L.. are injection channels, output ports L.. are
// ejection channels. Each link input port has `vcs` virtual channels of `buffer_flits`
// flits; injection inputs have one. A worm's header reserves an output VC (or an
// ejection channel), body flits follow it, and the tail releases it.
//
// Per cycle (see docs/timing-model.md for the arbitration rules):
//   1. VC allocation: heads at the front of idle input VCs, in round-robin
//      order, take a free output VC (or a free ejection channel): under a
//      deterministic routing function the next hop of the route stored with
//      the message, a VC of its dateline class, lowest index first; under an
//      adaptive one the routing function's allowed outputs, chosen by the rule
//      in docs/config-reference.md ("Routing functions"), and the hop taken is
//      written into the message's route.
//   2. Switch allocation, separable input-first: each input port offers one VC
//      that holds an output and has a credit (round-robin per input port); each
//      output port grants one offer (round-robin per output port).
//   3. Every head that could have moved and did not is charged one stall cycle,
//      attributed to the worm it waits behind.
// The router is stepped by the network only while it holds flits.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <unordered_map>
#include <vector>

#include "models/channel.hpp"
#include "models/sim_context.hpp"
#include "models/vc_divider.hpp"

namespace wormsim {

// The endpoints attached to a router: `count` of them, numbered from `first`,
// each with its own injection and ejection channels (the port model's).
// Endpoint first + k feeds injection channels [k * inj_channels, (k + 1) * inj_channels)
// and drains ejection channels [k * ej_channels, (k + 1) * ej_channels).
struct RouterEndpoints {
  int first = 0, count = 1;
  int inj_channels = 1, ej_channels = 1;  // per endpoint
};

// A plain object, not an sc_module: the network's one SC_METHOD steps it, and
// an sc_module per router and per interface (its name, its name generator,
// its entry in SystemC's object table) cost 1.3-1.6 KiB per router and a
// string-keyed insert each at elaboration (docs/performance.md, "Memory").
class Router {
 public:
  // `arena` is zeroed memory of arena_bytes(...) bytes, owned by the caller
  // (the network's ModulePool), where the router lays out all its state.
  Router(int node, int link_ports, const RouterEndpoints& endpoints,
         SimContext* ctx, std::byte* arena);
  static size_t arena_bytes(int link_ports, int inj_channels, int ej_channels, int vcs, int buffer_flits);

  // Wiring, done once at elaboration (every router's constructor has run).
  void connect_output(int port, Router* downstream, int downstream_port, int link_id);
  // The buffer of injection channel `ch`: the network interface sends into it.
  FlitQueue* injection_buffer(int ch) { return &in_[(link_ports_ + ch) * vcs_].q; }

  // A flit arrives in input buffer `q` (one of this router's, on port `in_port`);
  // the sender held a credit for it.
  void accept(int in_port, FlitQueue& q, const Flit& f) {
    if (q.empty() && f.head) head_ports_ |= uint64_t{1} << in_port;  // it is the new front
    q.push(f);
    body_arrived(in_port, q);
  }
  // What accept does once the flit is in, for a flit that is not a header (the
  // express loop's second thread pushes the flit and leaves this for later).
  void body_arrived(int in_port, const FlitQueue& q) {
    const uint64_t b = uint64_t{1} << in_port;
    if (express_ports_ & b) {  // an express worm's stage: the express loop moves it, not this router
      if (vcs_ > 1) arrived_at_express_port(in_port, q);
      return;
    }
    occupied_ports_ |= b;
    if (!active_) {
      active_ = true;
      ctx_->woken_routers.push_back(this);
    }
  }

  void step(uint64_t now);
  // Starts loading the fields a step reads (the network calls it one router ahead).
  void prefetch() const {
    __builtin_prefetch(&in_);
    __builtin_prefetch(reinterpret_cast<const char*>(&in_) + 64);
  }

  int node() const { return node_; }
  // True while some input port holds flits the router itself must move (not an express worm's).
  bool holds_flits() const { return occupied_ports_ != 0; }
  // Cleared by the network when it drops the router from the active list.
  void set_active(bool a) { active_ = a; }


  // --- Express worms (models/express_worms.hpp) ---------------------------
  // Once a worm's header has left an input VC, the worm holds that VC's output
  // until its tail has passed; while nothing else competes for the input port
  // or the output port, the network's express loop moves the body flits
  // behind the header and the router leaves that input port alone.
  //
  // Where the output held by the worm at input VC `in_vc` leads: the
  // downstream router (null for an ejection channel), its input buffer, port
  // and VC, and the link's id.
  struct NextHop {
    Router* router;
    FlitQueue* buffer;
    int32_t link;
    int16_t in_port, in_vc;
  };
  // Inline: returned through memory, its two 16-bit fields were read back as
  // one word before their stores had retired.
  NextHop next_hop(int in_vc) const {
    const int o = in_[in_vc].out;
    if (is_ejection(o)) return NextHop{nullptr, nullptr, -1, -1, -1};
    const OutputVC& ov = out_[o];
    return NextHop{ov.dst, ov.down, ov.link, ov.dst_port, static_cast<int16_t>(ov.dst_port * vcs_ + mod_vcs(o))};
  }
  // The lines next_hop(in_vc) reads after prefetch(): the input VC's state, then its output's.
  void prefetch_input(int in_vc) const { __builtin_prefetch(&in_[in_vc]); }
  void prefetch_output(int in_vc) const {
    const int o = in_[in_vc].out;
    if (o >= 0) __builtin_prefetch(&out_[o]);
  }
  int link_ports() const { return link_ports_; }
  // True when the worm whose header has just left input VC `in_vc` may go
  // express there: with several VCs per port, no other VC of its input port
  // holds flits or is express, and no other VC of its output port is held.
  bool can_go_express(int in_vc) const { return vcs_ == 1 || shared_port_free(in_vc); }
  // Hands input VC `in_vc` (and its port) to the express loop, which moves its
  // flits with the router's own moves (models/flit_transfer.hpp) on the buffers
  // input_buffer gives it.
  void begin_express(int in_vc) {
    if (vcs_ > 1) return begin_shared_express(in_vc);
    express_ports_ |= uint64_t{1} << in_vc;  // one VC per port: the VC is the port
    occupied_ports_ &= ~(uint64_t{1} << in_vc);
  }
  // The express stage of input VC `in_vc` is handed back to the router (it met
  // competition, ExpressWorms::hand_back_now): the port is the router's again.
  void leave_express(int in_vc);
  bool is_express_vc(int in_vc) const { return (express_vcs_ >> in_vc & 1) != 0; }
  // Input port `ip` is an express worm's stage (one VC per port).
  bool is_express_port(int ip) const { return (express_ports_ >> ip & 1) != 0; }
  FlitQueue& input_buffer(int in_vc) { return in_[in_vc].q; }
  // The worm that holds `in_vc`'s output.
  uint32_t output_owner(int in_vc) const { return out_[in_[in_vc].out].owner; }
  // A header or tail left the network here: its message's timestamps, and the traffic sources' event.
  [[gnu::noinline]] void eject(const Flit& f, uint64_t now);
  // The express worm's tail has just left input VC `in_vc` (port `ip`): the
  // worm gives up its output, and the port is the router's again.
  void end_express(int in_vc, int ip, const Flit& tail, uint64_t now);

  // The earliest cycle after `now` at which something in its buffers falls due
  // (a front flit becomes ready, a credit is seen upstream, and under Duato's
  // rule the last credit of a buffer, FlitQueue::drained_by); kNever if none.
  uint64_t next_timed_event(uint64_t now) const;
  // Charges every ready head `cycles` stall cycles: what charge_stalls does in
  // that many cycles of a network in which nothing moves and nothing falls due.
  void charge_frozen_stalls(uint64_t now, uint64_t cycles);

  // For the watchdog's report: the worm each waiting head is blocked by.
  struct Wait {
    int in_port, vc;
    uint32_t msg, blocker;
    int out_port;  // requested output port (>= link ports: ejection)
  };
  std::vector<Wait> waiting_heads(uint64_t now) const;
  // Heads queued in a VC behind another worm's flits: each waits for the worm just ahead of it.
  std::vector<Wait> queued_heads() const;
  // Adds, for each flit buffered here whose message is a key of `traces`, one
  // flit and its ready cycle: a worm whose flits all stay put keeps its trace.
  void add_flit_traces(std::unordered_map<uint32_t, FlitTrace>& traces) const;
  // --- Router statistics (models/buffer_counters.hpp) ------------------------
  // Its input VCs' counters are SimContext::vc_counters[base ..]: input port ip, VC v at base + ip * vcs + v.
  void set_counter_base(int base) { counter_base_ = base; }
  int counter_index(int ip, int vc) const { return counter_base_ + ip * vcs_ + vc; }
  int in_ports() const { return in_ports_; }
  int vcs_per_port(int ip) const { return vcs_of_port(ip); }
  // A flit left input VC `in_vc` (port `in_port`) at cycle `now`: its flit-cycles there.
  [[gnu::noinline]] void count_departure(int in_vc, int in_port, const Flit& f, uint64_t now);
  // `flit_cycles` of a steadily streaming express stage skipped at once (ExpressWorms::thaw).
  void count_steady(int in_vc, uint64_t flit_cycles) { counters(in_vc).flit_cycles += flit_cycles; }
  // Adds to `into` (indexed like SimContext::vc_counters) the flit-cycles up to
  // cycle `end` of the flits still in its buffers.
  void add_present_flit_cycles(uint64_t end, VcCounters* into) const;

  // Flits in the router's input buffers (counted on demand: keeping a count would
  // cost every flit move a write to the router object).
  int buffered() const;
  // Also checks that the occupied-port, head-port and holding-VC masks agree with the buffers and VCs.
  bool buffers_within_capacity() const;
  // Checks every input buffer (FlitQueue::consistent) and
  // that no credit is due later than `now` + credit_delay.
  bool credits_consistent(uint64_t now) const;

 private:
  struct InputVC {
    FlitQueue q;
    int32_t out = -1;  // output VC held by the worm at the front (-1: none)
    // The front head's candidate output VCs [want_first, want_last), looked up
    // once: a blocked head retries every cycle, and its message record and
    // route are cold in a big run. kNotLookedUp before that; kAskRouting for a
    // hop an adaptive routing function chooses (asked on every try; want_last
    // is then its first output VC once a try has failed, else kAskRouting).
    int16_t want_first = kNotLookedUp, want_last = kNotLookedUp;
  };
  // kFanout: a multidestination worm's head (models/router_fanout.cpp); the
  // VC's worm then keeps want_first == kFanout and out == kFanoutOut until its tail leaves.
  static constexpr int16_t kNotLookedUp = -1, kAskRouting = -2, kFanout = -3;
  static constexpr int32_t kFanoutOut = -2;
  // A multidestination worm's branches at one input VC: the output VC each
  // holds (-1 until it has one) and, for a link branch, the visit its head copy goes to.
  struct Fanout {
    std::vector<int32_t> outs;
    std::vector<uint16_t> next;
    int missing = 0;  // branches without an output VC yet
  };
  struct Candidates {
    int first, last;  // kAskRouting: an adaptive hop
  };
  struct OutputVC {
    // The downstream input buffer of this link VC (null for ejection channels):
    // its tail slot says whether this VC holds a credit (models/channel.hpp).
    FlitQueue* down = nullptr;
    Router* dst = nullptr;           // the downstream router, and the input port `down` belongs to
    uint32_t owner = kNoMessage;
    uint32_t previous = kNoMessage;  // last worm that held it: its flits may still fill the FIFO downstream
    int32_t link = -1;               // directed link id (flit counts)
    int16_t dst_port = -1;
    uint64_t since = 0;              // cycle the owner reserved it (timeline traces)
  };
  struct ArenaLayout;

  bool is_ejection(int out_vc) const { return out_vc >= link_ports_ * vcs_; }
  int out_port_of(int out_vc) const {
    return is_ejection(out_vc) ? link_ports_ + (out_vc - link_ports_ * vcs_) : div_vcs(out_vc);
  }
  int in_port_of(int in_vc) const { return div_vcs(in_vc); }
  int vcs_of_port(int ip) const { return ip < link_ports_ ? vcs_ : 1; }
  int div_vcs(int x) const { return vc_div_.div(x); }
  int mod_vcs(int x) const { return vc_div_.mod(x); }

  void allocate_vcs(uint64_t now);
  int try_heads(uint64_t vcs, uint64_t now);
  void allocate_vcs_scan(uint64_t ports, uint64_t now);
  // One VC per port, with run.fast_paths (models/router_one_vc.cpp): the same step, read from the port masks.
  void step_one_vc(uint64_t now);
  void allocate_vcs_one_vc(uint64_t now);
  void charge_stalls_one_vc(uint64_t now, uint64_t moved_ports);
  bool try_allocate(int in_vc, const Flit& head, uint64_t now);
  Candidates candidates(int in_vc, const Flit& head) const;
  [[gnu::noinline]] bool allocate_adaptive(int in_vc, const Flit& head, uint64_t now);
  // Several VCs per port: a flit of another worm came into an express port, or
  // a head took a VC of an output port an express worm streams through.
  [[gnu::noinline]] void arrived_at_express_port(int in_port, const FlitQueue& q);
  [[gnu::noinline]] void output_port_shared(int out_port);
  void clear_express_masks(int in_vc);
  bool shared_port_free(int in_vc) const;
  void begin_shared_express(int in_vc);
  void port_back_from_express(int ip);
  const std::vector<RouteOutput>& ask_routing(int in_vc, const Flit& head) const;
  uint32_t allocation_blocker(int in_vc, const Flit& head) const;
  int requested_port(int in_vc, const Flit& head) const;
  // The output VC the routing function lists first for an adaptive head (kept in want_last once it failed).
  [[gnu::noinline]] int first_adaptive_output(int in_vc, const Flit& head) const;
  int first_vc_of(const RouteOutput& o) const { return o.port * vcs_ + o.vc_first; }
#ifdef WORMSIM_CHECKED
  void check_skipped_try(int in_vc, const Flit& head, uint64_t now) const;
#endif
  void allocate_switch(uint64_t now);
  // --- multidestination worms (models/router_fanout.cpp) ---
  bool is_fanout(int in_vc) const { return in_[in_vc].want_first == kFanout; }
  [[gnu::noinline]] bool allocate_fanout(int in_vc, const Flit& front, uint64_t now);
  void look_up_branches(int in_vc, const Flit& head);
  Candidates branch_candidates(int in_vc, const RouteHop& branch) const;
  bool fanout_can_send(int in_vc, uint64_t now) const;
  int offer_with_fanout(int ip, uint64_t now) const;
  int port_offer(int ip, uint64_t now) const;
  uint64_t fanout_out_ports(int in_vc) const;
  [[gnu::noinline]] void allocate_switch_with_fanout(uint64_t now);
  using PortMasks = std::array<uint64_t, kMaxRouterPorts>;
  using PortList = std::array<int, kMaxRouterPorts>;
  void break_crossed_offers(const PortMasks& wants, PortMasks& won, PortList& winner);
  void move_fanout_flit(int in_vc, int in_port, uint64_t now);
  void eject_copy(const Flit& f, int endpoint, uint64_t now);
  void release_fanout(int in_vc, const Flit& tail, uint64_t now);
  struct FanoutWait {
    uint32_t blocker;
    uint64_t VcCounters::*cause;
    int out_port;
  };
  FanoutWait fanout_wait(int in_vc, const Flit& head, uint64_t now, bool frozen) const;
  void note_fanout_wait(int in_vc, const Flit& head, const FanoutWait& w, uint64_t cycles);
  [[gnu::noinline]] void charge_fanout_stall(int in_vc, const Flit& head, uint64_t now);
  bool stream_one_port(uint64_t now);
  bool stream_fanout_port(uint64_t now);
  uint64_t requested_outputs(int ivc) const;
  void move_granted(int ivc, int ip, uint64_t outs, uint64_t now);
  bool front_ready_by(uint64_t now) const;
  int offer(int ip, uint64_t now) const;
  // The first VC of input port `ip`, round-robin from rr_[ip], for which `can_move(vc)`; -1 if none.
  template <typename CanMove>
  int round_robin_vc(int ip, CanMove can_move) const {
    const int nv = vcs_of_port(ip);
    for (int k = 0; k < nv; ++k) {
      int v = rr_[ip] + k;
      if (v >= nv) v -= nv;
      const int ivc = ip * vcs_ + v;
      if (can_move(ivc)) return ivc;
    }
    return -1;
  }
  bool can_send(int out_vc, uint64_t now) const;
  // Bit `in_vc` of a mask of input VCs; with more than 64 (where the masks are not read) any bit.
  static uint64_t vc_bit(int in_vc) { return uint64_t{1} << (in_vc & 63); }
  // Input port `ip`'s round-robin pointer after VC `ivc` moved: the next VC of the port, wrapping (no divide).
  uint8_t next_vc(int ip, int ivc) const {
    const int v = mod_vcs(ivc) + 1;
    return static_cast<uint8_t>(v >= vcs_of_port(ip) ? 0 : v);
  }
  // models/router_move.hpp
  template <bool kOneVc = false>
  void move_flit(int in_vc, int in_port, uint64_t now);
  [[gnu::noinline]] void release_output(int in_vc, const Flit& tail, uint64_t now);
  // Worm `msg`, whose tail has left, gives up output VC `o`.
  void give_up_output(int o, uint32_t msg, uint64_t now) {
    OutputVC& ov = out_[o];
    if (ctx_->channel_trace) {
      const int port = out_port_of(o);
      const int vc = is_ejection(o) ? 0 : mod_vcs(o);
      ctx_->channel_trace->push_back(ChannelUse{node_, static_cast<int16_t>(port), static_cast<int16_t>(vc), msg,
                                                ov.since, now + 1});
    }
    ov.previous = ov.owner;
    ov.owner = kNoMessage;
    held_tries_ = 0;
  }
  // A head queued right behind the tail that just left `iv` has been waiting for that worm since it was ready.
  void charge_head_behind(const InputVC& iv, const Flit& tail, uint64_t now) {
    if (iv.q.empty()) return;
    const Flit& next = iv.q.front();
    if (next.head && next.ready <= now) ctx_->charge_stall(next.msg, tail.msg, now + 1 - next.ready);
  }
  // The ejection channel(s) to the router's endpoint `local` (its index here)
  // that the port model allows a worm in input VC `in_vc`.
  Candidates ejection_candidates(int in_vc, int local) const {
    const int base = link_ports_ * vcs_ + local * ej_per_endpoint_;
    switch (ctx_->ports.kind) {
      case PortKind::OnePort: return {base, base + 1};
      case PortKind::AllPort: {
        // The channel of the link it arrives on; a worm that never left its router (0 hops) takes channel 0.
        const int ip = in_port_of(in_vc);
        const int ch = ip < link_ports_ ? ip : 0;
        return {base + ch, base + ch + 1};
      }
      default: return {base, base + ej_per_endpoint_};
    }
  }
  [[gnu::noinline]] void header_left(int in_vc, int in_port, uint32_t msg);
  void charge_stalls(uint64_t now);
  // Input VC `in_vc`'s front is ready by `now`.
  void charge_stall(int in_vc, uint64_t now);
  VcCounters& counters(int in_vc) const { return ctx_->vc_counters[counter_base_ + in_vc]; }
  // The cycle a flit now in input port `ip`'s buffer was put there, from its ready time.
  uint64_t arrival_of(int ip, const Flit& f) const;
  template <bool kOneVc = false>
  void after_pop(int in_vc, int in_port, const Flit& popped);
  bool port_has_head(int ip) const;
  bool port_has_flits(int ip) const;
  static ArenaLayout layout(int link_ports, int inj_channels, int ej_channels, int vcs, int depth);
  void build_arena(std::byte* base, uint16_t depth);

  // Hot state: everything a step reads, in two cache lines. The rest of the
  // router's state lives in the arena right behind the object (ModulePool), so
  // stepping a router touches a few neighbouring cache lines.
  alignas(64) InputVC* in_ = nullptr;  // in_ports_ * vcs_ (injection ports use VC 0 only)
  OutputVC* out_ = nullptr;            // link_ports_ * vcs_ link VCs, then ej_channels_ ejection channels
  uint64_t occupied_ports_ = 0;        // input ports with at least one flit buffered
  uint64_t head_ports_ = 0;            // input ports with a head at the front of some VC
  uint64_t express_ports_ = 0;         // input ports an express worm is draining (not in occupied_ports_)
  uint64_t fanout_ports_ = 0;          // input ports with a VC holding a multidestination worm
  SimContext* ctx_;
  uint8_t* rr_ = nullptr;              // round-robin pointers: in_ports_ (VC per input port), then out_ports_
  int vcs_;
  int link_ports_;
  int in_ports_;
  int va_next_ = 0;                    // VC allocation round-robin pointer, over input VCs
  VcDivider vc_div_;                   // x / vcs_ without a divide instruction
  bool active_ = false;
  // The streaming shortcut (stream_one_port) may run: run.fast_paths, and no
  // multidestination worm here (fanout_ports_ == 0), whose copies it does not make.
  bool stream_;
  bool one_vc_;                        // run.fast_paths with one VC per port: step_one_vc
  // Input VCs whose worm holds a unicast output VC (out >= 0): the switch's
  // offers visit only these (offer). Read only with at most 64 input VCs.
  uint64_t holding_vcs_ = 0;
  // Cold
  RouterScratch* scratch_;             // per-cycle scratch, shared by all routers (stepped one at a time)
  int node_;
  int inj_channels_, ej_channels_;    // of all its endpoints
  int out_ports_;
  int first_endpoint_;                 // its endpoints are first_endpoint_.. (ejection picks the destination's)
  int ej_per_endpoint_;
  int n_in_vc_ = 0, n_out_vc_ = 0;
  int counter_base_ = 0;               // its first input VC in SimContext::vc_counters
  // Several VCs per port only (kept at 0 with one): the input VCs that are
  // express stages, and the output ports they feed.
  uint64_t express_vcs_ = 0;
  uint64_t express_outs_ = 0;
  std::unique_ptr<Fanout[]> fanouts_;  // per input VC, made when the first multidestination head comes
  // Input VCs (the first 64) whose adaptive head failed its last try with every
  // candidate output VC held: none is free before this router releases one,
  // which clears them all, so their tries until then are skipped.
  uint64_t held_tries_ = 0;
};

}  // namespace wormsim

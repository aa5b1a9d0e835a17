#include "models/router.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <stdexcept>
#include <string>

#include "models/express_worms.hpp"
#include "models/flit_transfer.hpp"
#include "models/network_interface.hpp"
#include "models/port_bits.hpp"
#include "models/router_move.hpp"

namespace wormsim {

namespace {
constexpr size_t align8(size_t n) { return (n + 7) & ~size_t{7}; }
}  // namespace

Router::Router(int node, int link_ports, const RouterEndpoints& endpoints, SimContext* ctx, std::byte* arena)
    : ctx_(ctx),
      vcs_(ctx->vcs),
      link_ports_(link_ports),
      in_ports_(link_ports + endpoints.count * endpoints.inj_channels),
      vc_div_(ctx->vcs),
      stream_(ctx->fast_paths),
      one_vc_(ctx->fast_paths && ctx->vcs == 1),
      scratch_(&ctx->scratch),
      node_(node),
      inj_channels_(endpoints.count * endpoints.inj_channels),
      ej_channels_(endpoints.count * endpoints.ej_channels),
      out_ports_(link_ports + ej_channels_),
      first_endpoint_(endpoints.first),
      ej_per_endpoint_(endpoints.ej_channels) {
  if (in_ports_ > kMaxRouterPorts || out_ports_ > kMaxRouterPorts)
    throw std::invalid_argument("router " + std::to_string(node) + ": more than " +
                                std::to_string(kMaxRouterPorts) + " input or output ports");
  if (in_ports_ * vcs_ > VcDivider::kMaxDividend)
    throw std::invalid_argument("router " + std::to_string(node) + ": too many virtual channels");
  build_arena(arena, static_cast<uint16_t>(ctx->buffer_flits));
  ctx->scratch.reserve(std::max<int>(in_ports_, static_cast<int>(ctx->scratch.offer.size())),
                       std::max<int>(out_ports_, static_cast<int>(ctx->scratch.granted.size())));
}

struct Router::ArenaLayout {
  size_t in, out, flits, rr, total;
};

// Where each per-router array goes in the arena: VC states first (read on every
// step), then flit buffers (only when flits move), then wiring.
Router::ArenaLayout Router::layout(int link_ports, int inj_channels, int ej_channels, int vcs, int depth) {
  const size_t in_ports = static_cast<size_t>(link_ports + inj_channels);
  const size_t out_ports = static_cast<size_t>(link_ports + ej_channels);
  const size_t n_in_vc = in_ports * vcs;
  const size_t n_out_vc = static_cast<size_t>(link_ports) * vcs + ej_channels;
  ArenaLayout l{};
  size_t off = 0;
  auto take = [&off](size_t bytes) {
    const size_t at = off;
    off += align8(bytes);
    return at;
  };
  l.in = take(sizeof(InputVC) * n_in_vc);
  l.rr = take(in_ports + out_ports);
  l.out = take(sizeof(OutputVC) * n_out_vc);
  off = (off + 63) & ~size_t{63};  // a 4-flit buffer is then exactly one cache line
  l.flits = take(sizeof(Flit) * n_in_vc * depth);
  l.total = off;
  return l;
}

size_t Router::arena_bytes(int link_ports, int inj_channels, int ej_channels, int vcs, int buffer_flits) {
  return layout(link_ports, inj_channels, ej_channels, vcs, buffer_flits).total;
}

void Router::build_arena(std::byte* base, uint16_t depth) {
  const ArenaLayout l = layout(link_ports_, inj_channels_, ej_channels_, vcs_, depth);
  n_in_vc_ = in_ports_ * vcs_;
  n_out_vc_ = link_ports_ * vcs_ + ej_channels_;
  auto* flits = reinterpret_cast<Flit*>(base + l.flits);
  in_ = new (base + l.in) InputVC[n_in_vc_];
  out_ = new (base + l.out) OutputVC[n_out_vc_];
  rr_ = reinterpret_cast<uint8_t*>(base + l.rr);
  for (int i = 0; i < n_in_vc_; ++i) in_[i].q.bind(flits + static_cast<size_t>(i) * depth, depth);
}

void Router::connect_output(int port, Router* downstream, int downstream_port, int link_id) {
  for (int v = 0; v < vcs_; ++v) {
    OutputVC& ov = out_[port * vcs_ + v];
    ov.down = &downstream->in_[downstream_port * vcs_ + v].q;
    ov.dst = downstream;
    ov.dst_port = static_cast<int16_t>(downstream_port);
    ov.link = link_id;
  }
}

// True when a VC of a port the router looks at holds a front flit ready by
// cycle `now`. Without one, every phase of the step would pass over every VC:
// what a head waits out in the router's pipeline (router_delay > 1) costs no step.
// (Taking such a router out of the active set until its first front is ready
// cost more than these steps: docs/performance.md.)
[[gnu::always_inline]] inline bool Router::front_ready_by(uint64_t now) const {
  for (uint64_t ports = occupied_ports_ | head_ports_; ports; ports &= ports - 1) {
    const int ip = __builtin_ctzll(ports);
    for (int i = ip * vcs_, end = i + vcs_of_port(ip); i < end; ++i)
      if (in_[i].q.front_ready() <= now) return true;
  }
  return false;
}

// Each phase visits only the input ports that can matter to it, in the order a
// scan of every port would: switch allocation the ports holding flits
// (occupied_ports_), VC allocation and stall accounting the ports with a head at
// the front of a VC (head_ports_). Skipping the others changes nothing but the
// cost: a worm streaming through a router costs one port visit per cycle.
void Router::step(uint64_t now) {
  if (stream_ && (stream_one_port(now) || !front_ready_by(now))) return;
  // stream_ is off while a multidestination worm is here; it has its own shortcut.
  if (fanout_ports_ && ctx_->fast_paths && (stream_fanout_port(now) || !front_ready_by(now))) return;
  if (one_vc_ && !fanout_ports_) return step_one_vc(now);
  allocate_vcs(now);
  // A multidestination head met in allocate_vcs clears stream_ before its first switch allocation.
  if (stream_ || !fanout_ports_) allocate_switch(now);
  else allocate_switch_with_fanout(now);
  charge_stalls(now);
}

// The common case in a broadcast: flits on one input port only, and no head at
// the front of any VC (a worm streaming through). Then VC allocation has nothing
// to do, the port's offer is the only request, and no head can be charged a
// stall: a head that becomes the front when a tail leaves sits in the VC that
// just moved. The result is the full step's, at a fraction of the cost.
// Flattened: the whole flit move is inlined here; eject and release_output stay out of line.
[[gnu::flatten]] bool Router::stream_one_port(uint64_t now) {
  const uint64_t ports = occupied_ports_;
  if (head_ports_ != 0 || ports == 0 || (ports & (ports - 1)) != 0) return false;
  const int ip = __builtin_ctzll(ports);
  int ivc;
  if (vcs_of_port(ip) == 1) {
    // One VC: it holds flits, and its front is not a head, so its worm holds an output.
    ivc = ip * vcs_;
    const InputVC& iv = in_[ivc];
    if (iv.q.front_ready() > now || !can_send(iv.out, now)) return true;
  } else {
    ivc = offer(ip, now);
    if (ivc < 0) return true;
    rr_[ip] = next_vc(ip, ivc);
  }
  const int op = out_port_of(in_[ivc].out);
  rr_[in_ports_ + op] = static_cast<uint8_t>(ip + 1 == in_ports_ ? 0 : ip + 1);
  move_flit(ivc, ip, now);
  return true;
}

// --- VC allocation ----------------------------------------------------------

// Tries the ready heads of the VCs in `vcs`, in order; the VC after the first
// that took an output, or -1.
[[gnu::always_inline]] inline int Router::try_heads(uint64_t vcs, uint64_t now) {
  int next = -1;
  for (; vcs; vcs &= vcs - 1) {
    const int i = __builtin_ctzll(vcs);
    InputVC& iv = in_[i];
    if (iv.q.front_ready() <= now && try_allocate(i, iv.q.front(), now) && next < 0) next = i + 1;
  }
  return next;
}

// Heads at the front of idle input VCs, in round-robin order over input VCs
// starting at va_next_, each take a free output VC if there is one.
void Router::allocate_vcs(uint64_t now) {
  const uint64_t ports = head_ports_;
  if (!ports) return;
  if (n_in_vc_ > 64) return allocate_vcs_scan(ports, now);
  // The VCs of the ports with a head whose worm holds no output (holding_vcs_):
  // from va_next_ to the last VC, then those before it, the order of a scan
  // that starts at va_next_ and wraps. A try takes only its own VC's output,
  // so the mask read once stays right for the VCs after it.
  uint64_t idle = 0;
  for (uint64_t m = ports; m; m &= m - 1) {
    const int ip = __builtin_ctzll(m);
    idle |= low_bits(vcs_of_port(ip)) << (ip * vcs_);
  }
  idle &= ~holding_vcs_;
  const int start = va_next_;
  const int later = try_heads(idle & (~uint64_t{0} << start), now);
  const int wrapped = try_heads(idle & low_bits(start), now);
  const int next = later >= 0 ? later : wrapped;
  if (next >= 0) va_next_ = next >= n_in_vc_ ? next - n_in_vc_ : next;
}

// More than 64 input VCs (no masks): the same order, over every VC of the ports with a head.
void Router::allocate_vcs_scan(uint64_t ports, uint64_t now) {
  const int start = va_next_;
  const int start_port = in_port_of(start);
  int next = -1;
  auto visit_vcs = [&](int from, int to) {
    for (int i = from; i < to; ++i) {
      InputVC& iv = in_[i];
      if (iv.out >= 0 || iv.q.front_ready() > now) continue;
      if (try_allocate(i, iv.q.front(), now) && next < 0) next = i + 1;
    }
  };
  auto visit_ports = [&](uint64_t m) {
    for (; m; m &= m - 1) {
      const int first = __builtin_ctzll(m) * vcs_;
      visit_vcs(first, first + vcs_of_port(__builtin_ctzll(m)));
    }
  };
  // start_port from start's VC, the ports after it, those before it, then start_port's first VCs.
  const bool at_start = (ports & bit(start_port)) != 0;
  const int start_first = start_port * vcs_;
  if (at_start) visit_vcs(start, start_first + vcs_of_port(start_port));
  const uint64_t others = ports & ~bit(start_port);
  const uint64_t after = others & (~uint64_t{0} << start_port);
  visit_ports(after);
  visit_ports(others & ~after);
  if (at_start) visit_vcs(start_first, start);
  if (next >= 0) va_next_ = next >= n_in_vc_ ? next - n_in_vc_ : next;
}

// Candidate output VCs for a head, [first, last) in out_ order: the ejection
// channel(s) its port model allows, or the VCs of its next hop's port; on tori
// with dateline classes every other VC from its class on.
Router::Candidates Router::candidates(int in_vc, const Flit& head) const {
  const MessageRecord& m = ctx_->msgs[head.msg];
  if (m.multicast) return {kFanout, kFanout};
  if (head.hop == m.hops) return ejection_candidates(in_vc, m.dst - first_endpoint_);
  const RouteHop& h = ctx_->route_of(head.msg)[head.hop];
  if (h.port == kChosenInRouter) return {kAskRouting, kAskRouting};
  const int first = h.port * vcs_;
  return {first + (ctx_->dateline_classes ? h.vc_class : 0), first + vcs_};
}

bool Router::try_allocate(int in_vc, const Flit& head, uint64_t now) {
  InputVC& iv = in_[in_vc];
  if (iv.want_first == kNotLookedUp) {
    const Candidates c = candidates(in_vc, head);
    iv.want_first = static_cast<int16_t>(c.first);
    iv.want_last = static_cast<int16_t>(c.last);
  }
  if (iv.want_first < 0) return iv.want_first == kAskRouting ? allocate_adaptive(in_vc, head, now)
                                                             : allocate_fanout(in_vc, head, now);
  const int stride = ctx_->dateline_classes && !is_ejection(iv.want_first) ? 2 : 1;
  for (int o = iv.want_first; o < iv.want_last; o += stride) {
    if (out_[o].owner != kNoMessage) continue;
    out_[o].owner = head.msg;
    out_[o].since = now;
    iv.out = o;
    holding_vcs_ |= vc_bit(in_vc);
    if (express_outs_ != 0 && (express_outs_ & bit(out_port_of(o)))) output_port_shared(out_port_of(o));
    return true;
  }
  return false;
}

// The outputs the routing function allows a head of an adaptive hop (in ctx_'s scratch).
const std::vector<RouteOutput>& Router::ask_routing(int in_vc, const Flit& head) const {
  const MessageRecord& m = ctx_->msgs[head.msg];
  const int ip = in_port_of(in_vc);
  const Topology& topo = ctx_->routing->topology();  // messages join endpoints; routing functions, routers
  const RouteQuery q{node_, topo.endpoint_router(m.src), topo.endpoint_router(m.dst),
                     ip < link_ports_ ? ip : kInjectedHeader, mod_vcs(in_vc)};
  std::vector<RouteOutput>& outs = ctx_->route_outputs;
  outs.clear();
  ctx_->routing->outputs(q, outs);
  if (outs.empty())
    throw std::logic_error("routing function allows no output at router " + std::to_string(node_) + " for message " +
                           std::to_string(head.msg));
  return outs;
}

// An adaptive hop: of the free output VCs the routing function allows, the one
// of the lowest tier with the most credits (free slots downstream, as the
// sender sees them); ties go to the output listed first (ports in increasing
// order for the shipped functions), then to the lowest VC. Under a function
// that needs it (RoutingFunction::needs_empty_vcs: Duato's protocol), a VC is
// free only once the previous worm's flits have all left its downstream
// buffer and their credits are back (BookSim's wait_for_tail_credit: a
// buffer emptied in this cycle is not free before credit_delay cycles later,
// whichever router steps first). The hop taken is written into the message's
// route.
bool Router::allocate_adaptive(int in_vc, const Flit& head, uint64_t now) {
  if (in_vc < 64 && (held_tries_ & bit(in_vc))) {
#ifdef WORMSIM_CHECKED
    check_skipped_try(in_vc, head, now);
#endif
    return false;
  }
  int best = -1, best_tier = 0, best_credits = 0;
  bool all_held = true;
  const std::vector<RouteOutput>& outs = ask_routing(in_vc, head);
  for (const RouteOutput& o : outs)
    for (int v = o.vc_first; v < o.vc_last; v += o.vc_stride) {
      const int ovc = o.port * vcs_ + v;
      if (out_[ovc].owner != kNoMessage) continue;
      all_held = false;
      if (ctx_->adaptive_empty_vcs && !out_[ovc].down->drained_by(now)) continue;
      const int credits = out_[ovc].down->credits(now);
      if (best >= 0 && (o.tier > best_tier || (o.tier == best_tier && credits <= best_credits))) continue;
      best = ovc;
      best_tier = o.tier;
      best_credits = credits;
    }
  if (best < 0) {
    // A routing function's answer depends on the query alone: its first output
    // stays the one the head waits for (allocation_blocker), asked no more.
    in_[in_vc].want_last = static_cast<int16_t>(first_vc_of(outs.front()));
    // Held VCs stay held until this router releases one (give_up_output): tries until then would fail too.
    if (all_held && in_vc < 64) held_tries_ |= bit(in_vc);
    return false;
  }
  RouteHop& hop = ctx_->hops[ctx_->msgs[head.msg].route_begin + head.hop];
  hop.port = static_cast<uint16_t>(div_vcs(best));
  hop.vc_class = static_cast<uint8_t>(mod_vcs(best));
  out_[best].owner = head.msg;
  out_[best].since = now;
  in_[in_vc].out = best;
  holding_vcs_ |= vc_bit(in_vc);
  if (express_outs_ != 0 && (express_outs_ & bit(hop.port))) output_port_shared(hop.port);
  return true;
}

// The worm a head failed to get an output from: the holder of its first
// candidate, or, when the holder's tail left in this very cycle (after
// allocation ran), that worm. An adaptive head's first candidate is kept in
// want_last once it has failed.
uint32_t Router::allocation_blocker(int in_vc, const Flit& head) const {
  const InputVC& iv = in_[in_vc];
  int o = iv.want_first >= 0 ? iv.want_first : candidates(in_vc, head).first;
  if (o == kAskRouting) o = first_adaptive_output(in_vc, head);
  return out_[o].owner != kNoMessage ? out_[o].owner : out_[o].previous;
}

int Router::first_adaptive_output(int in_vc, const Flit& head) const {
  if (in_[in_vc].want_last >= 0) return in_[in_vc].want_last;
  return first_vc_of(ask_routing(in_vc, head).front());
}

#ifdef WORMSIM_CHECKED
// A try skipped because every VC it could take was held (held_tries_) must still find them all held.
void Router::check_skipped_try(int in_vc, const Flit& head, uint64_t now) const {
  for (const RouteOutput& o : ask_routing(in_vc, head))
    for (int v = o.vc_first; v < o.vc_last; v += o.vc_stride)
      if (out_[o.port * vcs_ + v].owner == kNoMessage) {
        std::fprintf(stderr, "wormsim: invariant broken at cycle %llu: a skipped adaptive try had a free VC\n",
                     static_cast<unsigned long long>(now));
        std::abort();
      }
}
#endif

// --- switch allocation ------------------------------------------------------

// Separable, input first: each occupied input port offers one VC (round-robin
// from rr_[ip]) that holds an output, is ready and has a credit; each requested
// output grants one input port (round-robin from rr_[in_ports_ + op]).
void Router::allocate_switch(uint64_t now) {
  RouterScratch& s = *scratch_;
  uint64_t requested = 0;  // output ports with at least one request
  for (uint64_t ports = occupied_ports_; ports; ports &= ports - 1) {
    const int ip = __builtin_ctzll(ports);
    const int ivc = offer(ip, now);
    s.offer[ip] = ivc;
    if (ivc < 0) continue;
    const int op = out_port_of(in_[ivc].out);
    s.requests[op] |= bit(ip);
    requested |= bit(op);
  }
  s.requested_outs = requested;
  for (uint64_t outs = requested; outs; outs &= outs - 1) {
    const int op = __builtin_ctzll(outs);
    uint8_t& rr = rr_[in_ports_ + op];
    const int ip = first_set_from(s.requests[op], rr);
    s.requests[op] = 0;
    const int ivc = s.offer[ip];
    const uint32_t msg = in_[ivc].q.front().msg;
    s.granted[op] = msg;
    s.moved_ports |= bit(ip);  // for stall accounting: an input port moves at most one flit
    s.moved_vc[ip] = ivc;
    s.moved_msg[ip] = msg;
    move_flit(ivc, ip, now);
    rr = static_cast<uint8_t>(ip + 1 == in_ports_ ? 0 : ip + 1);
    rr_[ip] = next_vc(ip, ivc);
  }
}

// The rest of this worm in this VC is the express loop's from the next cycle.
void Router::header_left(int in_vc, int in_port, uint32_t msg) {
  ctx_->headers_left.push_back(
      SimContext::HeaderLeft{this, static_cast<int16_t>(in_vc), static_cast<int16_t>(in_port), msg});
}

// A header or tail left the network: its message's timestamps, and the traffic sources' event.
void Router::eject(const Flit& f, uint64_t now) {
  MessageRecord& m = ctx_->msgs[f.msg];
  if (f.head) m.header_arrival = now;
  if (f.tail) {
    m.delivered = now;
    ctx_->delivered_now.push_back(f.msg);
  }
}

// The tail `tail` has just left input VC `in_vc`: the worm gives up its output.
void Router::release_output(int in_vc, const Flit& tail, uint64_t now) {
  InputVC& iv = in_[in_vc];
  give_up_output(iv.out, tail.msg, now);
  iv.out = -1;
  holding_vcs_ &= ~vc_bit(in_vc);
  iv.want_first = iv.want_last = kNotLookedUp;  // the next head looks its candidates up again
  charge_head_behind(iv, tail, now);
}

bool Router::port_has_flits(int ip) const {
  for (int i = ip * vcs_, end = i + vcs_of_port(ip); i < end; ++i)
    if (!in_[i].q.empty()) return true;
  return false;
}

bool Router::port_has_head(int ip) const {
  for (int i = ip * vcs_, end = i + vcs_of_port(ip); i < end; ++i)
    if (!in_[i].q.empty() && in_[i].q.front().head) return true;
  return false;
}

// --- express worms ------------------------------------------------------------

// With one VC per port nothing else can use the port or the output the worm
// holds. With several, the router would arbitrate between this worm and
// another VC of its input port, or another worm holding a VC of its output
// port; the express loop makes no such choices, so the stage stays the
// router's. The round-robin pointers need no care: the header's move set them
// to this VC and port, and every move of this worm alone would set them the same.
bool Router::shared_port_free(int in_vc) const {
  if (n_in_vc_ > 64) return false;  // express_vcs_ is a mask
  const int ip = in_port_of(in_vc);
  if (express_ports_ & bit(ip)) return false;
  for (int i = ip * vcs_, end = i + vcs_of_port(ip); i < end; ++i)
    if (i != in_vc && !in_[i].q.empty()) return false;
  const int o = in_[in_vc].out;
  if (is_ejection(o)) return true;
  for (int v = div_vcs(o) * vcs_, end = v + vcs_; v < end; ++v)
    if (v != o && out_[v].owner != kNoMessage) return false;
  return true;
}

// The port's flits, from now on, are the express loop's: the router stops
// offering them (occupied_ports_), and flits arriving on it do not wake it.
// Its front is the express worm's body (its header has left), so it holds no head.
void Router::begin_shared_express(int in_vc) {
  const int ip = in_port_of(in_vc);
  express_ports_ |= bit(ip);
  occupied_ports_ &= ~bit(ip);
  express_vcs_ |= bit(in_vc);
  const int op = out_port_of(in_[in_vc].out);
  if (op < link_ports_) express_outs_ |= bit(op);
}

void Router::clear_express_masks(int in_vc) {
  if (vcs_ == 1) return;
  express_vcs_ &= ~bit(in_vc);
  const int op = out_port_of(in_[in_vc].out);
  if (op < link_ports_) express_outs_ &= ~bit(op);
}

// Another worm's flit (a header: its first flit here) came into another VC of
// an express port. It cannot move before the next cycle, so the express stage
// goes back to this router at the end of this one (ExpressWorms::hand_back_marked).
void Router::arrived_at_express_port(int in_port, const FlitQueue& q) {
  const auto at = reinterpret_cast<const std::byte*>(&q) - reinterpret_cast<const std::byte*>(&in_[0].q);
  const int in_vc = static_cast<int>(at / static_cast<std::ptrdiff_t>(sizeof(InputVC)));
  if (express_vcs_ & bit(in_vc)) return;  // the express worm's own VC
  for (int i = in_port * vcs_, end = i + vcs_of_port(in_port); i < end; ++i)
    if (express_vcs_ & bit(i)) ctx_->express_loop->hand_back_later(this, i);
}

// A head has just taken a VC of output port `out_port`, which an express
// stage of this router feeds: both may want the switch in this very cycle, so
// the stage is the router's from now on (this step's switch allocation sees it).
void Router::output_port_shared(int out_port) {
  for (uint64_t m = express_vcs_; m; m &= m - 1) {
    const int i = __builtin_ctzll(m);
    if (out_port_of(in_[i].out) == out_port) ctx_->express_loop->hand_back_now(this, i);
  }
}

void Router::leave_express(int in_vc) {
  clear_express_masks(in_vc);
  port_back_from_express(in_port_of(in_vc));
}

// The tail's move was the express loop's (ExpressWorms::step_routers, the same
// move as move_flit); the rest is what a router does when a tail leaves
// (release_output, after_pop), and the port's remaining flits, if any, wake it.
void Router::end_express(int in_vc, int ip, const Flit& tail, uint64_t now) {
  if (vcs_ > 1) {
    clear_express_masks(in_vc);
    release_output(in_vc, tail, now);
    return port_back_from_express(ip);
  }
  release_output(in_vc, tail, now);
  express_ports_ &= ~bit(ip);
  const FlitQueue& q = in_[in_vc].q;
  if (q.empty()) return;
  occupied_ports_ |= bit(ip);
  if (q.front().head) head_ports_ |= bit(ip);
  if (!active_) {
    active_ = true;
    ctx_->woken_routers.push_back(this);
  }
}

// Input port `ip` is the router's again; its flits, if any (with several VCs,
// also another worm's that came in meanwhile), wake it.
void Router::port_back_from_express(int ip) {
  express_ports_ &= ~bit(ip);
  bool head;
  if (vcs_of_port(ip) == 1) {
    const FlitQueue& q = in_[ip * vcs_].q;
    if (q.empty()) return;
    head = q.front().head;
  } else {
    if (!port_has_flits(ip)) return;
    head = port_has_head(ip);
  }
  occupied_ports_ |= bit(ip);
  if (head) head_ports_ |= bit(ip);
  if (!active_) {
    active_ = true;
    ctx_->woken_routers.push_back(this);
  }
}

// --- stall accounting -------------------------------------------------------

// Every ready head that did not move this cycle is charged one cycle, against
// the worm it waits behind.
void Router::charge_stalls(uint64_t now) {
  RouterScratch& s = *scratch_;
  for (uint64_t ports = head_ports_; ports; ports &= ports - 1) {
    const int ip = __builtin_ctzll(ports);
    for (int i = ip * vcs_, end = i + vcs_of_port(ip); i < end; ++i)
      if (in_[i].q.front_ready() <= now) charge_stall(i, now);  // most VCs are empty or their front not ready
  }
  // granted[] is not cleared: it is read only for this step's requested_outs, each of which the switch allocation set.
  s.moved_ports = 0;
}

void Router::charge_stall(int in_vc, uint64_t now) {
  const RouterScratch& s = *scratch_;
  InputVC& iv = in_[in_vc];
  const Flit& f = iv.q.front();
  const int ip = in_port_of(in_vc);
  if (!f.head || s.moved(ip, in_vc)) return;
  if (iv.want_first == kFanout) return charge_fanout_stall(in_vc, f, now);
  uint32_t blocker;
  uint64_t VcCounters::*cause;  // which of the VC's stall counters the cycle goes to (output.router_stats)
  if (iv.out < 0) {
    blocker = allocation_blocker(in_vc, f);
    cause = &VcCounters::vc_alloc;
  } else if (!can_send(iv.out, now)) {
    blocker = out_[iv.out].previous;  // its flits still fill the FIFO downstream
    cause = &VcCounters::credit;
  } else {
    cause = &VcCounters::switch_alloc;
    const int op = out_port_of(iv.out);
    // Lost the output to another input, or lost its input port to another VC.
    const bool lost_output = (s.requested_outs & bit(op)) && s.granted[op] != f.msg;
    const bool port_moved = s.offer[ip] >= 0 && s.moved(ip, s.offer[ip]);
    blocker = lost_output ? s.granted[op] : port_moved ? s.moved_msg[ip] : kNoMessage;
  }
  ctx_->charge_stall(f.msg, blocker, 1);
  if (ctx_->vc_counters) ++(counters(in_vc).*cause);
}

uint64_t Router::next_timed_event(uint64_t now) const {
  uint64_t next = kNever;  // == FlitQueue::kNoCredit: an empty front or a full buffer falls due never
  for (int i = 0; i < n_in_vc_; ++i) {
    const FlitQueue& q = in_[i].q;
    if (q.front_ready() > now) next = std::min(next, q.front_ready());
    if (q.credit_time() > now) next = std::min(next, q.credit_time());
    // Under Duato's rule a free VC becomes takeable once its last credit is
    // seen (FlitQueue::drained_by), after its first: a head may wait for that alone.
    if (ctx_->adaptive_empty_vcs && q.last_credit_time() > now) next = std::min(next, q.last_credit_time());
  }
  return next;
}

// In a frozen network every ready head is blocked by the same worm in every
// cycle: the holder of the output it wants, or (holding it, without a credit)
// the worm whose flits fill the buffer downstream. A head that holds its output
// and has a credit would have moved.
void Router::charge_frozen_stalls(uint64_t now, uint64_t cycles) {
  for (uint64_t ports = head_ports_; ports; ports &= ports - 1) {
    const int ip = __builtin_ctzll(ports);
    for (int i = ip * vcs_, end = i + vcs_of_port(ip); i < end; ++i) {
      const InputVC& iv = in_[i];
      if (iv.q.front_ready() > now || !iv.q.front().head) continue;
      if (iv.want_first == kFanout || ctx_->msgs[iv.q.front().msg].multicast) {
        note_fanout_wait(i, iv.q.front(), fanout_wait(i, iv.q.front(), now, true), cycles);
        continue;
      }
      const uint32_t blocker = iv.out < 0 ? allocation_blocker(i, iv.q.front()) : out_[iv.out].previous;
      ctx_->charge_stall(iv.q.front().msg, blocker, cycles);
      if (ctx_->vc_counters) (iv.out < 0 ? counters(i).vc_alloc : counters(i).credit) += cycles;
    }
  }
}

// --- router statistics --------------------------------------------------------

uint64_t Router::arrival_of(int ip, const Flit& f) const {
  const Timing& t = ctx_->timing;
  const auto delay = static_cast<uint64_t>(ip < link_ports_ ? t.link_delay + t.router_delay : t.router_delay);
  return f.ready - delay;
}

void Router::count_departure(int in_vc, int in_port, const Flit& f, uint64_t now) {
  counters(in_vc).flit_cycles += now - arrival_of(in_port, f);
}

void Router::add_present_flit_cycles(uint64_t end, VcCounters* into) const {
  for (int i = 0; i < n_in_vc_; ++i) {
    const FlitQueue& q = in_[i].q;
    for (uint16_t k = 0; k < q.size(); ++k) into[counter_base_ + i].flit_cycles += end - arrival_of(in_port_of(i), q.at(k));
  }
}

std::vector<Router::Wait> Router::waiting_heads(uint64_t now) const {
  std::vector<Wait> w;
  for (int i = 0; i < n_in_vc_; ++i) {
    const InputVC& iv = in_[i];
    if (iv.q.empty() || !iv.q.front().head || iv.q.front().ready > now) continue;
    const Flit& f = iv.q.front();
    if (iv.want_first == kFanout || ctx_->msgs[f.msg].multicast) {
      const FanoutWait fw = fanout_wait(i, f, now, true);
      w.push_back(Wait{in_port_of(i), i % vcs_, f.msg, fw.blocker, fw.out_port});
      continue;
    }
    w.push_back(Wait{in_port_of(i), i % vcs_, f.msg, iv.out < 0 ? allocation_blocker(i, f) : out_[iv.out].previous,
                     requested_port(i, f)});
  }
  return w;
}

std::vector<Router::Wait> Router::queued_heads() const {
  std::vector<Wait> w;
  for (int i = 0; i < n_in_vc_; ++i) {
    const FlitQueue& q = in_[i].q;
    for (uint16_t k = 1; k < q.size(); ++k)
      if (q.at(k).head) w.push_back(Wait{in_port_of(i), i % vcs_, q.at(k).msg, q.at(k - 1).msg, requested_port(i, q.at(k))});
  }
  return w;
}

void Router::add_flit_traces(std::unordered_map<uint32_t, FlitTrace>& traces) const {
  for (int i = 0; i < n_in_vc_; ++i) {
    const FlitQueue& q = in_[i].q;
    for (uint16_t k = 0; k < q.size(); ++k) {
      const auto t = traces.find(q.at(k).msg);
      if (t == traces.end()) continue;
      ++t->second.flits;
      t->second.ready_sum += q.at(k).ready;
    }
  }
}

// The output port head `f` in input VC `in_vc` asks for (its first branch's, for a multidestination worm).
int Router::requested_port(int in_vc, const Flit& f) const {
  const MessageRecord& m = ctx_->msgs[f.msg];
  if (m.multicast) return out_port_of(branch_candidates(in_vc, ctx_->route_of(f.msg)[f.hop]).first);
  if (f.hop == m.hops) return link_ports_;
  const RouteHop& h = ctx_->route_of(f.msg)[f.hop];
  return h.port != kChosenInRouter ? h.port : ask_routing(in_vc, f).front().port;
}

bool Router::credits_consistent(uint64_t now) const {
  for (int i = 0; i < n_in_vc_; ++i) {
    const FlitQueue& q = in_[i].q;
    if (!q.consistent() || !q.all_credits_seen_by(now + static_cast<uint64_t>(ctx_->timing.credit_delay))) return false;
  }
  return true;
}

int Router::buffered() const {
  int n = 0;
  for (int i = 0; i < n_in_vc_; ++i) n += in_[i].q.size();
  return n;
}

bool Router::buffers_within_capacity() const {
  uint64_t holding = 0;  // what holding_vcs_ should be
  for (int ip = 0; ip < in_ports_; ++ip) {
    int port_flits = 0;
    for (int i = ip * vcs_, end = i + vcs_; i < end; ++i) {
      if (in_[i].q.size() > in_[i].q.capacity()) return false;
      port_flits += in_[i].q.size();
      if (in_[i].out >= 0) holding |= vc_bit(i);
    }
    // An express worm's port is not the router's to move: never occupied, whatever it holds.
    const bool occupied = (occupied_ports_ & bit(ip)) != 0;
    if ((express_ports_ & bit(ip)) ? occupied : (port_flits > 0) != occupied) return false;
    if (port_has_head(ip) != ((head_ports_ & bit(ip)) != 0)) return false;
  }
  return n_in_vc_ > 64 || holding == holding_vcs_;  // beyond 64 VCs the mask is not read
}

}  // namespace wormsim

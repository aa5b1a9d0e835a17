// Multidestination worms in the router (docs/multicast.md, "The router").
//
// A multidestination worm's head, at each router it enters, names a visit of
// its route: one or more branches, each a link port (with its VC class) or an
// ejection to a local destination. The input VC it sits in then holds one
// output VC per branch:
//   - VC allocation: each branch takes a free output VC as a unicast head
//     would (the same candidates and order); the branches it got are held while
//     it waits for the rest.
//   - Switch allocation: the VC is offered only when every branch holds an
//     output with a credit (lock step); it requests all its output ports, and
//     its flit moves only in a cycle in which it is granted all of them, being
//     copied into every branch. An output port granted to it in a cycle it
//     cannot move is idle that cycle, and keeps it first in that port's
//     round-robin order (the pointer moves past an input only when it moves),
//     so it is not starved.
//   - The tail releases every branch.
// Unicast worms keep the router's own paths: these functions run only at input
// ports holding a multidestination worm (fanout_ports_).
#include <array>

#include "models/flit_transfer.hpp"
#include "models/limits.hpp"
#include "models/router.hpp"
#include "models/port_bits.hpp"
#include "models/router_move.hpp"

namespace wormsim {

// The head's visit: its branches, none held yet.
void Router::look_up_branches(int in_vc, const Flit& head) {
  if (!fanouts_) fanouts_ = std::make_unique<Fanout[]>(static_cast<size_t>(n_in_vc_));
  Fanout& fo = fanouts_[in_vc];
  const uint32_t begin = ctx_->msgs[head.msg].route_begin;
  fo.outs.clear();
  fo.next.clear();
  for (uint32_t e = begin + head.hop;; ++e) {
    fo.outs.push_back(-1);
    fo.next.push_back(ctx_->hop_next[e]);
    if (!ctx_->hops[e].more) break;
  }
  fo.missing = static_cast<int>(fo.outs.size());
  in_[in_vc].out = kFanoutOut;
  fanout_ports_ |= bit(in_port_of(in_vc));
  stream_ = false;
}

Router::Candidates Router::branch_candidates(int in_vc, const RouteHop& branch) const {
  if (branch.port == kEjectBranch) return ejection_candidates(in_vc, branch.vc_class);
  const int first = branch.port * vcs_;
  return {first + (ctx_->dateline_classes ? branch.vc_class : 0), first + vcs_};
}

// VC allocation for the head at the front of `in_vc`: each branch without an
// output takes the first free one of its candidates. True if it took any.
bool Router::allocate_fanout(int in_vc, const Flit& front, uint64_t now) {
  if (in_[in_vc].out != kFanoutOut) look_up_branches(in_vc, front);
  Fanout& fo = fanouts_[in_vc];
  if (fo.missing == 0) return false;  // its head has gone: the front is its body
  const RouteHop* visit = ctx_->route_of(front.msg) + front.hop;
  bool took = false;
  for (size_t j = 0; j < fo.outs.size(); ++j) {
    if (fo.outs[j] >= 0) continue;
    const Candidates c = branch_candidates(in_vc, visit[j]);
    const int stride = ctx_->dateline_classes && !is_ejection(c.first) ? 2 : 1;
    for (int o = c.first; o < c.last; o += stride) {
      if (out_[o].owner != kNoMessage) continue;
      out_[o].owner = front.msg;
      out_[o].since = now;
      fo.outs[j] = o;
      --fo.missing;
      took = true;
      if (express_outs_ != 0 && (express_outs_ & bit(out_port_of(o)))) output_port_shared(out_port_of(o));
      break;
    }
  }
  return took;
}

bool Router::fanout_can_send(int in_vc, uint64_t now) const {
  const Fanout& fo = fanouts_[in_vc];
  if (fo.missing != 0) return false;
  for (int32_t o : fo.outs)
    if (!can_send(o, now)) return false;
  return true;
}

uint64_t Router::fanout_out_ports(int in_vc) const {
  uint64_t ports = 0;
  for (int32_t o : fanouts_[in_vc].outs) ports |= bit(out_port_of(o));
  return ports;
}

// offer() at a port where some VC holds a multidestination worm.
int Router::offer_with_fanout(int ip, uint64_t now) const {
  return round_robin_vc(ip, [&](int ivc) {
    const InputVC& iv = in_[ivc];
    if (iv.q.front_ready() > now) return false;
    return is_fanout(ivc) ? fanout_can_send(ivc, now) : iv.out >= 0 && can_send(iv.out, now);
  });
}

// stream_one_port() where a multidestination worm streams: flits on one input
// port only and no head at the front of any VC. Then VC allocation has nothing
// to do, the port's offer is the only request and is granted every output port
// it asks for, and no head can be charged a stall: the outcome of the full step.
[[gnu::flatten]] bool Router::stream_fanout_port(uint64_t now) {
  const uint64_t ports = occupied_ports_;
  if (head_ports_ != 0 || ports == 0 || (ports & (ports - 1)) != 0) return false;
  const int ip = __builtin_ctzll(ports);
  const int ivc = port_offer(ip, now);
  if (ivc >= 0) move_granted(ivc, ip, requested_outputs(ivc), now);
  return true;
}

// The VC input port `ip` offers to the switch, where some input port may hold a multidestination worm.
int Router::port_offer(int ip, uint64_t now) const {
  return (fanout_ports_ & bit(ip)) ? offer_with_fanout(ip, now) : offer(ip, now);
}

// The output ports the offer of `ivc` requests: all its branches' for a multidestination worm.
uint64_t Router::requested_outputs(int ivc) const {
  return is_fanout(ivc) ? fanout_out_ports(ivc) : bit(out_port_of(in_[ivc].out));
}

// The offer of `ivc` (input port `ip`) was granted every output port in
// `outs`: the round-robin pointers move past it, and its flit moves.
void Router::move_granted(int ivc, int ip, uint64_t outs, uint64_t now) {
  const auto after_ip = static_cast<uint8_t>(ip + 1 == in_ports_ ? 0 : ip + 1);
  for (uint64_t w = outs; w; w &= w - 1) rr_[in_ports_ + __builtin_ctzll(w)] = after_ip;
  rr_[ip] = next_vc(ip, ivc);
  if (is_fanout(ivc)) move_fanout_flit(ivc, ip, now);
  else move_flit(ivc, ip, now);
}

// allocate_switch() when some input port holds a multidestination worm: the
// same separable input-first allocation, except that an offer may request
// several output ports and moves only if it is granted all of them.
void Router::allocate_switch_with_fanout(uint64_t now) {
  RouterScratch& s = *scratch_;
  // Per input port: output ports requested, granted; per output port: the input
  // port granted it. Only the entries of ports with an offer are set and read
  // (zeroing all 64 of each was a third of a multicast run's instructions).
  PortMasks wants, won;
  PortList winner;
  uint64_t requested = 0;
  for (uint64_t ports = occupied_ports_; ports; ports &= ports - 1) {
    const int ip = __builtin_ctzll(ports);
    const int ivc = port_offer(ip, now);
    s.offer[ip] = ivc;
    if (ivc < 0) continue;
    won[ip] = 0;
    wants[ip] = requested_outputs(ivc);
    for (uint64_t w = wants[ip]; w; w &= w - 1) s.requests[__builtin_ctzll(w)] |= bit(ip);
    requested |= wants[ip];
  }
  s.requested_outs = requested;
  for (uint64_t outs = requested; outs; outs &= outs - 1) {
    const int op = __builtin_ctzll(outs);
    const int ip = first_set_from(s.requests[op], rr_[in_ports_ + op]);
    s.requests[op] = 0;
    winner[op] = ip;
    won[ip] |= bit(op);
    s.granted[op] = in_[s.offer[ip]].q.front().msg;
  }
  break_crossed_offers(wants, won, winner);
  for (uint64_t outs = requested; outs; outs &= outs - 1) {
    const int op = __builtin_ctzll(outs);
    const int ip = winner[op];
    if (won[ip] != wants[ip] || (s.moved_ports & bit(ip))) continue;  // lost one of its outputs, or moved already
    const int ivc = s.offer[ip];
    s.moved_ports |= bit(ip);
    s.moved_vc[ip] = ivc;
    s.moved_msg[ip] = in_[ivc].q.front().msg;
    move_granted(ivc, ip, wants[ip], now);
  }
}

// Multidestination offers that did not get all their ports, each of those it
// lost granted to another of them: none moves, and as a port's pointer moves
// only when its winner moves, none would ever again (two worms each first at
// a port the other needs). The first of them by input port takes all its ports.
void Router::break_crossed_offers(const PortMasks& wants, PortMasks& won, PortList& winner) {
  RouterScratch& s = *scratch_;
  uint64_t stuck = 0;
  for (uint64_t ports = occupied_ports_; ports; ports &= ports - 1) {
    const int ip = __builtin_ctzll(ports);
    if (s.offer[ip] >= 0 && is_fanout(s.offer[ip]) && won[ip] != wants[ip]) stuck |= bit(ip);
  }
  for (bool changed = stuck != 0; changed;) {  // keep those whose every lost port went to one of them
    changed = false;
    for (uint64_t m = stuck; m; m &= m - 1) {
      const int ip = __builtin_ctzll(m);
      for (uint64_t lost = wants[ip] & ~won[ip]; lost; lost &= lost - 1)
        if (!(stuck & bit(winner[__builtin_ctzll(lost)]))) {
          stuck &= ~bit(ip);
          changed = true;
          break;
        }
    }
  }
  if (stuck == 0) return;
  const int first = __builtin_ctzll(stuck);
  for (uint64_t w = wants[first]; w; w &= w - 1) {
    const int op = __builtin_ctzll(w);
    won[winner[op]] &= ~bit(op);
    winner[op] = first;
    s.granted[op] = in_[s.offer[first]].q.front().msg;
  }
  won[first] = wants[first];
}

// Moves the front flit of `in_vc` into every branch at once.
void Router::move_fanout_flit(int in_vc, int in_port, uint64_t now) {
  InputVC& iv = in_[in_vc];
  const Fanout& fo = fanouts_[in_vc];
  const FlitTransfer move(ctx_->timing, now);
  const Flit f = move.take(iv.q);
  after_pop(in_vc, in_port, f);
  ++ctx_->flits_moved;
  if (ctx_->vc_counters) count_departure(in_vc, in_port, f, now);
  ctx_->flits_injected += fo.outs.size() - 1;  // the copies made here enter the network here
  for (size_t j = 0; j < fo.outs.size(); ++j) {
    const OutputVC& ov = out_[fo.outs[j]];
    if (ov.down) {
      ++ctx_->link_busy[ov.link];
      Flit copy = move.body_across_link(f);
      if (f.head) copy.hop = fo.next[j];
      ov.dst->accept(ov.dst_port, *ov.down, copy);
      continue;
    }
    ++ctx_->flits_ejected;
    const int endpoint = first_endpoint_ + (fo.outs[j] - link_ports_ * vcs_) / ej_per_endpoint_;
    if (!ctx_->ejected_at.empty()) ++ctx_->ejected_at[static_cast<size_t>(endpoint)];
    if (f.head | f.tail) eject_copy(f, endpoint, now);
  }
  if (f.tail) release_fanout(in_vc, f, now);
}

// A copy's header or tail left the network at `endpoint`.
void Router::eject_copy(const Flit& f, int endpoint, uint64_t now) {
  MessageRecord& m = ctx_->msgs[f.msg];
  MulticastCopies& c = ctx_->copies_of_msg(f.msg);
  const size_t i = c.index_of(endpoint);
  if (f.head) {
    c.header[i] = now;
    if (m.header_arrival == kNever) m.header_arrival = now;
  }
  if (f.tail) {
    c.tail[i] = now;
    ctx_->copies_delivered_now.push_back(CopyDelivered{f.msg, endpoint});
    if (--c.left == 0) {
      m.delivered = now;
      ctx_->delivered_now.push_back(f.msg);
    }
  }
}

void Router::release_fanout(int in_vc, const Flit& tail, uint64_t now) {
  InputVC& iv = in_[in_vc];
  Fanout& fo = fanouts_[in_vc];
  for (int32_t o : fo.outs) give_up_output(o, tail.msg, now);
  fo.outs.clear();
  fo.next.clear();
  iv.out = -1;
  iv.want_first = iv.want_last = kNotLookedUp;
  const int ip = in_port_of(in_vc);
  bool other = false;
  for (int i = ip * vcs_, end = i + vcs_of_port(ip); i < end; ++i) other = other || is_fanout(i);
  if (!other) fanout_ports_ &= ~bit(ip);
  stream_ = ctx_->fast_paths && fanout_ports_ == 0;
  charge_head_behind(iv, tail, now);
}

// What the ready head at the front of `in_vc` waits for: the first branch
// without an output VC (held by another worm), else the first without a credit
// (the worm whose flits fill the buffer downstream), else the switch (the worm
// granted an output port it needed, or the one its input port moved). In a
// frozen network (`frozen`) the switch cannot be the reason: a worm granted
// a port it needs moves, and offers crossed at the switch are broken up
// (break_crossed_offers).
Router::FanoutWait Router::fanout_wait(int in_vc, const Flit& head, uint64_t now, bool frozen) const {
  const RouteHop* visit = ctx_->route_of(head.msg) + head.hop;
  const Fanout* fo = is_fanout(in_vc) ? &fanouts_[in_vc] : nullptr;  // null: not looked up yet
  for (size_t j = 0;; ++j) {
    const int o = fo ? fo->outs[j] : -1;
    if (o < 0) {
      const int first = branch_candidates(in_vc, visit[j]).first;
      const uint32_t holder = out_[first].owner != kNoMessage ? out_[first].owner : out_[first].previous;
      return {holder, &VcCounters::vc_alloc, out_port_of(first)};
    }
    if (!visit[j].more) break;
  }
  for (int32_t o : fo->outs)
    if (!can_send(o, now)) return {out_[o].previous, &VcCounters::credit, out_port_of(o)};
  const int first_port = out_port_of(fo->outs.front());
  if (frozen) return {kNoMessage, &VcCounters::credit, first_port};
  const RouterScratch& s = *scratch_;
  for (int32_t o : fo->outs) {
    const int op = out_port_of(o);
    if ((s.requested_outs & bit(op)) && s.granted[op] != head.msg) return {s.granted[op], &VcCounters::switch_alloc, op};
  }
  const int ip = in_port_of(in_vc);
  const bool port_moved = s.offer[ip] >= 0 && s.moved(ip, s.offer[ip]);
  return {port_moved ? s.moved_msg[ip] : kNoMessage, &VcCounters::switch_alloc, first_port};
}

void Router::note_fanout_wait(int in_vc, const Flit& head, const FanoutWait& w, uint64_t cycles) {
  ctx_->charge_stall(head.msg, w.blocker, cycles);
  if (ctx_->vc_counters) counters(in_vc).*w.cause += cycles;
  MulticastCopies& c = ctx_->copies_of_msg(head.msg);
  (w.out_port >= link_ports_ ? c.absorb_stalls : c.branch_stalls) += cycles;
}

void Router::charge_fanout_stall(int in_vc, const Flit& head, uint64_t now) {
  note_fanout_wait(in_vc, head, fanout_wait(in_vc, head, now, false), 1);
}

}  // namespace wormsim

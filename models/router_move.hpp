// The last stage of every router step: the offer of an input port to the
// switch (Router::offer), a flit's move through the switch (Router::move_flit)
// and the port masks it keeps up to date. Shared by the general step
// (models/router.cpp), the one-VC step (models/router_one_vc.cpp) and the
// streaming shortcut, and in a header so that each of them has it inlined;
// `kOneVc` lets a router with one VC per port read its port's only VC instead
// of scanning the port.
#pragma once

#include "models/express_worms.hpp"
#include "models/flit_transfer.hpp"
#include "models/port_bits.hpp"
#include "models/router.hpp"

namespace wormsim {

inline bool Router::can_send(int out_vc, uint64_t now) const {
  const FlitQueue* down = out_[out_vc].down;
  return !down || down->has_credit(now);
}

// The VC input port `ip` offers to the switch: the first, round-robin from
// rr_[ip], that holds an output, is ready and has a credit; -1 if none.
// With at most 64 input VCs it visits only the VCs whose worm holds an output
// (holding_vcs_), in the same order: most of a port's VCs hold none.
[[gnu::always_inline]] inline int Router::offer(int ip, uint64_t now) const {
  auto sendable = [&](int ivc) {
    const InputVC& iv = in_[ivc];
    return iv.q.front_ready() <= now && can_send(iv.out, now);
  };
  if (n_in_vc_ > 64) return round_robin_vc(ip, [&](int ivc) { return in_[ivc].out >= 0 && sendable(ivc); });
  const int first = ip * vcs_;
  const uint64_t held = (holding_vcs_ >> first) & low_bits(vcs_of_port(ip));
  if ((held & (held - 1)) == 0) return held && sendable(first + __builtin_ctzll(held)) ? first + __builtin_ctzll(held) : -1;
  auto first_sendable = [&](uint64_t m) {
    for (; m; m &= m - 1)
      if (sendable(first + __builtin_ctzll(m))) return first + __builtin_ctzll(m);
    return -1;
  };
  // From the round-robin pointer on, then the VCs before it.
  const int rr = rr_[ip];
  const int later = first_sendable(held & (~uint64_t{0} << rr));
  return later >= 0 ? later : first_sendable(held & low_bits(rr));
}

// Moves the front flit of input VC `in_vc` (on port `in_port`) through the
// switch: onto its link, into the downstream buffer, or out of the network.
template <bool kOneVc>
inline void Router::move_flit(int in_vc, int in_port, uint64_t now) {
  InputVC& iv = in_[in_vc];
  const FlitTransfer move(ctx_->timing, now);
  const Flit f = move.take(iv.q);
  after_pop<kOneVc>(in_vc, in_port, f);
  ++ctx_->flits_moved;
  if (ctx_->vc_counters) count_departure(in_vc, in_port, f, now);
  OutputVC& ov = out_[iv.out];
  if (ov.down) {
    ++ctx_->link_busy[ov.link];
    ov.dst->accept(ov.dst_port, *ov.down, move.across_link(f));
  } else {
    ++ctx_->flits_ejected;
    ctx_->count_ejected(f.msg, 1);
    if (f.head | f.tail) eject(f, now);
  }
  if (f.tail) release_output(in_vc, f, now);
  else if (f.head && ctx_->express && ExpressWorms::worth_joining(*ctx_, ctx_->msgs[f.msg].flits))
    header_left(in_vc, in_port, f.msg);
}

// Keeps the port masks right after a flit left input VC `in_vc` (on port `ip`).
template <bool kOneVc>
inline void Router::after_pop(int in_vc, int ip, const Flit& popped) {
  const FlitQueue& q = in_[in_vc].q;
  const uint64_t b = uint64_t{1} << ip;
  if (q.empty() && (kOneVc || !port_has_flits(ip))) occupied_ports_ &= ~b;
  // The front changed: the port's head mask changes only if a head became the
  // front (the port has one) or left (the port's other VCs may still have one).
  if (!q.empty() && q.front().head) {
    head_ports_ |= b;
  } else if (popped.head) {
    if (!kOneVc && port_has_head(ip)) head_ports_ |= b;
    else head_ports_ &= ~b;
  }
}

}  // namespace wormsim

// The router's step with one VC per port (a fast path: run.fast_paths).
//
// With one VC per port the input VC is its port, and each output port has one
// output VC (or is one ejection channel), which one worm holds at a time. So
// no two inputs ever request the same output: separable switch allocation
// grants every request, and a ready flit whose worm holds its output and has
// a credit always moves. The general step (Router::allocate_vcs,
// allocate_switch, charge_stalls) finds the same by scanning VCs, round-robin
// pointers and per-output request masks; this one reads the port masks alone.
// Everything it changes, it changes as the general step does and in the same
// order (the moves in increasing output port, the round-robin pointers), and
// it charges the same stalls: the fast-path differential test
// (CliRun.FastPathsChangeNothing) compares it with the general step, which a
// run with run.fast_paths: false takes.
#include "models/router.hpp"
#include "models/port_bits.hpp"
#include "models/router_move.hpp"

namespace wormsim {

void Router::step_one_vc(uint64_t now) {
  allocate_vcs_one_vc(now);
  // A multidestination head met in VC allocation needs the general switch allocation (its branches).
  if (fanout_ports_) {
    allocate_switch_with_fanout(now);
    charge_stalls(now);
    return;
  }
  // Requests: each occupied port whose worm holds an output, is ready and has a
  // credit; one requester per output port, so every one is granted.
  uint64_t outs = 0;
  uint8_t from[kMaxRouterPorts];
  for (uint64_t ports = occupied_ports_; ports; ports &= ports - 1) {
    const int ip = __builtin_ctzll(ports);
    const InputVC& iv = in_[ip];
    if (iv.out < 0 || iv.q.front_ready() > now || !can_send(iv.out, now)) continue;
    outs |= bit(iv.out);  // one VC per port: the output VC is the output port
    from[iv.out] = static_cast<uint8_t>(ip);
  }
  uint64_t moved = 0;
  for (uint64_t m = outs; m; m &= m - 1) {
    const int op = __builtin_ctzll(m);
    const int ip = from[op];
    moved |= bit(ip);
    move_flit<true>(ip, ip, now);
    rr_[in_ports_ + op] = static_cast<uint8_t>(ip + 1 == in_ports_ ? 0 : ip + 1);
    rr_[ip] = 0;
  }
  charge_stalls_one_vc(now, moved);
}

// Heads at the front of ports that hold no output, round-robin from va_next_
// (the port it names first, then the ports after it, then those before it).
void Router::allocate_vcs_one_vc(uint64_t now) {
  const uint64_t heads = head_ports_;
  if (!heads) return;
  const int start = va_next_;
  int next = -1;
  auto visit_ports = [&](uint64_t m) {
    for (; m; m &= m - 1) {
      const int ip = __builtin_ctzll(m);
      InputVC& iv = in_[ip];
      if (iv.out >= 0 || iv.q.front_ready() > now) continue;
      if (try_allocate(ip, iv.q.front(), now) && next < 0) next = ip + 1;
    }
  };
  const uint64_t from_start = heads & (~uint64_t{0} << start);
  visit_ports(from_start);
  visit_ports(heads & ~from_start);
  if (next >= 0) va_next_ = next >= n_in_vc_ ? next - n_in_vc_ : next;
}

// Every ready head that did not move is charged a cycle: against the holder of
// the output it failed to get, or, holding it without a credit, against the
// worm whose flits fill the buffer downstream (Router::charge_stall; a head that
// holds its output and has a credit has moved).
void Router::charge_stalls_one_vc(uint64_t now, uint64_t moved) {
  for (uint64_t ports = head_ports_ & ~moved; ports; ports &= ports - 1) {
    const int ip = __builtin_ctzll(ports);
    const InputVC& iv = in_[ip];
    if (iv.q.front_ready() > now) continue;
    const Flit& f = iv.q.front();
    if (!f.head) continue;
    uint32_t blocker;
    uint64_t VcCounters::*cause;
    if (iv.out < 0) {
      blocker = allocation_blocker(ip, f);
      cause = &VcCounters::vc_alloc;
    } else if (!can_send(iv.out, now)) {
      blocker = out_[iv.out].previous;
      cause = &VcCounters::credit;
    } else {
      blocker = kNoMessage;
      cause = &VcCounters::switch_alloc;
    }
    ctx_->charge_stall(f.msg, blocker, 1);
    if (ctx_->vc_counters) ++(counters(ip).*cause);
  }
}

}  // namespace wormsim

#include "models/router.hpp"

#include <algorithm>
#include <new>

#include "models/network_interface.hpp"

namespace wormsim {

Router::Router(sc_core::sc_module_name name, int node, int link_ports, int inj_channels,
               int ej_channels, SimContext* ctx)
    : sc_core::sc_module(name),
      node_(node),
      link_ports_(link_ports),
      inj_channels_(inj_channels),
      ej_channels_(ej_channels),
      in_ports_(link_ports + inj_channels),
      out_ports_(link_ports + ej_channels),
      vcs_(ctx->vcs),
      ctx_(ctx) {
  build_arena(static_cast<uint16_t>(ctx->buffer_flits));
  ctx->scratch.reserve(std::max<int>(in_ports_, static_cast<int>(ctx->scratch.offer.size())),
                       std::max<int>(out_ports_, static_cast<int>(ctx->scratch.granted.size())),
                       std::max<int>(n_in_vc_, static_cast<int>(ctx->scratch.moved.size())));
  scratch_ = &ctx->scratch;
}

namespace {
constexpr size_t align8(size_t n) { return (n + 7) & ~size_t{7}; }
}  // namespace

// Lays out every per-router array in one block: flit buffers, credit rings,
// input and output VC states, link ends and round-robin pointers.
void Router::build_arena(uint16_t depth) {
  n_in_vc_ = in_ports_ * vcs_;
  n_out_vc_ = link_ports_ * vcs_ + ej_channels_;
  const int credit_vcs = link_ports_ * vcs_;
  size_t off = 0;
  auto take = [&off](size_t bytes) {
    const size_t at = off;
    off += align8(bytes);
    return at;
  };
  // Hottest first: the VC states are read on every step, the buffers only when flits move.
  const size_t in_at = take(sizeof(InputVC) * n_in_vc_);
  const size_t out_at = take(sizeof(OutputVC) * n_out_vc_);
  const size_t flits_at = take(sizeof(Flit) * n_in_vc_ * depth);
  const size_t credits_at = take(sizeof(uint64_t) * credit_vcs * depth);
  const size_t out_link_at = take(sizeof(OutputLink) * link_ports_);
  const size_t in_link_at = take(sizeof(InputLink) * link_ports_);
  const size_t in_rr_at = take(in_ports_);
  const size_t out_rr_at = take(out_ports_);
  arena_ = std::make_unique<std::byte[]>(off);  // value-initialised: zeroed
  std::byte* base = arena_.get();
  auto* flits = reinterpret_cast<Flit*>(base + flits_at);
  auto* credits = reinterpret_cast<uint64_t*>(base + credits_at);
  in_ = new (base + in_at) InputVC[n_in_vc_];
  out_ = new (base + out_at) OutputVC[n_out_vc_];
  out_link_ = new (base + out_link_at) OutputLink[link_ports_];
  in_link_ = new (base + in_link_at) InputLink[link_ports_];
  in_next_vc_ = reinterpret_cast<uint8_t*>(base + in_rr_at);
  out_next_in_ = reinterpret_cast<uint8_t*>(base + out_rr_at);
  for (int i = 0; i < n_in_vc_; ++i) in_[i].q.bind(flits + static_cast<size_t>(i) * depth, depth);
  for (int i = 0; i < credit_vcs; ++i) out_[i].credits.bind(credits + static_cast<size_t>(i) * depth, depth);
}

void Router::connect_output(int port, Router* downstream, int downstream_port, int link_id) {
  out_link_[port] = OutputLink{downstream, downstream_port, link_id};
}

void Router::connect_input(int port, Router* upstream, int upstream_port) {
  in_link_[port] = InputLink{upstream, upstream_port};
}

void Router::step(uint64_t now) {
  allocate_vcs(now);
  allocate_switch(now);
  charge_stalls(now);
}

// --- VC allocation ----------------------------------------------------------

void Router::allocate_vcs(uint64_t now) {
  const int n = n_in_vc_;
  int next = -1;
  for (int k = 0; k < n; ++k) {
    int i = va_next_ + k;
    if (i >= n) i -= n;
    InputVC& iv = in_[i];
    if (iv.out >= 0 || iv.q.empty()) continue;
    const Flit& f = iv.q.front();
    if (f.ready > now) continue;
    if (try_allocate(i, f, now) && next < 0) next = i + 1;
  }
  if (next >= 0) va_next_ = next % n;
}

// Candidate output VCs for a head: [first, last) in out_ order, filtered by dateline class.
bool Router::try_allocate(int in_vc, const Flit& head, uint64_t now) {
  const MessageRecord& m = ctx_->msgs[head.msg];
  int first, last, stride = 1;
  if (head.hop == m.hops) {
    const int base = link_ports_ * vcs_;
    switch (ctx_->ports.kind) {
      case PortKind::OnePort: first = base; last = base + 1; break;
      case PortKind::AllPort: first = base + in_port_of(in_vc); last = first + 1; break;
      default: first = base; last = base + ej_channels_; break;
    }
  } else {
    const RouteHop& h = ctx_->route_of(head.msg)[head.hop];
    first = h.port * vcs_;
    last = first + vcs_;
    if (ctx_->dateline_classes) {
      first += h.vc_class;
      stride = 2;
    }
  }
  for (int o = first; o < last; o += stride) {
    if (out_[o].owner != kNoMessage) continue;
    out_[o].owner = head.msg;
    out_[o].since = now;
    in_[in_vc].out = o;
    return true;
  }
  return false;
}

// The worm a head failed to get an output from: its holder, or, when the holder's
// tail left in this very cycle (after allocation ran), that worm.
uint32_t Router::allocation_blocker(int in_vc, const Flit& head) const {
  const MessageRecord& m = ctx_->msgs[head.msg];
  int o;
  if (head.hop == m.hops) {
    const int base = link_ports_ * vcs_;
    o = ctx_->ports.kind == PortKind::AllPort ? base + in_port_of(in_vc) : base;
  } else {
    const RouteHop& h = ctx_->route_of(head.msg)[head.hop];
    o = h.port * vcs_ + (ctx_->dateline_classes ? h.vc_class : 0);
  }
  return out_[o].owner != kNoMessage ? out_[o].owner : out_[o].previous;
}

// --- switch allocation ------------------------------------------------------

bool Router::can_send(int out_vc, uint64_t now) {
  return is_ejection(out_vc) || out_[out_vc].credits.available(now) > 0;
}

void Router::allocate_switch(uint64_t now) {
  scratch_->requested_outs.clear();
  for (int ip = 0; ip < in_ports_; ++ip) {
    scratch_->offer[ip] = -1;
    scratch_->offer_port[ip] = -1;
    const int nv = ip < link_ports_ ? vcs_ : 1;
    for (int k = 0; k < nv; ++k) {
      int v = in_next_vc_[ip] + k;
      if (v >= nv) v -= nv;
      const int ivc = ip * vcs_ + v;
      InputVC& iv = in_[ivc];
      if (iv.out < 0 || iv.q.empty() || iv.q.front().ready > now || !can_send(iv.out, now)) continue;
      scratch_->offer[ip] = ivc;
      const int op = out_port_of(iv.out);
      scratch_->offer_port[ip] = op;
      if (scratch_->granted[op] == kNoMessage) {
        scratch_->granted[op] = kRequested;  // every requested output is granted below
        scratch_->requested_outs.push_back(op);
      }
      break;
    }
  }
  for (int op : scratch_->requested_outs) {
    for (int k = 0; k < in_ports_; ++k) {
      int ip = out_next_in_[op] + k;
      if (ip >= in_ports_) ip -= in_ports_;
      if (scratch_->offer_port[ip] != op) continue;
      const int ivc = scratch_->offer[ip];
      scratch_->granted[op] = in_[ivc].q.front().msg;
      scratch_->offer_port[ip] = -1;  // an input port moves one flit per cycle
      move_flit(ivc, now);
      out_next_in_[op] = static_cast<uint8_t>(ip + 1 == in_ports_ ? 0 : ip + 1);
      const int nv = ip < link_ports_ ? vcs_ : 1;
      in_next_vc_[ip] = static_cast<uint8_t>(nv == 1 ? 0 : (mod_vcs(ivc) + 1) % nv);
      break;
    }
  }
}

void Router::return_credit(int in_vc, uint64_t when) {
  const int ip = in_port_of(in_vc);
  if (ip < link_ports_) in_link_[ip].src->credit(in_link_[ip].src_port, mod_vcs(in_vc), when);
  else ni_->credit(ip - link_ports_, when);
}

void Router::move_flit(int in_vc, uint64_t now) {
  InputVC& iv = in_[in_vc];
  const Flit f = iv.q.pop();
  --buffered_;
  ++ctx_->flits_moved;
  scratch_->moved[in_vc] = f.msg;
  scratch_->moved_list.push_back(in_vc);
  return_credit(in_vc, now + ctx_->timing.credit_delay);
  const int o = iv.out;
  OutputVC& ov = out_[o];
  if (!is_ejection(o)) {
    ov.credits.consume();
    const OutputLink& link = out_link_[div_vcs(o)];
    Flit g = f;
    g.ready = now + ctx_->timing.link_delay + ctx_->timing.router_delay;
    if (f.head) ++g.hop;
    ++ctx_->link_busy[link.link];
    link.dst->accept(link.dst_port, mod_vcs(o), g);
  } else {
    ++ctx_->flits_ejected;
    MessageRecord& m = ctx_->msgs[f.msg];
    if (f.head) m.header_arrival = now;
    if (f.tail) {
      m.delivered = now;
      ctx_->delivered_now.push_back(f.msg);
    }
  }
  if (f.tail) {
    if (ctx_->channel_trace) {
      const int port = out_port_of(o);
      const int vc = is_ejection(o) ? 0 : mod_vcs(o);
      ctx_->channel_trace->push_back(ChannelUse{node_, static_cast<int16_t>(port), static_cast<int16_t>(vc), f.msg,
                                                ov.since, now + 1});
    }
    ov.previous = ov.owner;
    ov.owner = kNoMessage;
    iv.out = -1;
    // A head queued right behind this tail has been waiting for this worm since it was ready.
    if (!iv.q.empty()) {
      const Flit& next = iv.q.front();
      if (next.head && next.ready <= now) ctx_->charge_stall(next.msg, f.msg, now + 1 - next.ready);
    }
  }
}

// --- stall accounting -------------------------------------------------------

void Router::charge_stalls(uint64_t now) {
  for (int i = 0; i < n_in_vc_; ++i) {
    InputVC& iv = in_[i];
    if (scratch_->moved[i] != kNoMessage || iv.q.empty()) continue;
    const Flit& f = iv.q.front();
    if (!f.head || f.ready > now) continue;
    uint32_t blocker;
    if (iv.out < 0) {
      blocker = allocation_blocker(static_cast<int>(i), f);
    } else if (!can_send(iv.out, now)) {
      blocker = out_[iv.out].previous;  // its flits still fill the FIFO downstream
    } else {
      const int op = out_port_of(iv.out);
      const int ip = in_port_of(static_cast<int>(i));
      // Lost the output to another input, or lost its input port to another VC.
      blocker = (scratch_->granted[op] != kNoMessage && scratch_->granted[op] != f.msg) ? scratch_->granted[op]
                : scratch_->offer[ip] >= 0 ? scratch_->moved[scratch_->offer[ip]] : kNoMessage;
    }
    iv.blocked_by = blocker;
    ctx_->charge_stall(f.msg, blocker, 1);
  }
  for (int op : scratch_->requested_outs) scratch_->granted[op] = kNoMessage;
  for (int i : scratch_->moved_list) scratch_->moved[i] = kNoMessage;
  scratch_->moved_list.clear();
}

std::vector<Router::Wait> Router::waiting_heads(uint64_t now) const {
  std::vector<Wait> w;
  for (int i = 0; i < n_in_vc_; ++i) {
    const InputVC& iv = in_[i];
    if (iv.q.empty() || !iv.q.front().head || iv.q.front().ready > now) continue;
    const Flit& f = iv.q.front();
    int op;
    if (f.hop == ctx_->msgs[f.msg].hops) op = link_ports_;
    else op = ctx_->route_of(f.msg)[f.hop].port;
    w.push_back(Wait{in_port_of(static_cast<int>(i)), static_cast<int>(i) % vcs_, f.msg,
                     iv.out < 0 ? allocation_blocker(static_cast<int>(i), f) : out_[iv.out].previous, op});
  }
  return w;
}

bool Router::buffers_within_capacity() const {
  int total = 0;
  for (int i = 0; i < n_in_vc_; ++i) {
    if (in_[i].q.size() > in_[i].q.capacity()) return false;
    total += in_[i].q.size();
  }
  return total == buffered_;
}

}  // namespace wormsim

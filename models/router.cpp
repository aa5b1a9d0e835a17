#include "models/router.hpp"

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
  const uint16_t depth = static_cast<uint16_t>(ctx->buffer_flits);
  in_.resize(static_cast<size_t>(in_ports_) * vcs_);
  flit_store_.resize(in_.size() * depth);
  for (size_t i = 0; i < in_.size(); ++i) in_[i].q.bind(flit_store_.data() + i * depth, depth);
  out_.resize(static_cast<size_t>(link_ports_) * vcs_ + ej_channels_);
  credit_store_.resize(static_cast<size_t>(link_ports_) * vcs_ * depth);
  for (int i = 0; i < link_ports_ * vcs_; ++i) out_[i].credits.bind(credit_store_.data() + i * depth, depth);
  out_link_.resize(link_ports_);
  in_link_.resize(link_ports_);
  in_next_vc_.assign(in_ports_, 0);
  out_next_in_.assign(out_ports_, 0);
  offer_.assign(in_ports_, -1);
  offer_port_.assign(in_ports_, -1);
  moved_.assign(in_.size(), kNoMessage);
  granted_.assign(out_ports_, kNoMessage);
  requested_outs_.reserve(out_ports_);
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
  const int n = static_cast<int>(in_.size());
  int next = -1;
  for (int k = 0; k < n; ++k) {
    int i = va_next_ + k;
    if (i >= n) i -= n;
    InputVC& iv = in_[i];
    if (iv.out >= 0 || iv.q.empty()) continue;
    const Flit& f = iv.q.front();
    if (f.ready > now) continue;
    if (try_allocate(i, f) && next < 0) next = i + 1;
  }
  if (next >= 0) va_next_ = next % n;
}

// Candidate output VCs for a head: [first, last) in out_ order, filtered by dateline class.
bool Router::try_allocate(int in_vc, const Flit& head) {
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
  requested_outs_.clear();
  for (int ip = 0; ip < in_ports_; ++ip) {
    offer_[ip] = -1;
    offer_port_[ip] = -1;
    const int nv = ip < link_ports_ ? vcs_ : 1;
    for (int k = 0; k < nv; ++k) {
      int v = in_next_vc_[ip] + k;
      if (v >= nv) v -= nv;
      const int ivc = ip * vcs_ + v;
      InputVC& iv = in_[ivc];
      if (iv.out < 0 || iv.q.empty() || iv.q.front().ready > now || !can_send(iv.out, now)) continue;
      offer_[ip] = ivc;
      const int op = out_port_of(iv.out);
      offer_port_[ip] = op;
      if (granted_[op] == kNoMessage) {
        granted_[op] = kRequested;  // every requested output is granted below
        requested_outs_.push_back(op);
      }
      break;
    }
  }
  for (int op : requested_outs_) {
    for (int k = 0; k < in_ports_; ++k) {
      int ip = out_next_in_[op] + k;
      if (ip >= in_ports_) ip -= in_ports_;
      if (offer_port_[ip] != op) continue;
      const int ivc = offer_[ip];
      granted_[op] = in_[ivc].q.front().msg;
      offer_port_[ip] = -1;  // an input port moves one flit per cycle
      move_flit(ivc, now);
      out_next_in_[op] = ip + 1 == in_ports_ ? 0 : ip + 1;
      const int nv = ip < link_ports_ ? vcs_ : 1;
      in_next_vc_[ip] = (ivc % vcs_ + 1) % nv;
      break;
    }
  }
}

void Router::return_credit(int in_vc, uint64_t when) {
  const int ip = in_port_of(in_vc);
  if (ip < link_ports_) in_link_[ip].src->credit(in_link_[ip].src_port, in_vc % vcs_, when);
  else ni_->credit(ip - link_ports_, when);
}

void Router::move_flit(int in_vc, uint64_t now) {
  InputVC& iv = in_[in_vc];
  const Flit f = iv.q.pop();
  --buffered_;
  ++ctx_->flits_moved;
  moved_[in_vc] = f.msg;
  moved_list_.push_back(in_vc);
  return_credit(in_vc, now + ctx_->timing.credit_delay);
  const int o = iv.out;
  OutputVC& ov = out_[o];
  if (!is_ejection(o)) {
    ov.credits.consume();
    const OutputLink& link = out_link_[o / vcs_];
    Flit g = f;
    g.ready = now + ctx_->timing.link_delay + ctx_->timing.router_delay;
    if (f.head) ++g.hop;
    ++ctx_->link_busy[link.link];
    link.dst->accept(link.dst_port, o % vcs_, g);
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
  for (size_t i = 0; i < in_.size(); ++i) {
    InputVC& iv = in_[i];
    if (moved_[i] != kNoMessage || iv.q.empty()) continue;
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
      blocker = (granted_[op] != kNoMessage && granted_[op] != f.msg) ? granted_[op]
                : offer_[ip] >= 0 ? moved_[offer_[ip]] : kNoMessage;
    }
    iv.blocked_by = blocker;
    ctx_->charge_stall(f.msg, blocker, 1);
  }
  for (int op : requested_outs_) granted_[op] = kNoMessage;
  for (int i : moved_list_) moved_[i] = kNoMessage;
  moved_list_.clear();
}

std::vector<Router::Wait> Router::waiting_heads(uint64_t now) const {
  std::vector<Wait> w;
  for (size_t i = 0; i < in_.size(); ++i) {
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
  for (const auto& iv : in_) {
    if (iv.q.size() > iv.q.capacity()) return false;
    total += iv.q.size();
  }
  return total == buffered_;
}

}  // namespace wormsim

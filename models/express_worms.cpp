#include "models/express_worms.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "models/network_interface.hpp"
#include "models/router.hpp"

namespace wormsim {

// Walks the worm's route from its source router: stage 0 is the injection
// channel it entered by, stage h + 1 the input port hop h leads to. The worm
// still holds the stages from the one its tail is in to the last; those
// become express. A route through some link twice is left to the routers
// (its stages would share a buffer).
bool ExpressWorms::admit(uint32_t msg, Router* source, NetworkInterface* ni) {
  const MessageRecord& m = ctx_->msgs[msg];
  if (m.flits == 1 || m.delivered != kNever) return false;  // nothing left of it in the network
  if (link_seen_.size() < ctx_->link_busy.size()) link_seen_.assign(ctx_->link_busy.size(), 0);
  ++admissions_;
  path_.clear();
  auto stage = [](Router* r, int ip, uint32_t msg) {
    return Stage{nullptr, nullptr, r, -1, static_cast<int16_t>(r->express_vc(ip, msg)), static_cast<int16_t>(ip)};
  };
  int ip0 = source->link_ports();
  for (int c = 0; c < source->injection_ports(); ++c)
    if (source->express_vc(source->link_ports() + c, msg) >= 0) ip0 = source->link_ports() + c;
  path_.push_back(stage(source, ip0, msg));
  const RouteHop* route = ctx_->route_of(msg);
  for (int h = 0; h < m.hops; ++h) {
    Stage& from = path_.back();
    int ip = -1;
    Router* r = from.router->downstream(route[h].port, &ip, &from.link);
    if (link_seen_[static_cast<size_t>(from.link)] == admissions_) return false;
    link_seen_[static_cast<size_t>(from.link)] = admissions_;
    path_.push_back(stage(r, ip, msg));
  }
  // The held stages are a suffix of the path, each holding the output its route says.
  size_t first = 0;
  while (first < path_.size() && path_[first].in_vc < 0) ++first;
  if (first == path_.size()) return false;
  for (size_t k = first; k < path_.size(); ++k) {
    const Stage& s = path_[k];
    if (s.in_vc < 0) return false;
    const int out = s.router->held_output_port(s.in_vc);
    if (k + 1 < path_.size() ? out != route[k].port : out < s.router->link_ports()) return false;
  }
  const auto begin = static_cast<uint32_t>(stages_.size());
  for (size_t k = first; k < path_.size(); ++k) {
    Stage s = path_[k];
    s.q = &s.router->in_[s.in_vc].q;
    if (k + 1 < path_.size()) s.down = &path_[k + 1].router->in_[path_[k + 1].in_vc].q;
    s.router->begin_express(s.in_vc, s.in_port);
    stages_.push_back(s);
  }
  Worm w{begin, static_cast<uint32_t>(stages_.size()), msg, 0, nullptr, nullptr, -1, 0, false, 0, kNever, 0, 0};
  // While its tail has not gone in, the worm holds its injection channel and the buffer it feeds.
  const int channel = first == 0 ? ni->begin_express(msg) : -1;
  if (channel >= 0) {
    const NetworkInterface::Channel& ch = ni->ch_[channel];
    w.ni = ni;
    w.inj = ch.buffer;
    w.channel = channel;
    w.left = ch.flits - ch.next_flit;
  }
  worms_.push_back(w);
  ++admitted_;
  return true;
}

// The interface's injection (NetworkInterface::inject) of a body flit or the
// tail; then the steady-streaming check (see the header).
void ExpressWorms::step_interfaces(uint64_t now, std::vector<NetworkInterface*>& woken) {
  const uint64_t ready = now + static_cast<uint64_t>(ctx_->timing.router_delay);
  const auto steady_after = static_cast<uint32_t>(ctx_->buffer_flits) + 2;  // every slot has cycled
  snap_states_[now & 1].clear();
  snap_slots_[now & 1].clear();
  uint64_t injected = 0;
  for (Worm& w : worms_) {
    if (!w.ni || w.frozen_until != 0) continue;
    bool in = false;
    if (w.inj->has_credit(now)) {
      Flit f;
      f.ready = ready;
      f.msg = w.msg;
      f.tail = --w.left == 0;
      w.inj->push(f);
      ++injected;
      in = true;
      if (f.tail) {
        w.ni->end_express(w.channel, now);
        woken.push_back(w.ni);
        w.ni = nullptr;
        continue;
      }
    }
    w.streak = in && w.moved_all ? w.streak + 1 : 0;
    if (!allow_freezing_) continue;
    if (w.snap_cycle != kNever && w.snap_cycle + 1 == now) {
      if (w.streak > 0 && repeats_snapshot(w)) freeze(w, now);
      w.snap_cycle = kNever;
    } else if (w.streak >= steady_after && w.left >= 3) {
      snapshot(w, now);
    }
  }
  ctx_->flits_moved += injected;
  ctx_->flits_injected += injected;
  flit_moves_ += injected;
}

// Each stage moves its front flit when it is ready and the next stage's buffer
// has a credit (the last stage, the ejection channel, needs none): the router's
// move (Router::move_flit) of a body flit or the tail. A frozen worm is skipped
// until the cycle after its freeze ends, when it is moved to that state first.
void ExpressWorms::step_routers(uint64_t now) {
  const uint64_t seen_free = now + static_cast<uint64_t>(ctx_->timing.credit_delay);
  const uint64_t arrives = now + static_cast<uint64_t>(ctx_->timing.link_delay + ctx_->timing.router_delay);
  uint64_t* link_busy = ctx_->link_busy.data();
  uint64_t moved = 0, ejected = 0;
  bool finished = false;
  for (Worm& w : worms_) {
    if (w.frozen_until != 0) {
      if (now <= w.frozen_until) continue;
      thaw(w, w.frozen_until);
    }
    const uint32_t stages = w.end - w.first;
    const uint64_t moved_before = moved;
    const uint32_t last = w.end - 1;
    for (uint32_t k = w.first; k < last; ++k) {
      const Stage& s = stages_[k];
      FlitQueue& q = *s.q;
      if (q.front_ready() > now || !s.down->has_credit(now)) continue;
      Flit f = q.pop(seen_free);
      f.ready = arrives;
      ++link_busy[s.link];
      s.down->push(f);
      ++moved;
      if (f.tail) end_stage(w, k, f, now);
    }
    const Stage& s = stages_[last];
    FlitQueue& q = *s.q;
    if (q.front_ready() <= now) {
      const Flit f = q.pop(seen_free);
      ++moved;
      ++ejected;
      if (f.tail) {
        s.router->eject(f, now);
        end_stage(w, last, f, now);
        finished = true;
      }
    }
    w.moved_all = moved - moved_before == stages;
  }
  ctx_->flits_moved += moved;
  ctx_->flits_ejected += ejected;
  flit_moves_ += moved;
  if (finished) drop_finished();
}

// --- steady streaming --------------------------------------------------------

void ExpressWorms::snapshot(Worm& w, uint64_t now) {
  auto& states = snap_states_[now & 1];
  auto& slots = snap_slots_[now & 1];
  w.snap_at = static_cast<uint32_t>(states.size());
  w.snap_cycle = now;
  for (uint32_t k = w.first; k < w.end; ++k) {
    const FlitQueue& q = *stages_[k].q;
    states.push_back(q.state());
    slots.insert(slots.end(), q.slots(), q.slots() + q.capacity());
  }
}

// True when every stage's buffer is now its snapshot of the previous cycle, one cycle on.
bool ExpressWorms::repeats_snapshot(const Worm& w) const {
  const auto& states = snap_states_[(w.snap_cycle) & 1];
  const auto& slots = snap_slots_[(w.snap_cycle) & 1];
  for (uint32_t k = w.first, i = w.snap_at; k < w.end; ++k, ++i) {
    const FlitQueue& q = *stages_[k].q;
    if (!q.is_shift_of(states[i], slots.data() + static_cast<size_t>(i) * q.capacity(), 1)) return false;
  }
  return true;
}

// Its state now repeats every cycle until the tail goes in (left flits from
// now, the last of them at now + left): skip the left - 1 cycles before that.
void ExpressWorms::freeze(Worm& w, uint64_t now) {
  w.frozen_from = now;
  w.frozen_until = now + w.left - 1;
  ++frozen_;
  ++frozen_total_;
  frozen_cycles_ += w.left - 1;
}

// Moves a frozen worm to its state at the end of cycle `to` (<= frozen_until):
// each cycle skipped, every stage moved one flit and the interface put one in.
void ExpressWorms::thaw(Worm& w, uint64_t to) {
  const uint64_t d = to - w.frozen_from;
  if (d > 0) {
    for (uint32_t k = w.first; k < w.end; ++k) {
      stages_[k].q->shift(d);
      if (stages_[k].down) ctx_->link_busy[static_cast<size_t>(stages_[k].link)] += d;
    }
    const uint64_t moves = d * (w.end - w.first + 1);
    w.left -= static_cast<uint32_t>(d);
    ctx_->flits_moved += moves;
    ctx_->flits_injected += d;
    ctx_->flits_ejected += d;
    flit_moves_ += moves;
  }
  w.frozen_from = to;
  if (to < w.frozen_until) return;
  w.frozen_until = 0;
  w.streak = 0;
  --frozen_;
}

void ExpressWorms::sync(uint64_t now) {
  for (Worm& w : worms_)
    if (w.frozen_until != 0) thaw(w, std::min(now, w.frozen_until));
}

// The tail has left stage k; a worm's tail leaves its stages in order, so k is the worm's first.
void ExpressWorms::end_stage(Worm& w, uint32_t k, const Flit& tail, uint64_t now) {
#ifdef WORMSIM_CHECKED
  if (k != w.first) {
    std::fprintf(stderr, "wormsim: invariant broken at cycle %llu: an express worm's tail left a stage out of order\n",
                 static_cast<unsigned long long>(now));
    std::abort();
  }
#endif
  const Stage& s = stages_[k];
  s.router->end_express(s.in_vc, s.in_port, tail, now);
  ++w.first;
}

// Stages of finished worms are dropped once they are most of the storage.
void ExpressWorms::drop_finished() {
  worms_.erase(std::remove_if(worms_.begin(), worms_.end(), [](const Worm& w) { return w.first == w.end; }),
               worms_.end());
  size_t live = 0;
  for (const Worm& w : worms_) live += w.end - w.first;
  if (stages_.size() < 64 || stages_.size() < 4 * live) return;
  std::vector<Stage> kept;
  kept.reserve(2 * live);
  for (Worm& w : worms_) {
    const auto begin = static_cast<uint32_t>(kept.size());
    kept.insert(kept.end(), stages_.begin() + w.first, stages_.begin() + w.end);
    w.first = begin;
    w.end = static_cast<uint32_t>(kept.size());
  }
  stages_.swap(kept);
}

}  // namespace wormsim

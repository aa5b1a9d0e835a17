#include "models/express_worms.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>

#include "models/flit_transfer.hpp"
#include "models/memory_guard.hpp"
#include "models/network_interface.hpp"
#include "models/router.hpp"

namespace wormsim {

void ExpressWorms::header_left(const SimContext::HeaderLeft& e, NetworkInterface* ni) {
  if (worm_of_msg_.size() < ctx_->msgs.size()) worm_of_msg_.resize(ctx_->msgs.size(), kNoWorm);
  const uint32_t at = worm_of_msg_[e.msg];
  if (at == kNoWorm) {  // a new message (at its first hop), or one that never joined
    if (e.in_port >= e.router->link_ports()) join(e, ni);
    return;
  }
  // Its header has left the next stage of its route.
  Worm& w = worms_[at];
  Stage& s = stages_[w.end];
#ifdef WORMSIM_CHECKED
  if (w.end == w.limit || s.router != e.router || s.in_vc != e.in_vc) {
    std::fprintf(stderr, "wormsim: invariant broken: message %u's header left a stage off its express route\n", e.msg);
    std::abort();
  }
#endif
  link_next_stage(w.end, e.msg, w.end - w.base);
  if (s.router->can_go_express(e.in_vc)) s.router->begin_express(e.in_vc);
  else s.routed = true;
  ++w.end;
  w.complete = w.end == w.limit;
  if (ctx_->vcs == 1) return;
  check_done(w);
  if (w.done) drop_finished();
}

// The header has left stage k: the output it took there names the next
// stage's router, input port and VC (any VC of its class), and the buffer
// stage k feeds. Read from the router that has just moved the header, so the
// route is resolved as the header goes, never ahead into routers not yet reached.
void ExpressWorms::link_next_stage(uint32_t k, uint32_t msg, uint32_t hop) {
  Stage& s = stages_[k];
  const Router::NextHop n = s.router->next_hop(s.in_vc);
#ifdef WORMSIM_CHECKED
  const MessageRecord& m = ctx_->msgs[msg];
  const bool last = hop == m.hops;
  if (last != !n.router ||
      (!last && n.link != ctx_->routing->topology().link_id(s.router->node(), ctx_->route_of(msg)[hop].port))) {
    std::fprintf(stderr, "wormsim: invariant broken: message %u's header left hop %u of its route for another link\n",
                 msg, hop);
    std::abort();
  }
#else
  (void)msg;
  (void)hop;
#endif
  if (!n.router) return;  // the last stage: it ejects
  s.next = n.router;
  s.down = n.buffer;
  s.link = n.link;
  s.next_port = n.in_port;
  Stage& next = stages_[k + 1];
  next.router = n.router;
  next.q = n.buffer;
  next.in_port = n.in_port;
  next.in_vc = n.in_vc;
}

// The header's first hop, from the source's injection channel: the worm's
// stages are set aside, one per router of its route, and each is filled in
// as the header leaves the one before (link_next_stage); stage 0 becomes
// express if it can.
bool ExpressWorms::join(const SimContext::HeaderLeft& e, NetworkInterface* ni) {
  if (!ctx_->routes_simple && uses_a_link_twice(e.msg)) return false;
  const MessageRecord& m = ctx_->msgs[e.msg];
  const auto base = static_cast<uint32_t>(stages_.size());
  const size_t needed = base + m.hops + 1u;
  if (stages_.capacity() < needed) grow(needed);
  stages_.resize(needed, Stage{nullptr, nullptr, nullptr, nullptr, -1, -1, -1, -1, false});
  stages_[base] = Stage{&e.router->input_buffer(e.in_vc), nullptr, e.router, nullptr, -1, e.in_vc, e.in_port, -1, false};
  link_next_stage(base, e.msg, 0);
  const auto limit = static_cast<uint32_t>(stages_.size());
  // A worm of no hops (two endpoints of one router) left its only router into the ejection channel: complete.
  const bool complete = base + 1 == limit;
  Worm w{base, base, base + 1, limit, complete, false, e.msg, 0, nullptr, nullptr, -1, 0, false, 0, wormsim::kNever,
         0, 0, true};
  if (!e.router->can_go_express(e.in_vc)) {
    if (complete) {  // nothing left that could go express
      stages_.resize(base);
      return false;
    }
    stages_[base].routed = true;  // its interface keeps injecting it
  } else {
    e.router->begin_express(e.in_vc);
    // While its tail has not gone in, the worm holds its injection channel and the buffer it feeds.
    const NetworkInterface::ExpressChannel ch = ni->begin_express(e.msg);
    if (ch.channel >= 0) {
      w.ni = ni;
      w.inj = ch.buffer;
      w.channel = ch.channel;
      w.left = ch.flits - ch.next_flit;
    }
  }
  worm_of_msg_[e.msg] = static_cast<uint32_t>(worms_.size());
  awake_.push_back(static_cast<uint32_t>(worms_.size()));
  worms_.push_back(w);
  ++joined_;
  return true;
}

// Grown by doubling from one, as one stage at a time would: a resize that
// doubles from wherever the size stands can end on a much larger block. The
// first worm asks for room for a stage per route entry and a worm per message
// of the table: a 2M-router broadcast grown by doubling copied its worms and
// stages five times over and faulted in the pages of every block it left
// behind. Only what is used becomes resident (the blocks are mapped, and
// pages are faulted in as they are first written), but the room counts
// against an address-space limit (ulimit -v): it is asked for only where as
// much again would be left, so that it never takes what the rest of the run
// needs, and never by way of a failed allocation (that would spend the
// memory guard's reserve for unwinding, models/memory_guard.hpp).
void ExpressWorms::grow(size_t stages) {
  if (stages_.capacity() == 0 && worms_.capacity() == 0) {
    const size_t all_stages = std::max(stages, ctx_->hops.size() + ctx_->msgs.size());
    const double bytes = static_cast<double>(all_stages * sizeof(Stage) + ctx_->msgs.size() * sizeof(Worm));
    if (address_space_left_after(bytes) >= bytes) {
      stages_.reserve(all_stages);
      worms_.reserve(ctx_->msgs.size());
      return;
    }
  }
  size_t cap = std::max<size_t>(stages_.capacity(), 1);
  while (cap < stages) cap *= 2;
  stages_.reserve(cap);
}

// Two of the worm's stages would share a buffer. Walked through the topology
// (its tables, not the routers), and only for runs with a route not known simple.
bool ExpressWorms::uses_a_link_twice(uint32_t msg) {
  const Topology& topo = ctx_->routing->topology();
  if (link_seen_.size() < static_cast<size_t>(topo.num_links())) link_seen_.assign(static_cast<size_t>(topo.num_links()), 0);
  ++checks_;
  const MessageRecord& m = ctx_->msgs[msg];
  const RouteHop* route = ctx_->route_of(msg);
  int node = topo.endpoint_router(m.src);
  for (int h = 0; h < m.hops; ++h) {
    // Hops an adaptive function chooses (the first is chosen by now): a minimal route, every router once.
    if (route[h].port == kChosenInRouter) return false;
    const int link = topo.link_id(node, route[h].port);
    if (link_seen_[static_cast<size_t>(link)] == checks_) return true;
    link_seen_[static_cast<size_t>(link)] = checks_;
    node = topo.link_dst(link);
  }
  return false;
}

// --- competition (several VCs per port) ----------------------------------------

void ExpressWorms::hand_back_later(Router* router, int in_vc) { hand_backs_.push_back(HandBack{router, in_vc}); }

void ExpressWorms::hand_back_now(Router* router, int in_vc) {
  Worm& w = worms_[worm_of_msg_[router->output_owner(in_vc)]];
  for (uint32_t k = w.first; k < w.end; ++k)
    if (stages_[k].router == router && stages_[k].in_vc == in_vc) route_stage(w, k);
}

// Stage k goes back to its router; the first stage takes the worm's injection
// channel back to its interface (at the end of the routers' part of the cycle).
void ExpressWorms::route_stage(Worm& w, uint32_t k) {
  Stage& s = stages_[k];
  s.routed = true;
  s.router->leave_express(s.in_vc);
  ++handbacks_;
  touched_.push_back(w.msg);
}

// A stage whose tail has passed in this cycle is no longer express (its port
// is its router's again, with the other worm's flit in it): nothing to hand back.
void ExpressWorms::hand_back_marked(std::vector<NetworkInterface*>& woken) {
  if (hand_backs_.empty() && touched_.empty()) return;
  for (const HandBack& h : hand_backs_)
    if (h.router->is_express_vc(h.in_vc)) hand_back_now(h.router, h.in_vc);
  hand_backs_.clear();
  bool any_done = false;
  for (uint32_t msg : touched_) {
    if (worm_of_msg_[msg] == kNoWorm) continue;  // finished in this cycle
    Worm& w = worms_[worm_of_msg_[msg]];
    if (w.ni && stages_[w.base].routed) {
      w.ni->resume_after_express(w.channel, w.left);
      woken.push_back(w.ni);
      w.ni = nullptr;
    }
    check_done(w);
    any_done = any_done || w.done;
  }
  touched_.clear();
  if (any_done) drop_finished();
}

// Once the header is out and every stage left is its router's, the express loop has nothing more to do for it.
void ExpressWorms::check_done(Worm& w) {
  if (!w.complete || w.ni) return;
  for (uint32_t k = w.first; k < w.end; ++k)
    if (!stages_[k].routed) return;
  mark_done(w);
}

// Calls step(w) for every worm (listed: every worm in awake_, with far(w) and
// near(w) asking for its memory a few worms ahead).
template <bool listed, typename Far, typename Near, typename Step>
[[gnu::always_inline]] inline void ExpressWorms::visit(const Far& far, const Near& near, const Step& step) {
  if constexpr (!listed) {
    for (Worm& w : worms_) step(w);
  } else {
    visit_range<true>(0, awake_.size(), far, near, step);
  }
}

// The same for the worms at places [lo, hi) of the visiting order.
template <bool listed, typename Far, typename Near, typename Step>
[[gnu::always_inline]] inline void ExpressWorms::visit_range(size_t lo, size_t hi, const Far& far, const Near& near,
                                                             const Step& step) {
  Worm* const worms = worms_.data();  // nothing joins while a loop runs
  if constexpr (!listed) {
    for (size_t j = lo; j < hi; ++j) step(worms[j]);
  } else {
    const uint32_t* order = awake_.data();
    for (size_t j = lo; j < hi; ++j) {
      if (j + kPrefetchBuffers < hi) far(worms[order[j + kPrefetchBuffers]]);
      if (j + kPrefetchSlots < hi) near(worms[order[j + kPrefetchSlots]]);
      step(worms[order[j]]);
    }
  }
}

// The interface's injection (NetworkInterface::inject) of a body flit or the
// tail; then the steady-streaming check (see the header).
void ExpressWorms::step_interfaces(uint64_t now, std::vector<NetworkInterface*>& woken) {
  if (visit_listed()) step_interfaces_with<true>(now, woken);
  else step_interfaces_with<false>(now, woken);
}

template <bool listed>
void ExpressWorms::step_interfaces_with(uint64_t now, std::vector<NetworkInterface*>& woken) {
  const FlitTransfer move(ctx_->timing, now);
  // A snapshot is worth taking once every slot of every buffer has taken a flit
  // of the stream and given it back: before, a slot still holds what came
  // before the stream, and the comparison fails. (The comparison is the proof;
  // this only saves snapshots bound to fail.)
  const auto steady_after = static_cast<uint32_t>(ctx_->buffer_flits);
  const bool freezing = allow_freezing_ && ctx_->vcs == 1;
  snap_states_[now & 1].clear();
  snap_slots_[now & 1].clear();
  uint64_t injected = 0;
  const auto far = [](const Worm& w) {
    if (w.ni) __builtin_prefetch(w.inj);
  };
  const auto near = [](const Worm& w) {
    if (w.ni) w.inj->prefetch_tail();
  };
  // Going through awake_, the pass also takes out the worms done and those it
  // freezes; else unlist_frozen does, once they are many.
  size_t at = 0, kept = 0;
  visit<listed>(far, near, [&](Worm& w) __attribute__((always_inline)) {
    if constexpr (listed) {
      const uint32_t i = awake_[at++];
      w.awake = !w.done;
      if (!w.awake) return;
      awake_[kept++] = i;
    }
    if (!w.ni || w.frozen_until != 0) return;
    bool in = false;
    if (w.inj->has_credit(now)) {
      const Flit f = move.injected(w.msg, false, --w.left == 0);
      w.inj->push(f);
      ++injected;
      in = true;
      if (f.tail) {
        w.ni->end_express(w.channel, now);
        woken.push_back(w.ni);
        w.ni = nullptr;
        return;
      }
    }
    w.streak = in && w.moved_all ? w.streak + 1 : 0;
    if (!freezing) return;
    if (w.snap_cycle != kNever && w.snap_cycle + 1 == now) {
      if (w.streak > 0 && repeats_snapshot(w)) {
        freeze(w, now);
        if constexpr (listed) {
          w.awake = false;
          --kept;
        } else {
          ++frozen_listed_;
        }
      }
      w.snap_cycle = kNever;
    } else if (w.complete && w.streak >= steady_after && w.left >= 3) {
      snapshot(w, now);
    }
  });
  if constexpr (listed) awake_.resize(kept);
  else if (8 * frozen_listed_ > awake_.size()) unlist_frozen();
  ctx_->flits_moved += injected;
  ctx_->flits_injected += injected;
  flit_moves_ += injected;
}

// Each stage moves its front flit when it is ready and the next stage's buffer
// has a credit (the last stage, the ejection channel, needs none): the router's
// move (Router::move_flit) of a body flit or the tail. A frozen worm is skipped
// until the cycle after its freeze ends, when it is moved to that state first.
void ExpressWorms::step_routers(uint64_t now) {
  // output.router_stats: one loop counts each buffer's flit-cycles, the other
  // (the usual run) has no test for it per flit. With one VC per port no stage
  // is ever handed back within a cycle, and the loop has no test for that either.
  const bool shared = ctx_->vcs > 1;
  wake_due(now);
  const bool listed = visit_listed();  // never with several VCs: nothing freezes
  if (ctx_->vc_counters) {
    if (shared) step_routers_with<true, true, false>(now);
    else listed ? step_routers_with<true, false, true>(now) : step_routers_with<true, false, false>(now);
  } else if (shared) {
    step_routers_with<false, true, false>(now);
  } else if (share_step_routers()) {
    ++parallel_cycles_;
    listed ? step_routers_shared<true>(now) : step_routers_shared<false>(now);
  } else {
    listed ? step_routers_with<false, false, true>(now) : step_routers_with<false, false, false>(now);
  }
}

// One VC per port and nothing counted per buffer (the caller's tests): a worm's
// moves touch only its own buffers and links until they reach beyond it. Not
// with flits counted per endpoint (a measurement window): two worms ejecting
// at one endpoint would add to one counter.
bool ExpressWorms::share_step_routers() {
  if (parallel_from_ == 0 || !ctx_->ejected_at.empty()) return false;
  const size_t n = visit_listed() ? awake_.size() : worms_.size();
  return n >= parallel_from_ && n >= 2 && helper_.available();
}

// The flit moves of the worm's visit from stage k on (see the declaration).
template <bool counting, bool shared_ports, bool split>
[[gnu::always_inline]] inline void ExpressWorms::move_worm(Worm& w, uint32_t k, uint32_t stages, uint32_t moved,
                                                           const FlitTransfer& move, uint64_t now, Tally& t,
                                                           bool& finished, std::vector<Deferred>* put_off) {
  uint64_t* link_busy = ctx_->link_busy.data();
  const auto worm = [&] { return static_cast<uint32_t>(&w - worms_.data()); };
  // Link stages; the last one feeds the header's router until the header is ejected.
  const uint32_t links_end = w.complete ? w.end - 1 : w.end;
  for (; k < links_end; ++k) {
    const Stage& s = stages_[k];
    if constexpr (shared_ports)
      if (s.routed) continue;
    FlitQueue& q = *s.q;
    if constexpr (split) {
      // The header's buffer may still hold the tail of the worm ahead, which
      // the other thread may be moving out: this worm stops before it reads it.
      if (k + 1 == w.end && s.next->is_express_port(s.next_port)) {
        put_off->push_back(Deferred{worm(), Deferred::kResume, k, stages, moved, Flit{}});
        return;
      }
    }
    if (q.front_ready() > now || !s.down->has_credit(now)) continue;
    const Flit taken = move.take(q);
    if constexpr (counting) s.router->count_departure(s.in_vc, s.in_port, taken, now);
    const Flit f = move.body_across_link(taken);
    ++link_busy[s.link];
    if (k + 1 < w.end && !(shared_ports && stages_[k + 1].routed)) {
      s.down->push(f);
    } else if constexpr (split) {
      s.down->push(f);  // the header's buffer: only its router's fields wait
      put_off->push_back(Deferred{worm(), Deferred::kArrival, k, 0, 0, Flit{}});
    } else {
      s.next->accept(s.next_port, *s.down, f);  // the header's router, or a stage handed back: it must see the flit
    }
    ++moved;
    if (f.tail) {
      if constexpr (split) {
        put_off_tail(w, k, Deferred::kTailLeft, f, now, *put_off);
      } else {
        end_stage(w, k, f, now);
      }
      if constexpr (shared_ports) check_done(w);
    }
  }
  if (w.complete && w.first < w.end) {
    const uint32_t last = w.end - 1;
    const Stage& s = stages_[last];
    FlitQueue& q = *s.q;
    if (!(shared_ports && s.routed) && q.front_ready() <= now) {
      const Flit f = move.take(q);
      if constexpr (counting) s.router->count_departure(s.in_vc, s.in_port, f, now);
      ++moved;
      ++t.ejected;
      ctx_->count_ejected(w.msg, 1);
      if (f.tail) {
        if constexpr (split) {
          put_off_tail(w, last, Deferred::kTailOut, f, now, *put_off);
        } else {
          s.router->eject(f, now);
          end_stage(w, last, f, now);
          mark_done(w);
          finished = true;
        }
      }
    }
  }
  w.moved_all = moved == stages;
  t.moved += moved;
  if constexpr (shared_ports) finished = finished || w.done;
}

template <bool counting, bool shared_ports, bool listed>
void ExpressWorms::step_routers_with(uint64_t now) {
  const FlitTransfer move(ctx_->timing, now);
  // Two tallies: the thaws' is passed to a function, which would keep the moves' in memory.
  Tally t, thawed;
  bool finished = false;
  const auto far = [this](const Worm& w) { prefetch_buffers(w); };
  const auto near = [this](const Worm& w) { prefetch_slots(w); };
  visit<listed>(far, near, [&](Worm& w) __attribute__((always_inline)) {
    // No express stage left (done, or the tail is in the header's router): nothing
    // to move, and its interface has injected it all, so moved_all is never read.
    if (w.first == w.end) return;
    if (w.frozen_until != 0) {
      if (now <= w.frozen_until) return;
      thaw_into(w, w.frozen_until, thawed);
    }
    move_worm<counting, shared_ports, false>(w, w.first, w.end - w.first, 0, move, now, t, finished, nullptr);
  });
  add(t);
  add(thawed);
  if (finished) drop_finished();
}

template <bool listed>
void ExpressWorms::step_routers_shared(uint64_t now) {
  const FlitTransfer move(ctx_->timing, now);
  const auto far = [this](const Worm& w) { prefetch_buffers(w); };
  const auto near = [this](const Worm& w) { prefetch_slots(w); };
  const size_t n = visits<listed>();
  const auto half = [&](size_t lo, size_t hi, Half& h) {
    // Counted here and stored once: the two halves' tallies share a cache line.
    Tally t, thawed;
    h.put_off.clear();
    bool finished = false;  // never set: a split visit leaves the ejected tails' worms to do_deferred
    visit_range<listed>(lo, hi, far, near, [&](Worm& w) __attribute__((always_inline)) {
      if (w.first == w.end) return;
      if (w.frozen_until != 0) {
        if (now <= w.frozen_until) return;
        thaw_into(w, w.frozen_until, thawed);
      }
      move_worm<false, false, true>(w, w.first, w.end - w.first, 0, move, now, t, finished, &h.put_off);
    });
    h.tally = t;
    add_to(h.tally, thawed);
  };
  const size_t mid = n / 2;
  const std::function<void()> theirs = [&] { half(mid, n, halves_[1]); };
  helper_.run_beside(theirs, [&] { half(0, mid, halves_[0]); });
  bool finished = false;
  for (Half& h : halves_) {  // the first half's worms come first
    for (const Deferred& d : h.put_off) do_deferred(d, move, now, h.tally, finished);
    add(h.tally);
  }
  if (finished) drop_finished();
}

// The tail left stage k (kind: to the next stage, or out of the network): the
// worm's own fields now, the rest noted for do_deferred.
void ExpressWorms::put_off_tail(Worm& w, uint32_t k, Deferred::Kind kind, const Flit& tail, uint64_t now,
                                std::vector<Deferred>& put_off) {
  check_tail_order(w, k, now);
  w.first = k + 1;
  put_off.push_back(Deferred{static_cast<uint32_t>(&w - worms_.data()), kind, k, 0, 0, tail});
}

void ExpressWorms::do_deferred(const Deferred& d, const FlitTransfer& move, uint64_t now, Tally& t, bool& finished) {
  const Stage& s = stages_[d.k];
  switch (d.kind) {
    case Deferred::kArrival:
      s.next->body_arrived(s.next_port, *s.down);
      break;
    case Deferred::kTailLeft:
      s.router->end_express(s.in_vc, s.in_port, d.tail, now);
      break;
    case Deferred::kTailOut:
      s.router->eject(d.tail, now);
      s.router->end_express(s.in_vc, s.in_port, d.tail, now);
      mark_done(worms_[d.worm]);
      finished = true;
      break;
    case Deferred::kResume:
      move_worm<false, false, false>(worms_[d.worm], d.k, d.stages, d.moved, move, now, t, finished, nullptr);
      break;
  }
}

void ExpressWorms::add_to(Tally& to, const Tally& t) {
  to.moved += t.moved;
  to.injected += t.injected;
  to.ejected += t.ejected;
  to.thawed += t.thawed;
}

void ExpressWorms::add(const Tally& t) {
  ctx_->flits_moved += t.moved;
  ctx_->flits_injected += t.injected;
  ctx_->flits_ejected += t.ejected;
  flit_moves_ += t.moved;
  frozen_ -= t.thawed;
}

void ExpressWorms::prefetch_buffers(const Worm& w) const {
  const uint32_t end = std::min(w.end, w.first + kPrefetchStages);
  for (uint32_t k = w.first; k < end; ++k) {
    const Stage& s = stages_[k];
    __builtin_prefetch(s.q);
    if (s.down) __builtin_prefetch(s.down);
  }
}

void ExpressWorms::prefetch_slots(const Worm& w) const {
  const uint32_t end = std::min(w.end, w.first + kPrefetchStages);
  for (uint32_t k = w.first; k < end; ++k) {
    const Stage& s = stages_[k];
    s.q->prefetch_front();
    if (s.down) s.down->prefetch_tail();
  }
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
  // The worms frozen in one cycle mostly thaw in one cycle too (messages of one length).
  const uint64_t wake = w.frozen_until + 1;
  if (!has_last_wake_ || last_wake_->first != wake) {
    last_wake_ = wakes_.try_emplace(wake).first;
    has_last_wake_ = true;
  }
  last_wake_->second.push_back(w.msg);
}

void ExpressWorms::wake_due(uint64_t now) {
  if (wakes_.empty() || wakes_.begin()->first > now) return;
  woken_.clear();
  while (!wakes_.empty() && wakes_.begin()->first <= now) {
    for (const uint32_t msg : wakes_.begin()->second) {
      Worm& w = worms_[worm_of_msg_[msg]];
      // Still listed: not taken out of awake_ while it was frozen (or listed again by drop_finished after a thaw by sync).
      if (w.awake) continue;
      w.awake = true;
      woken_.push_back(worm_of_msg_[msg]);
    }
    if (has_last_wake_ && last_wake_ == wakes_.begin()) has_last_wake_ = false;
    wakes_.erase(wakes_.begin());
  }
  // Already in order but after a thaw by sync, or with worms of several freeze cycles.
  if (!std::is_sorted(woken_.begin(), woken_.end())) std::sort(woken_.begin(), woken_.end());
  merged_.resize(awake_.size() + woken_.size());
  std::merge(awake_.begin(), awake_.end(), woken_.begin(), woken_.end(), merged_.begin());
  awake_.swap(merged_);
}

void ExpressWorms::unlist_frozen() {
  size_t kept = 0;
  for (const uint32_t i : awake_) {
    Worm& w = worms_[i];
    w.awake = w.frozen_until == 0 && !w.done;
    if (w.awake) awake_[kept++] = i;
  }
  awake_.resize(kept);
  frozen_listed_ = 0;
}

// Moves a frozen worm to its state at the end of cycle `to` (<= frozen_until):
// each cycle skipped, every stage moved one flit and the interface put one in.
void ExpressWorms::thaw(Worm& w, uint64_t to) {
  Tally t;
  thaw_into(w, to, t);
  add(t);
}

void ExpressWorms::thaw_into(Worm& w, uint64_t to, Tally& t) {
  const uint64_t d = to - w.frozen_from;
  if (d > 0) {
    for (uint32_t k = w.first; k < w.end; ++k) {
      // Every skipped cycle the stage held the same number of flits (one in, one out).
      if (ctx_->vc_counters) stages_[k].router->count_steady(stages_[k].in_vc, d * stages_[k].q->size());
      stages_[k].q->shift(d);
      if (stages_[k].down) ctx_->link_busy[static_cast<size_t>(stages_[k].link)] += d;
    }
    w.left -= static_cast<uint32_t>(d);
    t.moved += d * (w.end - w.first + 1);
    t.injected += d;
    t.ejected += d;
    ctx_->count_ejected(w.msg, d);
  }
  w.frozen_from = to;
  if (to < w.frozen_until) return;
  w.frozen_until = 0;
  w.streak = 0;
  ++t.thawed;
}

void ExpressWorms::sync(uint64_t now) {
  for (Worm& w : worms_)
    if (w.frozen_until != 0) thaw(w, std::min(now, w.frozen_until));
}

// The tail has left stage k; a worm's tail leaves its stages in order, so k is
// the worm's first, or follows stages handed back to their routers in this cycle.
void ExpressWorms::end_stage(Worm& w, uint32_t k, const Flit& tail, uint64_t now) {
  check_tail_order(w, k, now);
  const Stage& s = stages_[k];
  s.router->end_express(s.in_vc, s.in_port, tail, now);
  w.first = k + 1;
}

void ExpressWorms::check_tail_order(const Worm& w, uint32_t k, uint64_t now) const {
#ifdef WORMSIM_CHECKED
  bool in_order = k >= w.first;
  for (uint32_t j = w.first; j < k && in_order; ++j) in_order = stages_[j].routed;
  if (!in_order) {
    std::fprintf(stderr, "wormsim: invariant broken at cycle %llu: an express worm's tail left a stage out of order\n",
                 static_cast<unsigned long long>(now));
    std::abort();
  }
#else
  (void)w, (void)k, (void)now;
#endif
}

// A worm is done: the express loop has nothing more to do for it. Its message
// id may come back (background records are recycled once delivered) before the worm
// is dropped, so the id stops naming it now.
void ExpressWorms::mark_done(Worm& w) {
  if (w.done) return;
  w.done = true;
  ++done_;
  worm_of_msg_[w.msg] = kNoWorm;
}

void ExpressWorms::release_storage() {
  if (!worms_.empty()) return;  // a stopped run's worms still in flight: their stages stay readable
  std::vector<Stage>().swap(stages_);
  std::vector<Worm>().swap(worms_);
}

// Done worms are dropped once they are an eighth of the list: each costs the
// loops a test per cycle until then, and dropping them one at a time cost a
// pass over the list per tail (docs/performance.md). Their stages go once they
// are most of the storage.
void ExpressWorms::drop_finished() {
  if (done_ == 0 || 8 * done_ < worms_.size()) return;
  size_t kept = 0, live = 0, listed = 0;
  awake_.resize(worms_.size());  // anew: the worms move down
  frozen_listed_ = 0;
  for (size_t i = 0; i < worms_.size(); ++i) {
    if (worms_[i].done) continue;
    if (kept != i) {
      worms_[kept] = worms_[i];
      worm_of_msg_[worms_[kept].msg] = static_cast<uint32_t>(kept);
    }
    Worm& w = worms_[kept];
    live += w.limit - w.base;
    w.awake = w.frozen_until == 0;
    if (w.awake) awake_[listed++] = static_cast<uint32_t>(kept);
    ++kept;
  }
  awake_.resize(listed);
  worms_.resize(kept);
  done_ = 0;
  if (kept == 0) {
    // Nothing in flight: the storage is kept for the next worms (a gap between
    // bursts, or between repetitions of a schedule), and given back once the
    // run is over (release_storage). Freed and grown again at every gap, it
    // cost a page fault per page each time.
    stages_.clear();
    return;
  }
  if (stages_.size() < 64 || stages_.size() < 4 * live) return;
  // In place, keeping the storage: worms are in join order, so their stages
  // are in increasing order too, and each moves down, never onto a later one.
  uint32_t to = 0;
  for (Worm& w : worms_) {
    if (w.base != to) std::copy(stages_.begin() + w.base, stages_.begin() + w.limit, stages_.begin() + to);
    w.first = w.first - w.base + to;
    w.end = w.end - w.base + to;
    w.limit = w.limit - w.base + to;
    w.base = to;
    to = w.limit;
  }
  stages_.resize(to);
}

}  // namespace wormsim

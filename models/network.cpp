#include "models/network.hpp"

#include "models/multicast/multicast_route.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <csignal>
#include <stdexcept>
#include <unordered_map>

namespace wormsim {

namespace {
volatile std::sig_atomic_t g_stop_requested = 0;
// With the watchdog off, a network where no flit has moved for this many cycles
// is checked for pending events (a scan of every buffer), then again after
// twice as long each time: a stuck network is found in time proportional to how
// long it has been stuck, and a slow pipeline (long delays) is scanned rarely.
constexpr uint64_t kFirstFreezeCheck = 64;
}

void Network::request_stop() { g_stop_requested = 1; }

std::string to_string(RunStatus s) {
  switch (s) {
    case RunStatus::Running: return "running";
    case RunStatus::Completed: return "completed";
    case RunStatus::Deadlock: return "deadlock";
    case RunStatus::CycleLimit: return "cycle_limit";
    case RunStatus::Interrupted: return "interrupted";
    case RunStatus::Stalled: return "stalled";
    case RunStatus::NoProgress: return "no_progress";
    case RunStatus::Saturated: return "saturated";
  }
  return "?";
}

namespace {
// The memory each router lays out itself: its VC states and buffers.
size_t router_arena_bytes(const Topology& topo, const NetworkParams& params) {
  const int most = topo.max_endpoints_per_router();
  return Router::arena_bytes(topo.num_ports(), most * params.ports.injection_channels(topo),
                             most * params.ports.ejection_channels(topo), params.vcs, params.buffer_flits);
}
}  // namespace

size_t Network::router_pool_bytes(const Topology& topo, const NetworkParams& params) {
  return ModulePool<Router>::mapped_bytes(static_cast<size_t>(topo.num_nodes()), router_arena_bytes(topo, params));
}

Network::Network(sc_core::sc_module_name name, const Topology& topo, const NetworkParams& params)
    : sc_core::sc_module(name),
      topo_(topo),
      params_(params),
      routing_(make_routing(params.routing, topo, params.vcs)),
      express_(&ctx_) {
  ctx_.timing = params.timing;
  ctx_.ports = params.ports;
  ctx_.vcs = params.vcs;
  ctx_.buffer_flits = params.buffer_flits;
  ctx_.fast_paths = params.fast_paths;
  ctx_.routing = routing_.get();
  ctx_.adaptive_routing = routing_->adaptive();
  ctx_.adaptive_empty_vcs = routing_->needs_empty_vcs();
  ctx_.express = ExpressWorms::enabled(ctx_);
  ctx_.express_loop = &express_;
  express_.parallel_from(params.parallel_from == NetworkParams::kParallelByDefault
                             ? ExpressWorms::default_parallel_from(static_cast<size_t>(topo.num_nodes()))
                             : params.parallel_from);
  prefetch_events_ =
      params.prefetch_events_from > 0 && static_cast<size_t>(topo.num_nodes()) >= params.prefetch_events_from;
  ctx_.dateline_classes = topo.dateline_classes() && params.vcs >= 2;
  ctx_.link_busy.assign(topo.num_links(), 0);
  cycles_per_activation_ = params.fast_paths ? kCyclesPerActivation : 1;

  // A router per router of the topology, an interface per endpoint; each router
  // gets the injection and ejection channels of its endpoints.
  const int n = topo.num_nodes();
  const int inj = params.ports.injection_channels(topo);
  const int ej = params.ports.ejection_channels(topo);
  routers_.reserve(n, router_arena_bytes(topo, params));
  nis_.reserve(topo.num_endpoints(), NetworkInterface::arena_bytes(inj));
  for (int node = 0; node < n; ++node) {
    const RouterEndpoints ends{topo.first_endpoint(node), topo.endpoints_at(node), inj, ej};
    Router* r = routers_.emplace(node, topo.num_ports(), ends, &ctx_);
    for (int k = 0; k < ends.count; ++k) {
      const int e = ends.first + k;
      nis_.emplace(e, inj, r, k * inj, &ctx_);
    }
  }
  for (int l = 0; l < topo.num_links(); ++l) {
    Router* src = routers_[topo.link_src(l)];
    Router* dst = routers_[topo.link_dst(l)];
    src->connect_output(topo.link_port(l), dst, topo.link_input_port(l), l);
  }
  active_bits_.assign((static_cast<size_t>(n) + 63) / 64, 0);
  active_ni_bits_.assign((static_cast<size_t>(topo.num_endpoints()) + 63) / 64, 0);
  SC_METHOD(tick);
}

inline uint32_t Network::store_message(int src, int dst, const Route& route, uint32_t flits, int step) {
  MessageRecord m;
  m.src = src;
  m.dst = dst;
  m.step = step;
  m.flits = flits;
  m.hops = static_cast<uint16_t>(route.hops());
  // All-port ties the injection channel to the first hop, which the router has yet to choose (refused by the config).
  if (route.adaptive() && params_.ports.kind == PortKind::AllPort)
    throw std::invalid_argument("an adaptive routing function cannot run with the all-port model");
  if (free_msgs_.empty() && quarantine_head_ < quarantined_.size()) end_quarantine();
  const bool reuse = !free_msgs_.empty();
  const uint32_t id = reuse ? free_msgs_.back() : static_cast<uint32_t>(ctx_.msgs.size());
  if (reuse) free_msgs_.pop_back();
  if (reuse && m.hops <= hop_capacity_[id]) {
    m.route_begin = ctx_.msgs[id].route_begin;
  } else {
    m.route_begin = static_cast<uint32_t>(ctx_.hops.size());
    ctx_.hops.resize(ctx_.hops.size() + m.hops);
    if (!hop_capacity_.empty()) {
      hop_capacity_.resize(std::max<size_t>(hop_capacity_.size(), id + 1), 0);
      hop_capacity_[id] = m.hops;
    }
  }
  if (!route.simple && !route.adaptive()) ctx_.routes_simple = false;
  RouteHop* hop = ctx_.hops.data() + m.route_begin;
  if (route.adaptive()) std::fill(hop, hop + m.hops, RouteHop{kChosenInRouter, 0});
  for (size_t i = 0; i < route.links.size(); ++i)
    hop[i] = RouteHop{static_cast<uint16_t>(topo_.link_port(route.links[i])), route.vc_class[i]};
  // All-port: the channel of the first hop's link; a message that stays at its router (0 hops) takes channel 0.
  if (params_.ports.kind == PortKind::AllPort) m.inj_channel = static_cast<int8_t>(m.hops ? hop[0].port : 0);
  if (reuse) {
    ctx_.msgs[id] = m;
  } else {
    ctx_.msgs.push_back(m);
  }
  return id;
}

uint32_t Network::add_message(int src, int dst, const Route& route, uint32_t flits, int step) {
  const uint32_t slot = store_message(src, dst, route, flits, step);
  note_added(slot);
  return slot;
}

uint64_t Network::reserve_message_ids(uint64_t n) {
  map_ids();
  const uint64_t first = added_;
  added_ += n;
  return first;
}

uint32_t Network::add_reserved_message(uint64_t id, int src, int dst, const Route& route, uint32_t flits, int step) {
  if (!ids_mapped_ || id >= added_) throw std::logic_error("message id " + std::to_string(id) + " was not reserved");
  const uint32_t slot = store_message(src, dst, route, flits, step);
  if (slot >= ids_.size()) ids_.resize(slot + 1);
  ids_[slot] = id;
  return slot;
}

uint32_t Network::add_multicast_message(const MulticastWorm& worm, uint32_t flits, int step) {
  if (worm.dsts.empty()) throw std::invalid_argument("multicast worm from " + topo_.node_name(worm.src) + ": no destinations");
  const MulticastRoute route = encode_multicast_route(topo_, worm);
  MessageRecord m;
  m.src = worm.src;
  m.dst = worm.dsts.back();
  m.step = step;
  m.flits = flits;
  m.multicast = 1;
  m.hops = static_cast<uint16_t>(route.links);
  m.route_begin = static_cast<uint32_t>(ctx_.hops.size());
  ctx_.hops.insert(ctx_.hops.end(), route.hops.begin(), route.hops.end());
  ctx_.hop_next.resize(ctx_.hops.size(), 0);
  std::copy(route.next.begin(), route.next.end(), ctx_.hop_next.begin() + m.route_begin);
  // All-port: the channel of the first link the worm takes from its router (0 if it only ejects there).
  if (params_.ports.kind == PortKind::AllPort) {
    m.inj_channel = 0;
    for (const RouteHop& h : route.hops) {
      if (h.port != kEjectBranch) {
        m.inj_channel = static_cast<int8_t>(h.port);
        break;
      }
      if (!h.more) break;
    }
  }
  const auto id = static_cast<uint32_t>(ctx_.msgs.size());
  ctx_.msgs.push_back(m);
  note_added(id);
  MulticastCopies c;
  c.msg = id;
  c.dsts.assign(worm.dsts.begin(), worm.dsts.end());
  c.by_endpoint_order.resize(c.dsts.size());
  for (uint32_t i = 0; i < c.dsts.size(); ++i) c.by_endpoint_order[i] = i;
  std::sort(c.by_endpoint_order.begin(), c.by_endpoint_order.end(),
            [&c](uint32_t a, uint32_t b) { return c.dsts[a] < c.dsts[b]; });
  c.depth.assign(route.depth.begin(), route.depth.end());
  c.max_depth = *std::max_element(c.depth.begin(), c.depth.end());
  c.entries = static_cast<uint32_t>(route.hops.size());
  c.header.assign(c.dsts.size(), kNever);
  c.tail.assign(c.dsts.size(), kNever);
  c.left = static_cast<uint32_t>(c.dsts.size());
  ctx_.copies_of.emplace(id, static_cast<uint32_t>(ctx_.copies.size()));
  ctx_.copies.push_back(std::move(c));
  return id;
}

void Network::count_vc_statistics() {
  size_t total = 0;
  for (size_t i = 0; i < routers_.size(); ++i) {
    routers_[i]->set_counter_base(static_cast<int>(total));
    total += static_cast<size_t>(routers_[i]->in_ports()) * static_cast<size_t>(params_.vcs);
  }
  vc_counters_.assign(total, VcCounters{});
  ctx_.vc_counters = vc_counters_.data();
}

std::vector<VcCounters> Network::vc_counters_at(uint64_t end) const {
  std::vector<VcCounters> c = vc_counters_;
  for (size_t i = 0; i < routers_.size(); ++i) routers_[i]->add_present_flit_cycles(end, c.data());
  return c;
}

size_t Network::source_queue_max() const {
  size_t most = 0;
  for (size_t e = 0; e < nis_.size(); ++e) most = std::max(most, nis_[e]->most_queued());
  return most;
}

size_t Network::source_queue_now() const {
  size_t total = 0;
  for (size_t e = 0; e < nis_.size(); ++e) total += nis_[e]->queued();
  return total;
}

uint64_t Network::oldest_waiting_background() const {
  uint64_t oldest = kNever;
  for (size_t e = 0; e < nis_.size(); ++e) oldest = std::min(oldest, nis_[e]->oldest_background_release());
  return oldest;
}

void Network::recycle(uint32_t msg) {
  MessageRecord& m = ctx_.msgs[msg];
  // A worm under way still reads its record; a multidestination worm's copies are kept by its id.
  if (m.free() || m.multicast || (m.release != kNever && m.delivered == kNever))
    throw std::logic_error("only a delivered or unreleased unicast message can be recycled");
  if (hop_capacity_.empty()) {
    // First recycling: every slot so far holds exactly its route.
    hop_capacity_.resize(ctx_.msgs.size());
    for (size_t i = 0; i < ctx_.msgs.size(); ++i) hop_capacity_[i] = ctx_.msgs[i].hops;
  }
  map_ids();
  m.src = -1;
  // Routers name the last worm that held an output VC as the blocker of a
  // head waiting for that VC's credits (Router::charge_stall), and charge the
  // stall by that worm's step: its record must stay as it was until its last
  // credits are back, a credit round trip after its tail was ejected.
  quarantined_.push_back(Quarantined{msg, cycle_ + static_cast<uint64_t>(params_.timing.credit_round_trip()) + 1});
}

// Frees the slots whose quarantine is over (recycle); once the run is over, every one.
void Network::end_quarantine() {
  const bool over = status_ != RunStatus::Running;
  for (; quarantine_head_ < quarantined_.size(); ++quarantine_head_) {
    const Quarantined& q = quarantined_[quarantine_head_];
    if (!over && q.free_from > cycle_) break;
    free_msgs_.push_back(q.slot);
  }
  if (quarantine_head_ == quarantined_.size()) {
    quarantined_.clear();
    quarantine_head_ = 0;
  } else if (quarantine_head_ >= 4096 && 2 * quarantine_head_ >= quarantined_.size()) {
    quarantined_.erase(quarantined_.begin(), quarantined_.begin() + static_cast<std::ptrdiff_t>(quarantine_head_));
    quarantine_head_ = 0;
  }
}

void Network::map_ids() {
  if (ids_mapped_) return;
  ids_.resize(ctx_.msgs.size());
  for (size_t i = 0; i < ids_.size(); ++i) ids_[i] = i;
  ids_mapped_ = true;
}

void Network::note_added(uint32_t msg) {
  if (ids_mapped_) {
    if (msg >= ids_.size()) ids_.resize(msg + 1);
    ids_[msg] = added_;
  }
  ++added_;
}

void Network::release(uint32_t msg, uint64_t when) {
  MessageRecord& m = ctx_.msgs[msg];
  m.release = when;
  NetworkInterface* ni = nis_[m.src];
  ni->submit(msg);
  wake_interface(ni, when + ctx_.timing.startup);
}

void Network::wake_interface(NetworkInterface* ni, uint64_t when) {
  ni->wake = std::min(ni->wake, when);
  if (!ni->active) {
    ni->active = true;
    const auto node = static_cast<size_t>(ni->node());
    active_ni_bits_[node / 64] |= uint64_t{1} << (node % 64);
  }
}

namespace {

// Calls visit(i) for every set bit i of `bits`, in increasing order, after
// prefetch(j) for the next set bit j; clears bit i when visit returns false.
template <class Prefetch, class Visit>
void walk_bits(std::vector<uint64_t>& bits, Prefetch prefetch, Visit visit) {
  for (size_t w = 0; w < bits.size(); ++w) {
    uint64_t left = bits[w];
    while (left) {
      const int bit = __builtin_ctzll(left);
      left &= left - 1;
      if (left) prefetch(w * 64 + static_cast<size_t>(__builtin_ctzll(left)));
      if (!visit(w * 64 + static_cast<size_t>(bit))) bits[w] &= ~(uint64_t{1} << bit);
    }
  }
}

}  // namespace

// Routers are stepped in router order, not in the order they woke: neighbours sit
// next to each other in memory, so a busy region is walked almost sequentially.
void Network::step_routers(uint64_t now) {
  walk_bits(
      active_bits_, [this](size_t next) { routers_.prefetch(next); },
      [this, now](size_t i) {
        Router* r = routers_[i];
        r->step(now);
#ifdef WORMSIM_CHECKED
        stepped_.push_back(r);
#endif
        if (r->holds_flits()) return true;
        r->set_active(false);
        --active_count_;
        return false;
      });
}

// Express worms move after every router has stepped (models/express_worms.hpp);
// the stages a header left in this cycle join them from the next one.
// Express stages that met competition in this cycle go back to their routers
// (and injection channels to their interfaces, from this cycle's interface step on).
void Network::step_express_routers(uint64_t now) {
  if (!express_.empty()) express_.step_routers(now);
  express_.hand_back_marked(woken_nis_);
  pass_headers_left();
  for (NetworkInterface* ni : woken_nis_) wake_interface(ni, now);
  woken_nis_.clear();
  add_woken_routers();
}

// The headers that left a stage in this cycle, to the express loop; on a big
// network in batches (prefetches_events): a worm to extend is a miss at its
// index, its worm and its stage, a worm to join at the message and its
// source's interface, and the router the header left is cold by now too.
void Network::pass_headers_left() {
  const auto& left = ctx_.headers_left;
  const auto pass = [this](const SimContext::HeaderLeft& e) {
    express_.header_left(e, nis_[static_cast<size_t>(ctx_.msgs[e.msg].src)]);
  };
  if (!prefetch_events_) {
    for (const SimContext::HeaderLeft& e : left) pass(e);
  } else {
    for (size_t b = 0; b < left.size(); b += kEventBatch) {
      const size_t end = std::min(left.size(), b + kEventBatch);
      note_event_batch();
      for (size_t i = b; i < end; ++i) {
        __builtin_prefetch(&ctx_.msgs[left[i].msg]);
        express_.prefetch_worm_index(left[i].msg);
        left[i].router->prefetch();
      }
      for (size_t i = b; i < end; ++i) {
        if (!express_.prefetch_worm(left[i].msg)) nis_.prefetch(static_cast<size_t>(ctx_.msgs[left[i].msg].src));
        left[i].router->prefetch_input(left[i].in_vc);
      }
      for (size_t i = b; i < end; ++i) {
        express_.prefetch_stage(left[i].msg);
        left[i].router->prefetch_output(left[i].in_vc);
      }
      for (size_t i = b; i < end; ++i) pass(left[i]);
    }
  }
  ctx_.headers_left.clear();
}

// Express worms still entering the network inject after the interfaces' steps;
// an interface whose channel a tail freed steps again from the next cycle.
void Network::step_express_interfaces(uint64_t now) {
  if (express_.empty()) return;
  express_.step_interfaces(now, woken_nis_);
  for (NetworkInterface* ni : woken_nis_) wake_interface(ni, ni->wake);
  woken_nis_.clear();
  add_woken_routers();
}

// Routers that received their first flit this cycle are stepped from the next one.
void Network::add_woken_routers() {
  for (Router* r : ctx_.woken_routers) {
    const auto node = static_cast<size_t>(r->node());
    active_bits_[node / 64] |= uint64_t{1} << (node % 64);
    ++active_count_;
  }
  ctx_.woken_routers.clear();
}

// Steps the interfaces that have work this cycle, in endpoint order like the
// routers (each feeds its own router, so the order changes nothing but the
// memory walk), and drops those that have none left.
void Network::step_interfaces(uint64_t now) {
  walk_bits(
      active_ni_bits_, [this](size_t next) { nis_.prefetch(next); },
      [this, now](size_t i) {
        NetworkInterface* ni = nis_[i];
        if (ni->wake <= now) ni->wake = ni->step(now);
        if (ni->wake != kNever) return true;
        ni->active = false;
        return false;
      });
  add_woken_routers();
}

uint64_t Network::next_interface_wake() const {
  uint64_t next = kNever;
  for (size_t w = 0; w < active_ni_bits_.size(); ++w)
    for (uint64_t bits = active_ni_bits_[w]; bits; bits &= bits - 1)
      next = std::min(next, nis_[w * 64 + static_cast<size_t>(__builtin_ctzll(bits))]->wake);
  return next;
}

// One activation of the network's SC_METHOD steps up to cycles_per_activation_
// cycles back to back (idle stretches skipped as ever), then asks SystemC to
// come back at the cycle after them: SystemC's time catches up with the
// network's at the end of each batch, which no part of a run observes, and a
// cycle no longer costs a trip through the kernel's scheduler
// (docs/timing-model.md, "SystemC time"). A VCD trace samples its signals at
// every time step, so a traced run, like one without fast paths, activates
// once per cycle.
void Network::tick() {
  try {
    if (trace_catch_up_) {  // nothing moves from the frozen cycle on: only the trace's time was left
      trace_catch_up_ = false;
      return;
    }
    tick_cycles();
  } catch (const std::exception&) {
    failure_ = std::current_exception();  // no next trigger: the simulation ends here
  }
}

void Network::tick_cycles() {
  const uint64_t from = cycle_;
  for (uint32_t k = 1; step_cycle(); ++k)
    if (k == cycles_per_activation_) {
      next_trigger(sc_core::sc_time(static_cast<double>(cycle_ - from), sc_core::SC_NS));
      return;
    }
  if (trace_catch_up_) {
    if (cycle_ - 1 > from) next_trigger(sc_core::sc_time(static_cast<double>(cycle_ - 1 - from), sc_core::SC_NS));
    else trace_catch_up_ = false;
  }
  // The run is over: what the express loop kept for the next worms serves the outputs instead.
  express_.release_storage();
}

bool Network::step_cycle() {
  const uint64_t now = cycle_;
  if (!started_) {
    started_ = true;
    for (TrafficSource* src : sources_) src->start(*this, now);
  }
  if (g_stop_requested) {
    status_ = RunStatus::Interrupted;
    if (now > 0) express_.sync(now - 1);  // the outputs show the end of the last simulated cycle
    return false;
  }
  ++cycles_stepped_;
  step_routers(now);
  step_express_routers(now);
  for (TrafficSource* src : sources_) src->after_routers(*this, now);
  ctx_.delivered_now.clear();
  ctx_.copies_delivered_now.clear();
  step_interfaces(now);
  step_express_interfaces(now);
  for (TrafficSource* src : sources_) src->after_interfaces(*this, now);
  ctx_.injected_now.clear();
  for (const TrafficSource* src : sources_)
    if (src->saturated() || src->deadlocked()) {
      express_.sync(now);
      status_ = src->deadlocked() ? RunStatus::Deadlock : RunStatus::Saturated;
      return false;
    }
  if (!traced_buffered_.empty()) update_traced_buffers();

#ifdef WORMSIM_CHECKED
  check_invariants(now);
#endif
  // Frozen express worms move flits every cycle; their counts come when they thaw.
  const bool moved = ctx_.flits_moved != moved_at_last_check_ || express_.any_frozen();
  if (moved) {
    moved_at_last_check_ = ctx_.flits_moved;
    last_progress_ = now;
    next_freeze_check_ = now + kFirstFreezeCheck;
  }
  const bool in_flight = ctx_.flits_injected != ctx_.flits_ejected;
  if (in_flight && params_.watchdog_cycles && now >= last_progress_ + params_.watchdog_cycles) {
    // Waiting out a long router or link delay is not a lack of progress: the
    // watchdog counts from the next cycle at which something falls due.
    const uint64_t event = next_timed_event(now);
    if (event == kNever) {
      stop_stuck(now);
      return false;
    }
    last_progress_ = event;
  }
  if (in_flight && !params_.watchdog_cycles && !moved && now >= next_freeze_check_) {
    if (next_timed_event(now) == kNever) {
      skip_frozen(now);
      return false;
    }
    next_freeze_check_ = now + (now - last_progress_);
  }
  uint64_t next = active_count_ == 0 && express_.empty() ? next_interface_wake() : now + 1;
  bool finished = true;
  for (TrafficSource* src : sources_) {
    next = std::min(next, std::max(now + 1, src->next_event()));
    finished = finished && src->finished();
  }
  if (next == kNever) {
    status_ = finished ? RunStatus::Completed : RunStatus::Stalled;
    return false;
  }
  if (params_.max_cycles && next >= params_.max_cycles) {
    express_.sync(now);
    status_ = RunStatus::CycleLimit;
    cycle_ = params_.max_cycles;
    return false;
  }
  cycle_ = next;
  return true;
}

// Nothing moved in cycle `now` (no flit, so no credit was freed either). If
// nothing falls due later either (no flit becomes ready, no credit is seen, no
// startup ends, no traffic source has an arrival), every later cycle repeats
// this one: the routers retry the same requests and fail the same way.
uint64_t Network::next_timed_event(uint64_t now) const {
  uint64_t next = kNever;
  for (size_t i = 0; i < routers_.size(); ++i) next = std::min(next, routers_[i]->next_timed_event(now));
  // Every interface, not only the active ones: one whose channels all carry
  // express worms sleeps until a tail goes in, with messages still queued.
  for (size_t i = 0; i < nis_.size(); ++i) next = std::min(next, nis_[i]->next_startup_end(now));
  for (const TrafficSource* src : sources_) next = std::min(next, std::max(now + 1, src->next_event()));
  return next;
}

// Nothing can move again: "deadlock" if the blocked worms wait for each other
// in a cycle, "no_progress" if not (then every blocked head is listed).
void Network::stop_stuck(uint64_t now) {
  express_.sync(now);
  status_ = find_wait_cycle(now) ? RunStatus::Deadlock : RunStatus::NoProgress;
}

// Watchdog off and nothing can move again: the run would step to max_cycles,
// each cycle charging every waiting head one stall cycle. It jumps there
// instead, with the same outputs (only metrics.simulated_cycles, the cycles
// actually stepped, is smaller). Without a cycle limit it stops as the watchdog would.
void Network::skip_frozen(uint64_t now) {
  if (!params_.max_cycles) {
    stop_stuck(now);
    return;
  }
  const uint64_t skipped = now + 1 < params_.max_cycles ? params_.max_cycles - 1 - now : 0;
  walk_bits(active_bits_, [](size_t) {}, [this, now, skipped](size_t i) {
    routers_[i]->charge_frozen_stalls(now, skipped);
    return true;
  });
  express_.sync(now);
  status_ = RunStatus::CycleLimit;
  cycle_ = params_.max_cycles;
  trace_catch_up_ = !traced_buffered_.empty();
}

// The blocked worms, each with the one it waits for, in the order they were found.
struct Network::WaitGraph {
  std::unordered_map<uint32_t, WaitEdge> waits;
  std::vector<uint32_t> order;
  void add(const WaitEdge& e) {
    if (waits.emplace(e.msg, e).second) order.push_back(e.msg);
  }
};

// Follows "waits for" edges between blocked heads until one repeats: that loop
// is the deadlock (returns true). Without one, lists every blocked head at the
// front of a VC. Heads queued behind another worm's flits are looked at only
// when the fronts alone close no loop: a run of one-flit worms can deadlock
// through them (each front waits for an output whose last holder has already
// moved its whole worm into a buffer, behind the worm that fills it).
bool Network::find_wait_cycle(uint64_t now) {
  WaitGraph g;
  add_front_waits(g, now);
  if (close_wait_cycle(g)) return true;
  const std::vector<uint32_t> fronts = by_id(g.order);
  add_queued_waits(g);
  if (g.order.size() > fronts.size() && close_wait_cycle(g)) return true;
  for (uint32_t m : fronts) deadlock_.push_back(g.waits.at(m));
  return false;
}

void Network::add_front_waits(WaitGraph& g, uint64_t now) const {
  for (size_t i = 0; i < routers_.size(); ++i)
    for (const auto& w : routers_[i]->waiting_heads(now))
      g.add(WaitEdge{routers_[i]->node(), w.in_port, w.vc, w.msg, w.blocker, w.out_port});
}

void Network::add_queued_waits(WaitGraph& g) const {
  for (size_t i = 0; i < routers_.size(); ++i)
    for (const auto& w : routers_[i]->queued_heads())
      g.add(WaitEdge{routers_[i]->node(), w.in_port, w.vc, w.msg, w.blocker, w.out_port, true});
}

// In a network where other worms move, a loop of waits seen once may be a
// passing one (a header waiting for a switch another worm crosses), and one
// seen again may be moving slowly (each waiting for credits a slow drain
// frees). One whose edges are all still there a period later, with none of
// its worms' flits moved, is stuck: a worm in it holds its channels until the
// next one moves, and nothing was on its way to any of them.
bool Network::lasting_wait_cycle(uint64_t now) {
  WaitGraph g;
  add_front_waits(g, now);
  add_queued_waits(g);
  std::unordered_map<uint32_t, FlitTrace> traces = loop_members(g);
  if (!traces.empty())
    for (size_t i = 0; i < routers_.size(); ++i) routers_[i]->add_flit_traces(traces);
  std::vector<SeenWait> seen;
  seen.reserve(g.order.size());
  for (uint32_t m : g.order) seen.push_back(SeenWait{message_id(m), g.waits.at(m)});
  std::sort(seen.begin(), seen.end(), [](const SeenWait& a, const SeenWait& b) { return a.edge.msg < b.edge.msg; });
  WaitGraph lasting;
  for (const SeenWait& s : seen) {
    const auto before = std::lower_bound(seen_waits_.begin(), seen_waits_.end(), s.edge.msg,
                                         [](const SeenWait& w, uint32_t msg) { return w.edge.msg < msg; });
    if (before == seen_waits_.end() || before->id != s.id || !(before->edge == s.edge)) continue;
    const auto now_at = traces.find(s.edge.msg), then_at = seen_traces_.find(s.edge.msg);
    if (now_at != traces.end() && then_at != seen_traces_.end() && now_at->second == then_at->second) lasting.add(s.edge);
  }
  seen_waits_ = std::move(seen);
  seen_traces_ = std::move(traces);
  return close_wait_cycle(lasting);
}

// Every worm waits for one other, so a walk along the edges either leaves the
// graph or ends in a loop; the worms on the loops, each with an empty trace.
std::unordered_map<uint32_t, FlitTrace> Network::loop_members(const WaitGraph& g) {
  std::unordered_map<uint32_t, FlitTrace> members;
  std::unordered_map<uint32_t, bool> walked;  // true: on the walk under way
  for (uint32_t start : g.order) {
    std::vector<uint32_t> path;
    uint32_t cur = start;
    while (g.waits.count(cur) && !walked.count(cur)) {
      walked[cur] = true;
      path.push_back(cur);
      cur = g.waits.at(cur).blocker;
    }
    const auto at = walked.find(cur);
    if (at != walked.end() && at->second)
      for (auto m = std::find(path.begin(), path.end(), cur); m != path.end(); ++m) members.emplace(*m, FlitTrace{});
    for (uint32_t m : path) walked[m] = false;
  }
  return members;
}

uint64_t Network::lasting_wait_floor() const {
  return 64 + 4 * static_cast<uint64_t>(ctx_.timing.credit_round_trip());
}

std::vector<uint32_t> Network::by_id(std::vector<uint32_t> slots) const {
  std::sort(slots.begin(), slots.end(), [this](uint32_t a, uint32_t b) { return message_id(a) < message_id(b); });
  return slots;
}

// The first loop met walking from each blocked worm in id order (not slot: a
// recycled slot says nothing of its message's age, and the loop found must not
// depend on which records were recycled), into deadlock_.
bool Network::close_wait_cycle(const WaitGraph& g) {
  for (uint32_t start : by_id(g.order)) {
    std::vector<uint32_t> path;
    std::unordered_map<uint32_t, size_t> pos;
    uint32_t cur = start;
    while (g.waits.count(cur) && !pos.count(cur)) {
      pos[cur] = path.size();
      path.push_back(cur);
      cur = g.waits.at(cur).blocker;
    }
    if (pos.count(cur)) {
      for (size_t i = pos[cur]; i < path.size(); ++i) deadlock_.push_back(g.waits.at(path[i]));
      return true;
    }
  }
  return false;
}

void Network::trace_signals(sc_core::sc_trace_file* tf) {
  for (int l = 0; l < topo_.num_links(); ++l) {
    const std::string name = "link_" + std::to_string(topo_.link_src(l)) + "_to_" + std::to_string(topo_.link_dst(l)) +
                             "_flits";
    sc_core::sc_trace(tf, ctx_.link_busy[l], name);
  }
  express_.allow_freezing(false);  // traced values must be right in every cycle
  cycles_per_activation_ = 1;       // and sampled at each one
  traced_buffered_.assign(routers_.size(), 0);
  for (size_t i = 0; i < routers_.size(); ++i)
    sc_core::sc_trace(tf, traced_buffered_[i], "router_" + std::to_string(routers_[i]->node()) + "_buffered_flits");
}

// Routers do not keep a count of their flits; a traced run counts them after every cycle.
void Network::update_traced_buffers() {
  for (size_t i = 0; i < traced_buffered_.size(); ++i) traced_buffered_[i] = routers_[i]->buffered();
}

#ifdef WORMSIM_CHECKED
// Checked builds (-DWORMSIM_CHECKED=ON): a broken invariant is a simulator bug,
// so it stops the process with what broke. A router's buffers and port masks
// change only when it steps, when a flit arrives (it is then active) or when
// the express loop moves its flits, and a credit check that held keeps holding
// as time passes; so after each cycle the routers stepped in it, the active
// ones and the express stages' are checked, and every kSweepPeriod cycles
// every router and the count of buffered flits against the flits in flight
// (a walk over the whole network after every cycle costs far more than the
// cycle; docs/performance.md). What the per-cycle checks could miss
// (a stage the express loop dropped in the cycle it changed its router; a
// flit lost or made) persists, and the next sweep finds it.
void Network::check_invariants(uint64_t now) {
  if (checked_at_.empty()) checked_at_.assign(routers_.size(), 0);
  const char* broken = ctx_.flits_ejected > ctx_.flits_injected ? "more flits ejected than injected" : nullptr;
  auto check = [&](const Router* r) {
    uint64_t& at = checked_at_[static_cast<size_t>(r->node())];
    if (broken || at == now + 1) return;
    at = now + 1;
    if (!r->buffers_within_capacity()) broken = "a buffer exceeds its capacity or the router's masks disagree with its buffers and VCs";
    else if (!r->credits_consistent(now))
      broken = "a buffer's credit times are out of order, later than credit_delay, or not what it has cached";
  };
  if (now >= next_sweep_) {  // the first check is a sweep
    next_sweep_ = now + kSweepPeriod;
    for (size_t i = 0; i < routers_.size(); ++i) check(routers_[i]);
    if (!broken && !buffers_consistent()) broken = "the flits buffered do not add up to the flits in flight";
  } else {
    for (const Router* r : stepped_) check(r);
    for (size_t w = 0; w < active_bits_.size(); ++w)
      for (uint64_t bits = active_bits_[w]; bits; bits &= bits - 1)
        check(routers_[w * 64 + static_cast<size_t>(__builtin_ctzll(bits))]);
    express_.for_each_stage_router(check);
  }
  stepped_.clear();
  if (!broken) return;
  std::fprintf(stderr, "wormsim: invariant broken at cycle %llu: %s\n", static_cast<unsigned long long>(now), broken);
  std::abort();
}
#endif

// Credits live in the downstream buffers (models/channel.hpp); each buffer's
// free slots must be seen free in FIFO order, none later than credit_delay ahead.
bool Network::credits_consistent(uint64_t now) const {
  for (size_t i = 0; i < routers_.size(); ++i)
    if (!routers_[i]->credits_consistent(now)) return false;
  return true;
}

bool Network::buffers_consistent() const {
  uint64_t buffered = 0;
  for (size_t i = 0; i < routers_.size(); ++i) {
    const Router* r = routers_[i];
    if (!r->buffers_within_capacity()) return false;
    buffered += static_cast<uint64_t>(r->buffered());
  }
  return buffered == ctx_.flits_injected - ctx_.flits_ejected;
}

}  // namespace wormsim

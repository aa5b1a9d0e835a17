// The whole simulated network as one SystemC module: a Router module per
// router and a NetworkInterface per endpoint (the topology says how many each
// router has), wired along the topology's links, and one
// clocked process that steps only the routers and interfaces that have work
// (idle parts cost nothing; when everything is idle the clock jumps straight to
// the next release). See docs/timing-model.md.
#pragma once

#include <systemc>

#include <exception>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "models/express_worms.hpp"
#include "models/module_pool.hpp"
#include "models/multicast/multicast_worm.hpp"
#include "models/network_interface.hpp"
#include "models/router.hpp"
#include "models/routing.hpp"
#include "models/sim_context.hpp"
#include "models/topology.hpp"
#include "models/traffic_source.hpp"

namespace wormsim {

struct NetworkParams {
  int vcs = 1;
  int buffer_flits = 4;
  PortModel ports;
  Timing timing;
  uint64_t max_cycles = 0;        // 0: no limit (a network in which nothing can move again then stops as the watchdog would)
  uint64_t watchdog_cycles = 0;   // 0: no deadlock watchdog (a network in which nothing can move again skips to max_cycles)
  bool fast_paths = true;         // false: no streaming shortcut (Router::stream_one_port) and no express worms
  std::string routing = "dimension-order";  // network.routing (models/routing/routing_function.hpp), checked
  // Worms to visit in a cycle from which the express loop shares them with a
  // second thread (models/express_worms.hpp); 0: never; kParallelByDefault:
  // ExpressWorms::default_parallel_from the network's size.
  static constexpr size_t kParallelByDefault = ~size_t{0};
  size_t parallel_from = kParallelByDefault;
  // Routers from which a cycle's lists of events are walked in prefetched
  // batches (Network::prefetches_events); 0: never.
  static constexpr size_t kPrefetchEventsFrom = 16384;
  size_t prefetch_events_from = kPrefetchEventsFrom;
};

// Deadlock: the watchdog stopped the run and found a cycle of worms each waiting
// for the next; NoProgress: the watchdog stopped it and found no such cycle.
enum class RunStatus { Running, Completed, Deadlock, CycleLimit, Interrupted, Stalled, NoProgress, Saturated };
std::string to_string(RunStatus s);

// One hop of a wait-for cycle found by the watchdog (or one blocked head, when there is no cycle).
struct WaitEdge {
  int node, in_port, vc;
  uint32_t msg, blocker;
  int out_port;
  // The header is not at the front of its VC: it waits behind the flits of `blocker`, queued ahead of it.
  bool queued = false;
  bool operator==(const WaitEdge& o) const {
    return node == o.node && in_port == o.in_port && vc == o.vc && msg == o.msg && blocker == o.blocker &&
           out_port == o.out_port && queued == o.queued;
  }
};

class Network : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Network);
  Network(sc_core::sc_module_name name, const Topology& topo, const NetworkParams& params);
  // The bytes the routers' pool of such a network maps (0 when it is small):
  // a run starts making them resident early (models/prefault.hpp).
  static size_t router_pool_bytes(const Topology& topo, const NetworkParams& params);

  // Registers a message before the simulation starts; returns its id.
  // Messages may also be added while running, from a traffic source's callbacks.
  // `route` is explicit, or routing().route(src, dst).
  uint32_t add_message(int src, int dst, const Route& route, uint32_t flits, int step);
  // Registers a multidestination worm (models/multicast/): one message whose
  // copies reach every destination of `worm`; returns its id. Throws
  // std::invalid_argument if its tree is malformed (encode_multicast_route).
  uint32_t add_multicast_message(const MulticastWorm& worm, uint32_t flits, int step);
  // Room for `n` more message records, taken at once: a table grown by
  // doubling touches (and the kernel zeroes) about twice the memory it ends with.
  void reserve_messages(size_t n) { ctx_.msgs.reserve(ctx_.msgs.size() + n); }
  // Sets the next `n` ids aside for messages added later with
  // add_reserved_message, in any order; returns the first. Messages added
  // with add_message take the ids after them.
  uint64_t reserve_message_ids(uint64_t n);
  // Registers a message, as add_message, under an id set aside by
  // reserve_message_ids; returns its table slot.
  uint32_t add_reserved_message(uint64_t id, int src, int dst, const Route& route, uint32_t flits, int step);
  // Frees the slot of a delivered message, or of one never released: a later
  // message takes the slot and, when it fits, its route storage, so that a long
  // run's table holds only the messages under way (sim/message_retirement.hpp,
  // sim/schedule_retirement.hpp). A multidestination worm's is never freed.
  void recycle(uint32_t msg);
  // The id the outputs give the message in slot `msg`: the order in which
  // messages were added or their ids reserved (the slot itself until a slot is
  // recycled or an id reserved).
  uint64_t message_id(uint32_t msg) const { return ids_mapped_ ? ids_[msg] : msg; }
  // Every slot's id is the slot itself (no slot recycled, no id reserved).
  bool ids_are_slots() const { return !ids_mapped_; }
  // Messages added so far: the id the next one gets.
  uint64_t messages_added() const { return added_; }
  const RoutingFunction& routing() const { return *routing_; }
  // Hands a message to its sender's interface at cycle `when` (>= the current cycle).
  void release(uint32_t msg, uint64_t when);
  bool can_start(uint32_t msg) const { return nis_[ctx_.msgs[msg].src]->can_start(msg); }
  // A cycle's lists of events (headers that left a stage, tails delivered or
  // injected) are walked in batches whose loads are started level by level
  // first, on a network whose state outgrows the caches: each event's
  // visit chases a few pointers, each a miss there, and on a smaller network
  // the prefetches are only more instructions (docs/performance.md). From
  // NetworkParams::prefetch_events_from routers on.
  static constexpr size_t kEventBatch = 32;
  bool prefetches_events() const { return prefetch_events_; }
  // Batches walked so far (summary.json host.event_batches): the tests' proof that a run took them.
  void note_event_batch() { ++event_batches_; }
  uint64_t event_batches() const { return event_batches_; }
  // Start loading what can_start and release read of endpoint `node`'s
  // interface, and of message `msg`'s record (for a caller about to try many).
  void prefetch_interface(int node) const { nis_.prefetch(static_cast<size_t>(node)); }
  void prefetch_message(uint32_t msg) const { __builtin_prefetch(&ctx_.msgs[msg]); }

  // Traffic sources are consulted in the order they were added (schedule first, then background).
  void add_traffic(TrafficSource* source) { sources_.push_back(source); }
  void set_traffic(TrafficSource* source) { sources_.assign(1, source); }
  // Asks the run to stop at the next cycle boundary (signal handlers may call it).
  static void request_stop();

  const Topology& topology() const { return topo_; }
  const SimContext& context() const { return ctx_; }
  // Keeps SimContext::ejected_at (flits ejected per endpoint) from now on.
  void count_ejections_per_endpoint() { ctx_.ejected_at.assign(static_cast<size_t>(topo_.num_endpoints()), 0); }
  // Brings the counters (link_busy, flits ejected) to the end of cycle `now`,
  // which has been fully simulated: worms streaming in the steady state are
  // counted lazily otherwise (models/express_worms.hpp). Only from a traffic
  // source's after_interfaces(now).
  void settle_counts(uint64_t now) { express_.sync(now); }
  // Router statistics (output.router_stats; models/buffer_counters.hpp): from
  // now on every router counts, per input VC, its buffer's flit-cycles and its
  // head's stalls. Before the simulation starts.
  void count_vc_statistics();
  bool counts_vc_statistics() const { return !vc_counters_.empty(); }
  size_t vc_counter_count() const { return vc_counters_.size(); }
  // The counters as they stand at the end of cycle `end` - 1, flits still in
  // the buffers counted up to `end` (after settle_counts, or once the run has
  // ended); indexed by Router::counter_index.
  std::vector<VcCounters> vc_counters_at(uint64_t end) const;
  const Router& router(int node) const { return *routers_[static_cast<size_t>(node)]; }
  // Timeline traces (sim/timeline_trace.hpp): record channel occupancy into `uses`, and
  // trace per-link flit counters and per-router buffer fill into a VCD file.
  void record_channel_use(std::vector<ChannelUse>* uses) { ctx_.channel_trace = uses; }
  void trace_signals(sc_core::sc_trace_file* tf);
  RunStatus status() const { return status_; }
  // After sc_start: throws what ended the simulation early, if anything did (an
  // allocation that failed in a cycle, say), for the run to report as its
  // error; SystemC's kernel would have printed a report of its own instead.
  void rethrow_failure() const {
    if (failure_) std::rethrow_exception(failure_);
  }
  // Source queues: the longest any interface's has been, and the messages waiting in all of them now.
  size_t source_queue_max() const;
  size_t source_queue_now() const;
  // The release cycle of the background packet that has waited longest at its interface; kNever if none waits.
  uint64_t oldest_waiting_background() const;
  uint64_t cycle() const { return cycle_; }
  uint64_t cycles_simulated() const { return cycles_stepped_; }
  const ExpressWorms& express_worms() const { return express_; }
  // After Deadlock: the cycle of waiting worms. After NoProgress: every blocked head.
  const std::vector<WaitEdge>& deadlock_cycle() const { return deadlock_; }
  uint64_t watchdog_cycles() const { return params_.watchdog_cycles; }
  // For a run in which other worms keep moving, so that the watchdog never sees
  // the network fall quiet (a measured load, sim/load_deadlock_watch.hpp),
  // called every so many cycles (at least lasting_wait_floor()): true when some loop of waits
  // has lasted since the previous call, each of its edges unchanged (the same
  // message's header in the same VC, waiting for the same worm) and none of
  // its worms' flits moved. That loop is then deadlock_cycle().
  bool lasting_wait_cycle(uint64_t now);
  // The fewest cycles between two calls of lasting_wait_cycle: long enough
  // that a worm waiting for a flit or a credit on its way has moved by the next.
  uint64_t lasting_wait_floor() const;
  // True when no buffer holds more than its capacity and flit counts add up.
  bool buffers_consistent() const;
  // Every buffer's credit times are in FIFO order, due within credit_delay, and match its cached copies.
  bool credits_consistent(uint64_t now) const;

 private:
  // Puts a message in a free slot, or a new one; returns the slot.
  [[gnu::always_inline]] inline uint32_t store_message(int src, int dst, const Route& route, uint32_t flits, int step);
  // Gives the message just put in slot `msg` the next id.
  void note_added(uint32_t msg);
  // From now on each slot's id is kept in ids_ (the slot's own until now).
  void map_ids();
  void end_quarantine();
  void tick();
  void tick_cycles();
  // Steps cycle cycle_: true when the run goes on (cycle_ is then the next cycle to step), false when it has ended.
  bool step_cycle();
  void step_interfaces(uint64_t now);
  void step_routers(uint64_t now);
  void add_woken_routers();
  void step_express_routers(uint64_t now);
  void step_express_interfaces(uint64_t now);
  void wake_interface(NetworkInterface* ni, uint64_t when);
  void pass_headers_left();
  bool find_wait_cycle(uint64_t now);
  struct WaitGraph;
  void add_front_waits(WaitGraph& g, uint64_t now) const;
  void add_queued_waits(WaitGraph& g) const;
  static std::unordered_map<uint32_t, FlitTrace> loop_members(const WaitGraph& g);
  bool close_wait_cycle(const WaitGraph& g);
  std::vector<uint32_t> by_id(std::vector<uint32_t> slots) const;
  uint64_t next_timed_event(uint64_t now) const;
  void stop_stuck(uint64_t now);
  void skip_frozen(uint64_t now);
  uint64_t next_interface_wake() const;
  // Checked builds (-DWORMSIM_CHECKED=ON): the invariants of the routers whose
  // state may have changed in cycle `now`, and every router at least every kSweepPeriod cycles.
  void check_invariants(uint64_t now);
  void update_traced_buffers();

  const Topology& topo_;
  NetworkParams params_;
  std::unique_ptr<RoutingFunction> routing_;
  SimContext ctx_;
  // Routers in router order and interfaces in endpoint order, each pool one allocation (models/module_pool.hpp).
  ModulePool<Router> routers_;
  ModulePool<NetworkInterface> nis_;
  std::vector<uint64_t> active_bits_;  // routers holding flits, one bit per router
  size_t active_count_ = 0;
  ExpressWorms express_;               // worm bodies behind their headers, moved without their routers
  std::vector<NetworkInterface*> woken_nis_;  // scratch: interfaces an express tail freed a channel of, or an express worm handed one back to
  std::vector<uint64_t> active_ni_bits_;  // interfaces with work (NetworkInterface::wake != kNever), one bit per endpoint
  std::vector<VcCounters> vc_counters_;  // output.router_stats: per input VC of every router
  std::vector<int> traced_buffered_;  // per router, flits buffered: only in runs with a VCD trace
  std::vector<TrafficSource*> sources_;
  std::vector<uint32_t> free_msgs_;      // recycled slots, reused last-freed first
  struct Quarantined {
    uint32_t slot;
    uint64_t free_from;  // the cycle from which it may be reused
  };
  std::vector<Quarantined> quarantined_;  // recycled slots not yet free, from quarantine_head_ on, in recycling order
  size_t quarantine_head_ = 0;
  std::vector<uint16_t> hop_capacity_;  // per slot, once any slot has been recycled: hops its route storage holds
  std::vector<uint64_t> ids_;           // per slot, once ids_mapped_: its message's id
  bool ids_mapped_ = false;             // a slot has been recycled or ids reserved
  uint64_t added_ = 0;                  // messages added so far
  RunStatus status_ = RunStatus::Running;
  std::exception_ptr failure_;  // what ended tick() early (rethrow_failure)
  bool prefetch_events_ = false;
  uint64_t event_batches_ = 0;
  uint64_t cycle_ = 0;
  uint64_t cycles_stepped_ = 0;
  static constexpr uint32_t kCyclesPerActivation = 4096;
  uint32_t cycles_per_activation_ = 1;  // cycles one activation of tick() steps (see tick)
  // A traced run jumped to the cycle limit (skip_frozen): one more activation,
  // at the last cycle a stepped run would reach, ends its VCD trace there.
  bool trace_catch_up_ = false;
  uint64_t last_progress_ = 0;
  uint64_t moved_at_last_check_ = 0;
  uint64_t next_freeze_check_ = 0;  // watchdog off: when next to look whether nothing can ever move again
  bool started_ = false;
  std::vector<WaitEdge> deadlock_;
  struct SeenWait {
    uint64_t id;  // message_id(edge.msg): a recycled slot is another message
    WaitEdge edge;
  };
  std::vector<SeenWait> seen_waits_;  // lasting_wait_cycle's previous call: every wait, by slot
  std::unordered_map<uint32_t, FlitTrace> seen_traces_;  // and the flits of the worms on its loops, by slot
#ifdef WORMSIM_CHECKED
  static constexpr uint64_t kSweepPeriod = 64;
  std::vector<Router*> stepped_;           // routers stepped in this cycle
  std::vector<uint64_t> checked_at_;       // per router, the cycle + 1 it was last checked
  uint64_t next_sweep_ = 0;                // the first cycle after which every router is checked again
#endif
};

}  // namespace wormsim

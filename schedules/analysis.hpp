// Static figures of a schedule, computed without simulating: what
// `wormsim schedule check` prints and what generator tests assert.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "models/routing.hpp"
#include "models/routing/routing_function.hpp"
#include "models/topology.hpp"
#include "schedules/schedule.hpp"

namespace wormsim {

// Two messages of the same step whose routes share a directed link.
struct ContentionPair {
  int step = 0;      // 0-based
  int first = 0;     // message indices within the step, first < second
  int second = 0;
  int link = -1;     // one shared directed link (the first along `first`'s route)
};

struct StaticAnalysis {
  int steps = 0;
  int64_t messages = 0;
  int64_t tcd = 0;            // total communication distance: sum of route lengths in hops
  int max_hops = 0;
  double mean_hops = 0.0;
  int64_t flit_hops = 0;      // sum over messages of flits x hops
  int lower_bound_steps = 0;  // ceil(log2 N) for a unicast broadcast (the one-port bound), else 0
  std::vector<int64_t> step_tcd;              // per step
  // Static step contention: pairs of same-step messages that share a link. All
  // are counted; the first kMaxListedContentionPairs (by step, first message,
  // then along its route) are listed: a big step has millions of them.
  static constexpr size_t kMaxListedContentionPairs = 1000;
  std::vector<ContentionPair> contention;
  int64_t contention_pairs = 0;
  // False under an adaptive routing function: which links a message takes is
  // decided in the routers, so only a run (links.csv, routes.csv) can tell.
  bool contention_known = true;
  // Multicast messages (docs/multicast.md, "Multicast in schedules"). In the
  // figures above such a message counts its channel use (the links its worms
  // take, a tree's shared links once) where a unicast message counts its hops
  // (tcd, step_tcd, flit_hops), and its longest path (a header's hops to its
  // last destination) in max_hops and mean_hops; a link two of its worms take is
  // not a contention pair (pairs are of two messages). A broadcast with multicast
  // messages has no lower_bound_steps (the one-port bound is for unicast ones).
  int64_t multicast_messages = 0;
  int64_t multicast_worms = 0;        // worms they take (an edgeless local delivery counts as one)
  int64_t multicast_channel_use = 0;  // links their worms take
  int multicast_longest_path = 0;     // the longest header path among them, in hops
  int64_t step_contention_pairs() const { return contention_pairs; }
};

// The route a message takes: its explicit route if it has one, else the
// routing function's (an adaptive function's: only its length), or dimension order.
Route message_route(const Topology& topo, const RoutingFunction& routing, const ScheduledMessage& m);
Route message_route(const Topology& topo, const ScheduledMessage& m);

// Analyses a structurally valid schedule (see validator.hpp) on its topology,
// under a routing function (default: dimension order).
StaticAnalysis analyze_schedule(const Schedule& schedule, const Topology& topo, const RoutingFunction& routing);
StaticAnalysis analyze_schedule(const Schedule& schedule, const Topology& topo);

}  // namespace wormsim

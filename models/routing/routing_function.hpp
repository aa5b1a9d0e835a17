// Routing functions, chosen by name (`network.routing`). A routing function is
// asked, for a header at router `node` that arrived on input port `in_port`
// (VC `in_vc`) and is heading to router `dst`, which outputs it may take: link
// ports with a range of virtual channels, in preference order. It works on
// router ids and link ports through the Topology only.
//
// Deterministic functions give one output per hop: they are walked once per
// message and the route is stored with it (the router's fast path reads it).
// Adaptive functions are asked by the router each time a header needs an
// output; the router takes a free VC among the allowed ones (see
// docs/config-reference.md, network.routing, for the selection rule) and writes
// the hop it took into the message's route, so routes taken are outputs.
//
// Adding one (docs/extending.md, "Adding a routing function"): a file in
// models/routing/ with a class derived from RoutingFunction and a
// WORMSIM_ROUTING_FUNCTION(...) line, plus its name in the list in
// models/routing/registry.hpp.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/routing.hpp"
#include "models/topology.hpp"

namespace wormsim {

// Input port of a header still at its source (it came from an injection channel).
constexpr int kInjectedHeader = -1;

// The header a routing function is asked about.
struct RouteQuery {
  int node = 0;                   // router the header is at
  int src = 0;                    // router the message started at
  int dst = 0;                    // router it is heading to (!= node)
  int in_port = kInjectedHeader;  // link port it arrived on at `node`
  int in_vc = 0;                  // VC of that port it sits in
};

// One allowed output: link port `port`, VCs vc_first, vc_first + vc_stride, ... below vc_last.
// The router prefers the lowest `tier` that has a free VC (Duato's escape VCs are a higher tier).
struct RouteOutput {
  int port = 0;
  int vc_first = 0;
  int vc_last = 1;
  int vc_stride = 1;
  int tier = 0;
};

// What a routing function is built for: the network, its VCs per link port,
// and the option after the name ("dimension-order:yx" -> "yx").
struct RoutingSetting {
  TopologySpec topology;
  int vcs = 1;
  std::string option;
};

class RoutingFunction {
 public:
  virtual ~RoutingFunction() = default;
  // True when the router asks at every hop; false when routes are walked once per message.
  virtual bool adaptive() const = 0;
  // Appends the allowed outputs for `q`, in preference order (never none: every
  // shipped function is connected). Only minimal outputs for the shipped functions.
  // The answer depends on `q` alone (never on the network's state or on a count
  // of calls): the router asks again at every try, and remembers the first output.
  virtual void outputs(const RouteQuery& q, std::vector<RouteOutput>& out) const = 0;
  // The route of a message from src to dst (distinct), into `out` (its storage
  // reused: background traffic asks once per packet). Deterministic functions:
  // the links, walked through outputs() (a function may compute it faster).
  // Adaptive ones: distance(src, dst) hops left for the router to choose.
  virtual void route(int src, int dst, Route& out) const;
  Route route(int src, int dst) const {
    Route r;
    route(src, dst, r);
    return r;
  }
  // True when an adaptive hop may take only a VC whose downstream buffer is
  // empty (the previous worm has left it). Duato's protocol needs it: a header
  // committed to a VC still holding another worm waits for that worm's next
  // channel, a dependency the escape VCs do not cover (a minimal-adaptive torus
  // run deadlocked without it). Turn models do not: that wait follows a turn
  // the other worm took, an edge of the channel dependency graph they keep acyclic.
  virtual bool needs_empty_vcs() const { return false; }
  // True when two of its routes that share links share one unbroken run of them
  // (dimension order); `schedule check` then counts contention in linear time.
  virtual bool routes_part_once() const { return false; }
  const Topology& topology() const { return topo_; }
  // Why the function, though it runs on `s`, can deadlock there (a cycle of
  // channel dependencies), saying what would make it safe; nothing when it
  // cannot. A function that can deadlock on `s` hides this one (a static
  // member, found through the registration macro).
  static std::optional<std::string> deadlock_risk(const RoutingSetting&) { return std::nullopt; }

 protected:
  RoutingFunction(const Topology& topo, int vcs) : topo_(topo), vcs_(vcs) {}
  const Topology& topo_;
  const int vcs_;
};

// A routing function as the registry knows it.
struct RoutingInfo {
  std::string name;     // what network.routing says (before any ':')
  std::string summary;  // one line for docs and errors
  bool adaptive = false;
  // Returns when the function runs deadlock-free on `s`, else throws
  // std::invalid_argument saying what is needed
  // ("minimal-adaptive on a torus needs vcs >= 3: 2 dateline + 1 adaptive").
  void (*check)(const RoutingSetting& s) = nullptr;
  // See RoutingFunction::deadlock_risk: runs are refused unless network.allow_deadlock.
  std::optional<std::string> (*deadlock_risk)(const RoutingSetting& s) = nullptr;
  std::unique_ptr<RoutingFunction> (*make)(const Topology& topo, const RoutingSetting& s) = nullptr;
};

// Every registered function, in the order of models/routing/registry.hpp.
const std::vector<RoutingInfo>& routing_registry();
// The entry for a network.routing value ("name" or "name:option"); null if unknown.
const RoutingInfo* find_routing(const std::string& routing);
// "dimension-order:yx" -> {"dimension-order", "yx"}.
void split_routing(const std::string& routing, std::string& name, std::string& option);
// Returns if `routing` is known and deadlock-free on the network with `vcs`;
// else throws std::invalid_argument saying why not.
void require_deadlock_free(const std::string& routing, const TopologySpec& topology, int vcs);
// Why the known function `routing` can deadlock on the network with `vcs`
// (RoutingFunction::deadlock_risk); nothing when it cannot.
std::optional<std::string> deadlock_risk(const std::string& routing, const TopologySpec& topology, int vcs);
// Builds the function named by `routing`; throws as require_deadlock_free does.
std::unique_ptr<RoutingFunction> make_routing(const std::string& routing, const Topology& topo, int vcs);

}  // namespace wormsim

// Declares a routing function to the registry; the file's one line of registration
// besides its name in models/routing/registry.hpp. ID is that name (an identifier),
// NAME what users type, CLASS has a constructor (const Topology&, const RoutingSetting&)
// and a static check(const RoutingSetting&) (see RoutingInfo::check).
#define WORMSIM_ROUTING_FUNCTION(ID, NAME, CLASS, SUMMARY)                                                     \
  namespace wormsim::routing_functions {                                                                       \
  RoutingInfo ID() {                                                                                           \
    return RoutingInfo{NAME, SUMMARY, CLASS::kAdaptive, &CLASS::check, &CLASS::deadlock_risk,                  \
                       [](const Topology& topo, const RoutingSetting& s) -> std::unique_ptr<RoutingFunction> { \
                         return std::make_unique<CLASS>(topo, s);                                              \
                       }};                                                                                     \
  }                                                                                                            \
  }

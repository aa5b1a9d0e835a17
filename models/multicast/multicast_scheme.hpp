// Multicast schemes, chosen by name (a schedule message's `multicast:` key): how
// the routers carry one message from a source to a set of destinations, as
// one or more multidestination worms (models/multicast/multicast_worm.hpp).
// Like routing functions (models/routing/routing_function.hpp), each scheme is
// one file in models/multicast/ with a WORMSIM_MULTICAST_SCHEME(...) line, plus
// its name in models/multicast/registry.hpp.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/multicast/multicast_worm.hpp"
#include "models/routing/routing_function.hpp"
#include "models/topology.hpp"

namespace wormsim {

// What a scheme is built for: the network (its topology and VCs) and its unicast
// routing function (a tree scheme follows the unicast routes).
struct MulticastSetting {
  const Topology* topology = nullptr;
  const RoutingFunction* routing = nullptr;
  int vcs = 1;
  // Unicast worms (other steps of a schedule, background traffic), or worms of
  // another multicast scheme, may share the VCs the multicast worms take. Path worms are deadlock-free among themselves
  // but not always beside unicast worms (docs/multicast.md, "Multicast schemes"):
  // deadlock_risk says so unless this is false.
  bool shared_with_unicast = true;
  // Each of its worms is alone in the network while it runs (a barrier-mode
  // step of one worm, no other traffic): nothing can wait on it or it on anything.
  bool alone = false;
  // Each endpoint has an ejection channel per link it can be reached by (the
  // all-port interface), rather than channels any arriving worm may take.
  bool ejection_per_link = false;
  // Some destination of a worm of this scheme is also a destination of
  // another multicast message that may be in the network with it.
  bool destinations_shared = true;
};

// Path worms hold a destination's ejection channel while they absorb and go
// on: beside another message's path worm to the same destination, on shared
// ejection channels, each can hold the one the other waits for. None when the
// channels are per link (a worm's next links all lead away from the ones it
// arrived on: the networks' orders hold) or no two messages share a destination.
std::optional<std::string> absorbing_risk(const std::string& scheme, const MulticastSetting& s);

class MulticastScheme {
 public:
  virtual ~MulticastScheme() = default;
  // The worms that together deliver exactly one copy to each of `dsts`
  // (endpoints, distinct, none of them `src`; the caller checked). Throws
  // std::invalid_argument naming the destination when the scheme cannot reach one.
  virtual std::vector<MulticastWorm> plan(int src, const std::vector<int>& dsts) const = 0;

 protected:
  explicit MulticastScheme(const MulticastSetting& s) : setting_(s) {}
  const Topology& topo() const { return *setting_.topology; }
  MulticastSetting setting_;
};

// A scheme as the registry knows it.
struct MulticastInfo {
  std::string name;     // what `multicast:` says
  std::string summary;  // one line for docs and errors
  bool path_based = false;  // worms without forks (absorb-and-forward only)
  // Throws std::invalid_argument saying what is missing when the scheme cannot
  // run on this network at all ("dual-path needs a 2-D or 3-D mesh ...").
  void (*check)(const MulticastSetting& s) = nullptr;
  // Why its worms can deadlock on this network (each other, or unicast worms),
  // saying what would make it safe; nothing when they cannot. Runs are refused
  // unless network.allow_deadlock.
  std::optional<std::string> (*deadlock_risk)(const MulticastSetting& s) = nullptr;
  std::unique_ptr<MulticastScheme> (*make)(const MulticastSetting& s) = nullptr;
};

const std::vector<MulticastInfo>& multicast_registry();
const MulticastInfo* find_multicast(const std::string& name);
// "dual-path, multi-path, ..." for errors and help texts.
std::string multicast_names();
// Builds the scheme `name`; throws std::invalid_argument if unknown (listing
// the known ones) or if its check fails.
std::unique_ptr<MulticastScheme> make_multicast(const std::string& name, const MulticastSetting& s);

}  // namespace wormsim

// Declares a scheme to the registry (see WORMSIM_ROUTING_FUNCTION). CLASS has a
// constructor (const MulticastSetting&), static check(const MulticastSetting&)
// and static deadlock_risk(const MulticastSetting&), and a static constexpr bool kPathBased.
#define WORMSIM_MULTICAST_SCHEME(ID, NAME, CLASS, SUMMARY)                                              \
  namespace wormsim::multicast_schemes {                                                                \
  MulticastInfo ID() {                                                                                  \
    return MulticastInfo{NAME, SUMMARY, CLASS::kPathBased, &CLASS::check, &CLASS::deadlock_risk,        \
                         [](const MulticastSetting& s) -> std::unique_ptr<MulticastScheme> {            \
                           return std::make_unique<CLASS>(s);                                           \
                         }};                                                                            \
  }                                                                                                     \
  }

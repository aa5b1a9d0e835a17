// The worms of a schedule's multicast messages (ScheduledMessage::multicast),
// planned by their schemes (models/multicast/) on the network that runs them;
// the validator, `schedule check` and the executor ask the same planner.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "models/multicast/multicast_scheme.hpp"
#include "schedules/schedule.hpp"

namespace wormsim {

class MulticastPlanner {
 public:
  // `routing` may be null when no scheme that follows unicast routes is asked for.
  MulticastPlanner(const Topology& topo, const RoutingFunction* routing, int vcs);
  // The scheme `name`, built on first use. Throws std::invalid_argument when it
  // is unknown or refused on this network.
  const MulticastScheme& scheme(const std::string& name);
  // The worms of multicast message `m`; throws std::invalid_argument as
  // scheme() does, or naming a destination the scheme refuses.
  std::vector<MulticastWorm> plan(const ScheduledMessage& m);

 private:
  MulticastSetting setting_;
  std::map<std::string, std::unique_ptr<MulticastScheme>> schemes_;
};

// The directed links a worm takes, in its edge order.
std::vector<int> worm_links(const Topology& topo, const MulticastWorm& worm);
// Hops from the worm's source router to the farthest router where it delivers
// (its header's distance to its last destination); 0 for a worm of no links.
int worm_longest_path(const Topology& topo, const MulticastWorm& worm);

}  // namespace wormsim

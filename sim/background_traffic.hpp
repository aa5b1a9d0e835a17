// Synthetic background traffic, so broadcasts can be studied under load and the
// simulator compared with others on their home ground. Each node injects
// packets by an independent Bernoulli process (probability `rate` per cycle)
// during the first `cycles` cycles; arrivals are drawn as geometric gaps, so
// idle cycles cost nothing. Destinations follow a pattern:
//   uniform        any other node, uniformly
//   transpose      coordinates reversed ((x,y) -> (y,x)); hypercube: label halves swapped;
//                  nodes that map to themselves stay silent
//   bit-complement node N-1-src (every coordinate mirrored; hypercube: label complemented)
//   hotspot        with probability `fraction` one of the hotspot nodes, else uniform
// Background messages have step -1; their latency counts from generation
// (source queueing included), as in BookSim.
#pragma once

#include <cstdint>
#include <queue>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "models/topology.hpp"
#include "models/traffic_source.hpp"

namespace wormsim {

enum class TrafficPattern { Uniform, Transpose, BitComplement, Hotspot };
bool parse_traffic_pattern(const std::string& text, TrafficPattern& out);
std::string to_string(TrafficPattern p);

struct BackgroundSpec {
  TrafficPattern pattern = TrafficPattern::Uniform;
  double rate = 0.0;                              // packets per node per cycle, in (0, 1]
  std::vector<std::pair<int, double>> lengths;    // (flits, weight); weights need not sum to 1
  uint64_t cycles = 0;                            // injection window [0, cycles)
  std::vector<int> hotspots;
  double hotspot_fraction = 0.0;
  uint64_t seed = 1;
};

// Checks a spec against a topology; throws std::invalid_argument saying why it cannot run.
void check_background(const BackgroundSpec& spec, const Topology& topo);

class BackgroundTraffic : public TrafficSource {
 public:
  BackgroundTraffic(const BackgroundSpec& spec, const Topology& topo);

  void start(Network& net, uint64_t now) override;
  void after_routers(Network& net, uint64_t now) override;
  void after_interfaces(Network&, uint64_t) override {}
  bool finished() const override { return arrivals_.empty(); }
  uint64_t next_event() const override;

  uint64_t generated() const { return generated_; }
  // Creates no more packets (a measurement window has drained).
  void stop_offering() { arrivals_ = {}; }

 private:
  double uniform01();
  uint64_t gap();  // cycles until the next arrival (0 = this cycle)
  int destination(int src);
  int length();

  BackgroundSpec spec_;
  const Topology& topo_;
  std::mt19937_64 rng_;
  double log_miss_ = 0.0;  // log(1 - rate)
  double total_weight_ = 0.0;
  // (cycle, node), earliest first; ties by node id so the order is deterministic
  std::priority_queue<std::pair<uint64_t, int>, std::vector<std::pair<uint64_t, int>>, std::greater<>> arrivals_;
  uint64_t generated_ = 0;
};

}  // namespace wormsim

// Synthetic background traffic, so broadcasts can be studied under load and the
// simulator compared with others on their home ground. Each node generates
// packets by an injection process (sim/traffic/injection.hpp: Bernoulli,
// on-off bursty, periodic) during the first `cycles` cycles; arrivals are
// drawn as gaps, so idle cycles cost nothing. A destination pattern
// (sim/traffic/pattern.hpp, one plug-in per pattern) picks each packet's
// destination; a packet a pattern sends back to its source is not sent.
// Background messages have step -1 - c, c their class (traffic.classes; the
// plain form is class 0, step -1); their latency counts from generation
// (source queueing included), as in BookSim.
//
// Several classes generate independently: each has its own pattern, process,
// lengths and random stream (class 0's seeded with run.seed, so that a list of
// one class is the plain form, byte for byte). Within a cycle the classes
// generate in their order, each in node order: deterministic.
#pragma once

#include <cstdint>
#include <memory>
#include <queue>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "models/routing.hpp"
#include "models/sim_context.hpp"
#include "models/topology.hpp"
#include "models/traffic_source.hpp"
#include "sim/traffic/injection.hpp"
#include "sim/traffic/pattern.hpp"
#include "sim/traffic/random.hpp"

namespace wormsim {

struct BackgroundSpec {
  std::string pattern = "uniform";                // a registered pattern (sim/traffic/patterns/)
  std::string injection = "bernoulli";            // a registered process (sim/traffic/injection/)
  double rate = 0.0;                              // packets per node per cycle, in (0, 1]
  double burst_alpha = 0.0, burst_beta = 0.0;     // on-off: P(off -> on), P(on -> off) per cycle
  std::vector<std::pair<int, double>> lengths;    // (flits, weight); weights need not sum to 1
  uint64_t cycles = 0;                            // injection window [0, cycles)
  std::vector<int> hotspots;
  std::vector<double> hotspot_weights;            // one per hotspot; empty: equally likely
  double hotspot_fraction = 0.0;
  uint64_t seed = 1;
};

// The seed of class `index`'s random stream: run.seed for class 0; for the
// others a SplitMix64 step away, so that the streams do not overlap in practice.
uint64_t class_seed(uint64_t run_seed, size_t index);

// The step a background message of class `index` carries (-1 for class 0), and back.
inline int32_t class_step(size_t index) { return -1 - static_cast<int32_t>(index); }
inline size_t class_of_step(int32_t step) { return static_cast<size_t>(-1 - step); }

// Checks a spec against a topology; throws std::invalid_argument saying why it cannot run.
void check_background(const BackgroundSpec& spec, const Topology& topo);

class BackgroundTraffic : public TrafficSource {
 public:
  // One spec per class, in class order (at least one).
  BackgroundTraffic(const std::vector<BackgroundSpec>& classes, const Topology& topo);

  void start(Network& net, uint64_t now) override;
  void after_routers(Network& net, uint64_t now) override;
  void after_interfaces(Network&, uint64_t) override {}
  bool finished() const override { return next_ == kNever; }
  uint64_t next_event() const override { return next_; }

  uint64_t generated() const { return generated_; }  // all classes
  size_t classes() const { return classes_.size(); }
  // Creates no more packets (a measurement window has drained).
  void stop_offering();

 private:
  // One class's generator.
  class Generator {
   public:
    Generator(const BackgroundSpec& spec, const Topology& topo, int32_t step);
    void start(uint64_t now);
    // Creates the packets due at or before `now`, counting them in
    // `generated`; returns the cycle of its next arrival (kNever: none).
    uint64_t generate(Network& net, uint64_t now, uint64_t& generated);
    uint64_t next_event() const { return arrivals_.empty() ? kNever : arrivals_.top() >> kNodeBits; }
    void stop() { arrivals_ = {}; }

   private:
    int length();
    // Arrivals as cycle << 24 | node, earliest first, ties by node id so the order
    // is deterministic: one integer compare per heap step (cycles < 2^40, nodes < 2^24).
    static uint64_t arrival(uint64_t cycle, int node) { return cycle << kNodeBits | static_cast<uint64_t>(node); }
    static constexpr int kNodeBits = 24;

    BackgroundSpec spec_;
    const Topology& topo_;
    int32_t step_;
    TrafficRng rng_;
    std::unique_ptr<TrafficPattern> pattern_;
    std::unique_ptr<InjectionProcess> injection_;
    double total_weight_ = 0.0;
    std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<>> arrivals_;
    Route route_;  // the packet being created's: its storage reused from packet to packet
  };

  // Kept as the classes' earliest arrival (kNever: none left), so that the
  // network's per-cycle questions cost one load whatever the number of classes.
  void update_next();

  std::vector<Generator> classes_;
  uint64_t generated_ = 0;
  uint64_t next_ = kNever;
};

}  // namespace wormsim

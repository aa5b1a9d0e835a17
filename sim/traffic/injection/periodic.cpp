// periodic: node n of N generates its k-th packet (k = 0, 1, ...) at cycle
// floor((k + n/N) / rate): one packet every 1/rate cycles, the nodes' phases
// spread evenly over one period so that they do not all send at once. No
// random draws. (A 1e-9 guard makes exact multiples of 1/rate land on their
// cycle despite rounding: rate 0.1 sends at 0, 10, 20, ...)
#include <algorithm>
#include <cmath>

#include "sim/background_traffic.hpp"
#include "sim/traffic/injection.hpp"

namespace wormsim {

class Periodic final : public InjectionProcess {
 public:
  static void check(const BackgroundSpec&) {}
  Periodic(int endpoints, const BackgroundSpec& s) : endpoints_(endpoints), rate_(s.rate) {}
  uint64_t next(int node, uint64_t from, TrafficRng&) override {
    const double phase = static_cast<double>(node) / endpoints_;
    // The first k whose cycle is >= from: estimated, then corrected for rounding.
    double k = std::max(0.0, std::ceil(static_cast<double>(from) * rate_ - phase));
    while (k > 0 && at(k - 1, phase) >= from) --k;
    while (at(k, phase) < from) ++k;
    return at(k, phase);
  }

 private:
  // kNoArrival for a cycle past it (a rate so low that 1 / rate overflows a cycle count).
  uint64_t at(double k, double phase) const {
    const double cycle = std::floor((k + phase) / rate_ + 1e-9);
    return cycle < static_cast<double>(kNoArrival) ? static_cast<uint64_t>(cycle) : kNoArrival;
  }
  const int endpoints_;
  const double rate_;
};

}  // namespace wormsim

WORMSIM_INJECTION_PROCESS(periodic, "periodic", Periodic,
                          "node n's k-th packet at cycle floor((k + n/N) / rate), no randomness")

// The random draws of background traffic. One mt19937_64 stream per run,
// seeded with run.seed, is shared by the injection process, the destination
// pattern and the packet lengths, in the order the traffic source asks them;
// mt19937_64 and these conversions are fully specified, so the same seed gives
// the same traffic on every platform (std:: distributions are not).
#pragma once

#include <cmath>
#include <cstdint>
#include <random>

namespace wormsim {

using TrafficRng = std::mt19937_64;

// 53 random bits -> [0, 1).
inline double uniform01(TrafficRng& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

// Far beyond any run (cycles are at most 2^40), and safe to add to a cycle.
constexpr uint64_t kNoArrival = uint64_t{1} << 62;

// Failures before the first success of independent trials that succeed with
// probability p: floor(log(1 - u) / log(1 - p)), one draw. p = 1 gives 0 and
// p = 0 kNoArrival, with no draw. Asked once per packet, so one branch.
class GeometricGap {
 public:
  explicit GeometricGap(double p)
      : certain_(p >= 1.0 || p <= 0.0), certain_gap_(p >= 1.0 ? 0 : kNoArrival), log_miss_(std::log1p(-p)) {}
  uint64_t operator()(TrafficRng& rng) const {
    if (certain_) return certain_gap_;
    const double g = std::floor(std::log1p(-uniform01(rng)) / log_miss_);
    return g < static_cast<double>(kNoArrival) ? static_cast<uint64_t>(g) : kNoArrival;
  }

 private:
  bool certain_;
  uint64_t certain_gap_;
  double log_miss_;  // log(1 - p)
};

}  // namespace wormsim

// bernoulli: each node generates a packet in each cycle with probability
// `rate`, independently; the gaps between packets are geometric and drawn
// directly (one draw per packet), so idle cycles cost nothing.
#include "sim/background_traffic.hpp"
#include "sim/traffic/injection.hpp"

namespace wormsim {

class Bernoulli final : public InjectionProcess {
 public:
  static void check(const BackgroundSpec&) {}
  Bernoulli(int, const BackgroundSpec& s) : gap_(s.rate) {}
  uint64_t next(int, uint64_t from, TrafficRng& rng) override { return from + gap_(rng); }

 private:
  const GeometricGap gap_;
};

}  // namespace wormsim

WORMSIM_INJECTION_PROCESS(bernoulli, "bernoulli", Bernoulli, "a packet each cycle with probability rate")

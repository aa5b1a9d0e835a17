// on-off: bursty injection by a two-state Markov chain per node, as BookSim's
// on_off process. At each cycle an off node turns on with probability
// burst_alpha and an on node turns off with probability burst_beta; in each
// cycle it is on, it generates a packet with probability
//   r_on = rate * (burst_alpha + burst_beta) / burst_alpha,
// so that, on for a share alpha / (alpha + beta) of the cycles, it offers
// `rate` on average. r_on must be at most 1. Each node starts in the chain's
// stationary state (on with probability alpha / (alpha + beta)).
// Sojourns and gaps are geometric and memoryless, so they are drawn, not
// ticked: the on run's last cycle once per burst, then the gap to the next
// packet within it; a gap past the run's end moves to the following off run.
#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "sim/background_traffic.hpp"
#include "sim/traffic/injection.hpp"

namespace wormsim {

class OnOff final : public InjectionProcess {
 public:
  static constexpr double kMaxBurstsPerPacket = 1e6;
  static double on_rate(const BackgroundSpec& s) { return s.rate * (s.burst_alpha + s.burst_beta) / s.burst_alpha; }
  static void check(const BackgroundSpec& s) {
    if (!(s.burst_alpha > 0.0 && s.burst_alpha <= 1.0))
      throw std::invalid_argument("on-off injection needs burst_alpha in (0, 1]");
    if (!(s.burst_beta >= 0.0 && s.burst_beta <= 1.0))
      throw std::invalid_argument("on-off injection needs burst_beta in [0, 1]");
    if (on_rate(s) > 1.0) {
      std::ostringstream what;
      what << "on-off injection sends rate * (burst_alpha + burst_beta) / burst_alpha = " << on_rate(s)
           << " packets per cycle while on, more than 1: lower rate or burst_beta, or raise burst_alpha";
      throw std::invalid_argument(what.str());
    }
    // Bursts are drawn one by one: a packet costs about beta / r_on of them.
    if (s.burst_beta / on_rate(s) > kMaxBurstsPerPacket) {
      std::ostringstream what;
      what << "on-off injection at this rate draws about burst_beta / (rate * (burst_alpha + burst_beta) / "
              "burst_alpha) = "
           << s.burst_beta / on_rate(s) << " bursts per packet, more than " << kMaxBurstsPerPacket
           << " (minutes per packet): raise rate or burst_alpha, or lower burst_beta";
      throw std::invalid_argument(what.str());
    }
  }
  OnOff(int endpoints, const BackgroundSpec& s)
      : p_on_(s.burst_alpha / (s.burst_alpha + s.burst_beta)), off_run_(s.burst_alpha), on_run_(s.burst_beta),
        packet_gap_(on_rate(s)), nodes_(static_cast<size_t>(endpoints)) {}

  uint64_t next(int node, uint64_t from, TrafficRng& rng) override {
    Node& n = nodes_[static_cast<size_t>(node)];
    if (!n.started) start(n, from, rng);
    uint64_t t = std::max(from, n.on_first);
    for (;;) {
      if (t <= n.on_last) {
        const uint64_t gap = packet_gap_(rng);
        if (gap <= n.on_last - t) return t + gap;
      }
      if (n.on_last >= kNoArrival) return kNoArrival;
      next_burst(n, n.on_last + 1, rng);
      t = std::max(from, n.on_first);
    }
  }

 private:
  // The current or next on run: cycles on_first .. on_last.
  struct Node {
    bool started = false;
    uint64_t on_first = 0, on_last = 0;
  };
  void start(Node& n, uint64_t from, TrafficRng& rng) {
    n.started = true;
    if (uniform01(rng) < p_on_) {
      n.on_first = from;
      n.on_last = from + on_run_(rng);
    } else {
      next_burst(n, from, rng);
    }
  }
  // Off at cycle `off`: stays off 1 + Geom(alpha) cycles, then on 1 + Geom(beta) cycles.
  void next_burst(Node& n, uint64_t off, TrafficRng& rng) {
    n.on_first = std::min(kNoArrival, off + 1 + off_run_(rng));
    n.on_last = std::min(kNoArrival, n.on_first + on_run_(rng));
  }

  const double p_on_;  // stationary share of on cycles
  // Extra cycles an off run lasts (turning on with alpha), extra cycles an on
  // run lasts (turning off with beta), and on cycles before the next packet.
  const GeometricGap off_run_, on_run_, packet_gap_;
  std::vector<Node> nodes_;
};

}  // namespace wormsim

WORMSIM_INJECTION_PROCESS(on_off, "on-off", OnOff,
                          "bursty: two-state Markov chain (burst_alpha, burst_beta), mean rate `rate`")

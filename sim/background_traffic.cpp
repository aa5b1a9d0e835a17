#include "sim/background_traffic.hpp"

#include <stdexcept>

#include "models/limits.hpp"
#include "models/network.hpp"
#include "models/routing.hpp"

namespace wormsim {

static_assert(kMaxNodes <= 1LL << 24 && kMaxTrafficCycles <= 1LL << 40, "arrivals pack a cycle and a node in 64 bits");

void check_background(const BackgroundSpec& s, const Topology& topo) {
  if (!(s.rate > 0.0 && s.rate <= 1.0)) throw std::invalid_argument("rate must be in (0, 1] packets per node per cycle");
  if (s.lengths.empty()) throw std::invalid_argument("at least one packet length is needed");
  if (topo.num_endpoints() < 2) throw std::invalid_argument("background traffic needs at least two nodes");
  make_pattern(topo, s);
  make_injection(topo.num_endpoints(), s);
}

BackgroundTraffic::BackgroundTraffic(const BackgroundSpec& spec, const Topology& topo)
    : spec_(spec), topo_(topo), rng_(spec.seed), pattern_(make_pattern(topo, spec)),
      injection_(make_injection(topo.num_endpoints(), spec)) {
  for (const auto& [flits, w] : spec_.lengths) total_weight_ += w;
}

void BackgroundTraffic::start(Network&, uint64_t now) {
  for (int node = 0; node < topo_.num_endpoints(); ++node) {
    const uint64_t t = injection_->next(node, now, rng_);
    if (t < spec_.cycles) arrivals_.push(arrival(t, node));
  }
}

int BackgroundTraffic::length() {
  if (spec_.lengths.size() == 1) return spec_.lengths[0].first;
  double u = uniform01(rng_) * total_weight_;
  for (const auto& [flits, w] : spec_.lengths) {
    if (u < w) return flits;
    u -= w;
  }
  return spec_.lengths.back().first;
}

void BackgroundTraffic::after_routers(Network& net, uint64_t now) {
  while (!arrivals_.empty() && (arrivals_.top() >> kNodeBits) <= now) {
    const int src = static_cast<int>(arrivals_.top() & ((uint64_t{1} << kNodeBits) - 1));
    arrivals_.pop();
    const int dst = pattern_->destination(src, rng_);
    const int flits = length();
    if (dst != src) {
      const Route route = net.routing().route(topo_.endpoint_router(src), topo_.endpoint_router(dst));
      const uint32_t id = net.add_message(src, dst, route, flits, -1);
      net.release(id, now);
      ++generated_;
    }
    const uint64_t next = injection_->next(src, now + 1, rng_);
    if (next < spec_.cycles) arrivals_.push(arrival(next, src));
  }
}

uint64_t BackgroundTraffic::next_event() const { return arrivals_.empty() ? kNever : arrivals_.top() >> kNodeBits; }

}  // namespace wormsim

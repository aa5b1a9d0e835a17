#include "sim/background_traffic.hpp"

#include <algorithm>
#include <stdexcept>

#include "models/limits.hpp"
#include "models/network.hpp"
#include "models/routing.hpp"

namespace wormsim {

static_assert(kMaxNodes <= 1LL << 24 && kMaxTrafficCycles <= 1LL << 40, "arrivals pack a cycle and a node in 64 bits");

uint64_t class_seed(uint64_t run_seed, size_t index) {
  if (index == 0) return run_seed;
  uint64_t z = run_seed + 0x9E3779B97F4A7C15ULL * static_cast<uint64_t>(index);  // SplitMix64
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

void check_background(const BackgroundSpec& s, const Topology& topo) {
  if (!(s.rate > 0.0 && s.rate <= 1.0)) throw std::invalid_argument("rate must be in (0, 1] packets per node per cycle");
  if (s.lengths.empty()) throw std::invalid_argument("at least one packet length is needed");
  if (topo.num_endpoints() < 2) throw std::invalid_argument("background traffic needs at least two nodes");
  make_pattern(topo, s);
  make_injection(topo.num_endpoints(), s);
}

BackgroundTraffic::Generator::Generator(const BackgroundSpec& spec, const Topology& topo, int32_t step)
    : spec_(spec), topo_(topo), step_(step), rng_(spec.seed), pattern_(make_pattern(topo, spec)),
      injection_(make_injection(topo.num_endpoints(), spec)) {
  for (const auto& [flits, w] : spec_.lengths) total_weight_ += w;
}

void BackgroundTraffic::Generator::start(uint64_t now) {
  for (int node = 0; node < topo_.num_endpoints(); ++node) {
    const uint64_t t = injection_->next(node, now, rng_);
    if (t < spec_.cycles) arrivals_.push(arrival(t, node));
  }
}

int BackgroundTraffic::Generator::length() {
  if (spec_.lengths.size() == 1) return spec_.lengths[0].first;
  double u = uniform01(rng_) * total_weight_;
  for (const auto& [flits, w] : spec_.lengths) {
    if (u < w) return flits;
    u -= w;
  }
  return spec_.lengths.back().first;
}

// Inlined into after_routers, its one caller: B1 keeps its instruction count.
[[gnu::always_inline]] inline uint64_t BackgroundTraffic::Generator::generate(Network& net, uint64_t now, uint64_t& generated) {
  while (!arrivals_.empty() && (arrivals_.top() >> kNodeBits) <= now) {
    const int src = static_cast<int>(arrivals_.top() & ((uint64_t{1} << kNodeBits) - 1));
    arrivals_.pop();
    const int dst = pattern_->destination(src, rng_);
    const int flits = length();
    if (dst != src) {
      net.routing().route(topo_.endpoint_router(src), topo_.endpoint_router(dst), route_);
      const uint32_t id = net.add_message(src, dst, route_, flits, step_);
      net.release(id, now);
      ++generated;
    }
    const uint64_t next = injection_->next(src, now + 1, rng_);
    if (next < spec_.cycles) arrivals_.push(arrival(next, src));
  }
  return next_event();
}

BackgroundTraffic::BackgroundTraffic(const std::vector<BackgroundSpec>& classes, const Topology& topo) {
  if (classes.empty()) throw std::logic_error("background traffic needs at least one class");
  classes_.reserve(classes.size());
  for (size_t i = 0; i < classes.size(); ++i) classes_.emplace_back(classes[i], topo, class_step(i));
}

void BackgroundTraffic::update_next() {
  next_ = kNever;
  for (const Generator& g : classes_) next_ = std::min(next_, g.next_event());
}

void BackgroundTraffic::start(Network&, uint64_t now) {
  for (Generator& g : classes_) g.start(now);
  update_next();
}

void BackgroundTraffic::after_routers(Network& net, uint64_t now) {
  if (next_ > now) return;
  uint64_t next = kNever;
  for (Generator& g : classes_) next = std::min(next, g.generate(net, now, generated_));
  next_ = next;
}

void BackgroundTraffic::stop_offering() {
  for (Generator& g : classes_) g.stop();
  next_ = kNever;
}

}  // namespace wormsim

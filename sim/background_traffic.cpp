#include "sim/background_traffic.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "models/network.hpp"
#include "models/routing.hpp"
#include "models/topology_shape.hpp"

namespace wormsim {

bool parse_traffic_pattern(const std::string& text, TrafficPattern& out) {
  if (text == "uniform") out = TrafficPattern::Uniform;
  else if (text == "transpose") out = TrafficPattern::Transpose;
  else if (text == "bit-complement") out = TrafficPattern::BitComplement;
  else if (text == "hotspot") out = TrafficPattern::Hotspot;
  else return false;
  return true;
}

std::string to_string(TrafficPattern p) {
  switch (p) {
    case TrafficPattern::Uniform: return "uniform";
    case TrafficPattern::Transpose: return "transpose";
    case TrafficPattern::BitComplement: return "bit-complement";
    case TrafficPattern::Hotspot: return "hotspot";
  }
  return "?";
}

void check_background(const BackgroundSpec& s, const Topology& topo) {
  if (!(s.rate > 0.0 && s.rate <= 1.0)) throw std::invalid_argument("rate must be in (0, 1] packets per node per cycle");
  if (s.lengths.empty()) throw std::invalid_argument("at least one packet length is needed");
  if (topo.num_endpoints() < 2) throw std::invalid_argument("background traffic needs at least two nodes");
  if (s.pattern == TrafficPattern::Transpose) topo.shape().check_transpose(topo);
  if (s.pattern == TrafficPattern::Hotspot && s.hotspots.empty()) throw std::invalid_argument("hotspot traffic needs hotspot nodes");
  if (s.pattern == TrafficPattern::Hotspot && !(s.hotspot_fraction >= 0.0 && s.hotspot_fraction <= 1.0))
    throw std::invalid_argument("hotspot fraction must be in [0, 1]");
}

BackgroundTraffic::BackgroundTraffic(const BackgroundSpec& spec, const Topology& topo)
    : spec_(spec), topo_(topo), rng_(spec.seed) {
  log_miss_ = spec_.rate >= 1.0 ? -INFINITY : std::log1p(-spec_.rate);
  for (const auto& [flits, w] : spec_.lengths) total_weight_ += w;
}

// 53 random bits -> [0, 1); the same on every platform (mt19937_64 is fully specified).
double BackgroundTraffic::uniform01() { return static_cast<double>(rng_() >> 11) * 0x1.0p-53; }

uint64_t BackgroundTraffic::gap() {
  if (spec_.rate >= 1.0) return 0;
  const double u = uniform01();
  return static_cast<uint64_t>(std::floor(std::log1p(-u) / log_miss_));
}

void BackgroundTraffic::start(Network&, uint64_t now) {
  for (int node = 0; node < topo_.num_endpoints(); ++node) {
    const uint64_t t = now + gap();
    if (t < spec_.cycles) arrivals_.emplace(t, node);
  }
}

int BackgroundTraffic::destination(int src) {
  const int n = topo_.num_endpoints();
  auto uniform_other = [&] {
    const int d = static_cast<int>(uniform01() * (n - 1));
    return d >= src ? d + 1 : d;
  };
  switch (spec_.pattern) {
    case TrafficPattern::Uniform: return uniform_other();
    case TrafficPattern::BitComplement: return n - 1 - src;
    case TrafficPattern::Transpose: {
      // The transposed router's endpoint with the same local index.
      const int router = topo_.endpoint_router(src);
      return topo_.endpoint_at(topo_.shape().transpose(topo_, router), topo_.endpoint_index(src));
    }
    case TrafficPattern::Hotspot:
    default: {
      if (uniform01() < spec_.hotspot_fraction) {
        const int h = spec_.hotspots[static_cast<size_t>(uniform01() * spec_.hotspots.size())];
        if (h != src) return h;
      }
      return uniform_other();
    }
  }
}

int BackgroundTraffic::length() {
  if (spec_.lengths.size() == 1) return spec_.lengths[0].first;
  double u = uniform01() * total_weight_;
  for (const auto& [flits, w] : spec_.lengths) {
    if (u < w) return flits;
    u -= w;
  }
  return spec_.lengths.back().first;
}

void BackgroundTraffic::after_routers(Network& net, uint64_t now) {
  while (!arrivals_.empty() && arrivals_.top().first <= now) {
    const int src = arrivals_.top().second;
    arrivals_.pop();
    const int dst = destination(src);
    const int flits = length();
    if (dst != src) {
      const Route route = net.routing().route(topo_.endpoint_router(src), topo_.endpoint_router(dst));
      const uint32_t id = net.add_message(src, dst, route, flits, -1);
      net.release(id, now);
      ++generated_;
    }
    const uint64_t next = now + 1 + gap();
    if (next < spec_.cycles) arrivals_.emplace(next, src);
  }
}

uint64_t BackgroundTraffic::next_event() const { return arrivals_.empty() ? kNever : arrivals_.top().first; }

}  // namespace wormsim

#include "sim/traffic/pattern.hpp"

#include <stdexcept>

#include "sim/background_traffic.hpp"
#include "sim/traffic/named.hpp"
#include "sim/traffic/patterns/registry.hpp"

#define WORMSIM_DECLARE_PATTERN(ID) \
  namespace wormsim::traffic_patterns { PatternInfo ID(); }
WORMSIM_TRAFFIC_PATTERNS(WORMSIM_DECLARE_PATTERN)
#undef WORMSIM_DECLARE_PATTERN

namespace wormsim {

const std::vector<PatternInfo>& pattern_registry() {
#define WORMSIM_LIST_PATTERN(ID) traffic_patterns::ID(),
  static const std::vector<PatternInfo> registry = {WORMSIM_TRAFFIC_PATTERNS(WORMSIM_LIST_PATTERN)};
#undef WORMSIM_LIST_PATTERN
  return registry;
}

const PatternInfo* find_pattern(const std::string& name) { return find_named(pattern_registry(), name); }

std::vector<std::string> pattern_names() { return names_of(pattern_registry()); }

std::unique_ptr<TrafficPattern> make_pattern(const Topology& topo, const BackgroundSpec& spec) {
  const PatternInfo* info = find_pattern(spec.pattern);
  if (!info) throw std::invalid_argument("unknown traffic pattern \"" + spec.pattern + "\"");
  info->check(topo, spec);
  return info->make(topo, spec);
}

int endpoint_bits(const Topology& topo, const std::string& pattern) {
  const int n = topo.num_endpoints();
  if (n & (n - 1))
    throw std::invalid_argument(pattern + " permutes the bits of endpoint ids, so it needs a power-of-two number of "
                                "endpoints (e.g. a 4x4 or 8x8 mesh, or a hypercube); " + topo.spec().describe() +
                                " has " + std::to_string(n));
  int bits = 0;
  while ((1 << bits) < n) ++bits;
  return bits;
}

int shift_coordinates(const Topology& topo, int router, const std::vector<int>& shift) {
  int to = router;
  for (int d = 0; d < topo.num_dims(); ++d) {
    const int c = topo.coord(router, d);
    to += ((c + shift[d]) % topo.radix(d) - c) * topo.stride(d);
  }
  return to;
}

}  // namespace wormsim

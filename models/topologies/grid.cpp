#include "models/topologies/grid.hpp"

#include <cstdlib>
#include <stdexcept>

namespace wormsim {

std::vector<int> GridShape::router_radices(const TopologySpec& spec) const {
  for (int r : spec.dims)
    if (r < 1) throw std::invalid_argument("every radix must be at least 1, got " + std::to_string(r));
  return spec.dims;
}

long long GridShape::links(const TopologySpec& spec) const {
  long long n = 1;
  for (int k : spec.dims) n *= k;
  long long links = 0;
  for (int k : spec.dims) {
    if (k == 1) continue;
    // A ring has both directions at every router; a line lacks one at each end.
    links += wrap_around() ? 2 * n : 2 * (n / k) * (k - 1);
  }
  return links;
}

int GridShape::neighbor(const Topology& topo, int router, int port, bool* wrap) const {
  // The topology's port tables, not this class's virtual layout: called for every port of every router.
  const int dim = topo.port_dim(port);
  const int k = topo.radix(dim);
  if (k == 1) return -1;
  const int c = topo.coord(router, dim);
  int nc = c + topo.port_dir(port);
  *wrap = false;
  if (nc < 0 || nc >= k) {
    if (!topo.wraps(dim)) return -1;
    nc = (nc + k) % k;
    *wrap = true;
  }
  return router + (nc - c) * topo.stride(dim);
}

int GridShape::distance(const Topology& topo, int a, int b) const {
  int h = 0;
  for (int d = 0; d < topo.num_dims(); ++d) {
    const int delta = std::abs(topo.coord(a, d) - topo.coord(b, d));
    h += wrap_around() ? std::min(delta, topo.radix(d) - delta) : delta;
  }
  return h;
}

}  // namespace wormsim

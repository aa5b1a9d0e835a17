// Binary hypercube of dimension d (network.dims: [d]): 2^d routers labelled by
// d bits, each linked to the d routers whose label differs in one bit. Port d
// flips bit d; its links move "+" (set the bit) or "-" (clear it). Routers are
// named by their label, bit d-1 first, and written as integer ids in schedule files.
#include <stdexcept>

#include "models/topology_shape.hpp"

namespace wormsim {

class Hypercube : public TopologyShape {
 public:
  std::string dims_help() const override { return "one number, its dimension d (dims: [d])"; }
  std::vector<int> router_radices(const TopologySpec& spec) const override {
    if (spec.dims.size() != 1)
      throw std::invalid_argument("a hypercube takes one number, its dimension d (dims: [d])");
    const int d = spec.dims[0];
    if (d < 1 || d > 16) throw std::invalid_argument("hypercube dimension must be 1..16, got " + std::to_string(d));
    return std::vector<int>(static_cast<size_t>(d), 2);
  }
  int ports(const TopologySpec& spec) const override { return spec.dims.at(0); }
  long long links(const TopologySpec& spec) const override { return (1LL << spec.dims.at(0)) * spec.dims.at(0); }
  int port_dim(int port) const override { return port; }
  int port_dir(int) const override { return 1; }
  int opposite_port(int port) const override { return port; }
  int port_for(int dim, int) const override { return dim; }
  int neighbor(const Topology&, int router, int port, bool* wrap) const override {
    *wrap = false;
    return router ^ (1 << port);
  }
  int link_dir(const Topology& topo, int link) const override {
    return topo.coord(topo.link_src(link), topo.link_port(link)) ? -1 : 1;
  }
  int distance(const Topology&, int a, int b) const override { return __builtin_popcount(static_cast<unsigned>(a ^ b)); }

  std::string describe(const TopologySpec& spec) const override {
    return "hypercube d=" + std::to_string(spec.dims.empty() ? 0 : spec.dims[0]);
  }
  std::string router_name(const Topology& topo, int router) const override {
    std::string s;
    for (int d = topo.num_dims() - 1; d >= 0; --d) s += static_cast<char>('0' + topo.coord(router, d));
    return s;
  }
  // Transpose swaps the label's halves.
  void check_transpose(const Topology& topo) const override {
    if (topo.num_dims() % 2) throw std::invalid_argument("transpose on a hypercube needs an even dimension");
  }
  int transpose(const Topology& topo, int router) const override {
    const int half = topo.num_dims() / 2;
    const int low = router & ((1 << half) - 1);
    return (low << half) | (router >> half);
  }
  std::string port_label(int port) const override { return "link dim " + std::to_string(port); }
  bool writes_endpoint_ids() const override { return true; }
  DrawingStyle drawing() const override { return DrawingStyle::Cube; }
};

WORMSIM_REGISTER_TOPOLOGY(Hypercube, "hypercube");

}  // namespace wormsim

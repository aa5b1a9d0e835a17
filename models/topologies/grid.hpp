// What meshes, tori and concentrated meshes share: a k-ary n-dimensional grid of
// routers (a radix per dimension, from network.dims), two link ports per
// dimension (port 2d moves "+" along dimension d, port 2d+1 moves "-").
// A subclass says whether its dimensions wrap around.
#pragma once

#include "models/topology_shape.hpp"

namespace wormsim {

class GridShape : public TopologyShape {
 public:
  std::string dims_help() const override { return "a list of radices, e.g. [8, 8]"; }
  std::vector<int> router_radices(const TopologySpec& spec) const override;
  int ports(const TopologySpec& spec) const override { return 2 * static_cast<int>(spec.dims.size()); }
  long long links(const TopologySpec& spec) const override;
  int port_dim(int port) const override { return port / 2; }
  int port_dir(int port) const override { return port % 2 ? -1 : 1; }
  int opposite_port(int port) const override { return port ^ 1; }
  int port_for(int dim, int dir) const override { return 2 * dim + (dir < 0 ? 1 : 0); }
  bool wraps(const TopologySpec&, int) const override { return wrap_around(); }
  int neighbor(const Topology& topo, int router, int port, bool* wrap) const override;
  int distance(const Topology& topo, int a, int b) const override;

 protected:
  virtual bool wrap_around() const = 0;
};

}  // namespace wormsim

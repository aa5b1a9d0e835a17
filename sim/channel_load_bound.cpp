#include "sim/channel_load_bound.hpp"

#include <algorithm>

namespace wormsim {

namespace {

// Per dimension of radix k, the worst cut splits each line into a and k - a
// nodes (a = floor(k/2)). With N endpoints each offering L flits per cycle to
// the N - 1 others, the flits crossing the cut one way are
//   L x (a N / k) x ((k - a) N / k) / (N - 1)
// and the channels across it that way are N / k on a mesh, 2 N / k on a torus
// (its wrap-around links cross too). Every route between the sides crosses,
// whatever the routing, so L is bounded by channels / (crossing per unit L).
double cut_bound(int k, long long nodes, int channels_per_line) {
  const double a = k / 2, b = k - a;
  const double n = static_cast<double>(nodes);
  return channels_per_line * k * (n - 1) / (a * b * n);
}

}  // namespace

ChannelLoadBound channel_load_bound(const TopologySpec& topology, const std::string& pattern) {
  ChannelLoadBound b;
  const bool torus = topology.kind == "torus";
  if (pattern != "uniform") {
    b.formula = "worked out for uniform traffic only";
    return b;
  }
  if (topology.kind != "mesh" && !torus) {
    b.formula = "worked out for meshes and tori only";
    return b;
  }
  long long nodes = 1;
  for (int k : topology.dims) nodes *= k;
  if (torus && std::any_of(topology.dims.begin(), topology.dims.end(), [](int k) { return k < 3; })) {
    b.formula = "worked out for tori with every radix at least 3";
    return b;
  }
  double bound = 1.0;  // the injection and ejection channels: one flit per node per cycle
  for (int k : topology.dims)
    if (k > 1) bound = std::min(bound, cut_bound(k, nodes, torus ? 2 : 1));
  b.known = true;
  b.flits = bound;
  if (bound == 1.0)
    b.formula = "the injection channel: 1 flit/node/cycle (the cuts allow more)";
  else
    b.formula = torus ? "uniform over a torus cut: 2k(N-1)/(floor(k/2) ceil(k/2) N), largest radix k (8/k x (N-1)/N for even k)"
                      : "uniform over a mesh cut: k(N-1)/(floor(k/2) ceil(k/2) N), largest radix k (4/k x (N-1)/N for even k)";
  return b;
}

}  // namespace wormsim

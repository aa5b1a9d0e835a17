#include "models/multicast/hamiltonian_path.hpp"

#include <stdexcept>
#include <string>

namespace wormsim {

namespace {

// The reflected mixed-radix Gray-code rank of a router: digits from the highest
// dimension down, each digit reversed when the coordinates above it sum to an
// odd number (so the sequence of the lower dimensions runs back and forth).
int gray_rank(const Topology& topo, int router) {
  int rank = 0;
  bool reversed = false;
  for (int d = topo.num_dims() - 1; d >= 0; --d) {
    const int c = topo.coord(router, d);
    const int digit = reversed ? topo.radix(d) - 1 - c : c;
    rank = rank * topo.radix(d) + digit;
    if (c % 2) reversed = !reversed;
  }
  return rank;
}

// The port of a link from a to b that does not wrap around, or -1.
int mesh_port(const Topology& topo, int a, int b) {
  for (int p = 0; p < topo.num_ports(); ++p) {
    const int link = topo.link_id(a, p);
    if (link >= 0 && topo.link_dst(link) == b && !topo.link_is_wrap(link)) return p;
  }
  return -1;
}

}  // namespace

HamiltonianPath::HamiltonianPath(const Topology& topo)
    : topo_(topo), label_(static_cast<size_t>(topo.num_nodes())), router_(static_cast<size_t>(topo.num_nodes())) {
  for (int r = 0; r < topo.num_nodes(); ++r) {
    label_[static_cast<size_t>(r)] = gray_rank(topo, r);
    router_[static_cast<size_t>(label_[static_cast<size_t>(r)])] = r;
  }
  for (int l = 0; l + 1 < topo.num_nodes(); ++l)
    if (mesh_port(topo, router_at(l), router_at(l + 1)) < 0)
      throw std::invalid_argument("the " + topo.spec().describe() +
                                  " has no Hamiltonian path over its non-wrap links (routers " +
                                  topo.router_name(router_at(l)) + " and " + topo.router_name(router_at(l + 1)) +
                                  " are not neighbours)");
}

int HamiltonianPath::next_port(int at, int to) const {
  const int from_label = label(at), goal = label(to);
  const bool up = goal > from_label;
  int best_port = -1, best_label = from_label;
  for (int p = 0; p < topo_.num_ports(); ++p) {
    const int link = topo_.link_id(at, p);
    if (link < 0 || topo_.link_is_wrap(link)) continue;
    const int l = label(topo_.link_dst(link));
    // Up: the largest label in (from, goal]; down: the smallest in [goal, from).
    const bool usable = up ? (l > from_label && l <= goal) : (l < from_label && l >= goal);
    if (usable && (best_port < 0 || (up ? l > best_label : l < best_label))) {
      best_port = p;
      best_label = l;
    }
  }
  return best_port;  // never -1: the path's next label is a neighbour
}

void HamiltonianPath::append_path(int from, int to, std::vector<TreeEdge>& edges) const {
  while (from != to) {
    const int port = next_port(from, to);
    edges.push_back({from, port, 0});
    from = topo_.neighbor(from, port);
  }
}

}  // namespace wormsim

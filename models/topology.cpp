#include "models/topology.hpp"

#include <cstdlib>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "models/limits.hpp"

namespace wormsim {

std::string to_string(TopologyKind kind) {
  switch (kind) {
    case TopologyKind::Mesh: return "mesh";
    case TopologyKind::Torus: return "torus";
    case TopologyKind::Hypercube: return "hypercube";
  }
  return "?";
}

bool parse_topology_kind(const std::string& text, TopologyKind& kind) {
  if (text == "mesh" || text == "line") kind = TopologyKind::Mesh;
  else if (text == "torus" || text == "ring") kind = TopologyKind::Torus;
  else if (text == "hypercube") kind = TopologyKind::Hypercube;
  else return false;
  return true;
}

std::string TopologySpec::describe() const {
  std::ostringstream os;
  os << to_string(kind) << ' ';
  if (kind == TopologyKind::Hypercube) {
    os << "d=" << (dims.empty() ? 0 : dims[0]);
  } else {
    for (size_t i = 0; i < dims.size(); ++i) os << (i ? "x" : "") << dims[i];
  }
  return os.str();
}

long long Topology::validate(const TopologySpec& spec) {
  if (spec.dims.empty()) throw std::invalid_argument("dims must list at least one dimension");
  long long n = 1;
  if (spec.kind == TopologyKind::Hypercube) {
    if (spec.dims.size() != 1)
      throw std::invalid_argument("a hypercube takes one number, its dimension d (dims: [d])");
    const int d = spec.dims[0];
    if (d < 1 || d > 16) throw std::invalid_argument("hypercube dimension must be 1..16, got " + std::to_string(d));
    return 1LL << d;
  }
  for (int r : spec.dims) {
    if (r < 1) throw std::invalid_argument("every radix must be at least 1, got " + std::to_string(r));
    n *= r;
    if (n > kMaxNodes)
      throw std::invalid_argument("network too large: more than " + std::to_string(kMaxNodes) + " nodes");
  }
  return n;
}

long long Topology::links_of(const TopologySpec& spec) {
  const long long n = validate(spec);
  if (spec.kind == TopologyKind::Hypercube) return n * spec.dims[0];
  long long links = 0;
  for (int k : spec.dims) {
    if (k == 1) continue;
    // A torus has both directions at every node; a mesh lacks one at each end of every line.
    links += spec.kind == TopologyKind::Torus ? 2 * n : 2 * (n / k) * (k - 1);
  }
  return links;
}

double Topology::footprint_bytes(const TopologySpec& spec) {
  const double nodes = static_cast<double>(validate(spec));
  const double links = static_cast<double>(links_of(spec));
  // neighbor_ and link_of_ per node and port; link_src_, link_dst_, link_port_ and a bit of link_wrap_ per link.
  return nodes * ports_of(spec) * 2.0 * sizeof(int) + links * (3.0 * sizeof(int) + 1.0 / 8);
}

Topology::Topology(TopologySpec spec) : spec_(std::move(spec)) {
  num_nodes_ = static_cast<int>(validate(spec_));
  radix_ = spec_.kind == TopologyKind::Hypercube ? std::vector<int>(spec_.dims[0], 2) : spec_.dims;
  stride_.resize(radix_.size());
  for (size_t d = 0, n = 1; d < radix_.size(); ++d) {
    stride_[d] = static_cast<int>(n);
    n *= static_cast<size_t>(radix_[d]);
  }
  const bool cube = spec_.kind == TopologyKind::Hypercube;
  num_ports_ = cube ? num_dims() : 2 * num_dims();
  neighbor_.assign(static_cast<size_t>(num_nodes_) * num_ports_, -1);
  link_of_.assign(neighbor_.size(), -1);
  const auto links = static_cast<size_t>(links_of(spec_));
  link_src_.reserve(links);
  link_dst_.reserve(links);
  link_port_.reserve(links);
  link_wrap_.reserve(links);

  for (int node = 0; node < num_nodes_; ++node) {
    for (int port = 0; port < num_ports_; ++port) {
      const int dim = port_dim(port);
      const int k = radix_[dim];
      const int c = coord(node, dim);
      int nc;
      bool wrap = false;
      if (cube) {
        nc = 1 - c;
      } else {
        if (k == 1) continue;
        nc = c + port_dir(port);
        if (nc < 0 || nc >= k) {
          if (spec_.kind == TopologyKind::Mesh) continue;
          nc = (nc + k) % k;
          wrap = true;
        }
      }
      const int nb = node + (nc - c) * stride_[dim];
      const int id = num_links();
      neighbor_[node * num_ports_ + port] = nb;
      link_of_[node * num_ports_ + port] = id;
      link_src_.push_back(node);
      link_dst_.push_back(nb);
      link_port_.push_back(port);
      link_wrap_.push_back(wrap);
    }
  }
}

const TopologyGraph& Topology::graph() const {
  if (graph_) return *graph_;
  graph_.emplace(static_cast<size_t>(num_nodes_));
  for (int l = 0; l < num_links(); ++l) {
    LinkProps props;
    props.id = l;
    props.port = link_port_[l];
    props.dim = port_dim(props.port);
    props.dir = spec_.kind == TopologyKind::Hypercube ? (coord(link_src_[l], props.dim) == 0 ? 1 : -1)
                                                      : port_dir(props.port);
    props.wrap = link_wrap_[l];
    boost::add_edge(link_src_[l], link_dst_[l], props, *graph_);
  }
  return *graph_;
}

std::vector<int> Topology::coords(int node) const {
  std::vector<int> c(radix_.size());
  for (size_t d = 0; d < radix_.size(); ++d) c[d] = coord(node, static_cast<int>(d));
  return c;
}

int Topology::node_at(const std::vector<int>& c) const {
  if (c.size() != radix_.size()) return -1;
  int node = 0;
  for (size_t d = 0; d < radix_.size(); ++d) {
    if (c[d] < 0 || c[d] >= radix_[d]) return -1;
    node += c[d] * stride_[d];
  }
  return node;
}

int Topology::distance(int a, int b) const {
  int h = 0;
  for (int d = 0; d < num_dims(); ++d) {
    const int delta = std::abs(coord(a, d) - coord(b, d));
    h += spec_.kind == TopologyKind::Torus ? std::min(delta, radix_[d] - delta) : delta;
  }
  return h;
}

int Topology::link_between(int a, int b) const {
  if (!valid_node(a) || !valid_node(b)) return -1;
  int best = -1;
  for (int port = 0; port < num_ports_; ++port) {
    if (neighbor(a, port) != b) continue;
    // Only a radix-2 torus joins a pair twice (its "+" and "-" ports): take the "+" one.
    if (best < 0 || port_dir(port) > 0) best = link_id(a, port);
  }
  return best;
}

std::string Topology::node_name(int node) const {
  std::string s;
  if (spec_.kind == TopologyKind::Hypercube) {
    for (int d = num_dims() - 1; d >= 0; --d) s += static_cast<char>('0' + coord(node, d));
    return s;
  }
  s = "(";
  for (int d = 0; d < num_dims(); ++d) {
    if (d) s += ',';
    s += std::to_string(coord(node, d));
  }
  return s + ")";
}

}  // namespace wormsim

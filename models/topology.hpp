// The network's shape: k-ary n-dimensional meshes and tori (any n, a radix per
// dimension) and binary hypercubes. Nodes are integers; for meshes and tori the
// integer is the mixed-radix number of the coordinates with x (dimension 0)
// fastest, for the hypercube it is the node's binary label.
//
// Every router has the same set of link ports. Mesh/torus: port 2*d is the "+"
// direction of dimension d and port 2*d+1 the "-" direction. Hypercube: port d
// flips bit d. A port with no neighbour (mesh edge, radix 1) has no link.
// Directed links are numbered 0..num_links()-1. Per-node tables (neighbour and
// link per port) answer every query the simulator makes; the same links as a
// Boost.Graph adjacency list (graph()) are built on first use, for graph
// algorithms, so that a big network costs only its tables (docs/performance.md).
#pragma once

#include <boost/graph/adjacency_list.hpp>

#include <optional>
#include <string>
#include <vector>

namespace wormsim {

enum class TopologyKind { Mesh, Torus, Hypercube };

std::string to_string(TopologyKind kind);
// Accepts mesh, torus, hypercube and the aliases line (1-D mesh), ring (1-D torus).
bool parse_topology_kind(const std::string& text, TopologyKind& kind);

// What a config or schedule file says about the network's shape.
struct TopologySpec {
  TopologyKind kind = TopologyKind::Mesh;
  // Mesh/torus: radix per dimension (x first). Hypercube: a single entry, d.
  std::vector<int> dims;

  bool operator==(const TopologySpec& o) const { return kind == o.kind && dims == o.dims; }
  bool operator!=(const TopologySpec& o) const { return !(*this == o); }
  // "mesh 8x8", "torus 4x4x4", "hypercube d=4".
  std::string describe() const;
};

// Properties of one directed link, kept on the Boost.Graph edge.
struct LinkProps {
  int id = -1;    // directed link id
  int port = -1;  // output port at the source router
  int dim = -1;   // dimension it moves along
  int dir = 0;    // +1 or -1 (hypercube: +1 when it sets the bit, -1 when it clears it)
  bool wrap = false;  // torus wrap-around link (crosses the dateline)
};

// Out-edge lists only (directedS): every query walks out-edges, and keeping no
// in-edge lists or global edge list saves about 250 bytes per node.
using TopologyGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS,
                                            boost::no_property, LinkProps>;

class Topology {
 public:
  // Throws std::invalid_argument with a readable reason on a bad spec.
  explicit Topology(TopologySpec spec);

  // Checks a spec without building anything; returns its number of nodes or
  // throws std::invalid_argument like the constructor would.
  static long long validate(const TopologySpec& spec);
  // Link ports per router for a valid spec (2 per dimension; d for a hypercube).
  static int ports_of(const TopologySpec& spec) {
    return spec.kind == TopologyKind::Hypercube ? spec.dims.at(0) : 2 * static_cast<int>(spec.dims.size());
  }
  // Directed links of a valid spec, without building it.
  static long long links_of(const TopologySpec& spec);
  // Bytes a Topology of a valid spec holds (its tables; not the graph, built only on demand).
  static double footprint_bytes(const TopologySpec& spec);

  const TopologySpec& spec() const { return spec_; }
  TopologyKind kind() const { return spec_.kind; }
  int num_nodes() const { return num_nodes_; }
  int num_dims() const { return static_cast<int>(radix_.size()); }
  int radix(int dim) const { return radix_[dim]; }
  int num_ports() const { return num_ports_; }
  int num_links() const { return static_cast<int>(link_src_.size()); }

  std::vector<int> coords(int node) const;
  int coord(int node, int dim) const { return (node / stride_[dim]) % radix_[dim]; }
  int node_at(const std::vector<int>& coords) const;  // -1 if out of range
  bool valid_node(int node) const { return node >= 0 && node < num_nodes_; }

  // Neighbour through an output port, or -1.
  int neighbor(int node, int port) const { return neighbor_[node * num_ports_ + port]; }
  // Directed link leaving node through port, or -1.
  int link_id(int node, int port) const { return link_of_[node * num_ports_ + port]; }
  int link_src(int link) const { return link_src_[link]; }
  int link_dst(int link) const { return link_dst_[link]; }
  int link_port(int link) const { return link_port_[link]; }
  // Input port at the downstream router on which a link arrives.
  int link_input_port(int link) const { return opposite_port(link_port_[link]); }
  bool link_is_wrap(int link) const { return link_wrap_[link]; }

  int port_dim(int port) const { return spec_.kind == TopologyKind::Hypercube ? port : port / 2; }
  int port_dir(int port) const { return spec_.kind == TopologyKind::Hypercube ? 1 : (port % 2 ? -1 : 1); }
  int opposite_port(int port) const {
    return spec_.kind == TopologyKind::Hypercube ? port : (port ^ 1);
  }
  // Port that leaves `node` along dimension dim in direction dir (+1/-1); hypercube ignores dir.
  int port_for(int dim, int dir) const {
    return spec_.kind == TopologyKind::Hypercube ? dim : 2 * dim + (dir < 0 ? 1 : 0);
  }

  // Minimum number of hops between two nodes (closed form).
  int distance(int a, int b) const;
  // The link from a to b if they are adjacent (for a radix-2 torus, where two links
  // join the same pair, the "+" link), else -1.
  int link_between(int a, int b) const;

  // "(x,y,z)" for meshes/tori, the d-bit binary label (bit d-1 first) for hypercubes.
  std::string node_name(int node) const;

  // The links as a Boost graph, built on the first call (out-edges in port order).
  const TopologyGraph& graph() const;

 private:
  TopologySpec spec_;
  std::vector<int> radix_;
  std::vector<int> stride_;
  int num_nodes_ = 0;
  int num_ports_ = 0;
  std::vector<int> neighbor_;
  std::vector<int> link_of_;
  std::vector<int> link_src_, link_dst_, link_port_;
  std::vector<bool> link_wrap_;
  mutable std::optional<TopologyGraph> graph_;
};

}  // namespace wormsim

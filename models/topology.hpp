// The network's shape: routers joined by directed links, and the endpoints
// (network interfaces, the "nodes" of schedules, messages and traffic) attached
// to the routers. Each kind of topology is a class registered by name
// (models/topology_shape.hpp, models/topologies/); this class holds what the
// simulator asks on its hot paths as plain tables, filled once from the shape.
//
// Routers are integers 0..num_nodes()-1: the mixed-radix number of their
// coordinates, dimension 0 fastest (for a hypercube, the binary label). Every
// router has the same link ports; a port with no neighbour has no link.
// Directed links are numbered 0..num_links()-1 in (router, port) order.
// Endpoints are numbered router by router: the endpoints of router r are
// first_endpoint(r) .. first_endpoint(r) + endpoints_at(r) - 1.
// Per-router tables (neighbour and link per port) answer every query the
// simulator makes; the same links as a Boost.Graph adjacency list (graph(),
// models/topology_graph.hpp) are built on first use, for graph algorithms, so
// that a big network costs only its tables (docs/performance.md).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace wormsim {

class TopologyShape;

// What a config or schedule file says about the network's shape.
struct TopologySpec {
  TopologySpec() = default;
  TopologySpec(std::string kind_name, std::vector<int> radices, std::map<std::string, int> own = {})
      : kind(std::move(kind_name)), dims(std::move(radices)), options(std::move(own)) {}

  // A registered topology name ("mesh", "torus", "hypercube", "cmesh"); aliases
  // ("line", "ring") are resolved to their topology's name when parsed.
  std::string kind = "mesh";
  // Meshes and tori: radix per dimension (x first). Hypercube: a single entry, d.
  std::vector<int> dims;
  // The topology's own keys (e.g. cmesh's concentration); a key left out has its declared default.
  std::map<std::string, int> options;

  // Equal when the kind, dims and every option (defaults filled in) are.
  bool operator==(const TopologySpec& o) const;
  bool operator!=(const TopologySpec& o) const { return !(*this == o); }
  // "mesh 8x8", "torus 4x4x4", "hypercube d=4", "cmesh 4x4 c=4".
  std::string describe() const;
  // The value of one of the topology's own keys, its default when not given.
  int option(const std::string& key) const;
};

struct TopologyGraph;  // models/topology_graph.hpp

class Topology {
 public:
  // Throws std::invalid_argument with a readable reason on a bad spec.
  explicit Topology(TopologySpec spec);

  // Checks a spec without building anything; returns its number of routers or
  // throws std::invalid_argument like the constructor would.
  static long long validate(const TopologySpec& spec);
  // Link ports per router for a valid spec.
  static int ports_of(const TopologySpec& spec);
  // Endpoints of a valid spec, without building it.
  static long long endpoints_of(const TopologySpec& spec);
  // Directed links of a valid spec, without building it.
  static long long links_of(const TopologySpec& spec);
  // Bytes a Topology of a valid spec holds (its tables; not the graph, built only on demand).
  static double footprint_bytes(const TopologySpec& spec);

  const TopologySpec& spec() const { return spec_; }
  // The registered name of the topology ("mesh", "torus", ...).
  const std::string& kind() const { return spec_.kind; }
  const TopologyShape& shape() const { return *shape_; }

  // --- Routers, coordinates and links --------------------------------------
  int num_nodes() const { return num_nodes_; }  // routers
  int num_dims() const { return static_cast<int>(radix_.size()); }
  int radix(int dim) const { return radix_[dim]; }
  int num_ports() const { return num_ports_; }
  int num_links() const { return static_cast<int>(link_src_.size()); }

  std::vector<int> coords(int node) const;
  int coord(int node, int dim) const { return (node / stride_[dim]) % radix_[dim]; }
  // How much a router's number grows per step along dimension dim.
  int stride(int dim) const { return stride_[dim]; }
  int node_at(const std::vector<int>& coords) const;  // -1 if out of range
  bool valid_node(int node) const { return node >= 0 && node < num_nodes_; }

  // Neighbour through an output port, or -1.
  int neighbor(int node, int port) const { return neighbor_[node * num_ports_ + port]; }
  // Directed link leaving router `node` through `port`, or -1.
  int link_id(int node, int port) const { return link_of_[node * num_ports_ + port]; }
  int link_src(int link) const { return link_src_[link]; }
  int link_dst(int link) const { return link_dst_[link]; }
  int link_port(int link) const { return link_port_[link]; }
  // Input port at the downstream router on which a link arrives.
  int link_input_port(int link) const { return opposite_port(link_port_[link]); }
  // The link crosses its dimension's dateline (a wrap-around link).
  bool link_is_wrap(int link) const { return link_wrap_[link]; }
  // +1 or -1: the direction the link moves along its dimension (links.csv).
  int link_dir(int link) const;

  int port_dim(int port) const { return port_dim_[port]; }
  int port_dir(int port) const { return port_dir_[port]; }
  int opposite_port(int port) const { return opposite_port_[port]; }
  // Port that leaves a router along dimension dim in direction dir (+1/-1); a hypercube ignores dir.
  int port_for(int dim, int dir) const { return port_for_[2 * dim + (dir < 0 ? 1 : 0)]; }
  // Dimension `dim` closes into a ring (its last router links to its first).
  bool wraps(int dim) const { return wraps_[dim]; }

  // Minimum number of hops between two routers (closed form).
  int distance(int a, int b) const;
  // The link from a to b if they are adjacent (for a radix-2 torus, where two links
  // join the same pair, the "+" link), else -1.
  int link_between(int a, int b) const;

  // --- Capabilities ----------------------------------------------------------
  // Worms take a dateline VC class (0 before the wrap link of their dimension, 1 after).
  bool dateline_classes() const { return dateline_classes_; }
  // Fewest VCs with which dimension-order routing is deadlock-free.
  int min_vcs() const;

  // --- Endpoints --------------------------------------------------------------
  int num_endpoints() const { return num_endpoints_; }
  bool valid_endpoint(int e) const { return e >= 0 && e < num_endpoints_; }
  // Endpoints attached to a router (zero, one or several), and the first of them.
  int endpoints_at(int router) const {
    return uniform_endpoints_ ? per_router_ : first_endpoint_[router + 1] - first_endpoint_[router];
  }
  int first_endpoint(int router) const { return uniform_endpoints_ ? router * per_router_ : first_endpoint_[router]; }
  int max_endpoints_per_router() const { return max_per_router_; }
  int endpoint_router(int e) const;
  int endpoint_index(int e) const { return e - first_endpoint(endpoint_router(e)); }  // local index at its router
  int endpoint_at(int router, int index) const { return first_endpoint(router) + index; }
  // Routers each have exactly one endpoint, with the router's number (mesh, torus, hypercube).
  bool one_endpoint_per_router() const { return uniform_endpoints_ && per_router_ == 1; }

  // --- Names -------------------------------------------------------------------
  // An endpoint's name in outputs, traces and drawings: "(x,y,z)" for meshes and
  // tori, the d-bit binary label (bit d-1 first) for hypercubes, "(x,y).k" for
  // the k-th endpoint of a concentrated mesh's router (x,y).
  std::string node_name(int endpoint) const;
  // A router's name ("(x,y)"; the binary label for hypercubes).
  std::string router_name(int router) const;

  // The links as a Boost graph, built on the first call (out-edges in port order);
  // include models/topology_graph.hpp to use it.
  const TopologyGraph& graph() const;

 private:
  void build_ports();
  void build_links();
  void build_endpoints();

  TopologySpec spec_;
  const TopologyShape* shape_;
  std::vector<int> radix_;
  std::vector<int> stride_;
  std::vector<bool> wraps_;
  int num_nodes_ = 0;
  int num_ports_ = 0;
  bool dateline_classes_ = false;
  std::vector<int> port_dim_, port_dir_, opposite_port_, port_for_;
  std::vector<int> neighbor_;
  std::vector<int> link_of_;
  std::vector<int> link_src_, link_dst_, link_port_;
  std::vector<bool> link_wrap_;
  // Endpoints: `per_router_` each when uniform, else first_endpoint_ (routers + 1 entries).
  bool uniform_endpoints_ = true;
  int per_router_ = 1;
  int max_per_router_ = 1;
  int num_endpoints_ = 0;
  std::vector<int> first_endpoint_;
  mutable std::shared_ptr<TopologyGraph> graph_;  // shared by copies: the tables it is built from never change
};

}  // namespace wormsim

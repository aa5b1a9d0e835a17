#include "models/topology.hpp"

#include <algorithm>
#include <stdexcept>

#include "models/limits.hpp"
#include "models/topology_graph.hpp"
#include "models/topology_shape.hpp"

namespace wormsim {

int TopologySpec::option(const std::string& key) const {
  const auto it = options.find(key);
  if (it != options.end()) return it->second;
  if (const TopologyShape* shape = find_topology(kind))
    for (const TopologyOption& o : shape->options())
      if (o.key == key) return o.default_value;
  throw std::invalid_argument(kind + " has no key \"" + key + "\"");
}

bool TopologySpec::operator==(const TopologySpec& o) const {
  if (kind != o.kind || dims != o.dims) return false;
  const TopologyShape* shape = find_topology(kind);
  if (!shape) return options == o.options;
  for (const TopologyOption& opt : shape->options())
    if (option(opt.key) != o.option(opt.key)) return false;
  return true;
}

std::string TopologySpec::describe() const {
  const TopologyShape* shape = find_topology(kind);
  return shape ? shape->describe(*this) : kind;
}

long long Topology::validate(const TopologySpec& spec) {
  const TopologyShape& shape = topology_shape(spec);
  if (spec.dims.empty()) throw std::invalid_argument("dims must list at least one dimension");
  const std::vector<TopologyOption> options = shape.options();  // by value: `declared` points into it
  for (const auto& [key, value] : spec.options) {
    const TopologyOption* declared = nullptr;
    for (const TopologyOption& o : options)
      if (o.key == key) declared = &o;
    if (!declared) throw std::invalid_argument(spec.kind + " has no key \"" + key + "\"");
    if (value < declared->min || value > declared->max)
      throw std::invalid_argument(key + " must be " + std::to_string(declared->min) + ".." +
                                  std::to_string(declared->max) + ", got " + std::to_string(value));
  }
  long long n = 1;
  for (int r : shape.router_radices(spec)) {
    n *= r;
    if (n > kMaxNodes)
      throw std::invalid_argument("network too large: more than " + std::to_string(kMaxNodes) + " nodes");
  }
  const int per_router = shape.endpoints_per_router(spec);
  if (per_router > 0 && n * per_router > kMaxNodes)
    throw std::invalid_argument("network too large: more than " + std::to_string(kMaxNodes) + " endpoints");
  return n;
}

int Topology::ports_of(const TopologySpec& spec) { return topology_shape(spec).ports(spec); }

long long Topology::endpoints_of(const TopologySpec& spec) {
  const long long routers = validate(spec);
  const int per_router = topology_shape(spec).endpoints_per_router(spec);
  return per_router >= 0 ? routers * per_router : Topology(spec).num_endpoints();
}

long long Topology::links_of(const TopologySpec& spec) {
  validate(spec);
  return topology_shape(spec).links(spec);
}

double Topology::footprint_bytes(const TopologySpec& spec) {
  const double routers = static_cast<double>(validate(spec));
  const double links = static_cast<double>(links_of(spec));
  const bool uniform = topology_shape(spec).endpoints_per_router(spec) >= 0;
  // neighbor_ and link_of_ per router and port; link_src_, link_dst_, link_port_
  // and a bit of link_wrap_ per link; first_endpoint_ per router when not uniform.
  return routers * ports_of(spec) * 2.0 * sizeof(int) + links * (3.0 * sizeof(int) + 1.0 / 8) +
         (uniform ? 0.0 : routers * sizeof(int));
}

Topology::Topology(TopologySpec spec) : spec_(std::move(spec)), shape_(&topology_shape(spec_)) {
  num_nodes_ = static_cast<int>(validate(spec_));
  radix_ = shape_->router_radices(spec_);
  stride_.resize(radix_.size());
  wraps_.resize(radix_.size());
  for (size_t d = 0, n = 1; d < radix_.size(); ++d) {
    stride_[d] = static_cast<int>(n);
    n *= static_cast<size_t>(radix_[d]);
    wraps_[d] = shape_->wraps(spec_, static_cast<int>(d));
  }
  dateline_classes_ = shape_->dateline_classes();
  build_ports();
  build_links();
  build_endpoints();
}

void Topology::build_ports() {
  num_ports_ = shape_->ports(spec_);
  for (int p = 0; p < num_ports_; ++p) {
    port_dim_.push_back(shape_->port_dim(p));
    port_dir_.push_back(shape_->port_dir(p));
    opposite_port_.push_back(shape_->opposite_port(p));
  }
  for (int d = 0; d < num_dims(); ++d) {
    port_for_.push_back(shape_->port_for(d, +1));
    port_for_.push_back(shape_->port_for(d, -1));
  }
}

void Topology::build_links() {
  neighbor_.assign(static_cast<size_t>(num_nodes_) * num_ports_, -1);
  link_of_.assign(neighbor_.size(), -1);
  const auto links = static_cast<size_t>(shape_->links(spec_));
  link_src_.reserve(links);
  link_dst_.reserve(links);
  link_port_.reserve(links);
  link_wrap_.reserve(links);
  for (int node = 0; node < num_nodes_; ++node) {
    for (int port = 0; port < num_ports_; ++port) {
      bool wrap = false;
      const int nb = shape_->neighbor(*this, node, port, &wrap);
      if (nb < 0) continue;
      neighbor_[node * num_ports_ + port] = nb;
      link_of_[node * num_ports_ + port] = num_links();
      link_src_.push_back(node);
      link_dst_.push_back(nb);
      link_port_.push_back(port);
      link_wrap_.push_back(wrap);
    }
  }
}

void Topology::build_endpoints() {
  per_router_ = shape_->endpoints_per_router(spec_);
  uniform_endpoints_ = per_router_ >= 0;
  if (uniform_endpoints_) {
    max_per_router_ = per_router_;
    num_endpoints_ = num_nodes_ * per_router_;
    return;
  }
  first_endpoint_.assign(static_cast<size_t>(num_nodes_) + 1, 0);
  max_per_router_ = 0;
  for (int r = 0; r < num_nodes_; ++r) {
    const int here = shape_->endpoints_at(*this, r);
    first_endpoint_[r + 1] = first_endpoint_[r] + here;
    max_per_router_ = std::max(max_per_router_, here);
  }
  num_endpoints_ = first_endpoint_.back();
}

int Topology::endpoint_router(int e) const {
  if (uniform_endpoints_) return per_router_ == 1 ? e : e / per_router_;
  // The last router whose first endpoint is <= e (routers with none share their first with the next).
  const auto it = std::upper_bound(first_endpoint_.begin(), first_endpoint_.end(), e);
  return static_cast<int>(it - first_endpoint_.begin()) - 1;
}

int Topology::min_vcs() const { return shape_->min_vcs(); }

int Topology::link_dir(int link) const { return shape_->link_dir(*this, link); }

const TopologyGraph& Topology::graph() const {
  if (graph_) return *graph_;
  graph_ = std::make_shared<TopologyGraph>(static_cast<size_t>(num_nodes_));
  for (int l = 0; l < num_links(); ++l) {
    LinkProps props;
    props.id = l;
    props.port = link_port_[l];
    props.dim = port_dim(props.port);
    props.dir = link_dir(l);
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

int Topology::distance(int a, int b) const { return shape_->distance(*this, a, b); }

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

std::string Topology::node_name(int endpoint) const { return shape_->endpoint_name(*this, endpoint); }

std::string Topology::router_name(int router) const { return shape_->router_name(*this, router); }

}  // namespace wormsim

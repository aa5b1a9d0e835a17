// A kind of topology, as a class registered by name. Each lives in its own
// file under models/topologies/ and registers itself with one line:
//
//   WORMSIM_REGISTER_TOPOLOGY(Torus, "torus", "ring");   // class, name, aliases...
//
// A shape answers everything that depends on the kind of network: how it reads
// network.dims and its own keys, its routers' coordinates, ports and links, its
// endpoints per router, distances, dateline VC classes, names, and how it is
// drawn. Topology (models/topology.hpp) asks it once, at construction, and keeps
// the answers the simulator needs on its hot paths as plain tables; the rest
// (names, distances, descriptions) it forwards. docs/extending.md walks through
// adding one.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "models/topology.hpp"

namespace wormsim {

// One of a topology's own config keys (network.<key>, and topology.<key> in schedule files).
struct TopologyOption {
  std::string key;
  int default_value;
  int min, max;
  std::string description;
};

// How `wormsim schedule draw` pictures a topology.
enum class DrawingStyle {
  Grid,  // 1-D line or ring, 2-D grid, 3-D row of slices; wrap links drawn as jumps
  Cube,  // hypercube: nodes on a circle by label, one colour per dimension
};

class TopologyShape {
 public:
  virtual ~TopologyShape() = default;

  // The registered name (set by the registration macro).
  const std::string& name() const { return name_; }
  // Keys it reads besides network.dims.
  virtual std::vector<TopologyOption> options() const { return {}; }
  // What network.dims means for it, for error messages ("a list of radices").
  virtual std::string dims_help() const = 0;

  // Radix of each router coordinate; throws std::invalid_argument with a
  // readable reason when dims or an option is out of range. The router count
  // (their product) is checked by Topology::validate.
  virtual std::vector<int> router_radices(const TopologySpec& spec) const = 0;
  // Link ports per router.
  virtual int ports(const TopologySpec& spec) const = 0;
  // Directed links, in closed form (memory estimates, before building).
  virtual long long links(const TopologySpec& spec) const = 0;
  // Endpoints on every router (uniform). A topology whose routers differ
  // (e.g. a tree's inner routers have none) returns -1 and answers endpoints_at.
  virtual int endpoints_per_router(const TopologySpec&) const { return 1; }
  virtual int endpoints_at(const Topology&, int /*router*/) const { return 1; }

  // Port layout: the dimension and direction (+1/-1) a port moves along, and the
  // port on which a link leaving through `port` arrives downstream.
  virtual int port_dim(int port) const = 0;
  virtual int port_dir(int port) const = 0;
  virtual int opposite_port(int port) const = 0;
  virtual int port_for(int dim, int dir) const = 0;
  // Dimension `dim` closes into a ring.
  virtual bool wraps(const TopologySpec&, int /*dim*/) const { return false; }
  // The router through `port`, or -1; *wrap says whether the link crosses the dateline.
  virtual int neighbor(const Topology& topo, int router, int port, bool* wrap) const = 0;
  // +1 or -1 for links.csv and the graph's LinkProps::dir.
  virtual int link_dir(const Topology& topo, int link) const { return topo.port_dir(topo.link_port(link)); }
  // Minimum hops between two routers.
  virtual int distance(const Topology& topo, int a, int b) const = 0;

  // The "transpose" traffic pattern's partner of a router. check_transpose
  // throws std::invalid_argument saying why when the network has none.
  virtual void check_transpose(const Topology& topo) const;
  virtual int transpose(const Topology& topo, int router) const;  // default: coordinates reversed

  // Worms take dateline VC classes (models/routing.hpp), and the fewest VCs for that.
  virtual bool dateline_classes() const { return false; }
  virtual int min_vcs() const { return 1; }

  // "mesh 8x8": the name and what sets its size.
  virtual std::string describe(const TopologySpec& spec) const;
  virtual std::string router_name(const Topology& topo, int router) const;
  // Endpoint names: the router's name, plus ".k" when routers have several.
  virtual std::string endpoint_name(const Topology& topo, int endpoint) const;
  // A port's label in timeline traces ("link +x").
  virtual std::string port_label(int port) const;
  // An endpoint as written in schedule files: a list of coordinates (the
  // default) or, when true, its integer id (hypercube labels).
  virtual bool writes_endpoint_ids() const { return false; }

  virtual DrawingStyle drawing() const { return DrawingStyle::Grid; }
  // Throws std::invalid_argument saying why when `schedule draw` cannot picture it.
  virtual void check_drawable(const TopologySpec&) const {}

 private:
  friend struct TopologyRegistrar;
  std::string name_;
};

// The registry: every topology by name and alias.
const TopologyShape* find_topology(const std::string& name_or_alias);  // null if unknown
const TopologyShape& topology_shape(const TopologySpec& spec);          // throws std::invalid_argument if unknown
// Resolves an alias to its topology's name; false if unknown.
bool parse_topology_kind(const std::string& text, std::string& kind);
// "cmesh, hypercube, mesh, torus, line or ring" (names sorted, then aliases), for error messages.
std::string topology_names_text(const std::string& last_separator = " or ");
// Every registered name (aliases too), sorted.
std::vector<std::string> topology_names();

struct TopologyRegistrar {
  TopologyRegistrar(std::unique_ptr<TopologyShape> shape, const std::string& name,
                    std::vector<std::string> aliases);
};

#define WORMSIM_REGISTER_TOPOLOGY(Class, name, ...)                                                 \
  static const ::wormsim::TopologyRegistrar wormsim_topology_registrar_##Class(                     \
      std::make_unique<Class>(), name, std::vector<std::string>{__VA_ARGS__})

}  // namespace wormsim

// The `network` section: topology, size, virtual channels, buffers, port model, routing.
#include "sim/config_reader.hpp"
#include "models/limits.hpp"
#include "models/routing/routing_function.hpp"
#include "models/topology_shape.hpp"

#include <algorithm>

namespace wormsim {

namespace {

using P = ParamDecl;

// "`dimension-order[:ORDER]`, `west-first`, ...": the registered routing functions.
std::string routing_names_text() {
  std::string text;
  for (const RoutingInfo& r : routing_registry())
    text += (text.empty() ? "`" : ", `") + r.name + (r.name == "dimension-order" ? "[:ORDER]`" : "`");
  return text;
}

const ParamSection kNetworkParams{
    "network", "network", "the topology, its size and the routers' resources", {}, 10,
    {P::string("topology")
         .must_be_given()
         .range("`mesh`, `torus`, `hypercube`, `cmesh`, `line`, `ring`")
         .describe("network kind, a registered topology; line = mesh, ring = torus (plain aliases: the number of "
                   "dims is not checked)"),
     P::compound("dims", "list of integers, or one integer")
         .must_be_given()
         .range("each 1..16777216; at most 2^24 routers and 2^24 endpoints; hypercube: exactly one entry d, 1..16")
         .describe("radix per dimension, x (dimension 0) first; hypercube [d] is 2^d nodes"),
     P::integer("vcs", 1, 16)
         .default_is("2 on tori, else 1")
         .in("virtual channels")
         .describe("virtual channels per link; on tori with >= 2, VC v serves dateline class v mod 2"),
     P::integer("buffer_flits", 1, 4096)
         .by_default(4)
         .in("flits")
         .describe("depth of each input VC buffer and of each injection buffer"),
     P::compound("port_model", "string")
         .by_default("one-port")
         .range("`one-port`, `all-port`, `k-port`, `N-port` (N = 1..64, e.g. `2-port`)")
         .describe("injection/ejection channels per node"),
     P::integer("ports", 1, 64)
         .not_echoed()
         .describe("k for k-port, required with it (also overrides N of N-port); echoed inside port_model"),
     P::string("routing")
         .by_default("dimension-order")
         .range(routing_names_text())
         .describe("routing function for messages without an explicit route (explicit routes go in the schedule "
                   "and bypass it); refused unless deadlock-free on the network with its VCs"),
     P::boolean("allow_deadlock")
         .by_default(false)
         .describe("run a routing function, or a schedule's multicast scheme (docs/multicast.md), that can deadlock "
                   "on this network (dimension order on a torus with one VC; path worms beside unicast traffic) "
                   "instead of refusing it, for deadlock studies: the run warns, and the watchdog reports a "
                   "deadlock; echoed only when given")}};
WORMSIM_DECLARE_PARAMS(kNetworkParams);

// Routers track their input ports (links + their endpoints' injection channels) in one 64-bit mask.
void check_router_ports(const ConfigSection& s, const Config& c) {
  const int links = Topology::ports_of(c.topology);
  const int endpoints = std::max(1, topology_shape(c.topology).endpoints_per_router(c.topology));
  const int per_endpoint = c.ports.kind == PortKind::OnePort ? 1 : c.ports.kind == PortKind::AllPort ? links : c.ports.k;
  const int channels = endpoints * per_endpoint;
  if (links + channels <= kMaxRouterPorts) return;
  const std::string what = "a router would need " + std::to_string(links + channels) + " input ports (" +
                           std::to_string(links) + " link ports + " + std::to_string(channels) +
                           " injection channels" +
                           (endpoints > 1 ? " of " + std::to_string(endpoints) + " endpoints" : std::string()) +
                           "); at most " + std::to_string(kMaxRouterPorts) + " are supported";
  if (c.ports.kind == PortKind::KPort && per_endpoint > links)
    s.fail(s.has("ports") ? "ports" : "port_model", what, s.has("ports") ? s.at("ports") : s.at("port_model"));
  s.fail("dims", what, s.at("dims"));
}

void read_topology(ConfigSection& s, Config& c) {
  if (!s.has("topology")) s.missing("topology", "expected " + topology_names_text());
  const std::string name = s.string("topology");
  if (!parse_topology_kind(name, c.topology.kind))
    s.fail("topology", "expected " + topology_names_text() + ", got \"" + name + "\"", s.at("topology"));
  s.record("topology", c.topology.kind);
}

// The chosen topology's own keys (models/topology_shape.hpp, TopologyShape::options).
void read_topology_options(ConfigSection& s, Config& c) {
  for (const TopologyOption& o : topology_shape(c.topology).options())
    c.topology.options[o.key] = static_cast<int>(s.integer(o.key));
}

void read_dims(ConfigSection& s, Config& c) {
  const ParamDecl& d = s.decl("dims");
  const YAML::Node dims = s.at("dims");
  if (!dims) s.missing("dims", "expected a list of radices, e.g. [8, 8]; for a hypercube [d]");
  const long long max_radix = kMaxRadix;
  if (dims.IsScalar()) {
    c.topology.dims = {static_cast<int>(s.file().integer(dims, s.path_of("dims"), 1, max_radix))};
  } else if (dims.IsSequence() && dims.size() > 0) {
    for (size_t i = 0; i < dims.size(); ++i)
      c.topology.dims.push_back(static_cast<int>(
          s.file().integer(dims[i], s.path_of("dims") + "[" + std::to_string(i) + "]", 1, max_radix)));
  } else {
    s.fail(d.key, "expected a non-empty list of positive integers", dims);
  }
  try {
    Topology::validate(c.topology);  // builds nothing: huge networks are refused later, by size
  } catch (const std::exception& e) {
    s.fail("dims", e.what(), dims);
  }
  s.record("dims", c.topology.dims);
}

void read_port_model(ConfigSection& s, Config& c) {
  const std::string pm = s.string("port_model");
  if (!parse_port_model(pm, c.ports))
    s.fail("port_model", "expected one-port, all-port, k-port or N-port (e.g. 2-port), got \"" + pm + "\"",
           s.at("port_model"));
  if (s.has("ports")) {
    if (c.ports.kind != PortKind::KPort) s.fail("ports", "only meaningful with port_model: k-port", s.at("ports"));
    c.ports.k = static_cast<int>(s.integer("ports"));
  } else if (c.ports.kind == PortKind::KPort && pm == "k-port") {
    s.fail("ports", "missing: port_model k-port needs ports: K (or write port_model: K-port)", s.at("port_model"));
  }
}

// Refused unless deadlock-free on this network with these VCs (models/routing/routing_function.hpp).
void read_routing(ConfigSection& s, Config& c) {
  c.routing = s.string("routing");
  try {
    require_deadlock_free(c.routing, c.topology, c.vcs);
  } catch (const std::invalid_argument& e) {
    s.fail("routing", e.what(), s.at("routing"));
  }
  const bool allowed = s.has("allow_deadlock") && s.boolean("allow_deadlock");
  c.allow_deadlock = allowed;
  if (const auto risk = deadlock_risk(c.routing, c.topology, c.vcs); risk && !allowed) {
    const std::string key = s.has("vcs") ? "vcs" : "routing";
    s.fail(key, *risk + "; raise network.vcs, or set network.allow_deadlock: true to run it anyway and let the " +
                    "watchdog report the deadlock", s.at(key));
  }
  if (find_routing(c.routing)->adaptive && c.ports.kind == PortKind::AllPort)
    s.fail("routing",
           c.routing + " chooses each hop in the router, but all-port injection ties a message to its first hop's "
                       "channel before it starts; use one-port or k-port with an adaptive routing function",
           s.at("routing"));
}

}  // namespace

void read_network(ConfigSection& s, Config& c) {
  if (!s.given()) s.file().fail("network", "missing (expected topology, dims, ...)");
  if (!s.node().IsMap()) s.check_keys();  // says what a section must be
  read_topology(s, c);
  s.check_keys();  // after the topology: it decides which keys apply
  read_topology_options(s, c);
  read_dims(s, c);
  c.vcs = topology_shape(c.topology).min_vcs();  // e.g. tori need a dateline pair
  if (s.has("vcs")) c.vcs = static_cast<int>(s.integer("vcs"));
  s.record("vcs", c.vcs);
  c.buffer_flits = static_cast<int>(s.integer("buffer_flits"));
  read_port_model(s, c);
  s.record("port_model", c.ports.describe());
  check_router_ports(s, c);
  read_routing(s, c);
}

}  // namespace wormsim

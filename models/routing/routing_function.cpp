#include "models/routing/routing_function.hpp"

#include <stdexcept>

#include "models/routing/registry.hpp"

#define WORMSIM_DECLARE_ROUTING(ID) \
  namespace wormsim::routing_functions { RoutingInfo ID(); }
WORMSIM_ROUTING_FUNCTIONS(WORMSIM_DECLARE_ROUTING)
#undef WORMSIM_DECLARE_ROUTING

namespace wormsim {

// A deterministic function's route: its one output at each router, from the
// injection channel on. The VC class kept per hop is the output's first VC
// (the router serves it as RouteHop::vc_class says: models/flit.hpp).
void RoutingFunction::route(int src, int dst, Route& r) const {
  r.links.clear();
  r.vc_class.clear();
  r.chosen_in_router = 0;
  r.simple = false;
  if (adaptive()) {
    r.chosen_in_router = topo_.distance(src, dst);
    return;
  }
  std::vector<RouteOutput> outs;
  RouteQuery q{src, src, dst, kInjectedHeader, 0};
  // A route longer than every link is a function that does not converge.
  const int limit = topo_.num_links() + 1;
  while (q.node != dst) {
    outs.clear();
    outputs(q, outs);
    if (outs.empty() || r.hops() >= limit)
      throw std::logic_error("routing function gives no route from router " + std::to_string(src) + " to " +
                             std::to_string(dst));
    const int link = topo_.link_id(q.node, outs.front().port);
    r.links.push_back(link);
    r.vc_class.push_back(static_cast<uint8_t>(outs.front().vc_first));
    q.in_port = topo_.link_input_port(link);
    q.in_vc = outs.front().vc_first;
    q.node = topo_.link_dst(link);
  }
}

const std::vector<RoutingInfo>& routing_registry() {
#define WORMSIM_LIST_ROUTING(ID) routing_functions::ID(),
  static const std::vector<RoutingInfo> registry = {WORMSIM_ROUTING_FUNCTIONS(WORMSIM_LIST_ROUTING)};
#undef WORMSIM_LIST_ROUTING
  return registry;
}

void split_routing(const std::string& routing, std::string& name, std::string& option) {
  const auto colon = routing.find(':');
  name = routing.substr(0, colon);
  option = colon == std::string::npos ? std::string() : routing.substr(colon + 1);
}

const RoutingInfo* find_routing(const std::string& routing) {
  std::string name, option;
  split_routing(routing, name, option);
  for (const RoutingInfo& info : routing_registry())
    if (info.name == name) return &info;
  return nullptr;
}

void require_deadlock_free(const std::string& routing, const TopologySpec& topology, int vcs) {
  const RoutingInfo* info = find_routing(routing);
  if (!info) {
    std::string names;
    for (const RoutingInfo& i : routing_registry()) names += (names.empty() ? "" : ", ") + i.name;
    throw std::invalid_argument("unknown routing function \"" + routing + "\" (expected one of: " + names + ")");
  }
  RoutingSetting s{topology, vcs, {}};
  std::string name;
  split_routing(routing, name, s.option);
  if (s.option.empty() && routing.back() == ':')
    throw std::invalid_argument("routing function \"" + routing + "\" has nothing after ':' (write \"" + name +
                                "\" alone, or \"" + name + ":OPTION\")");
  info->check(s);
}

std::optional<std::string> deadlock_risk(const std::string& routing, const TopologySpec& topology, int vcs) {
  RoutingSetting s{topology, vcs, {}};
  std::string name;
  split_routing(routing, name, s.option);
  return find_routing(routing)->deadlock_risk(s);
}

std::unique_ptr<RoutingFunction> make_routing(const std::string& routing, const Topology& topo, int vcs) {
  require_deadlock_free(routing, topo.spec(), vcs);
  RoutingSetting s{topo.spec(), vcs, {}};
  std::string name;
  split_routing(routing, name, s.option);
  return find_routing(routing)->make(topo, s);
}

}  // namespace wormsim

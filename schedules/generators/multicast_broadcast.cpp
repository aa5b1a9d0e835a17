// Hardware-multicast broadcasts (docs/multicast.md): one step, one multicast
// message from the source to every other node, carried by a multicast scheme
// (models/multicast/). The baselines the unicast broadcast schedules are judged
// against; the generator is named after its scheme.
#include "models/multicast/multicast_scheme.hpp"
#include "schedules/generators/generators.hpp"
#include "schedules/generators/mesh_broadcast_support.hpp"

namespace wormsim {

namespace {

using namespace mesh_broadcast;

// The scheme must run on this network: refused here as a run would refuse it.
// The tree follows dimension-order routes here; a run follows network.routing.
void require_scheme_runs(const Topology& topo, const std::string& scheme) {
  const auto routing = make_routing("dimension-order", topo, topo.min_vcs());
  try {
    make_multicast(scheme, MulticastSetting{&topo, routing.get(), topo.min_vcs()});
  } catch (const std::invalid_argument& e) {
    throw GeneratorError(e.what());
  }
}

Schedule multicast_broadcast(const std::string& scheme, const Topology& topo, const GeneratorOptions& options) {
  require_known_params(options, scheme, {});
  require_no_orientation(options, scheme);
  require_valid_flits(options);
  require_scheme_runs(topo, scheme);
  const int source = resolve_source(topo, options, scheme);
  const std::string name = scheme + " multicast broadcast on " + topo.spec().describe() + " from " +
                           topo.node_name(source) + (options.source_eye ? ", source eye E_k(1)" : "");
  Schedule s = make_broadcast_schedule(topo.spec(), source, options.flits, name, scheme);
  ScheduledMessage m;
  m.src = source;
  m.packet = 0;
  std::vector<int> dsts;
  for (int e = 0; e < topo.num_endpoints(); ++e)
    if (e != source) dsts.push_back(e);
  m.set_multicast(scheme, std::move(dsts));
  if (!m.dsts().empty()) s.steps.push_back({std::move(m)});
  return s;
}

}  // namespace

namespace detail {

void append_multicast_generators(std::vector<GeneratorInfo>& out) {
  for (const char* scheme : {"dual-path", "multi-path", "column-path", "tree"}) {
    const MulticastInfo* info = find_multicast(scheme);
    out.push_back({scheme, "hardware multicast broadcast (one message): " + info->summary,
                   [name = std::string(scheme)](const Topology& topo, const GeneratorOptions& o) {
                     return multicast_broadcast(name, topo, o);
                   }});
  }
}

}  // namespace detail

}  // namespace wormsim

#include "sim/batch_network.hpp"

#include <sstream>
#include <vector>

#include "models/network.hpp"
#include "sim/run.hpp"

namespace wormsim {

namespace {

std::string dims_text(const std::vector<int>& dims) {
  std::ostringstream s;
  s << "[";
  for (size_t i = 0; i < dims.size(); ++i) s << (i ? ", " : "") << dims[i];
  s << "]";
  return s.str();
}

template <typename T>
std::optional<std::string> differ(const char* key, const T& a, const T& b) {
  if (a == b) return std::nullopt;
  std::ostringstream s;
  s << key << ": " << b << " here, " << a << " on the batch's network";
  return s.str();
}

}  // namespace

std::optional<std::string> network_difference(const Config& a, const Config& b) {
  if (a.topology.kind != b.topology.kind)
    return differ("network.topology", a.topology.kind, b.topology.kind);
  if (a.topology.dims != b.topology.dims)
    return differ("network.dims", dims_text(a.topology.dims), dims_text(b.topology.dims));
  if (a.topology != b.topology) return std::string("network: the topology's own keys (") + b.topology.describe() +
                                       " here, " + a.topology.describe() + " on the batch's network)";
  const NetworkParams x = network_params(a), y = network_params(b);
  std::optional<std::string> d;
  if ((d = differ("network.vcs", x.vcs, y.vcs))) return d;
  if ((d = differ("network.buffer_flits", x.buffer_flits, y.buffer_flits))) return d;
  if (x.ports.kind != y.ports.kind || x.ports.k != y.ports.k)
    return differ("network.port_model", x.ports.describe(), y.ports.describe());
  if ((d = differ("network.routing", x.routing, y.routing))) return d;
  if ((d = differ("timing.router_delay", x.timing.router_delay, y.timing.router_delay))) return d;
  if ((d = differ("timing.link_delay", x.timing.link_delay, y.timing.link_delay))) return d;
  if ((d = differ("timing.startup", x.timing.startup, y.timing.startup))) return d;
  if ((d = differ("timing.credit_delay", x.timing.credit_delay, y.timing.credit_delay))) return d;
  if ((d = differ("run.max_cycles", x.max_cycles, y.max_cycles))) return d;
  if ((d = differ("run.watchdog_cycles", x.watchdog_cycles, y.watchdog_cycles))) return d;
  return differ("run.fast_paths", std::string(x.fast_paths ? "true" : "false"),
                std::string(y.fast_paths ? "true" : "false"));
}

}  // namespace wormsim

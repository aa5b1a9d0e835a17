#include "models/port_model.hpp"

#include <cctype>

namespace wormsim {

int PortModel::sends_per_step(const Topology& topo, int node) const {
  if (kind == PortKind::OnePort) return 1;
  if (kind == PortKind::KPort) return k;
  int links = 0;
  const int router = topo.endpoint_router(node);
  for (int p = 0; p < topo.num_ports(); ++p) links += topo.link_id(router, p) >= 0;
  return links;
}

std::string PortModel::describe() const {
  switch (kind) {
    case PortKind::OnePort: return "one-port";
    case PortKind::AllPort: return "all-port";
    case PortKind::KPort: return std::to_string(k) + "-port";
  }
  return "?";
}

bool parse_port_model(const std::string& text, PortModel& out) {
  if (text == "one-port") {
    out.kind = PortKind::OnePort;
    out.k = 1;
    return true;
  }
  if (text == "all-port") {
    out.kind = PortKind::AllPort;
    return true;
  }
  if (text == "k-port") {
    out.kind = PortKind::KPort;
    return true;
  }
  // "3-port"
  const auto dash = text.find("-port");
  if (dash == std::string::npos || dash == 0 || dash + 5 != text.size() || dash > 4) return false;
  if (text[0] == '0') return false;  // "02-port" is not a spelling of 2-port
  for (size_t i = 0; i < dash; ++i)
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return false;
  out.kind = PortKind::KPort;
  out.k = std::stoi(text.substr(0, dash));
  return out.k >= 1 && out.k <= 64;  // as network.ports; round-robin pointers are bytes
}

}  // namespace wormsim

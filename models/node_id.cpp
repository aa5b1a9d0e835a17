#include "models/node_id.hpp"

#include <cctype>
#include <stdexcept>

namespace wormsim {

namespace {

// Router coordinates in range -> the router; else throws why.
int router_from_coords(const Topology& topo, const std::vector<long long>& coords) {
  std::vector<int> c;
  for (size_t d = 0; d < coords.size(); ++d) {
    const long long v = coords[d];
    if (v < 0 || v >= topo.radix(static_cast<int>(d)))
      throw std::invalid_argument("coordinate " + std::to_string(d) + " = " + std::to_string(v) +
                                  " is out of range 0.." + std::to_string(topo.radix(static_cast<int>(d)) - 1));
    c.push_back(static_cast<int>(v));
  }
  return topo.node_at(c);
}

// "node" wherever routers and endpoints are one and the same.
std::string router_word(const Topology& topo) { return topo.one_endpoint_per_router() ? "node" : "router"; }

int id_in_range(const NodeRef& ref, int count, const std::string& what, const Topology& topo) {
  if (ref.id >= 0 && ref.id < count) return static_cast<int>(ref.id);
  throw std::invalid_argument(what + " id " + std::to_string(ref.id) + " is out of range 0.." +
                              std::to_string(count - 1) + " for " + topo.spec().describe());
}

std::string coordinate_count_error(const NodeRef& ref, const Topology& topo, const std::string& what) {
  return what + " has " + std::to_string(ref.coords.size()) + " coordinates but " + topo.spec().describe() + " has " +
         std::to_string(topo.num_dims()) + " dimensions";
}

}  // namespace

int resolve_node(const Topology& topo, const NodeRef& ref) {
  if (!ref.is_coords) return id_in_range(ref, topo.num_endpoints(), "node", topo);
  const bool local = topo.max_endpoints_per_router() > 1;
  if (static_cast<int>(ref.coords.size()) != topo.num_dims() + (local ? 1 : 0))
    throw std::invalid_argument(
        coordinate_count_error(ref, topo, "node") +
        (local ? ", and an endpoint is named by its router's coordinates followed by its index at the router" : ""));
  const std::vector<long long> router_coords(ref.coords.begin(), ref.coords.begin() + topo.num_dims());
  const int router = router_from_coords(topo, router_coords);
  if (!local) return router;
  const long long k = ref.coords.back();
  if (k < 0 || k >= topo.endpoints_at(router))
    throw std::invalid_argument("endpoint index " + std::to_string(k) + " is out of range 0.." +
                                std::to_string(topo.endpoints_at(router) - 1) + " at router " +
                                topo.router_name(router));
  return topo.endpoint_at(router, static_cast<int>(k));
}

int resolve_router(const Topology& topo, const NodeRef& ref) {
  if (!ref.is_coords) return id_in_range(ref, topo.num_nodes(), router_word(topo), topo);
  if (static_cast<int>(ref.coords.size()) != topo.num_dims())
    throw std::invalid_argument(coordinate_count_error(ref, topo, router_word(topo)));
  return router_from_coords(topo, ref.coords);
}

std::vector<int> endpoint_coords(const Topology& topo, int endpoint) {
  std::vector<int> c = topo.coords(topo.endpoint_router(endpoint));
  if (topo.max_endpoints_per_router() > 1) c.push_back(topo.endpoint_index(endpoint));
  return c;
}

bool parse_node_text(const std::string& text, NodeRef& out) {
  out = NodeRef{};
  std::string s;
  for (char ch : text)
    if (!std::isspace(static_cast<unsigned char>(ch))) s += ch;
  if (s.empty()) return false;
  // "(x,y).k": an endpoint of a router with several.
  long long local = -1;
  const size_t dot = s.rfind(").");
  if (dot != std::string::npos && s.front() == '(') {
    const std::string k = s.substr(dot + 2);
    if (k.empty() || k.size() > 6 || k.find_first_not_of("0123456789") != std::string::npos) return false;
    local = std::stoll(k);
    s = s.substr(0, dot + 1);
  }
  const bool bracketed = (s.front() == '(' && s.back() == ')') || (s.front() == '[' && s.back() == ']');
  if (bracketed) s = s.substr(1, s.size() - 2);
  std::vector<long long> parts;
  size_t pos = 0;
  while (true) {
    size_t end = s.find(',', pos);
    std::string tok = s.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    if (tok.empty() || tok.size() > 12) return false;
    size_t i = (tok[0] == '-') ? 1 : 0;
    if (i == tok.size()) return false;
    for (; i < tok.size(); ++i)
      if (!std::isdigit(static_cast<unsigned char>(tok[i]))) return false;
    parts.push_back(std::stoll(tok));
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  if (local >= 0) parts.push_back(local);
  if (parts.size() == 1 && !bracketed) {
    out.id = parts[0];
    return true;
  }
  out.is_coords = true;
  out.coords = parts;
  return true;
}

}  // namespace wormsim

#include "models/node_id.hpp"

#include <cctype>

namespace wormsim {

int resolve_node(const Topology& topo, const NodeRef& ref, std::string* error) {
  if (!ref.is_coords) {
    if (ref.id < 0 || ref.id >= topo.num_nodes()) {
      if (error)
        *error = "node id " + std::to_string(ref.id) + " is out of range 0.." +
                 std::to_string(topo.num_nodes() - 1) + " for " + topo.spec().describe();
      return -1;
    }
    return static_cast<int>(ref.id);
  }
  if (static_cast<int>(ref.coords.size()) != topo.num_dims()) {
    if (error)
      *error = "node has " + std::to_string(ref.coords.size()) + " coordinates but " +
               topo.spec().describe() + " has " + std::to_string(topo.num_dims()) + " dimensions";
    return -1;
  }
  std::vector<int> c;
  for (size_t d = 0; d < ref.coords.size(); ++d) {
    const long long v = ref.coords[d];
    if (v < 0 || v >= topo.radix(static_cast<int>(d))) {
      if (error)
        *error = "coordinate " + std::to_string(d) + " = " + std::to_string(v) + " is out of range 0.." +
                 std::to_string(topo.radix(static_cast<int>(d)) - 1);
      return -1;
    }
    c.push_back(static_cast<int>(v));
  }
  return topo.node_at(c);
}

bool parse_node_text(const std::string& text, NodeRef& out) {
  out = NodeRef{};
  std::string s;
  for (char ch : text)
    if (!std::isspace(static_cast<unsigned char>(ch))) s += ch;
  if (s.empty()) return false;
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
  if (parts.size() == 1 && !bracketed) {
    out.id = parts[0];
    return true;
  }
  out.is_coords = true;
  out.coords = parts;
  return true;
}

}  // namespace wormsim

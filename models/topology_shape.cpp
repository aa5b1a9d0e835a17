#include "models/topology_shape.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <stdexcept>

#include "decl/param.hpp"

namespace wormsim {

namespace {

struct Registry {
  std::vector<std::unique_ptr<TopologyShape>> shapes;
  std::map<std::string, const TopologyShape*> by_name;  // names and aliases
};

// A function-local static: registrars in other files run during static
// initialisation, in an order the language leaves open.
Registry& registry() {
  static Registry r;
  return r;
}

}  // namespace

namespace {

// The sections declare_options registers: they must live as long as the
// program (decl/param.hpp keeps pointers), and a deque never moves its elements.
std::deque<ParamSection>& option_sections() {
  static std::deque<ParamSection> sections;
  return sections;
}

// A topology's own keys become a network section that applies when it is chosen
// (decl/param.hpp): the config reader, `config keys` and the docs check read
// them from there.
void declare_options(const TopologyShape& shape) {
  const std::vector<TopologyOption> options = shape.options();
  if (options.empty()) return;
  ParamSection& section = option_sections().emplace_back(
      ParamSection{"network", shape.name() + " topology", "keys of the " + shape.name() + " topology",
                   ParamCondition{"network.topology", shape.name()}, 11, {}});
  for (const TopologyOption& o : options)
    section.params.push_back(ParamDecl::integer(o.key, o.min, o.max).by_default(o.default_value).describe(o.description));
  register_param_section(section);
}

}  // namespace

TopologyRegistrar::TopologyRegistrar(std::unique_ptr<TopologyShape> shape, const std::string& name,
                                     std::vector<std::string> aliases) {
  Registry& r = registry();
  shape->name_ = name;
  aliases.insert(aliases.begin(), name);
  for (const std::string& a : aliases) r.by_name[a] = shape.get();
  declare_options(*shape);
  r.shapes.push_back(std::move(shape));
}

const TopologyShape* find_topology(const std::string& name_or_alias) {
  const Registry& r = registry();
  const auto it = r.by_name.find(name_or_alias);
  return it == r.by_name.end() ? nullptr : it->second;
}

const TopologyShape& topology_shape(const TopologySpec& spec) {
  if (const TopologyShape* s = find_topology(spec.kind)) return *s;
  throw std::invalid_argument("unknown topology \"" + spec.kind + "\" (expected " + topology_names_text() + ")");
}

bool parse_topology_kind(const std::string& text, std::string& kind) {
  const TopologyShape* s = find_topology(text);
  if (!s) return false;
  kind = s->name();
  return true;
}

std::vector<std::string> topology_names() {
  std::vector<std::string> names;
  for (const auto& [name, shape] : registry().by_name) names.push_back(name);
  return names;
}

std::string topology_names_text(const std::string& last_separator) {
  // Names first, in registration order, then aliases: "mesh, torus, hypercube, cmesh, line or ring".
  std::vector<std::string> names;
  for (const auto& s : registry().shapes) names.push_back(s->name());
  std::sort(names.begin(), names.end());
  std::vector<std::string> aliases;
  for (const auto& [name, shape] : registry().by_name)
    if (name != shape->name()) aliases.push_back(name);
  names.insert(names.end(), aliases.begin(), aliases.end());
  std::string text;
  for (size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? last_separator : ", ") + names[i];
  return text;
}

std::string TopologyShape::describe(const TopologySpec& spec) const {
  std::string s = name() + ' ';
  for (size_t i = 0; i < spec.dims.size(); ++i) s += (i ? "x" : "") + std::to_string(spec.dims[i]);
  for (const TopologyOption& o : options()) s += " " + o.key + "=" + std::to_string(spec.option(o.key));
  return s;
}

std::string TopologyShape::router_name(const Topology& topo, int router) const {
  // Appended in place: links.csv and messages.csv name every link's and message's ends.
  std::string s = "(";
  for (int d = 0; d < topo.num_dims(); ++d) {
    if (d) s += ',';
    s += std::to_string(topo.coord(router, d));
  }
  s += ')';
  return s;
}

std::string TopologyShape::endpoint_name(const Topology& topo, int endpoint) const {
  std::string name = topo.router_name(topo.endpoint_router(endpoint));
  if (topo.max_endpoints_per_router() == 1) return name;
  name += '.';
  name += std::to_string(topo.endpoint_index(endpoint));
  return name;
}

void TopologyShape::check_transpose(const Topology& topo) const {
  for (int d = 1; d < topo.num_dims(); ++d)
    if (topo.radix(d) != topo.radix(0)) throw std::invalid_argument("transpose needs the same radix in every dimension");
  if (topo.num_dims() < 2) throw std::invalid_argument("transpose needs at least two dimensions");
}

int TopologyShape::transpose(const Topology& topo, int router) const {
  std::vector<int> c = topo.coords(router);
  std::reverse(c.begin(), c.end());
  return topo.node_at(c);
}

std::string TopologyShape::port_label(int port) const {
  static const char* axis = "xyzuvw";
  const int dim = port_dim(port);
  return std::string("link ") + (port_dir(port) > 0 ? "+" : "-") +
         (dim < 6 ? std::string(1, axis[dim]) : "d" + std::to_string(dim));
}

}  // namespace wormsim

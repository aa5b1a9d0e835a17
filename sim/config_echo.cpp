#include "sim/config_echo.hpp"

#include "decl/param.hpp"

namespace wormsim {

namespace {

using ojson = nlohmann::ordered_json;

// The declaration of `key` in any section at `path` (a plug-in's too: its
// values were recorded only when it applied).
const ParamDecl* declared(const std::string& path, const std::string& key) {
  for (const ParamSection* s : param_sections_at(path))
    if (const ParamDecl* d = s->find(key)) return d;
  return nullptr;
}

bool is_section(const std::string& path) { return !param_sections_at(path).empty(); }

ojson echo_section(const std::string& path, const ojson& values) {
  ojson out = ojson::object();
  for (const auto& [key, value] : values.items()) {
    const ParamDecl* d = declared(path, key);
    if (!d || !d->echoed) continue;
    const std::string sub = path + "." + key;
    out[key] = value.is_object() && is_section(sub) ? echo_section(sub, value) : value;
  }
  return out;
}

bool echoes_anything(const ParamSection& s) {
  for (const ParamDecl& d : s.params)
    if (d.echoed) return true;
  return false;
}

}  // namespace

ojson config_echo(const Config& c) {
  ojson out = ojson::object();
  for (const ParamSection* s : param_sections()) {
    if (s->path.find('.') != std::string::npos || !s->when.always() || !echoes_anything(*s)) continue;
    out[s->path] = c.values.contains(s->path) ? echo_section(s->path, c.values[s->path]) : ojson(nullptr);
  }
  return out;
}

}  // namespace wormsim

#include "decl/param.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace wormsim {

std::string to_string(ParamType type) {
  switch (type) {
    case ParamType::Integer: return "integer";
    case ParamType::Number: return "number";
    case ParamType::Boolean: return "boolean";
    case ParamType::String: return "string";
    case ParamType::Choice: return "string";
    case ParamType::Compound: return "compound";
  }
  return "?";
}

namespace {

ParamDecl make(std::string key, ParamType type) {
  ParamDecl d;
  d.key = std::move(key);
  d.type = type;
  return d;
}

// "a, b or c"
std::string spoken_list(const std::vector<std::string>& items) {
  std::string s;
  for (size_t i = 0; i < items.size(); ++i) s += (i == 0 ? "" : i + 1 == items.size() ? " or " : ", ") + items[i];
  return s;
}

std::vector<const ParamSection*>& param_registry() {
  static std::vector<const ParamSection*> sections;
  return sections;
}

}  // namespace

ParamDecl ParamDecl::integer(std::string key, long long min, long long max) {
  ParamDecl d = make(std::move(key), ParamType::Integer);
  d.min = min;
  d.max = max;
  return d;
}
ParamDecl ParamDecl::number(std::string key, std::string range_text) {
  ParamDecl d = make(std::move(key), ParamType::Number);
  d.range_text = std::move(range_text);
  return d;
}
ParamDecl ParamDecl::boolean(std::string key) { return make(std::move(key), ParamType::Boolean); }
ParamDecl ParamDecl::string(std::string key) { return make(std::move(key), ParamType::String); }
ParamDecl ParamDecl::choice(std::string key, std::vector<std::string> choices) {
  ParamDecl d = make(std::move(key), ParamType::Choice);
  d.choices = std::move(choices);
  return d;
}
ParamDecl ParamDecl::compound(std::string key, std::string type_text) {
  ParamDecl d = make(std::move(key), ParamType::Compound);
  d.type_text = std::move(type_text);
  return d;
}

std::string ParamDecl::shown_type() const { return type_text.empty() ? to_string(type) : type_text; }

std::string ParamDecl::shown_default() const {
  if (!default_text.empty()) return default_text;
  if (fixed_default.is_null()) return required ? "— (required)" : "—";
  if (fixed_default.is_string()) return "`" + fixed_default.get<std::string>() + "`";
  if (fixed_default.is_boolean()) return fixed_default.get<bool>() ? "`true`" : "`false`";
  return fixed_default.dump();
}

std::string ParamDecl::shown_range() const {
  if (!range_text.empty()) return range_text;
  if (type == ParamType::Integer) return std::to_string(min) + ".." + std::to_string(max);
  if (type == ParamType::Choice) {
    std::string s;
    for (const auto& c : choices) s += (s.empty() ? "`" : ", `") + c + "`";
    return s;
  }
  return "";
}

std::string ParamDecl::expected() const {
  switch (type) {
    case ParamType::Integer: return "an integer from " + std::to_string(min) + " to " + std::to_string(max);
    case ParamType::Number: return "a number in " + range_text;
    case ParamType::Boolean: return "true or false";
    case ParamType::String: return "a string";
    case ParamType::Choice: return spoken_list(choices);
    case ParamType::Compound: return type_text;
  }
  return "";
}

const ParamDecl* ParamSection::find(const std::string& k) const {
  for (const auto& p : params)
    if (p.key == k) return &p;
  return nullptr;
}

bool register_param_section(const ParamSection& section) {
  param_registry().push_back(&section);
  return true;
}

std::vector<const ParamSection*> param_sections() {
  std::vector<const ParamSection*> all = param_registry();
  // Start-up registration runs in link order: sort, so listings do not depend on it.
  std::stable_sort(all.begin(), all.end(), [](const ParamSection* a, const ParamSection* b) {
    if (a->order != b->order) return a->order < b->order;
    if (a->path != b->path) return a->path < b->path;
    if (a->when.always() != b->when.always()) return a->when.always();
    return a->when.equals < b->when.equals;
  });
  return all;
}

std::vector<const ParamSection*> param_sections_at(const std::string& path) {
  std::vector<const ParamSection*> out;
  for (const ParamSection* s : param_sections())
    if (s->path == path) out.push_back(s);
  return out;
}

const ParamDecl* find_param(const std::string& key_path, const ParamSection** section) {
  const auto dot = key_path.rfind('.');
  if (dot == std::string::npos) return nullptr;
  for (const ParamSection* s : param_sections_at(key_path.substr(0, dot)))
    if (const ParamDecl* d = s->find(key_path.substr(dot + 1))) {
      if (section) *section = s;
      return d;
    }
  return nullptr;
}

std::string declared_default(const std::string& key_path) {
  const ParamDecl* d = find_param(key_path);
  if (!d || d->fixed_default.is_null()) throw std::logic_error(key_path + " is not declared with a fixed default");
  return d->fixed_default.is_string() ? d->fixed_default.get<std::string>() : d->fixed_default.dump();
}

nlohmann::ordered_json params_json() {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const ParamSection* s : param_sections())
    for (const ParamDecl& d : s->params) {
      nlohmann::ordered_json j;
      j["key"] = s->path + "." + d.key;
      j["section"] = s->path;
      j["owner"] = s->owner;
      j["when"] = s->when.always() ? nlohmann::ordered_json(nullptr)
                                   : nlohmann::ordered_json(s->when.key_path + ": " + s->when.equals);
      j["type"] = d.shown_type();
      j["default"] = d.shown_default();
      j["fixed_default"] = d.fixed_default;
      j["range"] = d.shown_range();
      if (d.type == ParamType::Integer) {
        j["min"] = d.min;
        j["max"] = d.max;
      }
      if (d.type == ParamType::Choice) j["choices"] = d.choices;
      j["unit"] = d.unit;
      j["required"] = d.required;
      j["echoed"] = d.echoed;
      j["description"] = d.description;
      out.push_back(j);
    }
  return out;
}

std::string params_text() {
  std::ostringstream os;
  for (const ParamSection* s : param_sections()) {
    os << s->path << " (" << s->owner;
    if (!s->when.always()) os << ", when " << s->when.key_path << ": " << s->when.equals;
    os << "): " << s->summary << "\n";
    for (const ParamDecl& d : s->params) {
      os << "  " << s->path << "." << d.key << "  " << d.shown_type();
      const std::string range = d.shown_range();
      if (!range.empty()) os << "; range " << range;
      os << "; default " << d.shown_default();
      if (!d.unit.empty()) os << "; unit " << d.unit;
      os << "\n      " << d.description << "\n";
    }
  }
  return os.str();
}

}  // namespace wormsim

#include "sim/config_reader.hpp"

#include <algorithm>
#include <stdexcept>

#include "sim/did_you_mean.hpp"

namespace wormsim {

namespace {

// "traffic.classes[1].rate" -> /traffic/classes/1/rate: a list entry is an array element.
std::string pointer_token(const std::string& part) {
  const size_t open = part.find('[');
  if (open == std::string::npos || part.back() != ']') return "/" + part;
  return "/" + part.substr(0, open) + "/" + part.substr(open + 1, part.size() - open - 2);
}

nlohmann::ordered_json::json_pointer pointer_to(const std::string& dotted) {
  std::string p;
  size_t start = 0;
  for (size_t dot; (dot = dotted.find('.', start)) != std::string::npos; start = dot + 1)
    p += pointer_token(dotted.substr(start, dot - start));
  return nlohmann::ordered_json::json_pointer(p + pointer_token(dotted.substr(start)));
}

}  // namespace

void ConfigFile::fail(const std::string& path, const std::string& what, const YAML::Node& at) const {
  std::string where = file_ + ": " + path;
  if (from_command_line(path)) where += " (from --set)";
  else if (at.IsDefined() && !at.IsNull() && at.Mark().line >= 0)
    where += " (line " + std::to_string(at.Mark().line + 1) + ")";
  throw ConfigError(where + ": " + what);
}

bool ConfigFile::from_command_line(const std::string& path) const {
  for (const auto& o : overridden_)
    if (path == o || path.rfind(o + ".", 0) == 0 || path.rfind(o + "[", 0) == 0) return true;
  return false;
}

std::string ConfigFile::key(const YAML::Node& k, const std::string& map_path) const {
  if (!k.IsScalar())
    fail(map_path.empty() ? "(top level)" : map_path, "keys must be plain names, not a list or mapping", k);
  return k.Scalar();
}

void ConfigFile::allow_only(const YAML::Node& map, const std::string& path, const std::vector<std::string>& keys) const {
  if (!map) return;
  if (!map.IsMap()) fail(path.empty() ? "(top level)" : path, "expected a mapping of keys", map);
  std::set<std::string> seen;
  std::vector<std::string> sorted = keys;
  std::sort(sorted.begin(), sorted.end());
  for (const auto& kv : map) {
    const std::string k = key(kv.first, path);
    // yaml-cpp keeps the first of repeated keys; a repeated key is almost always a mistake.
    if (!seen.insert(k).second) fail(join(path, k), "key given twice", kv.first);
    if (std::find(sorted.begin(), sorted.end(), k) == sorted.end()) {
      std::string list;
      for (const auto& name : sorted) list += (list.empty() ? "" : ", ") + name;
      fail(join(path, k), "unknown key" + did_you_mean(k, sorted) + " (expected one of: " + list + ")", kv.first);
    }
  }
}

long long ConfigFile::integer(const YAML::Node& n, const std::string& path, long long lo, long long hi) const {
  if (!n.IsScalar()) fail(path, "expected an integer, got a " + kind(n), n);
  long long v = 0;
  try {
    size_t used = 0;
    const std::string text = n.Scalar();
    v = std::stoll(text, &used, 10);
    if (used != text.size()) throw std::invalid_argument(text);
  } catch (const std::exception&) {
    fail(path, "expected an integer, got \"" + n.Scalar() + "\"", n);
  }
  if (v < lo || v > hi)
    fail(path, "expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got " +
                   std::to_string(v), n);
  return v;
}

std::string ConfigFile::string(const YAML::Node& n, const std::string& path) const {
  if (!n.IsScalar()) fail(path, "expected a string, got a " + kind(n), n);
  // A NUL ends the text for every file name and message it would go into.
  if (n.Scalar().find('\0') != std::string::npos) fail(path, "expected text without a NUL character (\\0)", n);
  return n.Scalar();
}

bool ConfigFile::boolean(const YAML::Node& n, const std::string& path) const {
  const std::string s = n.IsScalar() ? n.Scalar() : "";
  if (s == "true") return true;
  if (s == "false") return false;
  fail(path, "expected true or false, got " + (n.IsScalar() ? "\"" + s + "\"" : "a " + kind(n)), n);
}

double ConfigFile::number(const YAML::Node& n, const std::string& path, const std::string& expected) const {
  try {
    if (!n.IsScalar()) throw std::invalid_argument("");
    size_t used = 0;
    const double v = std::stod(n.Scalar(), &used);
    if (used == n.Scalar().size()) return v;
  } catch (const std::exception&) {
  }
  fail(path, "expected " + expected, n);
}

std::string ConfigFile::kind(const YAML::Node& n) {
  if (n.IsMap()) return "mapping";
  if (n.IsSequence()) return "list";
  if (n.IsNull()) return "null";
  return "scalar";
}

bool condition_holds(const ParamCondition& when, const Config& config) {
  if (when.always()) return true;
  const auto ptr = pointer_to(when.key_path);
  return config.values.contains(ptr) && config.values.at(ptr) == when.equals;
}

ConfigSection::ConfigSection(const ConfigFile& file, YAML::Node node, std::string path, Config& config)
    : ConfigSection(file, std::move(node), path, config, path) {}

ConfigSection::ConfigSection(const ConfigFile& file, YAML::Node node, std::string path, Config& config,
                             std::string declared_at)
    : file_(file), node_(std::move(node)), path_(std::move(path)), declared_at_(std::move(declared_at)),
      config_(config) {}

// The instance's root: the declared and the read paths without the trailing
// parts they share ("traffic.hotspot" read at "traffic.classes[1].hotspot" is
// rooted at traffic, read as traffic.classes[1]), so that a subsection's
// conditions on its parent's keys name the parent instance's keys.
ParamCondition ConfigSection::local(const ParamCondition& when) const {
  std::string declared = declared_at_, read = path_;
  for (size_t d, r; (d = declared.rfind('.')) != std::string::npos && (r = read.rfind('.')) != std::string::npos &&
                    declared.compare(d, std::string::npos, read, r, std::string::npos) == 0;) {
    declared.resize(d);
    read.resize(r);
  }
  const std::string prefix = declared + ".";
  if (declared == read || when.key_path.compare(0, prefix.size(), prefix) != 0) return when;
  return {read + "." + when.key_path.substr(prefix.size()), when.equals};
}

std::vector<const ParamSection*> ConfigSection::applying() const {
  std::vector<const ParamSection*> out;
  for (const ParamSection* s : param_sections_at(declared_at_))
    if (condition_holds(local(s->when), config_)) out.push_back(s);
  return out;
}

void ConfigSection::check_keys() const {
  if (!node_ || !node_.IsMap()) return file_.allow_only(node_, path_, {});
  std::vector<std::string> keys;
  for (const ParamSection* s : applying())
    for (const ParamDecl& d : s->params) keys.push_back(d.key);
  // A key that a plug-in declares, given without choosing that plug-in.
  for (const auto& kv : node_) {
    if (!kv.first.IsScalar() || std::find(keys.begin(), keys.end(), kv.first.Scalar()) != keys.end()) continue;
    for (const ParamSection* s : param_sections_at(declared_at_))
      if (s->find(kv.first.Scalar()) && !condition_holds(local(s->when), config_))
        file_.fail(path_of(kv.first.Scalar()),
                   "only meaningful with " + local(s->when).key_path + ": " + s->when.equals +
                       " (a parameter of the " + s->owner + ")",
                   kv.first);
  }
  suggest_conditional_keys(keys);
  file_.allow_only(node_, path_, keys);
}

// A mistyped key that is closest to a key of a plug-in not chosen: the
// suggestion says which choice makes that key apply.
void ConfigSection::suggest_conditional_keys(const std::vector<std::string>& applying_keys) const {
  for (const auto& kv : node_) {
    if (!kv.first.IsScalar()) continue;
    const std::string& typed = kv.first.Scalar();
    if (std::find(applying_keys.begin(), applying_keys.end(), typed) != applying_keys.end()) continue;
    if (!closest_matches(typed, applying_keys).empty()) continue;  // allow_only suggests that one
    for (const ParamSection* s : param_sections_at(declared_at_)) {
      if (condition_holds(local(s->when), config_)) continue;
      std::vector<std::string> names;
      for (const ParamDecl& d : s->params) names.push_back(d.key);
      const std::vector<std::string> close = closest_matches(typed, names);
      if (!close.empty())
        file_.fail(path_of(typed),
                   "unknown key (did you mean " + close.front() + "? a parameter of the " + s->owner +
                       ", only with " + local(s->when).key_path + ": " + s->when.equals + ")",
                   kv.first);
    }
  }
}

const ParamDecl& ConfigSection::decl(const std::string& key) const {
  for (const ParamSection* s : applying())
    if (const ParamDecl* d = s->find(key)) return *d;
  // A reader asking for a key nobody declared is a bug in wormsim, not in the config.
  throw std::logic_error("config key " + path_of(key) + " is read but not declared");
}

void ConfigSection::record(const std::string& key, const nlohmann::ordered_json& value) {
  config_.values[pointer_to(path_of(key))] = value;
}

void ConfigSection::missing(const std::string& key, const std::string& what) const {
  const ParamDecl& d = decl(key);
  const std::string words =
      !what.empty() ? what : d.type == ParamType::Choice ? "expected " + d.expected() : d.description;
  file_.fail(path_of(key), "missing (" + words + ")");
}

YAML::Node ConfigSection::given_or_missing(const std::string& key) const {
  const YAML::Node n = node_[key];
  if (!n && decl(key).fixed_default.is_null()) missing(key);
  return n;
}

long long ConfigSection::integer(const std::string& key) {
  const ParamDecl& d = decl(key);
  const YAML::Node n = given_or_missing(key);
  const long long v = n ? file_.integer(n, path_of(key), d.min, d.max) : d.fixed_default.get<long long>();
  record(key, v);
  return v;
}

bool ConfigSection::boolean(const std::string& key) {
  const ParamDecl& d = decl(key);
  const YAML::Node n = given_or_missing(key);
  const bool v = n ? file_.boolean(n, path_of(key)) : d.fixed_default.get<bool>();
  record(key, v);
  return v;
}

std::string ConfigSection::string(const std::string& key) {
  const ParamDecl& d = decl(key);
  const YAML::Node n = given_or_missing(key);
  const std::string v = n ? file_.string(n, path_of(key)) : d.fixed_default.get<std::string>();
  record(key, v);
  return v;
}

std::string ConfigSection::choice(const std::string& key) {
  const ParamDecl& d = decl(key);
  const YAML::Node n = given_or_missing(key);
  const std::string v = n ? file_.string(n, path_of(key)) : d.fixed_default.get<std::string>();
  if (std::find(d.choices.begin(), d.choices.end(), v) == d.choices.end())
    fail(key, "expected " + d.expected() + ", got \"" + v + "\"" + did_you_mean(v, d.choices), n);
  record(key, v);
  return v;
}

}  // namespace wormsim

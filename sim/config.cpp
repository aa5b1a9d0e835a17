#include "sim/config.hpp"

#include <filesystem>
#include <optional>
#include <utility>
#include <set>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "schedules/input_file.hpp"
#include "sim/config_reader.hpp"
#include "sim/yaml_document.hpp"

namespace wormsim {

namespace {

namespace fs = std::filesystem;

// Parses a --set value exactly as the same text would parse as a key's value
// in a config file: placed, indented, under a key. A bare YAML::Load would
// take the first node and drop the rest ("[8,8],[4,4]", "[8,8] foo").
YAML::Node parse_override_value(const std::string& text) {
  std::string doc = "value:\n  ";
  for (char c : text) {
    doc += c;
    if (c == '\n') doc += "  ";
  }
  return YAML::Load(doc)["value"];
}

// "classes[1]" in a --set path: the list `classes` of `map` and the index of
// one of its existing entries (nothing when the key has no index). Entries are
// not created: a list's length is the file's.
std::optional<std::pair<YAML::Node, size_t>> list_index(const YAML::Node& map, const std::string& key,
                                                        const std::string& text) {
  const size_t open = key.find('[');
  if (open == std::string::npos) return std::nullopt;
  const std::string name = key.substr(0, open), digits = key.substr(open + 1, key.size() - open - 2);
  if (key.back() != ']' || name.empty() || digits.empty() || digits.size() > 6 ||
      digits.find_first_not_of("0123456789") != std::string::npos)
    throw ConfigError("--set " + text + ": expected KEY[INDEX] in the path, got \"" + key + "\"");
  const YAML::Node list = map[name];
  const size_t index = std::stoul(digits);
  if (!list || !list.IsSequence() || index >= list.size())
    throw ConfigError("--set " + text + ": " + name + " has no entry " + digits + " (--set changes a list's existing " +
                      "entries; the list has " + std::to_string(list && list.IsSequence() ? list.size() : 0) +
                      ")");
  return std::make_pair(list, index);
}

// The entry of "classes[1]" in the middle of a path, a mapping to set inside.
std::optional<YAML::Node> list_entry(const YAML::Node& map, const std::string& key, const std::string& text) {
  const auto at = list_index(map, key, text);
  if (!at) return std::nullopt;
  YAML::Node entry = at->first[at->second];
  if (!entry.IsMap()) throw ConfigError("--set " + text + ": " + key + " is not a mapping, cannot set inside it");
  return entry;
}

// Applies "a.b.c=value" to the tree, creating maps on the way.
void apply_override(YAML::Node root, const std::string& text, ConfigFile& r) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError("--set " + text + ": expected key.path=value");
  const std::string path = text.substr(0, eq);
  YAML::Node value;
  try {
    value = parse_override_value(text.substr(eq + 1));
  } catch (const YAML::Exception& e) {
    throw ConfigError("--set " + text + ": value is not valid YAML: " + e.msg);
  }
  std::vector<std::string> keys;
  std::stringstream ss(path);
  for (std::string k; std::getline(ss, k, '.');) {
    if (k.empty()) throw ConfigError("--set " + text + ": empty key in path \"" + path + "\"");
    keys.push_back(k);
  }
  // yaml-cpp nodes are handles: walk by reassigning a reference chain.
  r.mark_overridden(path);
  std::vector<YAML::Node> chain{root};
  for (size_t i = 0; i + 1 < keys.size(); ++i) {
    if (const std::optional<YAML::Node> entry = list_entry(chain.back(), keys[i], text)) {
      chain.push_back(*entry);
      continue;
    }
    YAML::Node next = chain.back()[keys[i]];
    if (next && !next.IsMap())
      throw ConfigError("--set " + text + ": " + keys[i] + " is not a mapping, cannot set " + path);
    if (!next) {
      chain.back()[keys[i]] = YAML::Node(YAML::NodeType::Map);
      next = chain.back()[keys[i]];
    }
    chain.push_back(next);
  }
  if (const auto at = list_index(chain.back(), keys.back(), text)) {  // "dims[1]=8": one entry of a list
    if (value.IsNull()) throw ConfigError("--set " + text + ": a list entry cannot be removed (set the whole list)");
    YAML::Node list = at->first;
    list[at->second] = value;
    return;
  }
  if (value.IsNull()) {
    chain.back().remove(keys.back());  // key=null removes a key (back to its default)
    return;
  }
  chain.back()[keys.back()] = value;
  // Alternatives (schedule.file and schedule.algorithm): setting one drops the other.
  if (const ParamDecl* d = find_param(path); d && !d->excludes.empty()) chain.back().remove(d->excludes);
}

}  // namespace

namespace {
// A config tree parsed ahead by preparse_config, for one load_config of the same text.
struct Preparsed {
  std::string text;
  std::optional<YAML::Node> root;  // an optional: assigning to a Node would overwrite the tree it refers to
};
Preparsed& preparsed() {
  static Preparsed p;
  return p;
}

// The tree of a config text: the preparsed one if it is of this text (taken:
// load_config changes the tree it gets), else parsed now.
YAML::Node parse_config_text(const std::string& text) {
  Preparsed& p = preparsed();
  if (!p.root || p.text != text) return load_single_document(text);
  YAML::Node root = *p.root;
  p.root.reset();
  p.text.clear();
  return root;
}
}  // namespace

void preparse_config(const std::string& path) {
  Preparsed& p = preparsed();
  p.root.reset();
  try {
    p.text = read_input_file(path);
    p.root.emplace(load_single_document(p.text));
  } catch (const std::exception&) {  // load_config reports it, where it belongs
    p.text.clear();
    p.root.reset();
  }
}

Config load_config(const std::string& path, const std::vector<std::string>& overrides) {
  Config c;
  c.path = path;
  ConfigFile r(path);
  YAML::Node root;
  std::string text;
  try {
    text = read_input_file(path);
  } catch (const InputFileError& e) {
    throw ConfigError(path + ": cannot open config file: " + e.what());
  }
  try {
    root = parse_config_text(text);
  } catch (const YAML::ParserException& e) {
    throw ConfigError(path + ": not valid YAML (line " + std::to_string(e.mark.line + 1) + "): " + e.msg);
  } catch (const YAML::Exception& e) {
    throw ConfigError(path + ": not valid YAML (line " + std::to_string(e.mark.line + 1) + "): " + e.msg);
  } catch (const std::exception&) {
    throw ConfigError(path + ": cannot read config file (is it a folder?)");
  }
  if (root.IsNull()) root = YAML::Node(YAML::NodeType::Map);
  if (!root.IsMap()) r.fail("(top level)", "expected a mapping with network, schedule, ...", root);
  for (const auto& o : overrides) apply_override(root, o, r);
  try {
    std::vector<std::string> sections;
    for (const ParamSection* s : param_sections())
      if (s->path.find('.') == std::string::npos && s->when.always()) sections.push_back(s->path);
    r.allow_only(root, "", sections);
    const std::string base = fs::path(path).parent_path().string();
    auto section = [&](const std::string& name) { return ConfigSection(r, root[name], name, c); };
    ConfigSection network = section("network"), timing = section("timing"), schedule = section("schedule"),
                  traffic = section("traffic"), run = section("run"), output = section("output");
    read_network(network, c);
    read_timing(timing, c);
    read_schedule(schedule, c, base);
    read_traffic(traffic, c);
    read_schedule_repeat(schedule, c);
    read_run(run, c);
    for (size_t i = 0; i < c.classes.size(); ++i) {
      c.classes[i].spec.seed = class_seed(c.seed, i);
      c.classes[i].spec.cycles = c.traffic_cycles;
    }
    if (!c.has_schedule && !c.has_traffic)
      r.fail("schedule", "missing: a run needs a schedule (file: PATH or algorithm: NAME), background traffic, or both");
    read_output(output, c);
  } catch (const YAML::Exception& e) {
    throw ConfigError(path + ": " + e.msg);
  }
  return c;
}

}  // namespace wormsim

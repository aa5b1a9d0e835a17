// Reading one config section by its declarations (decl/param.hpp): the keys a
// section accepts, their types, ranges, defaults and error messages all come
// from the ParamSections registered for its path. Used by the section readers
// (sim/config_*.cpp); load_config (sim/config.cpp) calls them in order.
#pragma once

#include <set>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "decl/param.hpp"
#include "sim/config.hpp"

namespace wormsim {

// Errors naming the file, the key path and where the value came from.
class ConfigFile {
 public:
  explicit ConfigFile(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& path, const std::string& what, const YAML::Node& at = YAML::Node()) const;

  // Paths set with --set: their line numbers would point into the --set text, not the file.
  void mark_overridden(const std::string& path) { overridden_.insert(path); }
  bool from_command_line(const std::string& path) const;

  // A mapping key as text; YAML also allows lists and mappings as keys (`? [a, b] : 1`).
  std::string key(const YAML::Node& k, const std::string& map_path) const;
  // Refuses keys not in `keys` (with "did you mean") and repeated keys.
  void allow_only(const YAML::Node& map, const std::string& path, const std::vector<std::string>& keys) const;

  long long integer(const YAML::Node& n, const std::string& path, long long lo, long long hi) const;
  std::string string(const YAML::Node& n, const std::string& path) const;
  bool boolean(const YAML::Node& n, const std::string& path) const;
  // A floating-point scalar; `expected` describes the allowed values in the error.
  double number(const YAML::Node& n, const std::string& path, const std::string& expected) const;

  static std::string join(const std::string& a, const std::string& b) { return a.empty() ? b : a + "." + b; }
  static std::string kind(const YAML::Node& n);

 private:
  std::string file_;
  std::set<std::string> overridden_;
};

// One section of the config (`network`, `traffic.hotspot`...) read through its
// declarations. Every value read is recorded in Config::values, from which the
// summary.json echo is written (sim/config_echo.hpp).
class ConfigSection {
 public:
  ConfigSection(const ConfigFile& file, YAML::Node node, std::string path, Config& config);
  // One instance of a section declared at `declared_at`, read at `path` (an
  // entry of a list, "traffic.classes[1]"): its keys are the declared ones, its
  // errors and recorded values are named by `path`, and the conditions of its
  // plug-in sections refer to its own keys (traffic.injection is read as
  // traffic.classes[1].injection).
  ConfigSection(const ConfigFile& file, YAML::Node node, std::string path, Config& config, std::string declared_at);

  bool given() const { return static_cast<bool>(node_); }
  bool has(const std::string& key) const { return static_cast<bool>(node_[key]); }
  YAML::Node at(const std::string& key) const { return node_[key]; }
  const YAML::Node& node() const { return node_; }
  std::string path_of(const std::string& key) const { return ConfigFile::join(path_, key); }
  const ConfigFile& file() const { return file_; }

  // Refuses keys that no section applying here declares ("did you mean ...");
  // a key declared by a plug-in that is not chosen is named with its condition.
  void check_keys() const;

  // Typed reads by declaration: the given value (checked) or the declared
  // default; a missing key without a default is an error. Each records its value.
  long long integer(const std::string& key);
  bool boolean(const std::string& key);
  std::string choice(const std::string& key);
  std::string string(const std::string& key);
  // A key whose checks the component makes itself (Compound, or ranges that
  // depend on other keys): just its declaration, checked to exist.
  const ParamDecl& decl(const std::string& key) const;

  // Records the effective value of a key for the config echo.
  void record(const std::string& key, const nlohmann::ordered_json& value);
  // "missing (WHAT)" for a required key; `what` defaults to the declaration's words.
  [[noreturn]] void missing(const std::string& key, const std::string& what = "") const;
  [[noreturn]] void fail(const std::string& key, const std::string& what, const YAML::Node& at) const {
    file_.fail(path_of(key), what, at);
  }

 private:
  std::vector<const ParamSection*> applying() const;
  // A section's condition as it applies to this instance.
  ParamCondition local(const ParamCondition& when) const;
  void suggest_conditional_keys(const std::vector<std::string>& applying_keys) const;
  YAML::Node given_or_missing(const std::string& key) const;

  const ConfigFile& file_;
  YAML::Node node_;
  std::string path_;
  std::string declared_at_;  // where its keys are declared (path_ unless an instance)
  Config& config_;
};

// Whether a conditional section applies to the values read so far.
bool condition_holds(const ParamCondition& when, const Config& config);

// The section readers, one per component (sim/config_<section>.cpp).
void read_network(ConfigSection& s, Config& c);
void read_timing(ConfigSection& s, Config& c);
void read_schedule(ConfigSection& s, Config& c, const std::string& base_dir);
void read_traffic(ConfigSection& s, Config& c);
void read_schedule_repeat(ConfigSection& schedule, Config& c);  // after read_traffic
void read_run(ConfigSection& s, Config& c);
void read_output(ConfigSection& s, Config& c);

}  // namespace wormsim

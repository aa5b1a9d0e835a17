// Config parameters declared once (docs/extending.md, "Declaring parameters and
// statistics"). A component declares each key it reads -- type, default, range
// or allowed values, unit, one-line description -- in a ParamSection next to
// its reader. The config reader's checks and messages, `--set`, the config echo
// in summary.json, `wormsim config keys` and the drift test of
// docs/config-reference.md all read these declarations.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace wormsim {

enum class ParamType {
  Integer,   // decimal literal in [min, max]
  Number,    // floating point; range_text says which values
  Boolean,   // exactly true or false
  String,    // any text (a path, a name checked elsewhere)
  Choice,    // one of `choices`
  Compound,  // node, list, mapping...: read by the component, described by type_text
};

std::string to_string(ParamType type);

struct ParamDecl {
  std::string key;       // name inside its section ("vcs")
  ParamType type = ParamType::String;
  std::string type_text;     // the type as docs show it; derived from `type` unless set
  nlohmann::json fixed_default;  // the value when the key is absent; null when required or computed
  std::string default_text;  // the default as docs show it; derived from fixed_default unless set
  long long min = 0, max = 0;  // Integer
  std::vector<std::string> choices;  // Choice
  std::string range_text;    // the range as docs show it; derived from min/max or choices unless set
  std::string unit;          // "cycles", "flits", ... or empty
  std::string description;   // one line
  bool required = false;
  bool echoed = true;        // appears in summary.json's config echo
  std::string excludes;      // a key of the same section that cannot be given with this one

  // Builders, read as a sentence at the declaration: integer("vcs", 1, 16).unit("VCs").describe("...").
  static ParamDecl integer(std::string key, long long min, long long max);
  static ParamDecl number(std::string key, std::string range_text);
  static ParamDecl boolean(std::string key);
  static ParamDecl string(std::string key);
  static ParamDecl choice(std::string key, std::vector<std::string> choices);
  static ParamDecl compound(std::string key, std::string type_text);

  ParamDecl& by_default(nlohmann::json value) { fixed_default = std::move(value); return *this; }
  ParamDecl& default_is(std::string text) { default_text = std::move(text); return *this; }
  ParamDecl& range(std::string text) { range_text = std::move(text); return *this; }
  ParamDecl& in(std::string u) { unit = std::move(u); return *this; }
  ParamDecl& describe(std::string text) { description = std::move(text); return *this; }
  ParamDecl& must_be_given() { required = true; return *this; }
  ParamDecl& not_echoed() { echoed = false; return *this; }
  ParamDecl& excluding(std::string other) { excludes = std::move(other); return *this; }

  // What the docs and `config keys` show.
  std::string shown_type() const;
  std::string shown_default() const;
  std::string shown_range() const;
  // "an integer from 1 to 16", "one of paper, best"... for error messages.
  std::string expected() const;
};

// When a conditional section applies: the key at `key_path` has the value `equals`.
struct ParamCondition {
  std::string key_path;  // "schedule.algorithm"
  std::string equals;    // "eye"
  bool always() const { return key_path.empty(); }
};

struct ParamSection {
  std::string path;    // where its keys live: "network", "traffic.hotspot", "schedule.params"
  std::string owner;   // who reads them: "network", "eye generator", "concentrated-mesh topology"
  std::string summary;  // one line
  ParamCondition when;  // a plug-in's keys apply only when it is chosen
  int order = 0;        // place in listings and the config echo (top-level sections)
  std::vector<ParamDecl> params;

  const ParamDecl* find(const std::string& key) const;
};

// Every declared section, in listing order (by `order`, then path, then
// registration order).
std::vector<const ParamSection*> param_sections();
// The sections at `path` (unconditional ones and every plug-in's).
std::vector<const ParamSection*> param_sections_at(const std::string& path);
// The declaration of a full key path ("network.vcs"), or nullptr; `section` receives its section.
const ParamDecl* find_param(const std::string& key_path, const ParamSection** section = nullptr);
// A key's fixed default as config text ("barrier", "true", "4") for code that
// needs it when its section is absent; throws std::logic_error if the key is
// not declared with a fixed default.
std::string declared_default(const std::string& key_path);

// Adds a section to the registry; WORMSIM_DECLARE_PARAMS does it at start-up.
// The section must outlive the program (a static).
bool register_param_section(const ParamSection& section);

// The declarations as JSON (`wormsim config keys --json`): a list of
// {key, section, owner, when, type, default, range, unit, required, echoed, description}.
nlohmann::ordered_json params_json();
// The declarations as text (`wormsim config keys`): one line per key.
std::string params_text();

}  // namespace wormsim

#define WORMSIM_PARAMS_CONCAT_(a, b) a##b
#define WORMSIM_PARAMS_CONCAT(a, b) WORMSIM_PARAMS_CONCAT_(a, b)
// Registers a `static const ParamSection` defined in the same file. The file
// must be linked for another reason (its reader is called), as static
// libraries drop unreferenced objects.
#define WORMSIM_DECLARE_PARAMS(section)                              \
  [[maybe_unused]] static const bool WORMSIM_PARAMS_CONCAT(wormsim_params_registered_, __LINE__) = \
      ::wormsim::register_param_section(section)

#include "sim/batch_points.hpp"

#include <filesystem>
#include <map>
#include <sstream>
#include <system_error>

#include <nlohmann/json.hpp>

#include "schedules/input_file.hpp"
#include "schedules/json_repeated_key.hpp"
#include "sim/config.hpp"
#include "sim/did_you_mean.hpp"

namespace wormsim {

namespace {

using nlohmann::json;

// The folder a point's "out" names, however spelt (./p, p/, x/../p, an
// absolute path, a link): two spellings of one folder are one folder.
std::string folder_key(const std::string& out) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::absolute(out, ec), ec);
  if (ec) p = fs::absolute(out, ec).lexically_normal();
  if (!p.has_filename() && p.has_parent_path()) p = p.parent_path();
  return p.string();
}

BatchPoint parse_point(const std::string& where, const std::string& text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw ConfigError(where + ": not a JSON object (" + e.what() + ")");
  }
  if (!j.is_object()) throw ConfigError(where + ": expected a JSON object {\"out\": FOLDER, \"set\": [OVERRIDES]}");
  if (const std::string twice = first_repeated_key(text); !twice.empty())
    throw ConfigError(where + ": key \"" + twice + "\" given twice (give each key once)");
  static const std::vector<std::string> keys{"out", "set"};
  for (const auto& [key, value] : j.items())
    if (key != "out" && key != "set")
      throw ConfigError(where + ": unknown key \"" + key + "\"" + did_you_mean(key, keys) + "; a point has \"out\" and \"set\"");
  BatchPoint p;
  const auto out = j.find("out");
  if (out == j.end() || !out->is_string() || out->get<std::string>().empty())
    throw ConfigError(where + ": \"out\": expected the point's output folder, a non-empty string");
  p.out = out->get<std::string>();
  if (const auto set = j.find("set"); set != j.end()) {
    if (!set->is_array()) throw ConfigError(where + ": \"set\": expected a list of \"key.path=value\" strings");
    for (size_t i = 0; i < set->size(); ++i) {
      const json& s = (*set)[i];
      if (!s.is_string() || s.get<std::string>().find('=') == std::string::npos)
        throw ConfigError(where + ": \"set\"[" + std::to_string(i) + "]: expected a \"key.path=value\" string, as --set takes");
      p.overrides.push_back(s.get<std::string>());
    }
  }
  return p;
}

}  // namespace

std::vector<BatchPoint> read_batch_points(const std::string& path) {
  std::string text;
  try {
    text = read_input_file(path);
  } catch (const InputFileError& e) {
    throw ConfigError(path + ": cannot read the points file: " + e.what());
  }
  std::vector<BatchPoint> points;
  std::map<std::string, int> folders;  // folder_key(out) -> line
  std::istringstream in(text);
  int line = 0;
  for (std::string l; std::getline(in, l);) {
    ++line;
    if (l.find_first_not_of(" \t\r") == std::string::npos) continue;
    const std::string where = path + ":" + std::to_string(line);
    BatchPoint p = parse_point(where, l);
    p.line = line;
    const auto [it, fresh] = folders.emplace(folder_key(p.out), line);
    if (!fresh)
      throw ConfigError(where + ": \"out\": " + p.out + " is also the folder of line " + std::to_string(it->second) +
                        "; each point needs a folder of its own");
    points.push_back(std::move(p));
  }
  if (points.empty()) throw ConfigError(path + ": no point (expected one JSON object per line: {\"out\": FOLDER, \"set\": [...]})");
  return points;
}

}  // namespace wormsim

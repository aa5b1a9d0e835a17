// Look-ups shared by the registries of patterns and injection processes: a
// registry is a vector of entries, each with a `name`.
#pragma once

#include <string>
#include <vector>

namespace wormsim {

template <typename Entry>
const Entry* find_named(const std::vector<Entry>& registry, const std::string& name) {
  for (const Entry& e : registry)
    if (e.name == name) return &e;
  return nullptr;
}

template <typename Entry>
std::vector<std::string> names_of(const std::vector<Entry>& registry) {
  std::vector<std::string> names;
  for (const Entry& e : registry) names.push_back(e.name);
  return names;
}

}  // namespace wormsim

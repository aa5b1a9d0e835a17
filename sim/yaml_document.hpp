#pragma once

#include <string>

#include <yaml-cpp/yaml.h>

namespace wormsim {

// The one YAML document of `text` (a null node for an empty text). Throws
// YAML::ParserException, at the line of its first node, if a second document
// follows: a config file holds one, and a second was dropped without a word.
YAML::Node load_single_document(const std::string& text);

}  // namespace wormsim

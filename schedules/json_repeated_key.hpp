#pragma once

#include <string>

namespace wormsim {

// The first key repeated within one object of `text` (valid JSON), or "" if
// none: nlohmann keeps the last of repeated keys, and a repeated key is almost
// always a mistake.
std::string first_repeated_key(const std::string& text);

}  // namespace wormsim

// Writes a file so that readers see either the old content or the complete new
// one, never a half-written file: write a temporary file in the same folder,
// flush it to disk, then rename it over the target.
#pragma once

#include <string>

namespace wormsim {

// Throws std::runtime_error naming the path if any part fails.
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace wormsim

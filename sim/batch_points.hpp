// The points file of `wormsim batch` (docs/sweeps.md, "Batches"): JSON lines,
// one point per line, each an object
//   {"out": "FOLDER", "set": ["key.path=value", ...]}
// "out" (required) is the point's output folder, as `run --out`; "set"
// (optional) its overrides, as `run --set`, in order. Blank lines are skipped.
// Each point writes exactly what `wormsim run BASE --set ... --out FOLDER`
// would write.
#pragma once

#include <string>
#include <vector>

namespace wormsim {

struct BatchPoint {
  int line = 0;  // 1-based line of the points file
  std::string out;
  std::vector<std::string> overrides;
};

// Reads and checks a points file. Throws ConfigError naming the file, the line,
// the key and what was expected (also for a folder two points share, and for a
// file without a point).
std::vector<BatchPoint> read_batch_points(const std::string& path);

}  // namespace wormsim

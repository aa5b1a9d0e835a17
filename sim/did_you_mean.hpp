// "did you mean ...?" for a mistyped key or command: the candidates closest to
// what was typed, by edit distance.
#pragma once

#include <string>
#include <vector>

namespace wormsim {

// The candidates within a small edit distance of `typed` (at most a third of
// its length, at least 1, at most 3), closest first; ties keep their order.
std::vector<std::string> closest_matches(const std::string& typed, const std::vector<std::string>& candidates);

// " (did you mean A?)", " (did you mean A or B?)", or "" when nothing is close.
std::string did_you_mean(const std::string& typed, const std::vector<std::string>& candidates);

}  // namespace wormsim

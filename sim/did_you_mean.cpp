#include "sim/did_you_mean.hpp"

#include <algorithm>
#include <cctype>

namespace wormsim {

namespace {

// Damerau-Levenshtein (optimal string alignment) distance, case-insensitive:
// a swapped pair of letters is one typo, as people make them.
size_t edit_distance(const std::string& a, const std::string& b) {
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<size_t>> d(n + 1, std::vector<size_t>(m + 1));
  for (size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (size_t j = 0; j <= m; ++j) d[0][j] = j;
  auto same = [](char x, char y) { return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y)); };
  for (size_t i = 1; i <= n; ++i)
    for (size_t j = 1; j <= m; ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (same(a[i - 1], b[j - 1]) ? 0 : 1)});
      if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

}  // namespace

std::vector<std::string> closest_matches(const std::string& typed, const std::vector<std::string>& candidates) {
  constexpr size_t kMaxDistance = 3;
  const size_t limit = std::min(kMaxDistance, std::max<size_t>(1, typed.size() / 3));
  std::vector<std::pair<size_t, std::string>> scored;
  for (const auto& c : candidates) {
    const size_t d = edit_distance(typed, c);
    if (d <= limit) scored.emplace_back(d, c);
  }
  std::stable_sort(scored.begin(), scored.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (const auto& [d, c] : scored)
    if (d == scored.front().first) out.push_back(c);
  return out;
}

std::string did_you_mean(const std::string& typed, const std::vector<std::string>& candidates) {
  const auto best = closest_matches(typed, candidates);
  if (best.empty()) return "";
  std::string s = " (did you mean " + best[0];
  for (size_t i = 1; i < best.size(); ++i) s += (i + 1 == best.size() ? " or " : ", ") + best[i];
  return s + "?)";
}

}  // namespace wormsim

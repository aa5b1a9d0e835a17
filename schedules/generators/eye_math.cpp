#include "schedules/generators/eye_math.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace wormsim::eye_math {

namespace {

int64_t pow2(int e) {
  if (e < 0 || e > 61) throw std::out_of_range("eye_math: 2^" + std::to_string(e) + " does not fit");
  return int64_t{1} << e;
}

int64_t minus_one_pow(int k) { return k % 2 == 0 ? 1 : -1; }

// The closed forms are fractions whose numerators the papers' derivations make
// divisible; a remainder would mean the formula was transcribed wrongly.
int64_t exact_div(int64_t num, int64_t den, const char* what) {
  if (den == 0 || num % den != 0)
    throw std::logic_error(std::string("eye_math: ") + what + " is not an integer");
  return num / den;
}

void require_k(int k, int min_k, int max_k, const char* what) {
  if (k < min_k || k > max_k)
    throw std::out_of_range(std::string("eye_math: ") + what + " needs " + std::to_string(min_k) +
                            " <= k <= " + std::to_string(max_k) + ", got " + std::to_string(k));
}

}  // namespace

int64_t eye_square_side(int k) {
  require_k(k, 1, 60, "a_k");
  return exact_div(pow2(k) - minus_one_pow(k), 3, "a_k");
}

int64_t eye_square_side_recursive(int k) {
  require_k(k, 1, 60, "a_k");
  int64_t a = 1;
  for (int j = 2; j <= k; ++j) a = pow2(j - 1) - a;
  return a;
}

EyeCoordinates eye_coordinates(int k) {
  require_k(k, 0, 60, "eye coordinates");
  // x = (2^(k+1) + (-1)^k)/6 - 1/2 = (2^(k+1) + (-1)^k - 3) / 6, likewise for upper.
  const int64_t s = minus_one_pow(k);
  return {exact_div(pow2(k + 1) + s - 3, 6, "x_k(1)"), exact_div(pow2(k + 2) - s - 3, 6, "x_k(2)")};
}

EyeCoordinates eye_coordinates_recursive(int k) {
  require_k(k, 0, 60, "eye coordinates");
  EyeCoordinates e{0, 0};  // a single node is its own eye
  for (int j = 1; j <= k; ++j) {
    const int64_t half = pow2(j - 1);
    // Candidates: the lower half's eyes {lower, upper}, the upper half's the same
    // shifted by half. The centre is (2^j - 1)/2, so in the lower half the larger
    // coordinate is the closer, in the upper half the smaller one.
    e = EyeCoordinates{e.upper, half + e.lower};
  }
  return e;
}

std::vector<std::vector<int>> eyes_by_definition(int k, int d) {
  require_k(k, 1, 20, "eyes_by_definition");
  if (d < 1 || d > 6) throw std::out_of_range("eye_math: eyes_by_definition needs 1 <= d <= 6");
  // Level 1: every node of the 2 x ... x 2 unit mesh.
  std::vector<std::vector<int>> eyes;
  for (int mask = 0; mask < (1 << d); ++mask) {
    std::vector<int> c(d);
    for (int i = 0; i < d; ++i) c[i] = (mask >> i) & 1;
    eyes.push_back(c);
  }
  for (int j = 2; j <= k; ++j) {
    const int half = 1 << (j - 1);
    // Candidates with their doubled squared distance to the centre (2^j - 1)/2,
    // doubled so that everything stays integral.
    std::vector<std::pair<int64_t, std::vector<int>>> candidates;
    for (int sub = 0; sub < (1 << d); ++sub) {
      for (const auto& e : eyes) {
        std::vector<int> c(d);
        int64_t dist2 = 0;
        for (int i = 0; i < d; ++i) {
          c[i] = e[i] + ((sub >> i) & 1) * half;
          const int64_t off = 2 * c[i] - ((1 << j) - 1);
          dist2 += off * off;
        }
        candidates.emplace_back(dist2, c);
      }
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    const size_t keep = size_t{1} << d;
    // The definition only makes sense if the cut is not a tie.
    if (candidates[keep - 1].first == candidates[keep].first)
      throw std::logic_error("eye_math: the closest eyes to the centre are not unique");
    eyes.clear();
    for (size_t i = 0; i < keep; ++i) eyes.push_back(candidates[i].second);
  }
  auto node_id = [k](const std::vector<int>& c) {
    int64_t id = 0;
    for (size_t i = c.size(); i-- > 0;) id = (id << k) + c[i];
    return id;
  };
  std::sort(eyes.begin(), eyes.end(),
            [&](const auto& a, const auto& b) { return node_id(a) < node_id(b); });
  return eyes;
}

int64_t optimal_tcd_2d(int k) {
  require_k(k, 1, 29, "2D Eq. 10");
  return exact_div(3 * pow2(2 * k + 1) - minus_one_pow(k), 5, "2D Eq. 10") - pow2(k);
}

int64_t corner_tcd_2d(int k) {
  require_k(k, 1, 28, "2D Eq. 9");
  // Times 30: 36 * 4^k + 40 * 2^k - 60k - (-1)^k - 75.
  const int64_t num = 36 * pow2(2 * k) + 40 * pow2(k) - 60 * int64_t{k} - minus_one_pow(k) - 75;
  return exact_div(num, 30, "2D Eq. 9");
}

int64_t corner_tcd_2d_recursive(int k) {
  require_k(k, 1, 28, "2D Eq. 8");
  int64_t md = 3;
  for (int j = 2; j <= k; ++j)
    md = 5 * pow2(j - 1) - 2 - 2 * eye_square_side(j - 1) + md + 3 * optimal_tcd_2d(j - 1);
  return md;
}

int64_t optimal_tcd_3d(int k) {
  require_k(k, 1, 19, "3D Eq. 13");
  return exact_div(7 * (pow2(3 * k + 2) - minus_one_pow(k) - 3 * pow2(k)), 27, "3D Eq. 13");
}

int64_t optimal_tcd(int k, int d) {
  if (d < 2) throw std::out_of_range("eye_math: 2D Eq. 13 needs d >= 2 (its denominator vanishes at d = 1)");
  if (k < 1 || d * (k + 1) > 56) throw std::out_of_range("eye_math: 2D Eq. 13 out of range");
  const int64_t p = pow2(d);
  const int64_t q = pow2(d - 1) - 1;
  const int64_t bracket = 3 * pow2(d * (k + 1) - 1) - minus_one_pow(k) * q - pow2(k) * (p + 1);
  return exact_div((p - 1) * bracket, 3 * (p + 1) * q, "2D Eq. 13");
}

int64_t optimal_tcd_recursive(int k, int d) {
  if (d < 1 || k < 1 || d * k > 60) throw std::out_of_range("eye_math: 2D Eq. 12 out of range");
  const int64_t p = pow2(d);
  int64_t md = p - 1;  // Eq. 11: one step per dimension in the unit mesh
  for (int j = 2; j <= k; ++j) md = (p - 1) * eye_square_side(j) + p * md;
  return md;
}

}  // namespace wormsim::eye_math

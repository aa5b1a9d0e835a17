// Closed forms of Cang & Wu against their recursions and published values.
#include <gtest/gtest.h>

#include <algorithm>

#include "schedules/generators/eye_math.hpp"

using namespace wormsim::eye_math;

TEST(EyeMath, EyeSquareSideClosedFormMatchesRecursionAndPaper) {
  // Published in the 3-D paper, section 2.1: a_1..a_5 = 1, 1, 3, 5, 11.
  const std::vector<int64_t> published{1, 1, 3, 5, 11};
  for (int k = 1; k <= 5; ++k) EXPECT_EQ(eye_square_side(k), published[k - 1]) << "k=" << k;
  for (int k = 1; k <= 40; ++k) EXPECT_EQ(eye_square_side(k), eye_square_side_recursive(k)) << "k=" << k;
}

TEST(EyeMath, EyeCoordinatesClosedFormMatchesRecursiveDefinition) {
  // Published: eyes of 2x2 at 0/1, of 4x4 at 1/2, of 8x8 at 2/5 (3-D paper, 2.1).
  EXPECT_EQ(eye_coordinates(1).lower, 0);
  EXPECT_EQ(eye_coordinates(1).upper, 1);
  EXPECT_EQ(eye_coordinates(2).lower, 1);
  EXPECT_EQ(eye_coordinates(2).upper, 2);
  EXPECT_EQ(eye_coordinates(3).lower, 2);
  EXPECT_EQ(eye_coordinates(3).upper, 5);
  for (int k = 0; k <= 40; ++k) {
    const auto closed = eye_coordinates(k), rec = eye_coordinates_recursive(k);
    EXPECT_EQ(closed.lower, rec.lower) << "k=" << k;
    EXPECT_EQ(closed.upper, rec.upper) << "k=" << k;
    // Symmetric about the centre, and the eye-square side is a_k.
    EXPECT_EQ(closed.lower + closed.upper, (int64_t{1} << k) - 1) << "k=" << k;
    if (k >= 1) {
      EXPECT_EQ(closed.upper - closed.lower, eye_square_side(k)) << "k=" << k;
    }
  }
}

TEST(EyeMath, DefinitionGivesTheProductOfTheClosedFormCoordinates) {
  for (int d = 1; d <= 4; ++d) {
    for (int k = 1; k * d <= 16 && k <= 7; ++k) {
      const auto eyes = eyes_by_definition(k, d);
      ASSERT_EQ(eyes.size(), size_t{1} << d) << "d=" << d << " k=" << k;
      const auto e = eye_coordinates(k);
      for (size_t mask = 0; mask < eyes.size(); ++mask) {
        // Sorted by node id (x fastest), so eye `mask` has upper coordinates where mask has bits.
        for (int i = 0; i < d; ++i)
          EXPECT_EQ(eyes[mask][i], ((mask >> i) & 1) ? e.upper : e.lower) << "d=" << d << " k=" << k;
      }
    }
  }
}

TEST(EyeMath, PublishedThreeDimensionalEyes) {
  // 3-D paper, section 3.1: the eight eyes of 4x4x4 and of 8x8x8.
  auto as_set = [](std::vector<std::vector<int>> v) {
    std::sort(v.begin(), v.end());
    return v;
  };
  EXPECT_EQ(as_set(eyes_by_definition(2, 3)),
            as_set({{1, 1, 1}, {2, 1, 1}, {1, 1, 2}, {2, 1, 2}, {1, 2, 1}, {2, 2, 1}, {1, 2, 2}, {2, 2, 2}}));
  EXPECT_EQ(as_set(eyes_by_definition(3, 3)),
            as_set({{2, 2, 2}, {5, 2, 2}, {2, 2, 5}, {5, 2, 5}, {2, 5, 2}, {5, 5, 2}, {2, 5, 5}, {5, 5, 5}}));
  EXPECT_EQ(as_set(eyes_by_definition(3, 2)), as_set({{2, 2}, {5, 2}, {2, 5}, {5, 5}}));
}

TEST(EyeMath, OptimalTwoDimensionalTcd) {
  // 2-D paper after Eq. 10 and 3-D paper after Eq. 3: 3, 15, 69, 291, 1197.
  const std::vector<int64_t> published{3, 15, 69, 291, 1197};
  for (int k = 1; k <= 5; ++k) EXPECT_EQ(optimal_tcd_2d(k), published[k - 1]) << "k=" << k;
  for (int k = 1; k <= 27; ++k) {
    EXPECT_EQ(optimal_tcd_2d(k), optimal_tcd_recursive(k, 2)) << "Eq. 10 vs Eq. 3, k=" << k;
    EXPECT_EQ(optimal_tcd_2d(k), optimal_tcd(k, 2)) << "Eq. 10 vs Eq. 13 at d=2, k=" << k;
  }
}

TEST(EyeMath, CornerTcd) {
  // 2-D paper after Eq. 9: MD_2(0,0) = 18, MD_3(0,0) = 79, MD_4(0,0) = 318; MD_1 = 3.
  EXPECT_EQ(corner_tcd_2d(1), 3);
  EXPECT_EQ(corner_tcd_2d(2), 18);
  EXPECT_EQ(corner_tcd_2d(3), 79);
  EXPECT_EQ(corner_tcd_2d(4), 318);
  for (int k = 1; k <= 27; ++k) EXPECT_EQ(corner_tcd_2d(k), corner_tcd_2d_recursive(k)) << "Eq. 9 vs Eq. 8, k=" << k;
}

TEST(EyeMath, OptimalThreeDimensionalTcd) {
  // 3-D paper after Eq. 13 (= 2-D paper Eq. 14): 7, 63, 525, 4235.
  const std::vector<int64_t> published{7, 63, 525, 4235};
  for (int k = 1; k <= 4; ++k) EXPECT_EQ(optimal_tcd_3d(k), published[k - 1]) << "k=" << k;
  for (int k = 1; k <= 17; ++k) {
    EXPECT_EQ(optimal_tcd_3d(k), optimal_tcd_recursive(k, 3)) << "k=" << k;
    EXPECT_EQ(optimal_tcd_3d(k), optimal_tcd(k, 3)) << "k=" << k;
  }
}

TEST(EyeMath, GeneralDimensionClosedFormMatchesRecursion) {
  for (int d = 2; d <= 5; ++d)
    for (int k = 1; d * (k + 1) <= 56; ++k)
      EXPECT_EQ(optimal_tcd(k, d), optimal_tcd_recursive(k, d)) << "d=" << d << " k=" << k;
  // d = 1: Eq. 13's denominator 3 (2^d + 1)(2^(d-1) - 1) vanishes; the recursion
  // a_k + 2 MD_(k-1) from MD_1 = 1 still holds: 1, 3, 9, 23, 57.
  EXPECT_THROW(optimal_tcd(3, 1), std::out_of_range);
  const std::vector<int64_t> line{1, 3, 9, 23, 57};
  for (int k = 1; k <= 5; ++k) EXPECT_EQ(optimal_tcd_recursive(k, 1), line[k - 1]) << "k=" << k;
  // Eq. 11: the unit mesh needs one step per dimension, 2^d - 1 hops in all.
  for (int d = 1; d <= 6; ++d) EXPECT_EQ(optimal_tcd_recursive(1, d), (int64_t{1} << d) - 1);
}

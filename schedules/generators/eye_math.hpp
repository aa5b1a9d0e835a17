// Closed forms and eye positions from Cang & Wu's papers on minimum total
// communication distance (TCD) broadcasts in 2^k-per-side meshes:
//   [2D] "Minimizing Total Communication Distance of a Time-Step Optimal
//        Broadcast in Mesh Networks" (IPPS/SPDP 1998), equation numbers "2D Eq. n";
//   [3D] the 3-D mesh version, equation numbers "3D Eq. n".
// Each closed form comes with the recursion it solves, so tests and the
// reproduction report can check one against the other (and both against the
// TCD of generated schedules). Coordinates are 0-based; every eye of a d-D 2^k
// mesh has each coordinate equal to lower(k) or upper(k) below.
#pragma once

#include <cstdint>
#include <vector>

namespace wormsim::eye_math {

// a_k, the side of the eye-square (2D Eq. 2 = 3D Eq. 1/4): (2^k - (-1)^k) / 3, k >= 1.
int64_t eye_square_side(int k);
// The same by 2D Eq. 1: a_k = 2^(k-1) - a_(k-1), a_1 = 1.
int64_t eye_square_side_recursive(int k);

// The two coordinate values the eyes of a 2^k mesh take in every dimension:
// E_k(1) = (lower, lower, ...), E_k(2) = (upper, lower, ...), and so on.
struct EyeCoordinates {
  int64_t lower = 0;  // x_k(1) = (2^(k+1) + (-1)^k) / 6 - 1/2   (3D section 2.1)
  int64_t upper = 0;  // x_k(2) = (2^(k+2) - (-1)^k) / 6 - 1/2
};
// Closed form above, k >= 0 (k = 0: the single node, 0 and 0).
EyeCoordinates eye_coordinates(int k);
// The recursive definition (2D Definition 2) in one dimension: of the eyes of
// the two halves, keep in each half the one closest to the centre, k >= 0.
EyeCoordinates eye_coordinates_recursive(int k);

// All 2^d eyes of a d-D 2^k mesh computed literally by the recursive definition
// (2D Definition 2 / 5, 3D Definition 2 / 7): the 2^d eyes of the level below,
// translated into each of the 2^d submeshes, and of those 2^(2d) candidates the
// 2^d closest (Euclidean) to the centre. Sorted by node id (x fastest). k >= 1.
std::vector<std::vector<int>> eyes_by_definition(int k, int d);

// Optimal 2-D TCD, MD_k(E_k): 2D Eq. 10 = 3D Eq. 3, (3 * 2^(2k+1) - (-1)^k) / 5 - 2^k.
int64_t optimal_tcd_2d(int k);
// Corner source MD_k(0,0): 2D Eq. 9, 6/5 4^k + 4/3 2^k - 2k - (-1)^k / 30 - 5/2.
int64_t corner_tcd_2d(int k);
// The same by 2D Eq. 8: 5 * 2^(k-1) - 2 - 2 a_(k-1) + MD_(k-1)(0,0) + 3 MD_(k-1)(E), MD_1 = 3.
int64_t corner_tcd_2d_recursive(int k);
// Optimal 3-D TCD: 2D Eq. 14 = 3D Eq. 13, 7/27 (2^(3k+2) - (-1)^k - 3 * 2^k).
int64_t optimal_tcd_3d(int k);
// Optimal d-D TCD: 2D Eq. 13 = 3D Eq. 16. Needs d >= 2 (at d = 1 its
// denominator 2^(d-1) - 1 is zero; use the recursion).
int64_t optimal_tcd(int k, int d);
// The recursion 2D Eq. 12 = 3D Eq. 15: (2^d - 1) a_k + 2^d MD_(k-1), with the
// base 2D Eq. 11 = 3D Eq. 14, MD_1 = 2^d - 1. Any d >= 1, k >= 1.
int64_t optimal_tcd_recursive(int k, int d);

}  // namespace wormsim::eye_math

// The exact minimum TCD over quadrant-recursive (2^d-ary recursive) broadcasts
// on a d-dimensional mesh of side 2^k, by dynamic programming over submeshes.
//
// A quadrant-recursive broadcast spends d steps per level: after them every one
// of the 2^d submeshes ("sub-cubes") of the current cube holds the message at
// exactly one node - any node, not only an eye - and each submesh then does the
// same inside itself. Its TCD is the sum of the level's message lengths plus
// the TCDs inside the submeshes.
//
// DP state. All submeshes of one level are congruent, so the cheapest
// completion inside a submesh depends only on where its holder sits relative
// to it: C_j(p) for p in a 2^j cube, C_0 = 0. Within a level, a holder in
// submesh q that still has to serve the set T of submeshes (q in T, |T| = 2^(d-t)
// after t steps) costs
//   F(q, T)(x) = min over its next send q -> r with r's share T_r of
//                F(q, T \ T_r)(x) + min_y [ |x - y|_(q->r) + F(r, T_r)(y) ],
//   F(q, {q})  = C_(j-1),     C_j(q, x) = F(q, all)(x),
// where |x - y|_(q->r) is the mesh distance between x in submesh q and y in
// submesh r. The inner minimum is an L1 distance transform, separable by
// dimension and linear-time per dimension, so a level costs
// O(#transitions * 2^((j-1)d) * d).
//
// Two families of sends:
//  - Subcube: T is always a sub-cube of submeshes and a holder splits it in half
//    across one dimension (sending to any submesh of the other half). Every
//    message then stays inside the box of the two halves it joins, concurrent
//    messages use disjoint boxes, and the schedule is free of static step
//    contention under dimension-order routing on a mesh.
//  - AnySplit: any split of T into two equal shares (diagonal sends included).
//    Exponential in 2^d; offered for d <= 3.
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "schedules/generators/mesh_broadcast_support.hpp"

namespace wormsim::tcd_optimal {

enum class Family { Subcube, AnySplit };

class QuadrantDp {
 public:
  // Runs the DP for every level 1..k. Throws std::invalid_argument for
  // AnySplit with d > 3 or sizes beyond what node ids hold.
  QuadrantDp(int k, int d, Family family);

  int k() const { return k_; }
  int dims() const { return d_; }
  Family family() const { return family_; }
  // C_j over a 2^j cube (x fastest), j = 0..k: the minimum TCD of a
  // quadrant-recursive broadcast from each position.
  const std::vector<int64_t>& level_costs(int j) const { return costs_[j]; }
  int64_t tcd(const std::vector<int>& source) const;
  // One minimum-TCD broadcast (node ids of the cube, x fastest). Ties prefer
  // splits across one dimension to the facing submesh, then subcube splits.
  mesh_broadcast::BroadcastPlan plan(const std::vector<int>& source) const;

 private:
  struct Split {
    int r;          // submesh the holder sends to
    uint64_t share; // submeshes r serves afterwards (bit per submesh)
  };
  struct State {
    int q;
    uint64_t set;
    std::vector<Split> splits;
    std::vector<int64_t> value;    // F(q, set)(x) over the submesh
    std::vector<uint16_t> choice;  // argmin split per x
  };
  struct Level {
    int j = 0;
    int m = 1;        // submesh side
    int64_t cells = 1;  // m^d
    std::vector<State> states;
    std::map<std::pair<int, uint64_t>, int> index;  // (q, set) -> state
  };

  // Every (q, T) the family can reach, smallest T first.
  std::vector<std::pair<int, uint64_t>> state_keys() const;
  State solve_state(const Level& level, int q, uint64_t set) const;
  void solve_level(int j);
  std::vector<Split> splits_for(int q, uint64_t set) const;
  // out(x) = min_y [dist(x in submesh q, y in submesh r) + g(y)].
  std::vector<int64_t> transfer(const Level& level, const std::vector<int64_t>& g, int q, int r) const;
  int64_t cross_distance(const Level& level, int q, int r, const std::vector<int>& x,
                         const std::vector<int>& y) const;
  void emit(int j, const std::vector<int>& origin, int q, uint64_t set, const std::vector<int>& x,
            int step_base, const mesh_broadcast::CubeIndex& index, mesh_broadcast::BroadcastPlan& plan) const;

  int k_;
  int d_;
  Family family_;
  std::vector<std::vector<int64_t>> costs_;  // C_0..C_k
  std::vector<Level> levels_;                // index j (levels_[0] unused)
};

}  // namespace wormsim::tcd_optimal

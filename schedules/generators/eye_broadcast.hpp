// Cang & Wu's eye-based broadcast on a d-dimensional mesh of side 2^k:
// Algorithm 1 (2-D, any source), Algorithm 2 (3-D, any source) and, from an
// eye, the optimal broadcast in phases of d steps (Algorithm 3 in 3-D, section
// 4 of the 2-D paper in any d). See docs/algorithms/mesh-broadcast.md.
//
// Every level splits the current cube into 2^d halves-cubes ("submeshes") and
// spends d steps, one per dimension, in an order pi. In step t every holder
// sends across dimension pi[t] to the eye of the facing submesh that
//   - in dimensions pi[t], pi[t+1], ... lies on the side nearest the centre
//     (the coordinate of the cube's own eyes), and
//   - in the dimensions already used, pi[0..t-1], is the nearer of the
//     submesh's two eye coordinates.
// For a holder that is itself an eye this is the straight line of length a_k
// the papers use; for the source it is exactly the papers' choice ("E_k(3) or
// E(3)_(k-1)(1), whichever is closer", and the 3-D step-3 choice among
// E(5)_(k-1)(1..4)). Each holder is then an eye of its submesh or the source,
// and the same is applied one level down.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "schedules/generators/mesh_broadcast_support.hpp"

namespace wormsim::eye {

enum class Orientation {
  Paper,  // the papers' "rotate the mesh until S is in the first submesh" (see paper_step_order)
  Best,   // every dimension order at every level; the smallest TCD wins (ties: paper's)
};

// The step order of an unrotated mesh: 2-D x then y (Algorithm 1: E_k(1) ->
// E_k(2) is horizontal); 3-D x, z, y (the 3-D paper's eye labels: E(2) differs
// from E(1) in x, E(3) in z, E(5) in y); other d: dimension 0, 1, 2, ...
std::vector<int> paper_base_order(int d);

// The step order `paper` uses for a holder whose position in the current cube
// lies in the upper half of dimension i iff upper[i] != 0. The paper rotates
// the mesh until the holder's submesh is the first one. A proper rotation maps
// the holder's submesh there using only axis reversals when the number of
// upper halves is even, and needs an exchange of two axes when it is odd; in
// 2-D that rotation is unique, in 3-D there are three and we take the one that
// exchanges the axes of the first two steps. So: base order, with its first two
// entries swapped when the count of upper halves is odd.
std::vector<int> paper_step_order(const std::vector<int>& upper);

// Plans (and prices) eye broadcasts on one cube size. Memoises per (level,
// position of the holder in its cube), so pricing every source of a 64x64 mesh
// costs little more than one.
class EyePlanner {
 public:
  // Best tries all d! orders, so it is limited to d <= kMaxBestDims.
  static constexpr int kMaxBestDims = 6;
  EyePlanner(int k, int d, Orientation orientation);

  int k() const { return k_; }
  int dims() const { return d_; }
  // Total communication distance (mesh hops) of the broadcast from `source`.
  int64_t tcd(const std::vector<int>& source);
  // The broadcast itself; node ids of the cube, x fastest (as Topology numbers a 2^k mesh).
  mesh_broadcast::BroadcastPlan plan(const std::vector<int>& source);
  // The first-level step order chosen for a holder at `source` (for docs/tests).
  std::vector<int> top_order(const std::vector<int>& source);

 private:
  struct Message {
    int step;  // 0..d-1 within the level
    std::vector<int> src, dst;
  };
  struct Choice {
    int64_t cost = 0;        // TCD of the holder's whole broadcast inside its cube
    std::vector<int> order;  // the step order used at this level
  };

  // Eye coordinate of half `half` (0 lower, 1 upper) of a level-j cube, nearest
  // the centre (inner) or farthest from it (outer), relative to the cube origin.
  int inner(int j, int half) const;
  int outer(int j, int half) const;
  // The level's 2^d - 1 messages for a holder at `holder` (relative to the cube).
  std::vector<Message> level_messages(int j, const std::vector<int>& holder, const std::vector<int>& order) const;
  std::vector<int> target(int j, const std::vector<int>& from, const std::vector<int>& order, int t) const;
  // Candidate orders for a holder (paper: one; best: all, paper's first).
  std::vector<std::vector<int>> candidate_orders(int j, const std::vector<int>& holder) const;
  const Choice& choose(int j, const std::vector<int>& holder);
  void emit(int j, const std::vector<int>& offset, const std::vector<int>& holder, int step_base,
            const mesh_broadcast::CubeIndex& index, mesh_broadcast::BroadcastPlan& plan);

  int k_;
  int d_;
  Orientation orientation_;
  std::vector<int> lower_, upper_;          // eye coordinates per level 0..k
  std::unordered_map<uint64_t, Choice> memo_;
};

}  // namespace wormsim::eye

#include "schedules/generators/eye_broadcast.hpp"

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <stdexcept>
#include <string>

#include "schedules/generators/eye_math.hpp"

namespace wormsim::eye {

using mesh_broadcast::BroadcastPlan;
using mesh_broadcast::CubeIndex;

std::vector<int> paper_base_order(int d) {
  if (d == 3) return {0, 2, 1};
  std::vector<int> order(d);
  std::iota(order.begin(), order.end(), 0);
  return order;
}

std::vector<int> paper_step_order(const std::vector<int>& upper) {
  const int d = static_cast<int>(upper.size());
  std::vector<int> order = paper_base_order(d);
  int upper_halves = 0;
  for (int u : upper) upper_halves += u != 0;
  if (d >= 2 && upper_halves % 2 == 1) std::swap(order[0], order[1]);
  return order;
}

EyePlanner::EyePlanner(int k, int d, Orientation orientation) : k_(k), d_(d), orientation_(orientation) {
  if (k < 0 || d < 1 || k * d > 56) throw std::out_of_range("EyePlanner: cube 2^k per side, d dims out of range");
  if (orientation == Orientation::Best && d > kMaxBestDims)
    throw std::out_of_range("EyePlanner: orientation best tries all d! orders, d <= " + std::to_string(kMaxBestDims));
  // Eye coordinates by the recursive definition (tests compare them with the closed form).
  for (int j = 0; j <= k; ++j) {
    const auto e = eye_math::eye_coordinates_recursive(j);
    lower_.push_back(static_cast<int>(e.lower));
    upper_.push_back(static_cast<int>(e.upper));
  }
}

int EyePlanner::inner(int j, int half) const { return half ? upper_[j] : lower_[j]; }

int EyePlanner::outer(int j, int half) const {
  // The submesh's eye on the far side from the centre of the level-j cube.
  return half ? (1 << (j - 1)) + upper_[j - 1] : lower_[j - 1];
}

std::vector<int> EyePlanner::target(int j, const std::vector<int>& from, const std::vector<int>& order,
                                    int t) const {
  const int half_side = 1 << (j - 1);
  std::vector<int> to(d_);
  for (int p = 0; p < d_; ++p) {
    const int dim = order[p];
    const int half = from[dim] >= half_side ? 1 : 0;
    if (p == t) {
      to[dim] = inner(j, 1 - half);  // across: the facing submesh's eye nearest the centre
    } else if (p > t) {
      to[dim] = inner(j, half);  // still to be crossed: stay in line with the cube's eyes
    } else {
      // Already crossed: the nearer of the submesh's two eye coordinates (they are
      // symmetric about the submesh's middle, so the nearer is never a tie for j >= 2).
      const int in = inner(j, half), out = outer(j, half);
      to[dim] = std::abs(from[dim] - out) < std::abs(from[dim] - in) ? out : in;
    }
  }
  return to;
}

std::vector<EyePlanner::Message> EyePlanner::level_messages(int j, const std::vector<int>& holder,
                                                            const std::vector<int>& order) const {
  std::vector<Message> msgs;
  std::vector<std::vector<int>> holders{holder};
  for (int t = 0; t < d_; ++t) {
    const size_t n = holders.size();  // only those that held the message before step t send
    for (size_t h = 0; h < n; ++h) {
      std::vector<int> dst = target(j, holders[h], order, t);
      msgs.push_back({t, holders[h], dst});
      holders.push_back(std::move(dst));
    }
  }
  return msgs;
}

std::vector<std::vector<int>> EyePlanner::candidate_orders(int j, const std::vector<int>& holder) const {
  std::vector<int> upper(d_);
  for (int i = 0; i < d_; ++i) upper[i] = holder[i] >= (1 << (j - 1)) ? 1 : 0;
  const std::vector<int> paper = paper_step_order(upper);
  std::vector<std::vector<int>> out{paper};
  if (orientation_ != Orientation::Best) return out;
  std::vector<int> perm(d_);
  std::iota(perm.begin(), perm.end(), 0);
  do {
    if (perm != paper) out.push_back(perm);
  } while (std::next_permutation(perm.begin(), perm.end()));
  return out;
}

const EyePlanner::Choice& EyePlanner::choose(int j, const std::vector<int>& holder) {
  const CubeIndex cube(1 << j, d_);
  const uint64_t key = (static_cast<uint64_t>(j) << 56) | static_cast<uint64_t>(cube.encode(holder));
  if (auto it = memo_.find(key); it != memo_.end()) return it->second;
  Choice best{-1, {}};
  const int half_side = 1 << (j - 1);
  for (const auto& order : candidate_orders(j, holder)) {
    int64_t cost = 0;
    std::vector<std::vector<int>> holders{holder};
    for (const Message& m : level_messages(j, holder, order)) {
      cost += mesh_broadcast::mesh_distance(m.src, m.dst);
      holders.push_back(m.dst);
    }
    if (j > 1) {
      for (auto& h : holders) {
        for (int& c : h) c %= half_side;  // position inside its submesh
        cost += choose(j - 1, h).cost;
      }
    }
    if (best.cost < 0 || cost < best.cost) best = Choice{cost, order};
  }
  return memo_.emplace(key, best).first->second;
}

int64_t EyePlanner::tcd(const std::vector<int>& source) { return k_ == 0 ? 0 : choose(k_, source).cost; }

std::vector<int> EyePlanner::top_order(const std::vector<int>& source) {
  if (k_ == 0) return {};
  return choose(k_, source).order;
}

void EyePlanner::emit(int j, const std::vector<int>& offset, const std::vector<int>& holder, int step_base,
                      const CubeIndex& index, BroadcastPlan& plan) {
  if (j == 0) return;
  const std::vector<int> order = choose(j, holder).order;
  auto absolute = [&](std::vector<int> rel) {
    for (int i = 0; i < d_; ++i) rel[i] += offset[i];
    return rel;
  };
  std::vector<std::vector<int>> holders{holder};
  for (const Message& m : level_messages(j, holder, order)) {
    plan[step_base + m.step].push_back({static_cast<int>(index.encode(absolute(m.src))),
                                        static_cast<int>(index.encode(absolute(m.dst)))});
    holders.push_back(m.dst);
  }
  const int half_side = 1 << (j - 1);
  for (const auto& h : holders) {
    std::vector<int> sub_offset = offset, rel = h;
    for (int i = 0; i < d_; ++i) {
      if (h[i] >= half_side) sub_offset[i] += half_side;
      rel[i] = h[i] % half_side;
    }
    emit(j - 1, sub_offset, rel, step_base + d_, index, plan);
  }
}

BroadcastPlan EyePlanner::plan(const std::vector<int>& source) {
  const CubeIndex index(1 << k_, d_);
  BroadcastPlan out(static_cast<size_t>(k_) * d_);
  emit(k_, std::vector<int>(d_, 0), source, 0, index, out);
  return out;
}

}  // namespace wormsim::eye

#include "schedules/generators/tcd_optimal.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <stdexcept>

namespace wormsim::tcd_optimal {

using mesh_broadcast::BroadcastPlan;
using mesh_broadcast::CubeIndex;

namespace {

int popcount(uint64_t v) { return __builtin_popcountll(v); }

uint64_t all_submeshes(int d) { return d == 6 ? ~uint64_t{0} : (uint64_t{1} << (1 << d)) - 1; }

// Sub-cube of submeshes through q whose free dimensions are `free` (bit per dimension).
uint64_t subcube(int q, int free) {
  uint64_t set = 0;
  for (int s = free;; s = (s - 1) & free) {
    set |= uint64_t{1} << (q ^ s);
    if (s == 0) break;
  }
  return set;
}

// Free dimensions of `set` seen from q, or -1 if set is not a sub-cube.
int subcube_free_dims(int q, uint64_t set) {
  int free = 0;
  for (int s = 0; s < 64; ++s)
    if ((set >> s) & 1) free |= s ^ q;
  return subcube(q, free) == set ? free : -1;
}

std::vector<int> bits_of(int q, int d) {
  std::vector<int> b(d);
  for (int i = 0; i < d; ++i) b[i] = (q >> i) & 1;
  return b;
}

}  // namespace

QuadrantDp::QuadrantDp(int k, int d, Family family) : k_(k), d_(d), family_(family) {
  if (d < 1 || d > 6 || k < 0 || k * d > 24)
    throw std::invalid_argument("tcd-optimal: needs 1 <= d <= 6 and at most 2^24 nodes");
  if (family == Family::AnySplit && d > 3)
    throw std::invalid_argument("tcd-optimal: arbitrary splits are exponential in 2^d; offered for d <= 3");
  costs_.push_back({0});
  levels_.resize(k + 1);
  for (int j = 1; j <= k; ++j) solve_level(j);
}

std::vector<QuadrantDp::Split> QuadrantDp::splits_for(int q, uint64_t set) const {
  std::vector<Split> out;
  std::set<std::pair<int, uint64_t>> seen;
  auto add = [&](int r, uint64_t share) {
    if (seen.insert({r, share}).second) out.push_back({r, share});
  };
  // Halving across one dimension first (what contention-freedom needs), the
  // facing submesh before the diagonal ones, so that ties keep that shape.
  const int free = subcube_free_dims(q, set);
  if (free >= 0) {
    for (int e = 0; e < d_; ++e) {
      if (!((free >> e) & 1)) continue;
      const uint64_t share = subcube(q ^ (1 << e), free & ~(1 << e));
      add(q ^ (1 << e), share);
      for (int r = 0; r < 64; ++r)
        if ((share >> r) & 1) add(r, share);
    }
  }
  if (family_ == Family::Subcube) return out;
  const uint64_t rest = set & ~(uint64_t{1} << q);
  const int half = popcount(set) / 2;
  for (uint64_t share = rest; share; share = (share - 1) & rest) {
    if (popcount(share) != half) continue;
    for (int r = 0; r < 64; ++r)
      if ((share >> r) & 1) add(r, share);
  }
  return out;
}

std::vector<int64_t> QuadrantDp::transfer(const Level& level, const std::vector<int64_t>& g, int q,
                                          int r) const {
  std::vector<int64_t> f = g;
  const int m = level.m;
  int64_t stride = 1;
  for (int i = 0; i < d_; ++i, stride *= m) {
    const int qi = (q >> i) & 1, ri = (r >> i) & 1;
    const int64_t lines = level.cells / m;
    for (int64_t line = 0; line < lines; ++line) {
      const int64_t base = (line / stride) * stride * m + line % stride;
      auto at = [&](int a) -> int64_t& { return f[base + a * stride]; };
      if (qi == ri) {  // same half: |x - y|, the classic two-pass L1 transform
        for (int a = 1; a < m; ++a) at(a) = std::min(at(a), at(a - 1) + 1);
        for (int a = m - 2; a >= 0; --a) at(a) = std::min(at(a), at(a + 1) + 1);
      } else if (qi == 0) {  // x low, y high: m + y - x
        int64_t v = at(0);
        for (int a = 1; a < m; ++a) v = std::min(v, a + at(a));
        for (int a = 0; a < m; ++a) at(a) = m - a + v;
      } else {  // x high, y low: m + x - y
        int64_t v = at(0);
        for (int a = 1; a < m; ++a) v = std::min(v, at(a) - a);
        for (int a = 0; a < m; ++a) at(a) = m + a + v;
      }
    }
  }
  return f;
}

std::vector<std::pair<int, uint64_t>> QuadrantDp::state_keys() const {
  const int nq = 1 << d_;
  std::vector<std::pair<int, uint64_t>> keys;
  for (int q = 0; q < nq; ++q) {
    if (family_ == Family::Subcube) {
      for (int free = 0; free < nq; ++free) keys.push_back({q, subcube(q, free)});
      continue;
    }
    const uint64_t all = all_submeshes(d_);
    for (uint64_t set = all;; set = (set - 1) & all) {
      const int n = popcount(set);
      if (((set >> q) & 1) && (n & (n - 1)) == 0) keys.push_back({q, set});
      if (set == 0) break;
    }
  }
  // A state depends on states with half its set: smallest sets first.
  std::stable_sort(keys.begin(), keys.end(),
                   [](const auto& a, const auto& b) { return popcount(a.second) < popcount(b.second); });
  return keys;
}

QuadrantDp::State QuadrantDp::solve_state(const Level& level, int q, uint64_t set) const {
  State s;
  s.q = q;
  s.set = set;
  if (popcount(set) == 1) {  // served: what remains is the submesh's own broadcast
    s.value = costs_[level.j - 1];
    return s;
  }
  s.splits = splits_for(q, set);
  s.value.assign(level.cells, 0);
  s.choice.assign(level.cells, 0);
  for (size_t c = 0; c < s.splits.size(); ++c) {
    const Split& sp = s.splits[c];
    const State& keep = level.states[level.index.at({q, set & ~sp.share})];
    const State& give = level.states[level.index.at({sp.r, sp.share})];
    const std::vector<int64_t> sent = transfer(level, give.value, q, sp.r);
    for (int64_t x = 0; x < level.cells; ++x) {
      const int64_t v = keep.value[x] + sent[x];
      if (c == 0 || v < s.value[x]) {  // strict: earlier (straighter) splits win ties
        s.value[x] = v;
        s.choice[x] = static_cast<uint16_t>(c);
      }
    }
  }
  return s;
}

void QuadrantDp::solve_level(int j) {
  Level& level = levels_[j];
  level.j = j;
  level.m = 1 << (j - 1);
  level.cells = CubeIndex(level.m, d_).size();
  for (const auto& [q, set] : state_keys()) {
    State s = solve_state(level, q, set);
    level.index[{q, set}] = static_cast<int>(level.states.size());
    level.states.push_back(std::move(s));
  }
  // C_j over the whole 2^j cube: the holder's submesh q, its offset x inside.
  const CubeIndex cube(1 << j, d_), sub(level.m, d_);
  std::vector<int64_t> c(cube.size());
  for (int64_t p = 0; p < cube.size(); ++p) {
    std::vector<int> pos = cube.decode(p);
    int q = 0;
    for (int i = 0; i < d_; ++i) {
      if (pos[i] >= level.m) q |= 1 << i;
      pos[i] %= level.m;
    }
    c[p] = level.states[level.index.at({q, all_submeshes(d_)})].value[sub.encode(pos)];
  }
  costs_.push_back(std::move(c));
}

int64_t QuadrantDp::tcd(const std::vector<int>& source) const {
  return costs_[k_][CubeIndex(1 << k_, d_).encode(source)];
}

int64_t QuadrantDp::cross_distance(const Level& level, int q, int r, const std::vector<int>& x,
                                   const std::vector<int>& y) const {
  int64_t dist = 0;
  for (int i = 0; i < d_; ++i) {
    const int qi = (q >> i) & 1, ri = (r >> i) & 1;
    if (qi == ri) dist += std::abs(x[i] - y[i]);
    else dist += qi == 0 ? level.m + y[i] - x[i] : level.m + x[i] - y[i];
  }
  return dist;
}

void QuadrantDp::emit(int j, const std::vector<int>& origin, int q, uint64_t set, const std::vector<int>& x,
                      int step_base, const CubeIndex& index, BroadcastPlan& plan) const {
  const Level& level = levels_[j];
  const std::vector<int> qb = bits_of(q, d_);
  if (popcount(set) == 1) {  // this submesh is served: recurse into it
    if (j == 1) return;
    std::vector<int> sub_origin = origin, sub_x = x;
    int sub_q = 0;
    const int half = level.m / 2;
    for (int i = 0; i < d_; ++i) {
      sub_origin[i] += qb[i] * level.m;
      if (x[i] >= half) sub_q |= 1 << i;
      sub_x[i] = x[i] % half;
    }
    emit(j - 1, sub_origin, sub_q, all_submeshes(d_), sub_x, step_base + d_, index, plan);
    return;
  }
  const CubeIndex sub(level.m, d_);
  const State& s = level.states[level.index.at({q, set})];
  const Split& sp = s.splits[s.choice[sub.encode(x)]];
  const State& give = level.states[level.index.at({sp.r, sp.share})];
  // The receiver: the position in submesh r that attains the transform's minimum.
  std::vector<int> y;
  int64_t best = -1;
  for (int64_t p = 0; p < level.cells; ++p) {
    std::vector<int> cand = sub.decode(p);
    const int64_t v = cross_distance(level, q, sp.r, x, cand) + give.value[p];
    if (best < 0 || v < best) {
      best = v;
      y = std::move(cand);
    }
  }
  const std::vector<int> rb = bits_of(sp.r, d_);
  std::vector<int> from = origin, to = origin;
  for (int i = 0; i < d_; ++i) {
    from[i] += qb[i] * level.m + x[i];
    to[i] += rb[i] * level.m + y[i];
  }
  int t = d_;
  for (int n = popcount(set); n > 1; n /= 2) --t;  // |set| = 2^(d - t)
  plan[step_base + t].push_back({static_cast<int>(index.encode(from)), static_cast<int>(index.encode(to))});
  emit(j, origin, q, set & ~sp.share, x, step_base, index, plan);
  emit(j, origin, sp.r, sp.share, y, step_base, index, plan);
}

BroadcastPlan QuadrantDp::plan(const std::vector<int>& source) const {
  const CubeIndex index(1 << k_, d_);
  BroadcastPlan out(static_cast<size_t>(k_) * d_);
  if (k_ == 0) return out;
  std::vector<int> x = source;
  int q = 0;
  const int half = 1 << (k_ - 1);
  for (int i = 0; i < d_; ++i) {
    if (x[i] >= half) q |= 1 << i;
    x[i] %= half;
  }
  emit(k_, std::vector<int>(d_, 0), q, all_submeshes(d_), x, 0, index, out);
  return out;
}

}  // namespace wormsim::tcd_optimal

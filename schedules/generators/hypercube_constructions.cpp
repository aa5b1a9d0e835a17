#include "schedules/generators/hypercube_constructions.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace wormsim::hypercube {

namespace {

int popcount(int x) { return __builtin_popcount(static_cast<unsigned>(x)); }

// One bit rotation to the left: the bit in position p moves to p+1, the top bit to 0.
int rotl(int x, int d) { return ((x << 1) | (x >> (d - 1))) & ((1 << d) - 1); }

// An equivalence class R_kn of the k-ones labels under rotation (Section 2).
struct RotationClass {
  int ones = 0;     // k
  int size = 0;     // d, or a divisor of d for periodic labels such as 0101
  int smallest = 0; // smallest member, used to list the classes deterministically
  int base = 0;     // n(t) of its first element; the others follow consecutively
};

// The classes in the paper's order (00..0) R_11 R_21..R_2n2 ... R_(d-1)1 (11..1):
// by number of ones, and within a level R_k1 (the class of 0..01..1, whose
// smallest member 2^k-1 is the smallest k-ones label) first, then by smallest member.
// The numbers n(t) of a class do not depend on which member is taken first.
std::vector<RotationClass> rotation_classes(int d, std::vector<int>& class_of) {
  const int n = 1 << d;
  class_of.assign(n, -1);
  std::vector<RotationClass> classes;
  for (int k = 1; k <= d - 1; ++k) {
    for (int x = 1; x < n - 1; ++x) {
      if (popcount(x) != k || class_of[x] >= 0) continue;
      RotationClass c;
      c.ones = k;
      c.smallest = x;  // x is the first unseen member, hence the smallest of its class
      for (int y = x; class_of[y] < 0; y = rotl(y, d)) {
        class_of[y] = static_cast<int>(classes.size());
        ++c.size;
      }
      classes.push_back(c);
    }
  }
  int next = 1;
  for (auto& c : classes) {
    c.base = next;
    next += c.size;
  }
  return classes;
}

// m(t) - 1 for the label numbered n: the sequence of m over n = 1, 2, ... is
// 1, 2, ..., d, 1, 2, ... (the text prints floor((n-1)/d), an OCR/typesetting
// slip for ((n-1) mod d) + 1; see docs/algorithms/hypercube-and-line.md).
int m_of(int n, int d) { return (n - 1) % d; }

// Time unit of the label numbered n: E_i holds n = (i-1)d+1 .. id.
int time_unit_of(int n, int d) { return (n - 1) / d + 1; }

CubeTree empty_tree(int d) {
  if (d < 1 || d > 30) throw std::invalid_argument("hypercube dimension must be 1..30, got " + std::to_string(d));
  CubeTree t;
  t.d = d;
  t.parent.assign(1 << d, -1);
  t.step.assign(1 << d, 0);
  t.m.assign(1 << d, -1);
  t.number.assign(1 << d, 0);
  return t;
}

// First element of a class in the multinode broadcast: bit m is a 1 (property (1));
// for R_k1 also the bit below m (cyclically) is a 0, so that clearing bit m
// leaves a member of R_(k-1)1. Among the admissible members the smallest is taken.
int multinode_first_element(const RotationClass& c, bool level_first, int m, int d) {
  int best = -1;
  int y = c.smallest;
  for (int r = 0; r < c.size; ++r, y = rotl(y, d)) {
    const bool one_at_m = (y >> m) & 1;
    const bool zero_below = !((y >> ((m + d - 1) % d)) & 1);
    if (one_at_m && (!level_first || zero_below) && (best < 0 || y < best)) best = y;
  }
  if (best < 0) throw std::logic_error("multinode broadcast: no admissible first element");
  return best;
}

// The paper's recipe for a class compatible with R_kn (Section 3): take a member
// with rightmost bit 1 and leftmost bit 0, find a longest run of 0s (the lowest
// one on ties) and clear the 1 just to its right. The result has a unique
// longest zero run, so its class has d members.
int compatible_label(const RotationClass& c, int d) {
  int t = -1;
  int y = c.smallest;
  for (int r = 0; r < c.size; ++r, y = rotl(y, d))
    if ((y & 1) && !((y >> (d - 1)) & 1) && (t < 0 || y < t)) t = y;
  if (t < 0) throw std::logic_error("balanced tree: class without a member of the form 0...1");
  int best_lo = -1, best_len = 0;
  for (int b = 0; b < d;) {
    if ((t >> b) & 1) {
      ++b;
      continue;
    }
    int e = b;
    while (e < d && !((t >> e) & 1)) ++e;
    if (e - b > best_len) best_len = e - b, best_lo = b;
    b = e;
  }
  return t & ~(1 << (best_lo - 1));  // best_lo >= 1 because bit 0 of t is a 1
}

}  // namespace

CubeTree multinode_broadcast_tree(int d) {
  CubeTree tree = empty_tree(d);
  std::vector<int> class_of;
  const auto classes = rotation_classes(d, class_of);
  auto attach = [&](int x, int n) {
    tree.number[x] = n;
    tree.m[x] = m_of(n, d);
    tree.step[x] = time_unit_of(n, d);
    tree.parent[x] = x ^ (1 << tree.m[x]);  // reverse the bit in position m(x)
  };
  for (size_t i = 0; i < classes.size(); ++i) {
    const auto& c = classes[i];
    const bool level_first = i == 0 || classes[i - 1].ones != c.ones;
    int x = multinode_first_element(c, level_first, m_of(c.base, d), d);
    for (int r = 0; r < c.size; ++r, x = rotl(x, d)) attach(x, c.base + r);
  }
  const int all = (1 << d) - 1;
  attach(all, all);  // n(11..1) = 2^d - 1
  return tree;
}

CubeTree balanced_spanning_tree(int d) {
  CubeTree tree = empty_tree(d);
  std::vector<int> class_of;
  const auto classes = rotation_classes(d, class_of);
  std::vector<int>& number = tree.number;  // n(x) once x's class is laid out
  auto attach = [&](int x, int parent, int n) {
    number[x] = n;
    tree.parent[x] = parent;
    tree.m[x] = m_of(n, d);
    tree.step[x] = popcount(x);
  };
  const int all = (1 << d) - 1;
  if (d == 1) {  // no classes: the single neighbour of the root is 11..1
    attach(1, 0, 1);
    return tree;
  }
  // R_11 starts with 0..01, so the root's neighbour over dimension j has m = j.
  for (int j = 0; j < d; ++j) attach(1 << j, 0, 1 + j);
  for (size_t i = 1; i < classes.size(); ++i) {
    const auto& c = classes[i];
    // The member of the compatible class whose m equals m_kn ...
    const auto& compat = classes[class_of[compatible_label(c, d)]];
    if (compat.size != d) throw std::logic_error("balanced tree: compatible class has fewer than d members");
    int tp = compat.smallest;
    while (m_of(number[tp], d) != m_of(c.base, d)) tp = rotl(tp, d);
    // ... is obtained from the first element of R_kn by clearing one of its 1 bits.
    int t = -1;
    for (int b = 0; b < d && t < 0; ++b)
      if (!((tp >> b) & 1) && class_of[tp | (1 << b)] == class_of[c.smallest]) t = tp | (1 << b);
    if (t < 0) throw std::logic_error("balanced tree: compatible class is not compatible");
    // Rotating both keeps the link (x', x) and keeps m(x') = m(x).
    for (int r = 0; r < c.size; ++r, t = rotl(t, d), tp = rotl(tp, d)) attach(t, tp, c.base + r);
  }
  // 11..1 hangs below the member of R_(d-1)1 with the same m.
  int x = classes.back().smallest;
  while (m_of(number[x], d) != m_of(all, d)) x = rotl(x, d);
  attach(all, x, all);
  return tree;
}

ExchangeTable total_exchange_table(int d) {
  if (d < 1 || d > 30) throw std::invalid_argument("hypercube dimension must be 1..30, got " + std::to_string(d));
  ExchangeTable table{{Transmission{0, 1}}};  // the 1-cube: T_1 = 1
  for (int c = 1; c < d; ++c) {
    // Build the (c+1)-cube algorithm from the c-cube one: C1 = nodes with bit c clear.
    const int half = static_cast<int>(table.size());  // T_c = 2^(c-1)
    const int across = 1 << c;
    // Phase 2 over the new link: own packets for C2 in the order in which the
    // counterpart forwards them in phase 3 (time, then link: the paper's left
    // to right), the packet for the counterpart itself last.
    std::vector<int> phase2;
    for (const auto& row : table)
      for (const auto& tr : row)
        if (tr.origin == 0) phase2.push_back(tr.dest | across);
    phase2.push_back(across);
    ExchangeTable next(2 * half);
    for (int t = 0; t < half; ++t) {
      next[t] = table[t];  // phase 1: total exchange inside C1
      // Phase 3: the same algorithm, node a now forwarding the packets of a ^ across.
      for (const auto& tr : table[t]) next[half + t].push_back({tr.origin ^ across, tr.dest});
    }
    for (int t = 0; t < 2 * half; ++t) next[t].push_back({0, phase2[t]});
    table = std::move(next);
  }
  return table;
}

std::vector<std::vector<int>> own_packet_table(const ExchangeTable& table) {
  std::vector<std::vector<int>> out;
  for (const auto& row : table) {
    std::vector<int> r;
    for (const auto& tr : row) r.push_back(tr.origin == 0 ? tr.dest : -1);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace wormsim::hypercube

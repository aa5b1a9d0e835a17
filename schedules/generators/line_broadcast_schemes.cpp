#include "schedules/generators/line_broadcast_schemes.hpp"

#include <stdexcept>
#include <string>

namespace wormsim::line {

namespace {

void check_k(int k) {
  if (k < 0 || k > 30) throw std::invalid_argument("cycle size 2^k needs k in 0..30, got " + std::to_string(k));
}

}  // namespace

int gray_label(int position, int k) {
  check_k(k);
  return ~(position ^ (position >> 1)) & ((1 << k) - 1);
}

int gray_position(int label, int k) {
  check_k(k);
  // Undo the complement, then the Gray code: b = g ^ (g >> 1) ^ (g >> 2) ^ ...
  int g = ~label & ((1 << k) - 1);
  int b = 0;
  for (; g; g >>= 1) b ^= g;
  return b;
}

std::vector<std::vector<CycleCall>> gray_cycle_scheme(int k) {
  check_k(k);
  std::vector<int> informed{0};  // labels, in the order they were informed
  std::vector<std::vector<CycleCall>> phases;
  for (int j = 1; j <= k; ++j) {
    const int bit = 1 << (k - j);
    std::vector<CycleCall> calls;
    const size_t senders = informed.size();
    for (size_t i = 0; i < senders; ++i) {
      const int label = informed[i];
      calls.push_back({gray_position(label, k), gray_position(label | bit, k)});
      informed.push_back(label | bit);
    }
    phases.push_back(std::move(calls));
  }
  return phases;
}

std::vector<int> cycle_call_path(const CycleCall& call) {
  std::vector<int> path;
  const int dir = call.to > call.from ? 1 : -1;
  for (int p = call.from; p != call.to; p += dir) path.push_back(p);
  path.push_back(call.to);
  return path;
}

}  // namespace wormsim::line

// Bit helpers for the routers' masks of ports and VCs (models/router.cpp,
// router_one_vc.cpp, router_fanout.cpp).
#pragma once

#include <cstdint>

namespace wormsim {

constexpr uint64_t bit(int i) { return uint64_t{1} << i; }
// The bits below `n` (0 <= n <= 64).
constexpr uint64_t low_bits(int n) { return n >= 64 ? ~uint64_t{0} : bit(n) - 1; }

// Index of the first set bit of `mask` at or after `from`, wrapping around (mask != 0, from < 64).
inline int first_set_from(uint64_t mask, int from) {
  const uint64_t later = mask & (~uint64_t{0} << from);
  return __builtin_ctzll(later ? later : mask);
}

}  // namespace wormsim

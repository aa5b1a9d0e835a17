// Bit helpers for the routers' masks of ports and VCs (models/router.cpp,
// router_one_vc.cpp, router_fanout.cpp).
#pragma once

#include <cstdint>

namespace wormsim {

constexpr uint64_t bit(int i) { return uint64_t{1} << i; }

// Index of the first set bit of `mask` at or after `from`, wrapping around (mask != 0, from < 64).
inline int first_set_from(uint64_t mask, int from) {
  const uint64_t later = mask & (~uint64_t{0} << from);
  return __builtin_ctzll(later ? later : mask);
}

}  // namespace wormsim

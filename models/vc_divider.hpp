// Division by a router's VC count without a divide instruction.
//
// Routers map VC indices to (port, vc) several times per flit; an integer
// division costs 20-40 cycles, more than the rest of a flit move. For
// x < 2^16 and 1 <= d <= kMaxDivisor, x / d == (x * (floor(2^32 / d) + 1)) >> 32
// exactly (tests/unit/test_vc_divider.cpp checks every such pair).
#pragma once

#include <cstdint>
#include <stdexcept>

namespace wormsim {

class VcDivider {
 public:
  static constexpr int kMaxDivisor = 16;     // network.vcs is at most 16
  static constexpr int kMaxDividend = 65535;

  explicit VcDivider(int d) : d_(d), m_((uint64_t{1} << 32) / static_cast<uint64_t>(d > 0 ? d : 1) + 1) {
    if (d < 1 || d > kMaxDivisor) throw std::invalid_argument("VcDivider: divisor out of range 1..16");
  }
  int div(int x) const { return static_cast<int>((static_cast<uint64_t>(x) * m_) >> 32); }
  int mod(int x) const { return x - div(x) * d_; }
  int divisor() const { return d_; }

 private:
  int d_;
  uint64_t m_;
};

}  // namespace wormsim

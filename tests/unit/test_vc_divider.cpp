// The router's division by the VC count (models/vc_divider.hpp) must be exact
// for every VC index it can see: checked for every dividend and divisor in range.
#include <gtest/gtest.h>

#include "models/vc_divider.hpp"

namespace wormsim {
namespace {

TEST(VcDivider, ExactForEveryDividendAndDivisor) {
  for (int d = 1; d <= VcDivider::kMaxDivisor; ++d) {
    const VcDivider div(d);
    for (int x = 0; x <= VcDivider::kMaxDividend; ++x) {
      ASSERT_EQ(div.div(x), x / d) << x << " / " << d;
      ASSERT_EQ(div.mod(x), x % d) << x << " % " << d;
    }
  }
}

TEST(VcDivider, RejectsDivisorsOutOfRange) {
  EXPECT_THROW(VcDivider(0), std::invalid_argument);
  EXPECT_THROW(VcDivider(17), std::invalid_argument);
  EXPECT_THROW(VcDivider(-3), std::invalid_argument);
}

}  // namespace
}  // namespace wormsim

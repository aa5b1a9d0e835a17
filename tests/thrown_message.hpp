// Shared by the tests of checks that throw (docs/extending.md, "House style"):
// the message of the std::invalid_argument `call` throws, so a test can assert
// the exact reason; "(nothing thrown)" when it returns, which no reason equals.
#pragma once

#include <stdexcept>
#include <string>

namespace wormsim {

template <typename Call>
std::string thrown_message(Call&& call) {
  try {
    call();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(nothing thrown)";
}

}  // namespace wormsim

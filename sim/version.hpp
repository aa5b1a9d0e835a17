#pragma once

namespace wormsim {
inline constexpr const char* kWormsimVersion = "0.1.0";
}

// CSV text built in one string: integers through std::to_chars, text appended
// as it is. A drop-in for the std::ostringstream the CSV writers used, without
// the stream's locale machinery per field (messages.csv has one row per message,
// so its writer runs as often as a message is delivered; docs/performance.md).
#pragma once

#include <charconv>
#include <string>
#include <string_view>
#include <type_traits>

namespace wormsim {

class CsvText {
 public:
  CsvText& operator<<(char c) {
    text_ += c;
    return *this;
  }
  CsvText& operator<<(std::string_view s) {
    text_ += s;
    return *this;
  }
  CsvText& operator<<(const std::string& s) { return *this << std::string_view(s); }
  CsvText& operator<<(const char* s) { return *this << std::string_view(s); }

  // Every integer type but char and bool, written in decimal as a stream would.
  template <typename Int,
            typename = std::enable_if_t<std::is_integral_v<Int> && !std::is_same_v<Int, char> &&
                                        !std::is_same_v<Int, bool>>>
  CsvText& operator<<(Int v) {
    char buf[24];
    const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
    text_.append(buf, end);
    return *this;
  }

  void reserve(size_t bytes) { text_.reserve(bytes); }
  const std::string& str() const& { return text_; }
  std::string str() && { return std::move(text_); }

 private:
  std::string text_;
};

// A number with `digits` decimals, whatever the locale, and never "-0.000".
inline std::string fixed_text(double v, int digits) {
  char buf[64];
  const auto end = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, digits).ptr;
  std::string s(buf, end);
  if (s.find_first_not_of("-0.") == std::string::npos && s[0] == '-') s.erase(0, 1);
  return s;
}

}  // namespace wormsim

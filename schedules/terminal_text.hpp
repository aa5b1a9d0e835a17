// Text from users' files (keys, names, paths) is echoed in error messages. Sent
// raw to a terminal, a NUL, an escape sequence or a right-to-left override can
// hide or reorder what the message says, so stderr shows such characters
// escaped: control characters as \xNN, C1 controls and bidirectional
// formatting characters as \uNNNN, bytes that are not UTF-8 as \xNN. Newlines
// and tabs stay.
#pragma once

#include <streambuf>
#include <string>
#include <string_view>

namespace wormsim {

std::string printable(std::string_view text);

// A stream buffer that escapes what passes through it (as printable()) and
// forwards it to another; it holds back only an incomplete UTF-8 sequence.
class EscapingStreambuf : public std::streambuf {
 public:
  explicit EscapingStreambuf(std::streambuf* to) : to_(to) {}
  // Forwards what is held back, escaped as the bytes it is.
  void finish();

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;
  int sync() override;

 private:
  std::streambuf* to_;
  std::string pending_;
};

}  // namespace wormsim

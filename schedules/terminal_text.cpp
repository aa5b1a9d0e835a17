#include "schedules/terminal_text.hpp"

#include <cstdio>

namespace wormsim {

namespace {

// Length of the UTF-8 sequence starting with lead byte b, or 0 if b cannot lead one.
size_t sequence_length(unsigned char b) {
  if (b < 0x80) return 1;
  if (b >= 0xC2 && b <= 0xDF) return 2;
  if (b >= 0xE0 && b <= 0xEF) return 3;
  if (b >= 0xF0 && b <= 0xF4) return 4;
  return 0;
}

// Decodes the sequence of length n at s; returns -1 if it is not well formed.
long decode(const unsigned char* s, size_t n) {
  if (n == 1) return s[0];
  long cp = s[0] & (0x7F >> n);
  for (size_t i = 1; i < n; ++i) {
    if ((s[i] & 0xC0) != 0x80) return -1;
    cp = (cp << 6) | (s[i] & 0x3F);
  }
  static const long kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return -1;
  return cp;
}

bool must_escape(long cp) {
  if (cp == '\n' || cp == '\t') return false;
  if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F)) return true;
  return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
         (cp >= 0x2066 && cp <= 0x2069);
}

std::string escaped_byte(unsigned char b) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02x", b);
  return buf;
}

std::string escaped_code_point(long cp) {
  if (cp < 0x80) return escaped_byte(static_cast<unsigned char>(cp));
  char buf[12];
  std::snprintf(buf, sizeof buf, "\\u%04lx", cp);
  return buf;
}

// Escapes text[0, end) and returns how many bytes it consumed; with `partial`,
// an incomplete sequence at the very end is left unconsumed.
size_t escape_into(std::string_view text, bool partial, std::string& out) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  size_t i = 0;
  while (i < text.size()) {
    const size_t n = sequence_length(s[i]);
    if (n > 1 && i + n > text.size() && partial) {
      bool prefix_ok = true;
      for (size_t k = i + 1; k < text.size(); ++k) prefix_ok = prefix_ok && (s[k] & 0xC0) == 0x80;
      if (prefix_ok) return i;
    }
    const long cp = n == 0 || i + n > text.size() ? -1 : decode(s + i, n);
    if (cp < 0) {
      out += escaped_byte(s[i]);
      ++i;
    } else {
      if (must_escape(cp)) out += escaped_code_point(cp);
      else out.append(text.data() + i, n);
      i += n;
    }
  }
  return i;
}

}  // namespace

std::string printable(std::string_view text) {
  std::string out;
  escape_into(text, false, out);
  return out;
}

EscapingStreambuf::int_type EscapingStreambuf::overflow(int_type c) {
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  const char ch = traits_type::to_char_type(c);
  return xsputn(&ch, 1) == 1 ? c : traits_type::eof();
}

std::streamsize EscapingStreambuf::xsputn(const char* s, std::streamsize n) {
  pending_.append(s, static_cast<size_t>(n));
  std::string out;
  const size_t used = escape_into(pending_, true, out);
  pending_.erase(0, used);
  if (to_->sputn(out.data(), static_cast<std::streamsize>(out.size())) != static_cast<std::streamsize>(out.size()))
    return 0;
  return n;
}

int EscapingStreambuf::sync() { return to_->pubsync(); }

void EscapingStreambuf::finish() {
  const std::string out = printable(pending_);
  pending_.clear();
  to_->sputn(out.data(), static_cast<std::streamsize>(out.size()));
  to_->pubsync();
}

}  // namespace wormsim

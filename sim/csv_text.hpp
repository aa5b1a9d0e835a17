// CSV text built in one string: integers through std::to_chars, text appended
// as it is. Not a std::ostringstream: no stream locale machinery per field
// (messages.csv has one row per message, so its writer runs as often as a
// message is delivered; docs/performance.md).
//
// Given a ByteSink (a StreamedFile), the text is a bounded buffer instead: when
// a field does not fit, what is written so far goes to the sink and the buffer
// starts again, so a table of any length costs one chunk of memory. The bytes
// the sink receives, chunk after chunk, are those str() would have returned.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

#include "sim/streamed_file.hpp"

namespace wormsim {

// Room for any double in fixed notation with up to 17 decimals (DBL_MAX has 309 digits).
constexpr size_t kFixedChars = 344;

// A number with `digits` decimals, whatever the locale, and never "-0.000":
// written into `buf` (kFixedChars bytes), the end returned.
inline char* fixed_chars(char* buf, double v, int digits) {
  char* end = std::to_chars(buf, buf + kFixedChars, v, std::chars_format::fixed, digits).ptr;
  if (buf[0] == '-' && std::all_of(buf + 1, end, [](char c) { return c == '0' || c == '.'; })) {
    std::memmove(buf, buf + 1, static_cast<size_t>(end - buf - 1));
    --end;
  }
  return end;
}

// A CSV field written with fixed_chars, straight into the CsvText.
struct Fixed {
  double value;
  int digits = 6;
};

class CsvText {
 public:
  static constexpr size_t kChunkBytes = size_t{1} << 20;  // large enough that a write(2) per chunk is cheap

  CsvText() = default;
  // The buffer starts small and doubles up to a chunk: the many small tables
  // of a sweep's points should not each fill a megabyte (and fault its pages in).
  explicit CsvText(ByteSink& sink, size_t chunk_bytes = kChunkBytes)
      : sink_(&sink), chunk_(chunk_bytes), text_(std::min(chunk_bytes, kFirstBytes), '\0') {}
  CsvText(const CsvText&) = delete;
  CsvText& operator=(const CsvText&) = delete;

  CsvText& operator<<(char c) {
    *room(1) = c;
    ++used_;
    return *this;
  }
  CsvText& operator<<(std::string_view s) {
    std::memcpy(room(s.size()), s.data(), s.size());
    used_ += s.size();
    return *this;
  }
  CsvText& operator<<(const std::string& s) { return *this << std::string_view(s); }
  CsvText& operator<<(const char* s) { return *this << std::string_view(s); }

  // Every integer type but char and bool, written in decimal as a stream would.
  template <typename Int,
            typename = std::enable_if_t<std::is_integral_v<Int> && !std::is_same_v<Int, char> &&
                                        !std::is_same_v<Int, bool>>>
  CsvText& operator<<(Int v) {
    constexpr size_t kDigits = 24;  // the longest 64-bit integer, sign included, fits
    char* at = room(kDigits);
    used_ = static_cast<size_t>(std::to_chars(at, at + kDigits, v).ptr - text_.data());
    return *this;
  }

  CsvText& operator<<(Fixed f) {
    char* at = room(kFixedChars);
    used_ = static_cast<size_t>(fixed_chars(at, f.value, f.digits) - text_.data());
    return *this;
  }

  // Without a sink: room for `bytes` in all, so that a table of known size grows once.
  void reserve(size_t bytes) {
    if (!sink_ && bytes > text_.size()) text_.resize(bytes);
  }
  // With a sink: sends what is buffered (the writer calls it once, at the end).
  void flush() {
    if (!sink_) return;
    if (used_ > 0) sink_->write(std::string_view(text_.data(), used_));
    used_ = 0;
  }
  // Bytes written and not yet sent to the sink.
  size_t buffered() const { return used_; }
  std::string str() const& { return text_.substr(0, used_); }
  std::string str() && {
    text_.resize(used_);
    return std::move(text_);
  }

 private:
  // Where the next `bytes` go: the string is kept at its capacity and used_
  // counts the written part, so a field is one bound check and a copy
  // (std::string's own appends cost a call each, and iterator ones twice that).
  char* room(size_t bytes) {
    if (__builtin_expect(used_ + bytes > text_.size(), 0)) make_room(bytes);
    return text_.data() + used_;
  }
  // Out of line, so that room() stays small enough to inline into every field.
  // With a sink, a buffer of a chunk is emptied into it instead of grown (it
  // grows past a chunk only for a single field longer than one).
  [[gnu::noinline]] void make_room(size_t bytes) {
    if (sink_ && text_.size() >= chunk_) flush();
    if (used_ + bytes <= text_.size()) return;
    const size_t doubled = std::max(2 * text_.size(), used_ + bytes + 256);
    text_.resize(sink_ ? std::max(std::min(doubled, chunk_), used_ + bytes) : doubled);
  }

  static constexpr size_t kFirstBytes = 4096;
  ByteSink* sink_ = nullptr;
  size_t chunk_ = 0;
  std::string text_;
  size_t used_ = 0;
};

// fixed_chars as a string.
inline std::string fixed_text(double v, int digits) {
  char buf[kFixedChars];
  return std::string(buf, fixed_chars(buf, v, digits));
}

}  // namespace wormsim

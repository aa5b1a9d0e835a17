// A file written in chunks and replaced atomically: the bytes go to a
// temporary file beside the target (PATH.tmp.PID) as they come, their size and
// CRC-32 are kept as they pass, and commit() flushes the file to disk and
// renames it over the target. Readers see the old file or the complete new
// one, never a part; a writer destroyed before commit() (an exception, a full
// disk) removes its temporary file. So a table of any size costs one bounded
// buffer, not the whole text (docs/performance.md, "Memory").
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace wormsim {

// Where a CsvText sends its full chunks (sim/csv_text.hpp).
class ByteSink {
 public:
  virtual ~ByteSink() = default;
  virtual void write(std::string_view bytes) = 0;
};

// The CRC-32 of `bytes` continued from `crc` (0 for the first bytes): zlib's,
// which Python's zlib.crc32 computes too.
uint32_t crc32_update(uint32_t crc, std::string_view bytes);

class StreamedFile final : public ByteSink {
 public:
  // Creates the temporary file; the target gets `mode` when given (>= 0), else
  // 0644 less the umask. Throws std::runtime_error naming `path`.
  explicit StreamedFile(std::string path, int mode = -1);
  ~StreamedFile() override;
  StreamedFile(const StreamedFile&) = delete;
  StreamedFile& operator=(const StreamedFile&) = delete;

  // Appends; throws std::runtime_error naming the target (the temporary file is removed).
  void write(std::string_view bytes) override;
  // Syncs, closes and renames over the target (or over `target`, when given).
  // Throws std::runtime_error.
  void commit(const std::string& target = "");
  // Hands what has been written so far, in chunks, to `take` (a file used as
  // spill space is read back instead of committed). Throws std::runtime_error.
  void read_back(const std::function<void(std::string_view)>& take) const;

  // Written without a CRC-32: a spill file that is read back, never
  // committed, needs none, and one that may be needs it only then
  // (checksum_written).
  void without_checksum() { checksummed_ = false; }
  // Computes the CRC-32 of what was written, reading it back, so that it can
  // be committed. Throws std::runtime_error.
  void checksum_written();

  uint64_t bytes() const { return bytes_; }
  // Where the bytes are until commit().
  const std::string& temporary_path() const { return tmp_; }
  uint32_t crc32() const { return crc_; }

 private:
  [[noreturn]] void fail(const std::string& what, int err);

  std::string path_, tmp_;
  int fd_ = -1;
  uint64_t bytes_ = 0;
  uint32_t crc_ = 0;
  bool checksummed_ = true;
};

}  // namespace wormsim

#include "sim/streamed_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

#include <zlib.h>

#include "sim/atomic_file.hpp"

namespace wormsim {

uint32_t crc32_update(uint32_t crc, std::string_view bytes) {
  // zlib takes at most a uInt's worth at a time.
  uLong c = crc;
  const auto* data = reinterpret_cast<const Bytef*>(bytes.data());
  for (size_t done = 0; done < bytes.size();) {
    const uInt n = static_cast<uInt>(std::min<size_t>(bytes.size() - done, 1u << 30));
    c = ::crc32(c, data + done, n);
    done += n;
  }
  return static_cast<uint32_t>(c);
}

StreamedFile::StreamedFile(std::string path, int mode)
    : path_(std::move(path)), tmp_(path_ + ".tmp." + std::to_string(::getpid())) {
  fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) throw std::runtime_error(path_ + ": cannot write: " + std::strerror(errno));
  if (mode >= 0) ::fchmod(fd_, static_cast<mode_t>(mode));
}

StreamedFile::~StreamedFile() {
  if (fd_ < 0) return;
  ::close(fd_);
  ::unlink(tmp_.c_str());
}

void StreamedFile::fail(const std::string& what, int err) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  ::unlink(tmp_.c_str());
  throw std::runtime_error(path_ + ": " + what + ": " + std::strerror(err));
}

void StreamedFile::write(std::string_view bytes) {
  if (fd_ < 0) throw std::logic_error(path_ + ": written after it was committed or failed");
  if (checksummed_) crc_ = crc32_update(crc_, bytes);
  bytes_ += bytes.size();
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("cannot write", errno);
    }
    done += static_cast<size_t>(n);
  }
}

void StreamedFile::commit(const std::string& target) {
  if (fd_ < 0) throw std::logic_error(path_ + ": committed twice or after it failed");
  if (!checksummed_) throw std::logic_error(path_ + ": committed without its CRC-32");
  if (!target.empty()) path_ = target;
  // In a batch (wormsim batch) one syncfs covers every point's files (defer_syncs).
  if (!syncs_deferred() && ::fsync(fd_) != 0) fail("cannot write", errno);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmp_.c_str());
    throw std::runtime_error(path_ + ": cannot write: " + std::strerror(err));
  }
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp_.c_str());
    throw std::runtime_error(path_ + ": cannot replace: " + std::strerror(err));
  }
}

void StreamedFile::read_back(const std::function<void(std::string_view)>& take) const {
  if (fd_ < 0) throw std::logic_error(path_ + ": read back after it was committed or failed");
  const int in = ::open(tmp_.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) throw std::runtime_error(tmp_ + ": cannot read: " + std::strerror(errno));
  // Small, and not zeroed: a fresh megabyte would cost a page fault per 4 KiB (docs/performance.md, "Start-up").
  constexpr size_t kChunk = size_t{64} << 10;
  const std::unique_ptr<char[]> chunk(new char[kChunk]);
  uint64_t got_all = 0;
  for (;;) {
    const ssize_t n = ::read(in, chunk.get(), kChunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(in);
      throw std::runtime_error(tmp_ + ": cannot read: " + std::strerror(err));
    }
    if (n == 0) break;
    got_all += static_cast<uint64_t>(n);
    take(std::string_view(chunk.get(), static_cast<size_t>(n)));
  }
  ::close(in);
  if (got_all != bytes_) throw std::runtime_error(tmp_ + ": read back " + std::to_string(got_all) + " of " +
                                                  std::to_string(bytes_) + " bytes written");
}

void StreamedFile::checksum_written() {
  uint32_t crc = 0;
  read_back([&crc](std::string_view bytes) { crc = crc32_update(crc, bytes); });
  crc_ = crc;
  checksummed_ = true;
}

}  // namespace wormsim

#include "sim/output_set.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <spdlog/spdlog.h>

#include "sim/atomic_file.hpp"
#include "sim/csv_text.hpp"
#include "sim/streamed_file.hpp"

namespace wormsim {

namespace fs = std::filesystem;

namespace {

std::string errno_text() { return std::strerror(errno); }

// Makes the removals and renames of a set durable in order, so that after a
// crash the folder never shows the new CSVs beside the old summary.
void sync_folder(const std::string& dir) {
  if (syncs_deferred()) return;
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// The pid the holder wrote into the lock file, for the refusal message.
std::string lock_holder(int fd) {
  char buf[32] = {};
  const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
  std::string pid = n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
  while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
  return pid.empty() ? std::string() : " (pid " + pid + ")";
}

// Opens and locks the folder's lock file. A holder removes the file before it
// lets go, so a lock taken on a file no longer at the path is dropped and
// taken again on the new one.
int take_lock(const std::string& lock, const std::string& dir) {
  constexpr int kAttempts = 100;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    const int fd = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0) throw std::runtime_error(dir + ": cannot write to output folder: " + errno_text());
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const std::string why = errno == EWOULDBLOCK ? "another wormsim run is writing to this folder" + lock_holder(fd)
                                                   : "cannot lock " + lock + ": " + errno_text();
      ::close(fd);
      throw std::runtime_error(dir + ": " + why + "; refusing to start");
    }
    struct stat held {}, named {};
    if (::fstat(fd, &held) == 0 && ::stat(lock.c_str(), &named) == 0 && held.st_ino == named.st_ino &&
        held.st_dev == named.st_dev)
      return fd;
    ::close(fd);
  }
  throw std::runtime_error(dir + ": cannot lock " + lock + ": it keeps being replaced");
}

}  // namespace

std::string crc32_hex(uint32_t crc) {
  char buf[9];
  std::snprintf(buf, sizeof buf, "%08x", crc);
  return buf;
}

uint32_t crc32_of(const std::string& bytes) { return crc32_update(0, bytes); }

OutputSet::OutputSet(std::string dir) : dir_(std::move(dir)) {
  if (dir_.empty()) dir_ = ".";
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) throw std::runtime_error(dir_ + ": cannot create output folder: " + ec.message());
  if (!fs::is_directory(dir_, ec)) throw std::runtime_error(dir_ + ": cannot create output folder: not a folder");
  lock_fd_ = take_lock(path_of(kLockFile), dir_);
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(lock_fd_, 0) != 0 || ::pwrite(lock_fd_, pid.data(), pid.size(), 0) < 0) {
    const std::string why = errno_text();
    release();
    throw std::runtime_error(dir_ + ": cannot write to output folder: " + why);
  }
  // The lock file may exist already: prove that new files can be created too.
  const std::string probe = path_of(".wormsim.probe." + std::to_string(::getpid()));
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    const std::string why = errno_text();
    release();
    throw std::runtime_error(dir_ + ": cannot write to output folder: " + why);
  }
  ::close(fd);
  ::unlink(probe.c_str());
}

OutputSet::~OutputSet() {
  if (background_.thread.joinable()) background_.thread.join();
  release();
}

// Removed while still held, so that a finished run leaves only its outputs;
// take_lock checks that the file it locked is still the one at the path.
void OutputSet::release() {
  if (lock_fd_ < 0) return;
  ::unlink(path_of(kLockFile).c_str());
  ::close(lock_fd_);
  lock_fd_ = -1;
}

std::string OutputSet::path_of(const std::string& name) const { return (fs::path(dir_) / name).string(); }

void OutputSet::begin() {
  if (begun_) return;
  std::vector<std::string> stale{kSummaryFile};
  for (const char* t : kTraceFiles) stale.push_back(t);
  for (const auto& name : stale) {
    const std::string p = path_of(name);
    if (::unlink(p.c_str()) != 0 && errno != ENOENT) throw std::runtime_error(p + ": cannot remove: " + errno_text());
  }
  remove_stale_temporaries();
  sync_folder(dir_);
  begun_ = true;
}

// Temporary files of runs killed while writing (name.tmp.PID, trace.vcd.tmp-PID.vcd).
// The lock guarantees that no live run owns one.
void OutputSet::remove_stale_temporaries() {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir_, ec)) {
    const std::string n = e.path().filename().string();
    const bool ours = n.rfind("trace.vcd.tmp-", 0) == 0 || n.find(".csv.tmp.") != std::string::npos ||
                      n.find(".json.tmp.") != std::string::npos;
    const std::string pid = std::to_string(::getpid());
    const bool mine = n == "trace.vcd.tmp-" + pid + ".vcd" ||
                      (n.size() > pid.size() + 5 && n.compare(n.size() - pid.size() - 5, std::string::npos, ".tmp." + pid) == 0);
    if (ours && !mine) fs::remove(e.path(), ec);
  }
}

void OutputSet::add(const std::string& name, const std::string& content) {
  begin();
  write_file_atomically(path_of(name), content);
  files_.push_back(OutputFile{name, content.size(), crc32_of(content)});
}

OutputFile OutputSet::write_streamed(const std::string& name, const std::function<void(CsvText&)>& fill) const {
  StreamedFile file(path_of(name));
  CsvText text(file);
  fill(text);
  text.flush();
  file.commit();
  return OutputFile{name, file.bytes(), file.crc32()};
}

void OutputSet::add_streamed(const std::string& name, const std::function<void(CsvText&)>& fill) {
  begin();
  files_.push_back(write_streamed(name, fill));
}

void OutputSet::add_streamed_in_background(const std::string& name, std::function<void(CsvText&)> fill,
                                           const std::string& after) {
  begin();
  wait_background();
  Background& b = background_;
  b.fill = std::move(fill);
  b.after = after;
  b.file = OutputFile{};
  b.error = nullptr;
  b.pending = true;
  const auto write = [this, name] {
    try {
      background_.file = write_streamed(name, background_.fill);
    } catch (...) {
      background_.error = std::current_exception();
    }
  };
  if (std::thread::hardware_concurrency() >= 2) {
    try {
      b.thread = std::thread(write);
      spdlog::debug("{}: written by a second thread", name);
      return;
    } catch (const std::exception&) {
      // No thread to be had (std::system_error, or no memory for its state): written now.
    }
  }
  write();
}

void OutputSet::wait_background() {
  Background& b = background_;
  if (!b.pending) return;
  if (b.thread.joinable()) b.thread.join();
  b.pending = false;
  b.fill = nullptr;
  if (b.error) std::rethrow_exception(b.error);
  auto at = std::find_if(files_.begin(), files_.end(), [&](const OutputFile& f) { return f.name == b.after; });
  files_.insert(at == files_.end() ? at : at + 1, b.file);
}

void OutputSet::add_written(const std::string& name, StreamedFile& file) {
  begin();
  file.commit(path_of(name));
  files_.push_back(OutputFile{name, file.bytes(), file.crc32()});
}

void OutputSet::adopt(const std::string& name, const std::string& written_path) {
  begin();
  // CRC'd in chunks: a long run's VCD can be larger than memory.
  std::ifstream in(written_path, std::ios::binary);
  if (!in) throw std::runtime_error(written_path + ": cannot read: " + errno_text());
  std::string chunk(1 << 20, '\0');
  uint64_t bytes = 0;
  uint32_t crc = 0;
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    const auto got = static_cast<size_t>(in.gcount());
    crc = crc32_update(crc, std::string_view(chunk.data(), got));
    bytes += got;
  }
  if (in.bad()) throw std::runtime_error(written_path + ": cannot read");
  const std::string target = path_of(name);
  if (std::rename(written_path.c_str(), target.c_str()) != 0)
    throw std::runtime_error(target + ": cannot replace: " + errno_text());
  files_.push_back(OutputFile{name, bytes, crc});
}

void OutputSet::commit(const std::string& summary) {
  begin();
  wait_background();
  sync_folder(dir_);
  write_file_atomically(path_of(kSummaryFile), summary);
  sync_folder(dir_);
}

}  // namespace wormsim

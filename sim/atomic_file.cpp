#include "sim/atomic_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>

#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <unistd.h>

#include "sim/streamed_file.hpp"

namespace wormsim {

namespace {

namespace fs = std::filesystem;

bool g_syncs_deferred = false;

// Writes all of `content` to fd; returns 0 or the errno of the failure.
int write_all(int fd, const std::string& content) {
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    done += static_cast<size_t>(n);
  }
  return 0;
}

// Follows a chain of symlinks to the path they finally name (which may not
// exist yet), as open(2) would; bounded like the kernel's ELOOP limit.
fs::path final_target(const std::string& path) {
  constexpr int kMaxLinks = 40;
  fs::path p(path);
  for (int i = 0; i < kMaxLinks; ++i) {
    std::error_code ec;
    if (!fs::is_symlink(fs::symlink_status(p, ec))) return p;
    const fs::path to = fs::read_symlink(p, ec);
    if (ec) throw std::runtime_error(path + ": cannot read symlink: " + ec.message());
    p = to.is_absolute() ? to : p.parent_path() / to;
  }
  throw std::runtime_error(path + ": cannot write: too many levels of symbolic links");
}

void write_in_place(const std::string& shown, const fs::path& target, const std::string& content) {
  const int fd = ::open(target.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(shown + ": cannot write: " + std::strerror(errno));
  const int err = write_all(fd, content);
  if (err != 0 || ::close(fd) != 0) {
    if (err == 0) throw std::runtime_error(shown + ": cannot write: " + std::strerror(errno));
    ::close(fd);
    throw std::runtime_error(shown + ": cannot write: " + std::strerror(err));
  }
}

}  // namespace

void defer_syncs() { g_syncs_deferred = true; }
bool syncs_deferred() { return g_syncs_deferred; }

void write_stdout(const std::string& content) {
  std::cout << content << std::flush;
  if (!std::cout || std::fflush(stdout) != 0 || std::ferror(stdout))
    throw std::runtime_error(std::string("standard output: cannot write: ") + std::strerror(errno ? errno : EIO));
}

void write_output_file(const std::string& path, const std::string& content) {
  if (path == "-") {
    write_stdout(content);
    return;
  }
  const fs::path target = final_target(path);
  struct stat st {};
  if (::stat(target.c_str(), &st) != 0) {
    if (errno != ENOENT) throw std::runtime_error(path + ": cannot write: " + std::strerror(errno));
    write_file_atomically(target.string(), content);
    return;
  }
  if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
    write_in_place(path, target, content);
  } else if (S_ISREG(st.st_mode)) {
    write_file_atomically(target.string(), content, static_cast<int>(st.st_mode & 07777));  // keeps its permissions
  } else {
    throw std::runtime_error(path + ": cannot write: " +
                             std::string(S_ISDIR(st.st_mode) ? "it is a folder" : "not a regular file, character device or FIFO"));
  }
}

void write_file_atomically(const std::string& path, const std::string& content, int mode) {
  StreamedFile file(path, mode);
  file.write(content);
  file.commit();
}

}  // namespace wormsim

#include "schedules/input_file.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>

namespace wormsim {

namespace {

const char* kind_of(mode_t m) {
  if (S_ISDIR(m)) return "a folder";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISSOCK(m)) return "a socket";
  return "not a file";
}

}  // namespace

std::string read_input_file(const std::string& path) {
  struct stat st {};
  if (path.empty()) throw InputFileError("the path is empty");
  if (::stat(path.c_str(), &st) != 0) throw InputFileError(std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw InputFileError(std::string("not a regular file (") + kind_of(st.st_mode) + ")");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputFileError(std::strerror(errno));
  // Not `stream << rdbuf()`: it swallows a failed allocation and leaves the text
  // cut short, which would then be reported as invalid input instead of out of memory.
  std::string text;
  try {
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } catch (const std::ios_base::failure&) {  // libstdc++'s filebuf throws on a read error (EIO, say)
    throw InputFileError(std::string("read failed: ") + std::strerror(errno));
  }
  if (in.bad()) throw InputFileError(std::string("read failed: ") + std::strerror(errno));
  return text;
}

}  // namespace wormsim

#include "sim/vcd_header.hpp"

#include <cerrno>
#include <fstream>
#include <system_error>

namespace wormsim {

void blank_vcd_date(const std::string& path) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  if (!f) throw std::system_error(errno, std::generic_category(), path);
  // The header comes first; the date block is within its first few hundred bytes.
  std::string head(512, '\0');
  f.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(f.gcount()));
  f.clear();
  const size_t open = head.find("$date");
  if (open == std::string::npos) return;
  const size_t from = open + 5;
  const size_t end = head.find("$end", from);
  if (end == std::string::npos) return;
  std::string text = head.substr(from, end - from);
  for (char& c : text)
    if (c != '\n') c = ' ';
  f.seekp(static_cast<std::streamoff>(from));
  f.write(text.data(), static_cast<std::streamsize>(text.size()));
  f.flush();
  if (!f) throw std::system_error(errno, std::generic_category(), path);
}

}  // namespace wormsim

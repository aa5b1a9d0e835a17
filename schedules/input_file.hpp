// Reads a whole input file (a config or a schedule) after checking that it is
// one: a FIFO, a device or a folder named as an input would hang the reader or
// give a confusing error, so they are refused by name.
#pragma once

#include <stdexcept>
#include <string>

namespace wormsim {

// Thrown with what is wrong, without the path (callers place it where their messages put it).
class InputFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The file's bytes. Throws InputFileError with the reason alone: the system's
// ("No such file or directory"), or "not a regular file (a FIFO)" and the like.
std::string read_input_file(const std::string& path);

}  // namespace wormsim

// Problems found in an input file, each with where it is (file, step, message,
// field) and what was expected. Loaders collect them all instead of stopping at
// the first, so a user fixes a file in one pass.
#pragma once

#include <string>
#include <vector>

namespace wormsim {

struct Diagnostic {
  enum class Severity { Error, Warning };
  Severity severity = Severity::Error;
  std::string where;  // e.g. "step 3, message 2, field \"dst\""
  std::string what;
};

class Diagnostics {
 public:
  explicit Diagnostics(std::string file = {}) : file_(std::move(file)) {}
  void error(std::string where, std::string what);
  void warning(std::string where, std::string what);
  bool has_errors() const { return errors_ > 0; }
  int errors() const { return errors_; }
  int warnings() const { return static_cast<int>(items_.size()) - errors_; }
  const std::vector<Diagnostic>& items() const { return items_; }
  const std::string& file() const { return file_; }
  // One line per problem: "FILE: WHERE: error: WHAT", at most `limit` lines and a count of the rest.
  std::string format(size_t limit = 50) const;
  // Turns every warning into an error (--strict).
  void promote_warnings();

 private:
  std::string file_;
  std::vector<Diagnostic> items_;
  int errors_ = 0;
};

// "step 3, message 2, field \"dst\"" (1-based numbers, as people count).
std::string message_location(size_t step, size_t index, const std::string& field = {});

}  // namespace wormsim

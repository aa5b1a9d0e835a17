// Problems found in an input file, each with where it is (file, step, message,
// field) and what was expected. Loaders collect them all instead of stopping at
// the first, so a user fixes a file in one pass.
#pragma once

#include <cstddef>
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
  // Problems kept per severity; beyond it they are only counted. A big schedule
  // can raise a warning per message, and nobody reads the millionth: keeping
  // them all cost more memory than the schedule itself (docs/reliability.md).
  static constexpr size_t kMaxKeptPerSeverity = 1000;

  explicit Diagnostics(std::string file = {}) : file_(std::move(file)) {}
  void error(std::string where, std::string what);
  void warning(std::string where, std::string what);
  bool has_errors() const { return errors_ > 0; }
  // All problems found, kept or not.
  long long errors() const { return static_cast<long long>(errors_); }
  long long warnings() const { return static_cast<long long>(warnings_); }
  // The problems kept (at most kMaxKeptPerSeverity of each severity), in the order found.
  const std::vector<Diagnostic>& items() const { return items_; }
  // Warnings found but not kept.
  long long warnings_not_kept() const { return static_cast<long long>(warnings_ - kept_warnings_); }
  const std::string& file() const { return file_; }
  // One line per problem: "FILE: WHERE: error: WHAT", at most `limit` lines and a count of the rest.
  std::string format(size_t limit = 50) const;
  // Turns every warning into an error (--strict).
  void promote_warnings();

 private:
  void add(Diagnostic::Severity severity, std::string where, std::string what);

  std::string file_;
  std::vector<Diagnostic> items_;
  size_t errors_ = 0, warnings_ = 0;
  size_t kept_errors_ = 0, kept_warnings_ = 0;
};

// "step 3, message 2, field \"dst\"" (1-based numbers, as people count).
std::string message_location(size_t step, size_t index, const std::string& field = {});

}  // namespace wormsim

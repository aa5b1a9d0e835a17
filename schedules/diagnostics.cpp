#include "schedules/diagnostics.hpp"

namespace wormsim {

void Diagnostics::add(Diagnostic::Severity severity, std::string where, std::string what) {
  const bool error = severity == Diagnostic::Severity::Error;
  size_t& kept = error ? kept_errors_ : kept_warnings_;
  ++(error ? errors_ : warnings_);
  if (kept == kMaxKeptPerSeverity) return;
  ++kept;
  items_.push_back({severity, std::move(where), std::move(what)});
}

void Diagnostics::error(std::string where, std::string what) {
  add(Diagnostic::Severity::Error, std::move(where), std::move(what));
}

void Diagnostics::warning(std::string where, std::string what) {
  add(Diagnostic::Severity::Warning, std::move(where), std::move(what));
}

void Diagnostics::promote_warnings() {
  for (auto& d : items_) d.severity = Diagnostic::Severity::Error;
  errors_ += warnings_;
  kept_errors_ += kept_warnings_;
  warnings_ = kept_warnings_ = 0;
}

std::string Diagnostics::format(size_t limit) const {
  std::string out;
  size_t shown = 0;
  for (const auto& d : items_) {
    if (shown == limit) break;
    out += file_.empty() ? std::string() : file_ + ": ";
    if (!d.where.empty()) out += d.where + ": ";
    out += d.severity == Diagnostic::Severity::Error ? "error: " : "warning: ";
    out += d.what + "\n";
    ++shown;
  }
  const size_t total = errors_ + warnings_;
  if (total > shown)
    out += (file_.empty() ? std::string() : file_ + ": ") + "... and " + std::to_string(total - shown) +
           " more problems\n";
  return out;
}

std::string message_location(size_t step, size_t index, const std::string& field) {
  std::string s = "step " + std::to_string(step + 1) + ", message " + std::to_string(index + 1);
  if (!field.empty()) s += ", field \"" + field + "\"";
  return s;
}

}  // namespace wormsim

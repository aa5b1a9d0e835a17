#include "schedules/diagnostics.hpp"

namespace wormsim {

void Diagnostics::error(std::string where, std::string what) {
  items_.push_back({Diagnostic::Severity::Error, std::move(where), std::move(what)});
  ++errors_;
}

void Diagnostics::warning(std::string where, std::string what) {
  items_.push_back({Diagnostic::Severity::Warning, std::move(where), std::move(what)});
}

void Diagnostics::promote_warnings() {
  for (auto& d : items_) d.severity = Diagnostic::Severity::Error;
  errors_ = static_cast<int>(items_.size());
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
  if (items_.size() > shown)
    out += (file_.empty() ? std::string() : file_ + ": ") + "... and " +
           std::to_string(items_.size() - shown) + " more problems\n";
  return out;
}

std::string message_location(size_t step, size_t index, const std::string& field) {
  std::string s = "step " + std::to_string(step + 1) + ", message " + std::to_string(index + 1);
  if (!field.empty()) s += ", field \"" + field + "\"";
  return s;
}

}  // namespace wormsim

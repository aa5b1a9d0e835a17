#include "sim/warmup_detector.hpp"

#include <algorithm>
#include <cmath>

namespace wormsim {

namespace {

double relative_change(double current, double previous) {
  if (current == 0.0) return previous == 0.0 ? 0.0 : 1.0;
  return std::fabs(current - previous) / current;
}

}  // namespace

uint64_t WarmupDetector::sample_end() const {
  const uint64_t start = samples_.empty() ? 0 : samples_.back().end;
  return std::min(start + spec_.sample, spec_.max);
}

bool WarmupDetector::close_sample(uint64_t ejected_total) {
  WarmupSample s;
  s.start = samples_.empty() ? 0 : samples_.back().end;
  s.end = sample_end();
  s.delivered = count_;
  s.ejected_flits = ejected_total - ejected_before_;
  s.latency = count_ ? static_cast<double>(latency_sum_) / static_cast<double>(count_) : 0.0;
  s.accepted = static_cast<double>(s.ejected_flits) / static_cast<double>(s.end - s.start) /
               static_cast<double>(endpoints_);
  if (!samples_.empty()) {
    const WarmupSample& prev = samples_.back();
    s.latency_change = relative_change(s.latency, prev.latency);
    s.accepted_change = relative_change(s.accepted, prev.accepted);
    s.stable = s.latency_change < spec_.tolerance && s.accepted_change < spec_.tolerance;
  }
  samples_.push_back(s);
  count_ = 0;
  latency_sum_ = 0;
  ejected_before_ = ejected_total;
  return s.stable || s.end >= spec_.max;
}

}  // namespace wormsim

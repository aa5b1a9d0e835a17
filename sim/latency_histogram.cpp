#include "sim/latency_histogram.hpp"

#include <cmath>

namespace wormsim {

void LatencyHistogram::merge(const LatencyHistogram& other) {
  if (other.dense_.size() > dense_.size()) dense_.resize(other.dense_.size(), 0);
  for (size_t i = 0; i < other.dense_.size(); ++i) dense_[i] += other.dense_[i];
  for (const auto& [latency, n] : other.sparse_) sparse_[latency] += n;
  count_ += other.count_;
  sum_ += other.sum_;
}

uint64_t LatencyHistogram::percentile(double p) const {
  if (count_ == 0) return 0;
  const double rank = std::ceil(p / 100.0 * static_cast<double>(count_));
  const uint64_t want = rank < 1 ? 1 : static_cast<uint64_t>(rank);
  uint64_t seen = 0;
  for (size_t i = 0; i < dense_.size(); ++i) {
    seen += dense_[i];
    if (seen >= want) return i;
  }
  for (const auto& [latency, n] : sparse_) {
    seen += n;
    if (seen >= want) return latency;
  }
  return max();
}

uint64_t LatencyHistogram::max() const {
  if (!sparse_.empty()) return sparse_.rbegin()->first;
  for (size_t i = dense_.size(); i-- > 0;)
    if (dense_[i]) return i;
  return 0;
}

uint64_t LatencyHistogram::min() const {
  for (size_t i = 0; i < dense_.size(); ++i)
    if (dense_[i]) return i;
  return sparse_.empty() ? 0 : sparse_.begin()->first;
}

std::vector<std::pair<uint64_t, uint64_t>> LatencyHistogram::counts() const {
  std::vector<std::pair<uint64_t, uint64_t>> c;
  for (size_t i = 0; i < dense_.size(); ++i)
    if (dense_[i]) c.emplace_back(i, dense_[i]);
  c.insert(c.end(), sparse_.begin(), sparse_.end());
  return c;
}

LatencyStats LatencyHistogram::stats() const {
  LatencyStats s;
  if (count_ == 0) return s;
  s.mean = static_cast<double>(sum_) / static_cast<double>(count_);
  s.p50 = percentile(50);
  s.p99 = percentile(99);
  s.max = max();
  return s;
}

}  // namespace wormsim

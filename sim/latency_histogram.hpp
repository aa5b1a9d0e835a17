// Exact distribution of integer latencies (or of any integer figure: hop
// counts too), kept as counts per value: the
// percentiles equal the nearest-rank percentiles of the sorted list, while the
// memory grows with the number of distinct values, not of messages (a run of
// millions of packets keeps a few thousand counters).
#pragma once

#include <cstdint>
#include <cstddef>
#include <map>
#include <utility>
#include <vector>

namespace wormsim {

struct LatencyStats {
  double mean = 0.0;
  uint64_t p50 = 0, p99 = 0, max = 0;
};

class LatencyHistogram {
 public:
  void add(uint64_t latency) {
    if (latency < kDense) {
      if (latency >= dense_.size()) dense_.resize(static_cast<size_t>(latency) + 1, 0);
      ++dense_[static_cast<size_t>(latency)];
    } else {
      ++sparse_[latency];
    }
    ++count_;
    sum_ += latency;
  }
  void merge(const LatencyHistogram& other);
  uint64_t count() const { return count_; }
  // Nearest-rank percentile (p in 0..100); 0 when empty.
  uint64_t percentile(double p) const;
  uint64_t max() const;
  uint64_t min() const;  // 0 when empty
  LatencyStats stats() const;
  // (value, count) of every value seen, in increasing order.
  std::vector<std::pair<uint64_t, uint64_t>> counts() const;

 private:
  // Counts of the common short latencies by index, of the rare long ones by value.
  static constexpr uint64_t kDense = 4096;
  std::vector<uint64_t> dense_;
  std::map<uint64_t, uint64_t> sparse_;
  uint64_t count_ = 0;
  uint64_t sum_ = 0;  // exact: a double sum would depend on the order of the messages
};

}  // namespace wormsim

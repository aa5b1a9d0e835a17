// Adaptive warm-up (traffic.warmup_cycles: auto; docs/load-studies.md,
// "Adaptive warm-up"), with BookSim's convergence test: the warm-up runs in
// samples of `sample` cycles; after each, the mean latency of the background
// packets delivered during the sample (from creation) and the accepted rate
// (flits ejected during the sample per endpoint per cycle) are compared with
// the previous sample's. When both relative changes |cur - prev| / cur are
// below `tolerance`, the network is warm and the measurement window opens at
// the end of that sample. A warm-up that has not stabilised by `max` cycles
// ends there anyway, and the run says so (stabilised: false).
#pragma once

#include <cstdint>
#include <vector>

namespace wormsim {

struct WarmupSpec {
  bool automatic = false;  // traffic.warmup_cycles: auto
  uint64_t sample = 1000;  // traffic.warmup_sample_cycles
  double tolerance = 0.05; // traffic.warmup_tolerance
  uint64_t max = 20000;    // traffic.warmup_max_cycles
};

// One warm-up sample, as warmup.csv gives it.
struct WarmupSample {
  uint64_t start = 0, end = 0;  // cycles [start, end)
  uint64_t delivered = 0;       // background packets delivered during the sample
  uint64_t ejected_flits = 0;   // flits ejected during the sample (any packet)
  double latency = 0.0;         // mean packet latency of those delivered (0 if none)
  double accepted = 0.0;        // flits per endpoint per cycle
  // |this - previous| / this, 0 when both are 0 and 1 when only this one is; -1 for the first sample.
  double latency_change = -1.0, accepted_change = -1.0;
  bool stable = false;          // both changes below the tolerance
};

class WarmupDetector {
 public:
  WarmupDetector(const WarmupSpec& spec, int endpoints) : spec_(spec), endpoints_(endpoints) {}

  // A background packet's tail was ejected during the current sample.
  void delivered(uint64_t latency) {
    ++count_;
    latency_sum_ += latency;
  }
  // The cycle at which the current sample ends: the next multiple of the
  // sample length, or the cap.
  uint64_t sample_end() const;
  // Closes the current sample, given the flits ejected from cycle 0 to its
  // end. True when the warm-up is over: this sample is stable, or the cap is reached.
  bool close_sample(uint64_t ejected_total);
  bool stabilised() const { return !samples_.empty() && samples_.back().stable; }
  const std::vector<WarmupSample>& samples() const { return samples_; }
  const WarmupSpec& spec() const { return spec_; }

 private:
  WarmupSpec spec_;
  int endpoints_;
  std::vector<WarmupSample> samples_;
  uint64_t count_ = 0, latency_sum_ = 0, ejected_before_ = 0;
};

}  // namespace wormsim

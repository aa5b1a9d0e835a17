// Progress of a long run, logged at info level every few seconds of wall time:
// the cycle, the simulation rate, the messages delivered and, for a schedule,
// an estimate of the time left. Rides along as a traffic source that never
// releases anything, so it sees every stepped cycle and changes nothing.
#pragma once

#include <chrono>
#include <cstdint>

#include "models/traffic_source.hpp"

namespace wormsim {

class ProgressLog : public TrafficSource {
 public:
  // `messages`: the schedule's message count (0: none); `traffic_end`: the
  // cycle background traffic stops injecting (0: none); `interval_s`: seconds
  // between lines.
  ProgressLog(uint64_t messages, uint64_t traffic_end, double interval_s);

  void start(Network&, uint64_t) override {}
  void after_routers(Network& net, uint64_t now) override;
  void after_interfaces(Network&, uint64_t) override {}
  bool finished() const override { return true; }

 private:
  using Clock = std::chrono::steady_clock;
  void report(uint64_t now);

  uint64_t messages_, traffic_end_;
  std::chrono::duration<double> interval_;
  Clock::time_point started_, last_;
  uint64_t last_cycle_ = 0, delivered_ = 0, background_ = 0;
  uint32_t calls_ = 0;
};

}  // namespace wormsim

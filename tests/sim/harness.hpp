// Builds and runs one network in this process. SystemC allows one elaboration
// per process, so every TEST using this runs in its own process (ctest runs
// each discovered test separately).
#pragma once

#include <memory>

#include "models/network.hpp"
#include "schedules/schedule.hpp"
#include "sim/executor.hpp"
#include "sim/metrics.hpp"

namespace wormsim::test {

struct SimRun {
  std::unique_ptr<Topology> topo;
  std::unique_ptr<Network> net;
  std::unique_ptr<ScheduleExecutor> exec;
  const MessageRecord& msg(size_t id) const { return net->context().msgs.at(id); }
  RunMetrics metrics(int steps) const { return compute_metrics(*net, steps); }
};

inline NetworkParams default_params() {
  NetworkParams p;
  p.watchdog_cycles = 10000;
  p.max_cycles = 10'000'000;
  return p;
}

// Runs the schedule to the end (or until the watchdog / cycle limit stops it).
SimRun simulate(const Schedule& s, const NetworkParams& p, ExecutionMode mode);

// Message latency (tail ejection - release); fails the test if undelivered.
uint64_t latency(const SimRun& r, size_t id);

}  // namespace wormsim::test

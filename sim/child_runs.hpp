// Runs `wormsim run` at given traffic rates, each in a child process of this
// same binary (SystemC elaborates one network per process), up to `jobs` at a
// time, and reads each run's summary.json. Used by `wormsim saturate`.
#pragma once

#include <string>
#include <vector>

#include "sim/saturation_search.hpp"

namespace wormsim {

struct ChildRunSpec {
  std::string config;                  // the config every run starts from
  std::vector<std::string> overrides;  // the user's --set, before traffic.rate
  std::string runs_dir;                // each run writes to runs_dir/rate-R
  int jobs = 1;                        // runs at a time
  bool keep = false;                   // keep each run's folder (else removed once read)
};

// The folder a run at `rate` writes to.
std::string child_run_dir(const ChildRunSpec& spec, double rate);

// Measures `rates` (a PointRunner). A run that fails -- exit code not 0, killed,
// no readable summary.json with a load block -- throws std::runtime_error
// naming its rate, what happened, the tail of its stderr and its folder (kept).
// When several fail, the lowest rate is named, so the message does not depend
// on `jobs`.
std::vector<PointMeasure> run_children(const ChildRunSpec& spec, const std::vector<double>& rates);

}  // namespace wormsim

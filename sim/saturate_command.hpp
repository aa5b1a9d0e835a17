// `wormsim saturate CONFIG`: finds the saturation throughput of a measured
// load config by bisection on traffic.rate, each rate a `wormsim run` in a
// child process, and writes the latency-throughput curve (docs/load-studies.md,
// "Saturation search").
#pragma once

#include <string>
#include <vector>

namespace wormsim {

struct SaturateOptions {
  std::string config_path;
  std::vector<std::string> overrides;  // --set, passed to every run
  std::string out_dir;                 // --out; default: output.dir + "-saturate"
  std::string criterion = "throughput,latency,drain";
  double tolerance = 0.05;
  double latency_multiple = 3.0;
  double resolution = 0.02;
  double low = 0.0, high = 0.0;  // packets/node/cycle, when given
  bool low_given = false, high_given = false;  // else 1% of high; 1 flit/node/cycle
  int points = 8;
  double curve_to = 1.5;
  int jobs = 1;
  bool keep_runs = false;
  bool quiet = false;
};

int saturate_command(const SaturateOptions& opts);

}  // namespace wormsim

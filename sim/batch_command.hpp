// `wormsim batch BASE --points FILE`: many runs of one network in one process
// (docs/sweeps.md, "Batches"). The network is elaborated once, from the first
// point whose config loads; every point then runs in a child process forked
// from that elaborated, never-started network, so each point starts from the
// exact post-construction state (the kernel's copy-on-write restores it: there
// is no reset code to forget a member) and writes exactly what
// `wormsim run BASE --set ... --out DIR` writes. A point whose network differs
// (sim/batch_network.hpp) is refused, naming its line and the key; a point that
// fails does not stop the others.
#pragma once

#include <string>

namespace wormsim {

struct BatchOptions {
  std::string config_path;
  std::string points_path;
  double timeout = 0;  // seconds per point; 0: none
  bool strict = false;
  bool check = false;  // only `config check` each point
};

// Prints one JSON line per point on stdout, in the points' order, once every
// point has run and the outputs are on disk. Exit code: 0 when every point
// succeeded; kExitInputError for an unreadable points file (nothing runs);
// otherwise the highest of the points' exit codes (a refused point counts as
// kExitInputError, one killed by the time limit or not run after an interrupt
// as kExitIncomplete, one killed by a signal as kExitInternal).
int batch_command(const BatchOptions& opts);

}  // namespace wormsim

// `wormsim run`: config -> schedule -> validation -> elaboration -> simulation
// -> metrics -> output files. One process simulates one network (SystemC allows
// one elaboration per process).
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "models/topology.hpp"
#include "schedules/diagnostics.hpp"
#include "schedules/schedule.hpp"
#include "sim/config.hpp"

namespace wormsim {

// Process exit codes (docs/cli.md).
enum ExitCode : int {
  kExitOk = 0,
  kExitInputError = 1,   // bad config, schedule or option
  kExitUsage = 2,        // bad command line
  kExitIncomplete = 3,   // the run stopped before every message was delivered (deadlock, cycle limit, interrupt)
  kExitInternal = 4,     // a bug: an invariant failed
};

struct RunOptions {
  std::string config_path;
  std::vector<std::string> overrides;  // --set key=value
  std::string out_dir;                 // --out (overrides output.dir)
  bool strict = false;
  bool quiet = false;
  std::string trace;                   // --trace (overrides output.trace)
  double progress_seconds = 5.0;       // --progress: seconds between progress lines at info level (0: none)
};

// Loads the schedule a config names (file or generator), applies schedule.flits,
// and validates it against the network (`topo`, built from cfg.topology).
// Problems go to diag; returns false on errors.
bool prepare_schedule(const Config& cfg, const Topology& topo, Schedule& out, Diagnostics& diag);

// What load_run_inputs gives a run: the effective config, the network's
// topology (built once: the schedule, its checks and the network share it),
// the validated schedule, and the warnings to report in summary.json.
struct RunInputs {
  Config cfg;
  std::shared_ptr<const Topology> topology;
  Schedule schedule;
  std::vector<std::string> warnings;
};

// network_follows: the caller builds the network next, so a big network's
// router pool starts becoming resident while the schedule is prepared
// (models/prefault.hpp).
int load_run_inputs(const RunOptions& opts, RunInputs& in, bool network_follows = false);

int run_command(const RunOptions& opts);

class Network;
struct NetworkParams;
// The network a config elaborates (with its topology, Topology(cfg.topology)).
NetworkParams network_params(const Config& cfg);

// The part of run_command after load_run_inputs: elaborates the network (or
// runs on `built`, a network elaborated from a config with the same
// network_params and topology that has never run: `wormsim batch`), simulates
// and writes the output set. t0: when the run started, for the host timings.
int run_loaded(const RunOptions& opts, RunInputs& in, std::chrono::steady_clock::time_point t0, Network* built);

// `wormsim config check`: everything `run` checks before it simulates, and
// nothing else; prints one line on success.
int config_check_command(const RunOptions& opts);

}  // namespace wormsim

// Refusing work that would not fit in memory, before building it.
//
// Every command (run, schedule check / generate / draw / survey, and the
// schedule loader itself) adds up an estimate of its peak memory from what it
// is about to build, term by term, each term tied to the input key that drives
// it (network.dims, network.vcs, traffic.cycles, topology.dims, steps, ...).
// The cost constants are calibrated on measured peak RSS (docs/performance.md,
// "Memory"). A command whose estimate exceeds kMemoryFraction of the memory
// available to the process is refused with the estimate and the key of its
// largest term; allocation failures that get past the estimate are reported as
// ordinary errors by run_guarded().
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace wormsim {

// Share of the available memory a command may plan to use: the rest is slack for
// the estimate's error, the kernel and whatever else runs on the machine.
constexpr double kMemoryFraction = 0.8;

// One part of an estimate: the input key that drives it, what it is, its bytes.
struct MemoryTerm {
  std::string key;   // e.g. "network.buffer_flits", "topology.dims", "--dims"
  std::string what;  // e.g. "input buffers"
  double bytes = 0;
};

struct MemoryEstimate {
  std::string command;  // "run", "schedule check", ...
  std::string sizes;    // what was counted, e.g. "16777216 nodes, 0 messages"
  std::vector<MemoryTerm> terms;

  void add(std::string key, std::string what, double bytes);
  double total() const;
  // The largest term (the one to name when refusing); terms must not be empty.
  const MemoryTerm& dominant() const;
};

// How much memory the process may use, and how to say where that figure comes from.
struct AvailableMemory {
  double bytes = 0;    // 0: unknown (then nothing is refused)
  std::string phrase;  // "the machine has", "the address-space limit (ulimit -v) leaves"
};

// The least of physical memory, what RLIMIT_AS leaves this process (beyond
// its size when run_guarded started the command) and, under strict overcommit
// (vm.overcommit_memory = 2), what the machine's commit limit left when the
// command started (commit_left_after).
// Memory the command holds before its estimates count it (a run's routers'
// pool made resident while its schedule is prepared: models/prefault.hpp);
// available_memory() leaves it out until it is set back to 0.
void set_memory_held_early(double bytes);
AvailableMemory available_memory();
// Records the process's size and what the commit limit leaves, as the figures
// available_memory() measures from (run_guarded calls it as a command starts;
// before any call, available_memory() reads them afresh each time).
void note_command_start();

// The choice available_memory() makes, from its figures: `physical` (0: unknown),
// `address_space_left` and `commit_left` (+infinity: no such limit). A limit
// that leaves nothing still counts as 1 byte, so that everything is refused
// (0 would mean "unknown", which refuses nothing).
AvailableMemory tightest_memory(double physical, double address_space_left, double commit_left);

// Thrown when a command would need more than kMemoryFraction of the available
// memory. what(): "FILE: KEY: this COMMAND needs about ... refusing to start".
class MemoryRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The address space the process could still map once it had mapped `bytes`
// more: what the limit (ulimit -v) would leave, and under strict overcommit
// (vm.overcommit_memory = 2, where every writable private mapping counts
// against the machine's commit limit, touched or not) what that limit would
// leave; the smaller of the two, +infinity with neither.
double address_space_left_after(double bytes);

// The commit limit's share of it, from the texts of /proc/sys/vm/overcommit_memory
// and /proc/meminfo: CommitLimit - Committed_AS - `bytes` in mode 2; +infinity
// in any other mode, or when either figure cannot be read (nothing to go by).
double commit_left_after(double bytes, const std::string& overcommit_mode, const std::string& meminfo);

// Throws MemoryRefused unless `e` fits; `file` (may be empty) prefixes the message.
void require_memory(const MemoryEstimate& e, const std::string& file);

// "9.3 GiB" / "512.0 MiB".
std::string format_bytes(double bytes);

// Runs a command and turns allocation failures (std::bad_alloc, and the
// std::length_error of a size too large to allocate) and MemoryRefused into
// an error message on stderr and exit code `error_code`, instead of an abort.
int run_guarded(const std::function<int()>& command, int error_code);

}  // namespace wormsim

// Injection processes: when each node generates its background packets
// (traffic.injection). Each is a class in its own file under
// sim/traffic/injection/, registered with one WORMSIM_INJECTION_PROCESS(...)
// line and listed in sim/traffic/injection/registry.hpp. A process answers,
// for one node, the first cycle at or after `from` at which it generates a
// packet: the traffic source asks once per node at the start and once after
// each packet (from the next cycle), so idle cycles cost nothing.
// docs/config-reference.md defines each process and its parameters.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/traffic/random.hpp"

namespace wormsim {

struct BackgroundSpec;

class InjectionProcess {
 public:
  virtual ~InjectionProcess() = default;
  // The first cycle >= from at which `node` generates a packet (kNoArrival: never).
  virtual uint64_t next(int node, uint64_t from, TrafficRng& rng) = 0;
};

struct InjectionInfo {
  std::string name;     // what traffic.injection says
  std::string summary;  // one line
  // Returns when the spec's rate and parameters make sense for the process, else
  // throws std::invalid_argument saying what is wrong.
  void (*check)(const BackgroundSpec& spec) = nullptr;
  std::unique_ptr<InjectionProcess> (*make)(int endpoints, const BackgroundSpec& spec) = nullptr;
};

// Every registered process, in the order of sim/traffic/injection/registry.hpp.
const std::vector<InjectionInfo>& injection_registry();
const InjectionInfo* find_injection(const std::string& name);  // null if unknown
std::vector<std::string> injection_names();
// Checks then builds the process named by spec.injection; throws std::invalid_argument.
std::unique_ptr<InjectionProcess> make_injection(int endpoints, const BackgroundSpec& spec);

}  // namespace wormsim

// Declares a process to the registry (besides its line in sim/traffic/injection/registry.hpp).
// CLASS has a constructor (int endpoints, const BackgroundSpec&) and a static check(const BackgroundSpec&).
#define WORMSIM_INJECTION_PROCESS(ID, NAME, CLASS, SUMMARY)                                       \
  namespace wormsim::injection_processes {                                                        \
  InjectionInfo ID() {                                                                            \
    return InjectionInfo{NAME, SUMMARY, &CLASS::check,                                            \
                         [](int endpoints, const BackgroundSpec& s) -> std::unique_ptr<InjectionProcess> { \
                           return std::make_unique<CLASS>(endpoints, s);                          \
                         }};                                                                      \
  }                                                                                               \
  }

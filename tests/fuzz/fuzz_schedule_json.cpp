// libFuzzer target: the schedule loader must turn any byte string into either a
// schedule or diagnostics, never a crash, hang or sanitizer report. Valid
// schedules are also validated, analysed and written back, which must load again.
#include <cstddef>
#include <cstdint>
#include <string>

#include "models/memory_guard.hpp"
#include "schedules/analysis.hpp"
#include "schedules/schedule_json.hpp"
#include "schedules/validator.hpp"

namespace {
constexpr long long kMaxFuzzNodes = 4096;
constexpr size_t kMaxFuzzMessages = 20000;
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace wormsim;
  const std::string text(reinterpret_cast<const char*>(data), size);
  Schedule s;
  Diagnostics diag("fuzz.json");
  // Keep the per-input work bounded: the loader asks before it builds the
  // topology or any message, and huge but valid inputs stop there (the memory
  // estimates themselves are the commands' business, tested elsewhere).
  const ScheduleMemoryCheck bounded = [](const TopologySpec* topology, size_t messages, size_t, const std::string&) {
    if (topology && (Topology::validate(*topology) > kMaxFuzzNodes || messages > kMaxFuzzMessages))
      throw MemoryRefused("larger than the fuzz target's bounds");
  };
  try {
    if (!parse_schedule_json(text, s, diag, bounded)) {
      (void)diag.format();
      return 0;
    }
  } catch (const MemoryRefused&) {
    return 0;
  }
  validate_schedule(s, s.topology, PortModel{}, diag);
  if (diag.has_errors()) return 0;
  const Topology topo(s.topology);
  (void)analyze_schedule(s, topo);
  Schedule again;
  Diagnostics diag2("roundtrip.json");
  if (!parse_schedule_json(schedule_to_json(s), again, diag2, bounded)) __builtin_trap();  // writer and reader disagree
  return 0;
}

#ifdef WORMSIM_FUZZ_REPLAY
#include "tests/fuzz/replay.hpp"
int main(int argc, char** argv) { return wormsim::fuzz::replay_main(argc, argv); }
#endif

// libFuzzer target: the schedule loader must turn any byte string into either a
// schedule or diagnostics, never a crash, hang or sanitizer report. Valid
// schedules are also validated, analysed and written back, which must load again.
#include <cstddef>
#include <cstdint>
#include <string>

#include "schedules/analysis.hpp"
#include "schedules/schedule_json.hpp"
#include "schedules/validator.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace wormsim;
  const std::string text(reinterpret_cast<const char*>(data), size);
  Schedule s;
  Diagnostics diag("fuzz.json");
  if (!parse_schedule_json(text, s, diag)) {
    (void)diag.format();
    return 0;
  }
  // Keep the per-input work bounded: huge but valid networks are the simulator's
  // memory check's business, not the parser's.
  if (Topology::validate(s.topology) > 4096 || s.num_messages() > 20000) return 0;
  validate_schedule(s, s.topology, PortModel{}, diag);
  if (diag.has_errors()) return 0;
  const Topology topo(s.topology);
  (void)analyze_schedule(s, topo);
  Schedule again;
  Diagnostics diag2("roundtrip.json");
  if (!parse_schedule_json(schedule_to_json(s), again, diag2)) __builtin_trap();  // writer and reader disagree
  return 0;
}

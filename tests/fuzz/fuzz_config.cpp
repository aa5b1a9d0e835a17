// libFuzzer target: the YAML config loader must turn any byte string into a
// config or a ConfigError naming the file and key, never a crash or hang. A few
// --set overrides derived from the input exercise the override path too.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "sim/config.hpp"

namespace {

std::string scratch_path() {
  static const std::string path = "/tmp/wormsim-fuzz-config-" + std::to_string(::getpid()) + ".yaml";
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Input layout: config text, optionally followed by "\n---set\n" and one override per line.
  std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> overrides;
  const auto sep = text.find("\n---set\n");
  if (sep != std::string::npos) {
    std::string rest = text.substr(sep + 8);
    text.resize(sep);
    size_t pos = 0;
    while (pos < rest.size() && overrides.size() < 4) {
      const auto nl = rest.find('\n', pos);
      overrides.push_back(rest.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos));
      if (nl == std::string::npos) break;
      pos = nl + 1;
    }
  }
  FILE* f = std::fopen(scratch_path().c_str(), "wb");
  if (!f) return 0;
  std::fwrite(text.data(), 1, text.size(), f);
  std::fclose(f);
  try {
    (void)wormsim::load_config(scratch_path(), overrides);
  } catch (const wormsim::ConfigError& e) {
    const std::string what = e.what();
    if (what.rfind(scratch_path(), 0) != 0 && what.rfind("--set", 0) != 0) __builtin_trap();  // must say where
  }
  return 0;
}

// libsystemc.so references sc_main even when, as here, nothing is simulated;
// libFuzzer's main() drives the fuzz binary, so sc_main is never called there.
// The replay build has SystemC's main(), which calls sc_main. C linkage, as
// SystemC declares it (sysc/kernel/sc_externs.h), whose headers this file does not include.
#ifdef WORMSIM_FUZZ_REPLAY
#include "tests/fuzz/replay.hpp"
extern "C" int sc_main(int argc, char** argv) { return wormsim::fuzz::replay_main(argc, argv); }
#else
extern "C" int sc_main(int, char**) { return 0; }
#endif

// Replays fuzz inputs through a fuzz target's LLVMFuzzerTestOneInput in an
// ordinary build (gcc, no libFuzzer), linked exactly as the fuzz target is: the
// test suite then catches what only a fuzz binary would (a registration the
// linker dropped, a crash on a saved input) without a clang build.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace wormsim::fuzz {

// Every regular file under each argument (a file or a directory), in name order.
inline std::vector<std::filesystem::path> replay_inputs(int argc, char** argv) {
  std::vector<std::filesystem::path> files;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path arg(argv[i]);
    if (std::filesystem::is_directory(arg)) {
      for (const auto& e : std::filesystem::recursive_directory_iterator(arg))
        if (e.is_regular_file() && e.path().filename() != "README") files.push_back(e.path());
    } else {
      files.push_back(arg);
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

inline int replay_main(int argc, char** argv) {
  const auto files = replay_inputs(argc, argv);
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "replay: cannot read %s\n", f.c_str());
      return 2;
    }
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  }
  std::printf("replay: %zu inputs, no crash\n", files.size());
  return files.empty() ? 2 : 0;
}

}  // namespace wormsim::fuzz

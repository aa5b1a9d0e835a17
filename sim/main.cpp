// Entry point. SystemC prints its banner from sc_elab_and_sim() before sc_main
// runs, so the banner switch must be set in main(), which then hands over to
// SystemC as its own main() would.
#include <systemc>

#include <cstdio>
#include <cstdlib>

#include "sim/cli.hpp"

int sc_main(int argc, char** argv) {
  const int code = wormsim::cli_main(argc, argv);
  // Skip SystemC's teardown: destroying tens of thousands of modules one by one
  // is quadratic and all outputs are already written and flushed.
  std::fflush(stdout);
  std::fflush(stderr);
  std::_Exit(code);
}

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}

// The `wormsim` command line: subcommands and their options (docs/cli.md).
#pragma once

namespace wormsim {

// Parses argv and runs the chosen subcommand; returns the process exit code.
int cli_main(int argc, char** argv);

}  // namespace wormsim

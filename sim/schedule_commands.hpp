// The `wormsim schedule ...` subcommands and `wormsim algorithms`: generate,
// check, survey and draw schedules without simulating (docs/cli.md). Each
// returns the process exit code (sim/run.hpp) and reports problems on stderr.
#pragma once

#include <string>
#include <vector>

namespace wormsim {

struct CheckOptions {
  std::string file;
  std::string port_model = "one-port";
  std::string routing = "dimension-order";  // for messages without an explicit route
  bool json = false;
  bool strict = false;
};
int schedule_check(const CheckOptions& o);

struct GenerateOptions {
  std::string algorithm, topology = "mesh", source = "0", orientation = "paper", output;
  std::vector<int> dims;
  std::vector<std::string> params;
  int flits = 16;
};
int schedule_generate(const GenerateOptions& o);
// Static figures from every source (or the listed ones); `o.source` is ignored.
int schedule_survey(const GenerateOptions& o, const std::vector<std::string>& sources, bool json);

struct DrawOptions {
  std::string file, output;
  double cell = 56.0;
  bool no_labels = false, no_legend = false;
  int slices_per_row = 0;
  std::string title;
  std::string routing = "dimension-order";  // for messages without a route; deterministic functions only
};
int schedule_draw(const DrawOptions& o);

// One line per registered generator: "  name: summary".
std::string algorithm_list();

}  // namespace wormsim

// The `output` section: where and what a run writes. Not echoed in summary.json:
// the same run written to two folders gives the same bytes.
#include "sim/config_reader.hpp"

#include <filesystem>

namespace wormsim {

namespace {

using P = ParamDecl;

const ParamSection kOutputParams{
    "output", "output", "where a run writes its files, and which", {}, 60,
    {P::string("dir")
         .default_is("`out/NAME`, NAME the config file's name without its extension")
         .range("path")
         .not_echoed()
         .describe("output folder, created if needed; a relative path is relative to the working directory"),
     P::boolean("host_timing")
         .by_default(true)
         .not_echoed()
         .describe("write the host block (wall-clock figures) to summary.json"),
     P::choice("trace", {"none", "perfetto", "vcd"})
         .by_default("none")
         .not_echoed()
         .describe("also write a timeline: perfetto (trace.json) or vcd (trace.vcd)"),
     P::boolean("router_stats")
         .by_default(false)
         .not_echoed()
         .describe("also write per-router and per-VC buffer occupancy and allocation stalls (routers.csv, "
                   "vcs.csv), the hop-count distribution (hops.csv) and summary.json's router_stats block; over "
                   "the measurement window when traffic.measure_cycles is set"),
     P::choice("messages", {"all", "schedule"})
         .by_default("all")
         .not_echoed()
         .describe("rows of messages.csv and routes.csv: every message, or the schedule's only (smaller "
                   "files; summary.json is the same)")}};
WORMSIM_DECLARE_PARAMS(kOutputParams);

}  // namespace

void read_output(ConfigSection& s, Config& c) {
  s.check_keys();
  // Each config gets its own folder by default, so runs of different configs never meet.
  c.out_dir = s.has("dir") ? s.string("dir") : (std::filesystem::path("out") / std::filesystem::path(c.path).stem()).string();
  // An empty folder would put the outputs loose in the working directory, among whatever is there.
  if (c.out_dir.empty()) s.fail("dir", "expected a folder, got an empty string (\".\" is the working directory)", s.at("dir"));
  c.host_timing = s.boolean("host_timing");
  c.trace = s.choice("trace");
  c.router_stats = s.boolean("router_stats");
  c.background_rows = s.choice("messages") == "all";
}

}  // namespace wormsim

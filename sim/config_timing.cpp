// The `timing` section: the delays of the timing contract (docs/timing-model.md).
#include "sim/config_reader.hpp"

namespace wormsim {

namespace {

using P = ParamDecl;

const ParamSection kTimingParams{
    "timing", "timing", "the delays of the timing contract, in cycles", {}, 20,
    {P::integer("router_delay", 1, 1000)
         .by_default(1)
         .in("cycles")
         .describe("t_r: from a flit entering a router's buffer until it may leave"),
     P::integer("link_delay", 0, 1000).by_default(1).in("cycles").describe("t_l: time on a link"),
     P::integer("startup", 0, 1000000)
         .by_default(0)
         .in("cycles")
         .describe("t_s: from a message's release until its header may be injected"),
     P::integer("credit_delay", 1, 1000)
         .by_default(1)
         .in("cycles")
         .describe("from a buffer slot being freed until the upstream sender sees the credit")}};
WORMSIM_DECLARE_PARAMS(kTimingParams);

}  // namespace

void read_timing(ConfigSection& s, Config& c) {
  s.check_keys();
  c.timing.router_delay = static_cast<int>(s.integer("router_delay"));
  c.timing.link_delay = static_cast<int>(s.integer("link_delay"));
  c.timing.startup = static_cast<int>(s.integer("startup"));
  c.timing.credit_delay = static_cast<int>(s.integer("credit_delay"));
}

}  // namespace wormsim

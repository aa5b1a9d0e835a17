// Timing parameters of the network, in cycles. With an otherwise idle network a
// message of L flits over H >= 1 hops takes
//   startup + (H+1)*router_delay + H*link_delay + L - 1
// cycles from its release to the ejection of its tail (docs/timing-model.md),
// provided buffers cover the credit round trip (buffer_flits >=
// router_delay + link_delay + credit_delay); shallower buffers throttle worms.
#pragma once

namespace wormsim {

struct Timing {
  int router_delay = 1;  // t_r: cycles a flit spends in a router before it may leave (>= 1)
  int link_delay = 1;    // t_l: cycles on a link (>= 0)
  int startup = 0;       // t_s: cycles from a message's release until its header may enter the network
  int credit_delay = 1;  // cycles for a freed buffer slot to be seen upstream (>= 1)

  int credit_round_trip() const { return router_delay + link_delay + credit_delay; }
  long long zero_load_latency(long long hops, long long flits) const {
    return startup + (hops + 1) * router_delay + hops * link_delay + flits - 1;
  }
};

}  // namespace wormsim

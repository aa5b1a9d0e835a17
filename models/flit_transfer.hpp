// The moves a flit makes, in one place for the routers, the network interfaces
// and the express loop (models/express_worms.hpp), so that the loop's per-flit
// moves are the router's by construction rather than by copy.
//
// A move at cycle `now` frees the slot it leaves, which its sender sees free at
// now + credit_delay (models/channel.hpp); a flit put on a link may leave the
// next router at now + link_delay + router_delay; a flit put into an injection
// buffer may leave its router at now + router_delay.
#pragma once

#include <cstdint>

#include "models/channel.hpp"
#include "models/timing.hpp"

namespace wormsim {

class FlitTransfer {
 public:
  FlitTransfer(const Timing& t, uint64_t now)
      : seen_free_(now + static_cast<uint64_t>(t.credit_delay)),
        arrives_(now + static_cast<uint64_t>(t.link_delay + t.router_delay)),
        injected_ready_(now + static_cast<uint64_t>(t.router_delay)) {}

  // Takes the front flit out of `from`: it is ready, and where it goes holds a credit.
  Flit take(FlitQueue& from) const { return from.pop(seen_free_); }
  // The flit as it lands in the next router's buffer: a header moves on to its next hop.
  Flit across_link(Flit f) const {
    f.ready = arrives_;
    f.hop = static_cast<uint16_t>(f.hop + f.head);
    return f;
  }
  // The same for a body flit or tail, which has no hop to move on (the express loop's flits).
  Flit body_across_link(Flit f) const {
    f.ready = arrives_;
    return f;
  }
  // A flit of message `msg` as its interface puts it into the injection buffer.
  Flit injected(uint32_t msg, bool head, bool tail) const {
    Flit f;
    f.ready = injected_ready_;
    f.msg = msg;
    f.hop = 0;
    f.head = head;
    f.tail = tail;
    return f;
  }

 private:
  uint64_t seen_free_, arrives_, injected_ready_;
};

}  // namespace wormsim

#include "sim/message_retirement.hpp"

#include "models/network.hpp"

namespace wormsim {

MessageRetirement::MessageRetirement(int endpoints, const MeasurementWindow* window, bool hops, size_t classes)
    : window_(window), retired_(0, false, hops), in_window_(endpoints, hops) {
  if (classes) classes_.emplace(classes);
}

void MessageRetirement::after_routers(Network& net, uint64_t) {
  const SimContext& ctx = net.context();
  for (uint32_t id : ctx.delivered_now) {
    const MessageRecord& m = ctx.msgs[id];
    if (m.step >= 0) continue;
    retired_.add(ctx, m);
    if (window_) in_window_.add(m, *window_);
    if (classes_) classes_->add(m, window_);
    net.recycle(id);
    ++recycled_;
  }
}

}  // namespace wormsim

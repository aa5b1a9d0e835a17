#include "sim/message_retirement.hpp"

#include "models/network.hpp"

namespace wormsim {

MessageRetirement::MessageRetirement(int endpoints, const MeasurementWindow* window, bool hops, size_t classes,
                                     StreamedMessageRows* rows)
    : window_(window), rows_(rows), retired_(0, false, hops), in_window_(endpoints, hops) {
  if (classes) classes_.emplace(classes);
}

void MessageRetirement::after_routers(Network& net, uint64_t) {
  const SimContext& ctx = net.context();
  for (uint32_t id : ctx.delivered_now) {
    if (ctx.msgs[id].step >= 0) continue;
    if (!rows_) {
      retire(net, id);
      continue;
    }
    // Once its rows are written, in id order: it may wait for an earlier message.
    for (uint32_t done : rows_->delivered(id)) retire(net, done);
  }
}

void MessageRetirement::retire(Network& net, uint32_t id) {
  const SimContext& ctx = net.context();
  const MessageRecord& m = ctx.msgs[id];
  retired_.add(ctx, m);
  if (window_) in_window_.add(m, *window_);
  if (classes_) classes_->add(m, window_);
  net.recycle(id);
  ++recycled_;
}

}  // namespace wormsim

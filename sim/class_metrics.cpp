#include "sim/class_metrics.hpp"

#include "models/network.hpp"
#include "sim/background_traffic.hpp"

namespace wormsim {

void ClassTally::add(const MessageRecord& m, const MeasurementWindow* window) {
  if (m.step >= 0) return;
  const size_t c = class_of_step(m.step);
  if (c >= figures_.size()) return;
  ClassFigures& f = figures_[c];
  ++f.messages;
  const bool delivered = m.delivered != kNever;
  if (delivered) {
    ++f.delivered;
    f.flits_delivered += m.flits;
    f.latency.add(m.delivered - m.release);
  }
  if (!window || !window->in_window(m.release)) return;
  ++f.packets;
  f.offered_flits += m.flits;
  if (!delivered) return;
  ++f.window_delivered;
  f.packet.add(m.delivered - m.release);
  f.network.add(m.delivered - m.inject);
}

void ClassTally::merge(const ClassTally& other) {
  for (size_t c = 0; c < figures_.size() && c < other.figures_.size(); ++c) {
    ClassFigures& f = figures_[c];
    const ClassFigures& o = other.figures_[c];
    f.messages += o.messages;
    f.delivered += o.delivered;
    f.flits_delivered += o.flits_delivered;
    f.latency.merge(o.latency);
    f.packets += o.packets;
    f.window_delivered += o.window_delivered;
    f.offered_flits += o.offered_flits;
    f.packet.merge(o.packet);
    f.network.merge(o.network);
  }
}

ClassTally tally_classes(const Network& net, size_t classes, const MeasurementWindow* window,
                         const ClassTally* retired) {
  ClassTally t(classes);
  for (const MessageRecord& m : net.context().msgs)
    if (!m.free()) t.add(m, window);
  if (retired) t.merge(*retired);
  return t;
}

}  // namespace wormsim

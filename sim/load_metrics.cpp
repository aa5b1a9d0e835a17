#include "sim/load_metrics.hpp"

#include <algorithm>

namespace wormsim {

namespace {

// Per-endpoint counts over the window as rates (per cycle).
PerEndpoint per_endpoint(const std::vector<uint64_t>& counts, uint64_t cycles) {
  PerEndpoint p;
  if (counts.empty() || cycles == 0) return p;
  const double c = static_cast<double>(cycles);
  uint64_t lo = counts[0], hi = counts[0], sum = 0;
  for (uint64_t n : counts) {
    lo = std::min(lo, n);
    hi = std::max(hi, n);
    sum += n;
  }
  p.min = static_cast<double>(lo) / c;
  p.max = static_cast<double>(hi) / c;
  p.mean = static_cast<double>(sum) / c / static_cast<double>(counts.size());
  return p;
}

}  // namespace

void WindowTally::add(const MessageRecord& m, const MeasurementWindow& window) {
  if (m.step >= 0 || !window.in_window(m.release)) return;
  ++packets;
  offered[static_cast<size_t>(m.src)] += m.flits;
  if (m.delivered == kNever) return;
  ++delivered;
  packet.add(m.delivered - m.release);
  network.add(m.delivered - m.inject);
  if (count_hops) hops.add(m.hops);
}

void WindowTally::merge(const WindowTally& other) {
  packets += other.packets;
  delivered += other.delivered;
  for (size_t i = 0; i < offered.size() && i < other.offered.size(); ++i) offered[i] += other.offered[i];
  packet.merge(other.packet);
  network.merge(other.network);
  hops.merge(other.hops);
}

LoadMetrics compute_load_metrics(const Network& net, const MeasurementWindow& window, const WindowTally* retired,
                                 bool hops) {
  const SimContext& ctx = net.context();
  const WindowSpec& w = window.spec();
  LoadMetrics r;
  // An adaptive warm-up still running when the run stopped: the window never opened.
  r.warmup = window.warmup() == kNever ? net.cycle() : window.warmup();
  r.adaptive = window.adaptive();
  r.measure = w.measure;
  r.drain_limit = w.drain;
  r.saturated = window.saturated();
  const uint64_t drained = window.drained_at();
  r.drain_cycles = drained != kNever && drained >= window.window_end() ? drained - window.window_end() + 1 : 0;
  r.backlogged = window.backlogged();
  if (r.saturated && !r.backlogged) r.drain_cycles = w.drain;
  WindowTally tally(net.topology().num_endpoints(), hops);
  for (const MessageRecord& m : ctx.msgs)
    if (!m.free()) tally.add(m, window);
  if (retired) tally.merge(*retired);
  r.packets = tally.packets;
  r.delivered = tally.delivered;
  r.offered = per_endpoint(tally.offered, w.measure);
  r.accepted = per_endpoint(window.ejected_in_window(), w.measure);
  r.offered_packets = static_cast<double>(r.packets) / static_cast<double>(w.measure) /
                      static_cast<double>(tally.offered.size());
  r.packet_latency = tally.packet.stats();
  r.network_latency = tally.network.stats();
  r.hops = tally.hops;
  const PerEndpoint links = per_endpoint(window.carried_in_window(), w.measure);
  r.link_utilisation_mean = links.mean;
  r.link_utilisation_max = links.max;
  return r;
}

}  // namespace wormsim

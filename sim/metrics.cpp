#include "sim/metrics.hpp"

#include <algorithm>
#include <cmath>

namespace wormsim {

MessageView view_message(const SimContext& ctx, const MessageRecord& m) {
  MessageView v;
  v.zero_load = static_cast<uint64_t>(ctx.timing.zero_load_latency(m.hops, m.flits));
  v.delivered = m.delivered != kNever;
  if (m.inject != kNever && m.release != kNever) {
    const uint64_t earliest = m.release + static_cast<uint64_t>(ctx.timing.startup);
    v.port_wait = m.inject > earliest ? m.inject - earliest : 0;
  }
  if (!v.delivered) return v;
  v.latency = m.delivered - m.release;
  v.blocked = v.latency > v.zero_load ? v.latency - v.zero_load : 0;
  const uint64_t explained = v.port_wait + m.stall_step + m.stall_depth + m.stall_background;
  v.other = v.blocked > explained ? v.blocked - explained : 0;
  return v;
}

uint64_t percentile(const std::vector<uint64_t>& sorted, double p) {
  if (sorted.empty()) return 0;
  const double rank = std::ceil(p / 100.0 * static_cast<double>(sorted.size()));
  const size_t idx = rank < 1 ? 0 : static_cast<size_t>(rank) - 1;
  return sorted[std::min(idx, sorted.size() - 1)];
}

LatencyStats latency_stats(std::vector<uint64_t> v) {
  LatencyStats s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (uint64_t l : v) sum += static_cast<double>(l);
  s.mean = sum / static_cast<double>(v.size());
  s.p50 = percentile(v, 50);
  s.p99 = percentile(v, 99);
  s.max = v.back();
  return s;
}

RunMetrics compute_metrics(const Network& net, int num_steps) {
  const SimContext& ctx = net.context();
  RunMetrics r;
  r.status = to_string(net.status());
  r.steps.resize(num_steps);
  for (int s = 0; s < num_steps; ++s) r.steps[s].step = s;
  std::vector<uint64_t> latencies, background;
  uint64_t last = 0, last_any = 0;
  bool scheduled = false;
  for (const MessageRecord& m : ctx.msgs) scheduled = scheduled || m.step >= 0;
  for (const MessageRecord& m : ctx.msgs) {
    const MessageView v = view_message(ctx, m);
    if (v.delivered) last_any = std::max(last_any, m.delivered);
    if (m.step < 0) {
      r.has_background = true;
      ++r.background.messages;
      if (v.delivered) {
        ++r.background.delivered;
        r.background.flits_delivered += m.flits;
        background.push_back(v.latency);
      }
      if (scheduled) continue;
    }
    ++r.messages;
    r.tcd += m.hops;
    StepMetrics* st = m.step >= 0 && m.step < num_steps ? &r.steps[m.step] : nullptr;
    if (st) {
      ++st->messages;
      st->tcd += m.hops;
      st->max_zero_load = std::max(st->max_zero_load, v.zero_load);
      if (m.release != kNever) st->start = std::min(st->start, m.release);
      st->step_contention.add(m.stall_step);
      st->depth_contention.add(m.stall_depth);
    }
    if (m.inject != kNever) r.port_wait.add(v.port_wait);
    r.step_contention.add(m.stall_step);
    r.depth_contention.add(m.stall_depth);
    r.background_contention.add(m.stall_background);
    if (!v.delivered) continue;
    ++r.delivered;
    r.other_delay.add(v.other);
    latencies.push_back(v.latency);
    last = std::max(last, m.delivered);
    if (st) {
      ++st->delivered;
      st->end = std::max(st->end, m.delivered);
      st->max_latency = std::max(st->max_latency, v.latency);
      st->mean_latency += static_cast<double>(v.latency);
    }
  }
  for (auto& st : r.steps)
    if (st.delivered) st.mean_latency /= static_cast<double>(st.delivered);
  const LatencyStats ls = latency_stats(std::move(latencies));
  r.latency_mean = ls.mean;
  r.latency_p50 = ls.p50;
  r.latency_p99 = ls.p99;
  r.latency_max = ls.max;
  r.background.latency = latency_stats(std::move(background));
  const bool complete = r.status == "completed";
  r.completion = complete ? last : std::max(last, net.cycle());
  r.span = complete ? last_any : std::max(last_any, net.cycle());
  r.links = static_cast<int64_t>(ctx.link_busy.size());
  for (uint64_t b : ctx.link_busy) {
    r.flit_hops += static_cast<int64_t>(b);
    if (!b) continue;
    ++r.links_used;
    if (r.span) r.link_util_max = std::max(r.link_util_max, static_cast<double>(b) / static_cast<double>(r.span));
  }
  if (r.span && r.links)
    r.link_util_mean = static_cast<double>(r.flit_hops) / static_cast<double>(r.span) / static_cast<double>(r.links);
  r.flits_injected = ctx.flits_injected;
  r.flits_ejected = ctx.flits_ejected;
  return r;
}

}  // namespace wormsim

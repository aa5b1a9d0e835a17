// Warm-up, measurement and drain phases of a load run (docs/load-studies.md),
// with BookSim's semantics: background traffic is offered from cycle 0; the
// packets created in the measurement window [warmup, warmup + measure) are the
// measured ones; after the window, traffic keeps being offered (the measured
// packets see a loaded network to the end) until every measured packet has
// been delivered. Then the background source stops creating packets and the
// run drains what is left, so every output covers every packet. A window whose
// packets are not all delivered within `drain` cycles after its end is
// saturated: the run stops there, with status saturated. A window that drains
// while a schedule repeated under the load still runs keeps the background
// offered; if a background packet then waits at its interface longer than
// `drain` cycles plus the schedule's flit span (checked every `drain` / 8
// cycles), the sources are falling behind without bound and the run stops as
// saturated too ("backlogged"). So does a schedule send in eager mode held
// back that long: it waits for its sender's interface to hold no message, and
// under the load that interface may never be empty.
//
// The warm-up is fixed, or adaptive (sim/warmup_detector.hpp): then the window
// opens at the end of the first warm-up sample whose latency and accepted rate
// are within the tolerance of the previous sample's, or at the cap.
//
// The window also keeps the counters that only a cycle-exact snapshot gives:
// flits ejected per endpoint, flits carried per link (and, with
// output.router_stats, the input VCs' counters), at the end of cycles
// warmup - 1 and warmup + measure - 1, so accepted throughput counts the flits
// ejected during the window, whichever packet they belong to.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "models/buffer_counters.hpp"
#include "models/traffic_source.hpp"
#include "sim/warmup_detector.hpp"

namespace wormsim {

class BackgroundTraffic;

struct WindowSpec {
  bool enabled = false;  // traffic.measure_cycles given
  uint64_t warmup = 0;   // cycles before the window (fixed warm-up)
  uint64_t measure = 0;  // length of the window
  uint64_t drain = 0;    // cap on the cycles after the window until the measured packets are delivered
  WarmupSpec adaptive;   // traffic.warmup_cycles: auto

  // The latest cycle at which the window opens.
  uint64_t latest_open() const { return adaptive.automatic ? adaptive.max : warmup; }
  // Packets are offered up to here at most (the drain cap after the latest window).
  uint64_t offer_limit() const { return latest_open() + measure + drain; }
};

class MeasurementWindow : public TrafficSource {
 public:
  MeasurementWindow(const WindowSpec& spec, BackgroundTraffic& background);

  void start(Network& net, uint64_t now) override;
  void after_routers(Network& net, uint64_t now) override;
  void after_interfaces(Network& net, uint64_t now) override;
  bool finished() const override { return true; }
  uint64_t next_event() const override;
  bool saturated() const override { return saturated_; }
  // Saturated by the sources' backlog after the window had drained (see the header).
  bool backlogged() const { return backlogged_; }
  // Backlogged because a schedule send (eager mode) waited that long to be released, not a background packet.
  bool schedule_starved() const { return schedule_starved_; }

  // A schedule repeated under this load (sim/repetitions.hpp) keeps the
  // background offered until `done` says its last repetition has completed,
  // even after the window has drained; `span` is its flit span (Schedule::flit_span).
  // `held_back` says since when the schedule's longest held-back send has
  // waited for its sender's interface (ScheduleExecutor::oldest_held_back).
  void keep_offering_until(std::function<bool()> done, uint64_t span, std::function<uint64_t()> held_back) {
    schedule_done_ = std::move(done);
    schedule_span_ = span;
    schedule_held_back_ = std::move(held_back);
  }
  // How long a background packet may wait at its interface once the window has drained.
  uint64_t backlog_limit() const { return spec_.drain + schedule_span_; }

  // Called with the window's first cycle when it opens (before that cycle runs).
  void on_open(std::function<void(uint64_t)> f) { on_open_ = std::move(f); }

  const WindowSpec& spec() const { return spec_; }
  // The cycle the window opened (fixed: traffic.warmup_cycles; kNever while an adaptive warm-up runs).
  uint64_t warmup() const { return warmup_; }
  uint64_t window_end() const { return warmup_ + spec_.measure; }
  uint64_t offer_end() const { return window_end() + spec_.drain; }
  bool in_window(uint64_t created) const { return opened_ && created >= warmup_ && created < window_end(); }
  // The adaptive warm-up's samples (null with a fixed warm-up).
  const WarmupDetector* adaptive() const { return detector_ ? &*detector_ : nullptr; }
  // Per endpoint: flits ejected during the window.
  std::vector<uint64_t> ejected_in_window() const;
  // Per link: flits carried during the window.
  std::vector<uint64_t> carried_in_window() const;
  // With output.router_stats (Network::count_vc_statistics): per input VC, its
  // counters over the window (flit-cycles inside it, stall cycles in it).
  std::vector<VcCounters> vc_counters_in_window() const;
  uint64_t measured_created() const { return created_; }  // once closed
  uint64_t measured_delivered() const { return delivered_; }
  // The cycle at which the last measured packet was delivered (kNever while some are not).
  uint64_t drained_at() const { return drained_at_; }
  // True once the window has closed (the run reached its end).
  bool closed() const { return closed_; }
  // Per traffic class: flits of its packets whose tail was ejected during the
  // window (whole packets: sim/class_metrics.hpp).
  const std::vector<uint64_t>& class_accepted() const { return class_accepted_; }

 private:
  void snapshot(Network& net, uint64_t now, std::vector<uint64_t>& ejected, std::vector<uint64_t>& carried,
                std::vector<VcCounters>& vcs);
  void open(Network& net, uint64_t now);
  bool warm_after(Network& net, uint64_t now);
  void check_backlog(const Network& net, uint64_t now);
  uint64_t backlog_period() const { return spec_.drain / 8 > 0 ? spec_.drain / 8 : 1; }

  WindowSpec spec_;
  BackgroundTraffic& background_;
  std::vector<uint64_t> ejected_start_, ejected_end_, carried_start_, carried_end_;
  std::vector<VcCounters> vc_start_, vc_end_;
  std::vector<uint64_t> class_accepted_;
  std::function<bool()> schedule_done_;
  std::function<uint64_t()> schedule_held_back_;
  std::function<void(uint64_t)> on_open_;
  std::optional<WarmupDetector> detector_;
  uint64_t warmup_;
  bool opened_ = false, closed_ = false, saturated_ = false, offering_ = true, backlogged_ = false,
       schedule_starved_ = false;
  uint64_t generated_start_ = 0;  // background packets generated before the window
  uint64_t created_ = 0, delivered_ = 0;  // created_: known once the window has closed
  uint64_t last_delivery_ = 0;
  uint64_t schedule_span_ = 0;  // the schedule's flit span (Schedule::flit_span), added to the backlog's limit
  uint64_t drained_at_;
  uint64_t next_backlog_check_;  // once drained while still offering: the next check's cycle + 1 (else kNever)
};

}  // namespace wormsim

// Measurements of a finished (or stopped) run, derived from the message table
// and the link counters (definitions in docs/metrics.md).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "models/network.hpp"
#include "sim/latency_histogram.hpp"

namespace wormsim {

struct ContentionTotals {
  int64_t messages = 0;  // messages with at least one such cycle
  int64_t cycles = 0;
  void add(uint64_t c) {
    if (!c) return;
    ++messages;
    cycles += static_cast<int64_t>(c);
  }
};

struct StepMetrics {
  int step = 0;
  int64_t messages = 0, delivered = 0;
  uint64_t start = kNever;  // earliest release (kNever: never released)
  uint64_t end = 0;    // latest tail ejection
  uint64_t max_latency = 0;
  uint64_t max_zero_load = 0;
  double mean_latency = 0.0;
  int64_t tcd = 0;
  ContentionTotals step_contention, depth_contention;
};


// Background traffic (messages with step -1), reported apart from the schedule's.
struct BackgroundMetrics {
  int64_t messages = 0, delivered = 0;
  int64_t flits_delivered = 0;
  LatencyStats latency;
};

struct RunMetrics {
  std::string status;
  uint64_t completion = 0;  // cycle of the last tail ejection (all delivered) or where the run stopped
  // Cycles the network ran: the last tail ejection of any message, schedule or
  // background (or where the run stopped). Link utilisation divides by this.
  uint64_t span = 0;
  int64_t messages = 0, delivered = 0;
  int64_t tcd = 0;          // sum of route lengths of all messages
  int64_t flit_hops = 0;    // flits carried over links
  double latency_mean = 0.0;
  uint64_t latency_p50 = 0, latency_p99 = 0, latency_max = 0;
  ContentionTotals step_contention, depth_contention, background_contention, port_wait, other_delay;
  double link_util_mean = 0.0, link_util_max = 0.0;
  int64_t links = 0, links_used = 0;
  uint64_t flits_injected = 0, flits_ejected = 0;
  // Every step's figures, but for the first ones a retired schedule wrote to
  // steps.csv as the run went (sim/schedule_retirement.hpp).
  std::vector<StepMetrics> steps;
  bool has_background = false;
  BackgroundMetrics background;
  LatencyHistogram hops;  // route lengths of the delivered messages counted here (only with `hops`)
};

// The message-level figures folded in one message at a time, so that messages
// retired during a run (sim/message_retirement.hpp) count as if they were still
// in the table. `scheduled`: the run has schedule messages, and background ones
// then go to the background block only.
class MessageTally {
 public:
  // `hops`: also fold the route lengths of delivered messages (output.router_stats).
  MessageTally(int num_steps, bool scheduled, bool hops = false);
  void add(const SimContext& ctx, const MessageRecord& m);
  // Adds a tally of background messages kept with scheduled = false.
  void merge_background(const MessageTally& retired);
  int64_t messages() const { return main_.messages; }
  // Completes `r` (status and link figures are the caller's), moving the
  // steps' figures into it: a long repeated run has millions of steps.
  void finish(RunMetrics& r) &&;
  // Hands the figures of the steps before `step`, complete, to `emit` in step
  // order and drops them: no message of theirs may be added afterwards.
  void pop_steps_before(int step, const std::function<void(const StepMetrics&)>& emit);
  // Keeps the figures of the steps before `step` only: messages of later steps
  // still count in the run's figures, their steps are tallied apart (a stopped
  // run's repetitions that never began, sim/schedule_retirement.hpp).
  void keep_steps_before(int step);
  // For a tally of the steps from `step` on only: those before are not its. Before any message is added.
  void start_at_step(int step);
  int num_steps() const { return num_steps_; }
  // The first step it holds: those before were popped.
  int first_step() const { return step_base_; }
  bool counts_hops() const { return count_hops_; }
  uint64_t last_delivery() const { return main_.last; }   // of a message counted in the main figures
  uint64_t last_any_delivery() const { return last_any_; }

 private:
  struct Figures {
    int64_t messages = 0, delivered = 0, tcd = 0;
    ContentionTotals step_contention, depth_contention, background_contention, port_wait, other_delay;
    LatencyHistogram latency, hops;
    uint64_t last = 0;
  };
  void merge_main(const Figures& from);

  // The complete step's figures (its mean latency set) at the front of steps_.
  StepMetrics completed_front() const;
  // Adds the steps' figures up to `step` (excluded) that steps_ does not hold yet.
  void extend_to(int step);

  int num_steps_;
  int kept_steps_;     // keep_steps_before: the steps from it on are tallied elsewhere
  int step_base_ = 0;  // the step of steps_.front(): those before were popped
  // Made as they are first needed: a long repeated run has millions of steps,
  // of which retirement holds a few at a time.
  std::deque<StepMetrics> steps_;
  std::deque<uint64_t> step_latency_sum_;
  bool scheduled_;
  bool count_hops_;
  Figures main_;
  BackgroundMetrics background_;
  LatencyHistogram background_latency_;
  bool has_background_ = false;
  uint64_t last_any_ = 0;
};

// Derived per-message figures (for messages.csv).
struct MessageView {
  bool delivered = false;
  uint64_t latency = 0;       // delivered - release
  uint64_t zero_load = 0;     // t_s + (H+1) t_r + H t_l + L - 1
  uint64_t port_wait = 0;     // inject - (release + t_s)
  uint64_t blocked = 0;       // latency - zero_load
  uint64_t other = 0;         // blocked - port_wait - header stalls
};
MessageView view_message(const SimContext& ctx, const MessageRecord& m);

// The run's figures. When the run has schedule messages, the message-level
// figures (latency, contention, completion, TCD) are the schedule's, and
// background traffic is summarised apart; otherwise they are the background's.
// Link figures always count every flit.
// `retired`: background messages retired during the run (their slots reused).
// `hops`: fill RunMetrics::hops (output.router_stats). `retired_schedule`:
// schedule messages retired during the run (sim/schedule_retirement.hpp),
// tallied with the same steps and `hops`; the table's messages are folded into
// it, which leaves it moved from.
RunMetrics compute_metrics(const Network& net, int num_steps, const MessageTally* retired = nullptr, bool hops = false,
                           MessageTally* retired_schedule = nullptr);

}  // namespace wormsim

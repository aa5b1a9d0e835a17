#include "sim/output_tables.hpp"

#include <string>
#include <utility>
#include <vector>

namespace wormsim {

namespace {

using namespace stat_type_letters;

const StatTable kMetrics{
    "summary.json", "metrics", "the run's figures (the schedule's, when it has one)", "always", 10,
    {{"completion_cycles", I, "cycles", "cycle of the last tail ejection (schedule messages); where a stopped run stopped"},
     {"messages", I, "messages", "messages in the schedule (background only: generated background messages)"},
     {"delivered", I, "messages", "of those, delivered"},
     {"tcd", I, "hops", "total communication distance: sum of route lengths of those messages"},
     {"flit_hops", I, "flits", "flits carried over links, all traffic"},
     {"latency.mean", N, "cycles", "mean latency of delivered messages"},
     {"latency.p50", I, "cycles", "median latency (nearest rank)"},
     {"latency.p99", I, "cycles", "99th percentile latency (nearest rank)"},
     {"latency.max", I, "cycles", "largest latency"},
     {"step_contention.messages", I, "messages", "messages with header stalls charged to worms of the same step"},
     {"step_contention.cycles", I, "cycles", "header stall cycles charged to worms of the same step"},
     {"depth_contention.messages", I, "messages", "messages with header stalls charged to worms of another step"},
     {"depth_contention.cycles", I, "cycles", "header stall cycles charged to worms of another step"},
     {"background_contention.messages", I, "messages", "messages with header stalls charged to background worms"},
     {"background_contention.cycles", I, "cycles", "header stall cycles charged to background worms"},
     {"port_wait.messages", I, "messages", "messages that waited for an injection channel or credits"},
     {"port_wait.cycles", I, "cycles", "cycles between the end of startup and the header's injection"},
     {"other_delay.messages", I, "messages", "delivered messages with unexplained blocked cycles"},
     {"other_delay.cycles", I, "cycles", "blocked cycles not charged to port wait or header stalls"},
     {"link_utilisation.mean", N, "", "flit_hops / span_cycles / links, over all directed links"},
     {"link_utilisation.max", N, "", "max over links of busy_cycles / span_cycles"},
     {"link_utilisation.links", I, "links", "number of directed links"},
     {"link_utilisation.links_used", I, "links", "links that carried at least one flit"},
     {"flits_injected", I, "flits", "flits entered into the network, all traffic"},
     {"flits_ejected", I, "flits", "flits ejected from the network, all traffic"},
     {"span_cycles", I, "cycles", "cycles the network ran: the last tail ejection of any message"},
     {"simulated_cycles", I, "cycles", "cycles the simulator actually stepped (idle stretches skipped)"}}};
WORMSIM_DECLARE_STATS(kMetrics);

const StatTable kBackground{
    "summary.json", "background", "background traffic, apart from the schedule", "only with background traffic", 20,
    {{"pattern", T, "", "traffic.pattern (with traffic.classes: theirs, joined by +)"},
     {"offered_rate", N, "packets per node per cycle", "traffic.rate (with traffic.classes: their sum)"},
     {"messages", I, "messages", "background messages generated"},
     {"delivered", I, "messages", "of those, delivered"},
     {"accepted_flits_per_node_cycle", N, "flits per node per cycle",
      "flits of delivered background messages / (traffic.cycles x nodes); a measured run: / ((load.warmup_cycles + "
      "measure_cycles + drain_limit_cycles) x nodes)"},
     {"latency.mean", N, "cycles", "mean latency of delivered background messages, from generation"},
     {"latency.p50", I, "cycles", "median latency (nearest rank)"},
     {"latency.p99", I, "cycles", "99th percentile latency (nearest rank)"},
     {"latency.max", I, "cycles", "largest latency"},
     {"source_queue.max", I, "messages",
      "most messages waiting at one interface to start (released, not yet injected), at any time: source "
      "queues are unbounded"},
     {"source_queue.end", I, "messages", "messages still waiting at the interfaces when the run ended"}}};
WORMSIM_DECLARE_STATS(kBackground);

const StatTable kLoad{
    "summary.json", "load", "a measured load run: the packets created in the measurement window",
    "only with traffic.measure_cycles", 25,
    {{"warmup_cycles", I, "cycles",
      "the window opens at this cycle: traffic.warmup_cycles, or where the adaptive warm-up ended (summary.json "
      "warmup)"},
     {"measure_cycles", I, "cycles", "traffic.measure_cycles: the window's length"},
     {"drain_limit_cycles", I, "cycles", "traffic.drain_cycles: the cap on drain_cycles"},
     {"drain_cycles", I, "cycles",
      "from the window's end to the last delivery of a packet created in it (0: all in before it closed)"},
     {"saturated", B, "",
      "the window's packets were not all delivered within drain_limit_cycles, or the run was backlogged"},
     {"backlogged", B, "",
      "saturated after the window had drained: while the load stayed on for the schedule, a background packet "
      "waited at its interface longer than drain_limit_cycles plus the schedule's flit span (the sum over its steps "
      "of each step's longest message; drain_cycles is then the window's own)"},
     {"packets", I, "packets", "background packets created in the window"},
     {"delivered", I, "packets", "of those, delivered"},
     {"offered_packets_per_node_cycle", N, "packets per node per cycle", "packets / (endpoints x measure_cycles)"},
     {"offered.mean", N, "flits per node per cycle",
      "flits of the packets created in the window / (endpoints x measure_cycles)"},
     {"offered.min", N, "flits per node per cycle", "the least any endpoint offered"},
     {"offered.max", N, "flits per node per cycle", "the most any endpoint offered"},
     {"accepted.mean", N, "flits per node per cycle",
      "flits ejected during the window (any packet) / (endpoints x measure_cycles)"},
     {"accepted.min", N, "flits per node per cycle", "the least any endpoint accepted"},
     {"accepted.max", N, "flits per node per cycle", "the most any endpoint accepted"},
     {"packet_latency.mean", N, "cycles", "delivered - created, of the delivered packets (source queueing included)"},
     {"packet_latency.p50", I, "cycles", "median (nearest rank)"},
     {"packet_latency.p99", I, "cycles", "99th percentile (nearest rank)"},
     {"packet_latency.max", I, "cycles", "largest"},
     {"network_latency.mean", N, "cycles", "delivered - injected (header entered the source router)"},
     {"network_latency.p50", I, "cycles", "median (nearest rank)"},
     {"network_latency.p99", I, "cycles", "99th percentile (nearest rank)"},
     {"network_latency.max", I, "cycles", "largest"},
     {"link_utilisation.mean", N, "", "flits carried during the window / (links x measure_cycles)"},
     {"link_utilisation.max", N, "", "max over links of flits carried during the window / measure_cycles"}}};
WORMSIM_DECLARE_STATS(kLoad);

// mean and nearest-rank percentiles of a latency, per class.
std::vector<StatDecl> latency_of(const std::string& name, const std::string& what) {
  return {{name + ".mean", N, "cycles", "mean " + what},
          {name + ".p50", I, "cycles", "median " + what + " (nearest rank)"},
          {name + ".p90", I, "cycles", "90th percentile " + what + " (nearest rank)"},
          {name + ".p99", I, "cycles", "99th percentile " + what + " (nearest rank)"},
          {name + ".max", I, "cycles", "largest " + what}};
}

std::vector<StatDecl> class_fields() {
  std::vector<StatDecl> f = {
      {"name", T, "", "traffic.classes[i].name"},
      {"pattern", T, "", "traffic.classes[i].pattern"},
      {"injection", T, "", "traffic.classes[i].injection"},
      {"offered_rate", N, "packets per node per cycle", "traffic.classes[i].rate"},
      {"messages", I, "messages", "the class's messages generated"},
      {"delivered", I, "messages", "of those, delivered"},
      {"accepted_flits_per_node_cycle", N, "flits per node per cycle",
       "flits of its delivered messages / (cycles offered x nodes), as background.accepted_flits_per_node_cycle"}};
  const auto l = latency_of("latency", "latency of its delivered messages, from generation");
  f.insert(f.end(), l.begin(), l.end());
  return f;
}

const StatTable kClasses{
    "summary.json", "classes", "several traffic classes: one entry per class, in order (docs/load-studies.md)",
    "only with traffic.classes", 28, class_fields()};
WORMSIM_DECLARE_STATS(kClasses);

std::vector<StatDecl> class_load_fields() {
  std::vector<StatDecl> f = {
      {"packets", I, "packets", "the class's packets created in the window"},
      {"delivered", I, "packets", "of those, delivered"},
      {"offered_packets_per_node_cycle", N, "packets per node per cycle", "packets / (endpoints x measure_cycles)"},
      {"offered_flits_per_node_cycle", N, "flits per node per cycle",
       "flits of those packets / (endpoints x measure_cycles)"},
      {"accepted_flits_per_node_cycle", N, "flits per node per cycle",
       "flits of the class's packets whose tail was ejected during the window / (endpoints x measure_cycles): "
       "whole packets, where load.accepted counts single flits"}};
  for (const auto& [name, what] : {std::pair<std::string, std::string>{"packet_latency", "delivered - created"},
                                   {"network_latency", "delivered - injected"}}) {
    const auto l = latency_of(name, what + " of the delivered packets");
    f.insert(f.end(), l.begin(), l.end());
  }
  return f;
}

const StatTable kClassLoad{
    "summary.json", "classes.load", "a class's packets created in the measurement window",
    "only with traffic.classes and traffic.measure_cycles", 29, class_load_fields()};
WORMSIM_DECLARE_STATS(kClassLoad);

const StatTable kClassLatencyRows{
    "latency.csv", "", "each traffic class's latency histograms: the counts behind the percentiles of summary.json classes",
    "only with traffic.classes", 91,
    {{"class", T, "", "the class's name (traffic.classes[i].name)"},
     {"latency", T, "",
      "which latency: `latency` (every delivered message, delivered - created, as classes.latency), "
      "`packet_latency` or `network_latency` (the packets created in the measurement window, as classes.load)"},
     {"cycles", I, "cycles", "the latency value"},
     {"messages", I, "messages", "delivered messages with that latency (values with none are left out)"}}};
WORMSIM_DECLARE_STATS(kClassLatencyRows);

const StatTable kWarmup{
    "summary.json", "warmup", "an adaptive warm-up: how the measurement window's opening was found",
    "only with traffic.warmup_cycles: auto", 26,
    {{"sample_cycles", I, "cycles", "traffic.warmup_sample_cycles"},
     {"tolerance", N, "", "traffic.warmup_tolerance"},
     {"max_cycles", I, "cycles", "traffic.warmup_max_cycles: the cap"},
     {"samples", I, "samples", "warm-up samples taken (rows of warmup.csv)"},
     {"stabilised", B, "",
      "the last sample's latency and accepted rate were within the tolerance of the previous sample's; false: the "
      "window opened at the cap (or the run stopped first)"},
     {"cycles", I, "cycles", "the cycle the window opened (load.warmup_cycles)"},
     {"latency_change", N, "", "the last sample's relative change in mean packet latency (-1 if it was the first)"},
     {"accepted_change", N, "", "the last sample's relative change in accepted rate (-1 if it was the first)"}}};
WORMSIM_DECLARE_STATS(kWarmup);

const StatTable kWarmupRows{
    "warmup.csv", "", "one row per sample of an adaptive warm-up", "like summary.json warmup", 76,
    {{"sample", I, "", "sample number, 0-based"},
     {"start", I, "cycle", "first cycle of the sample"},
     {"end", I, "cycle", "cycle after its last (the next sample's start)"},
     {"delivered", I, "packets", "background packets whose tail was ejected during the sample"},
     {"packet_latency_mean", N, "cycles", "their mean latency from creation (0 if none)"},
     {"ejected_flits", I, "flits", "flits ejected during the sample, any packet"},
     {"accepted", N, "flits per node per cycle", "ejected_flits / (endpoints x (end - start))"},
     {"latency_change", N, "",
      "|packet_latency_mean - previous| / packet_latency_mean (0 if both are 0, 1 if only this one is); empty for "
      "the first sample"},
     {"accepted_change", N, "", "the same for accepted; empty for the first sample"},
     {"stable", I, "", "1 if both changes are below traffic.warmup_tolerance (the warm-up ends here), else 0"}}};
WORMSIM_DECLARE_STATS(kWarmupRows);

// min, mean, max, p50, p95 and stdev of one per-repetition figure.
std::vector<StatDecl> distribution_of(const std::string& name, const std::string& what) {
  return {{name + ".min", I, "cycles", "least " + what},
          {name + ".mean", N, "cycles", "mean " + what},
          {name + ".max", I, "cycles", "largest " + what},
          {name + ".p50", I, "cycles", "median " + what + " (nearest rank)"},
          {name + ".p95", I, "cycles", "95th percentile " + what + " (nearest rank)"},
          {name + ".stdev", N, "cycles", "sample standard deviation of the " + what}};
}

std::vector<StatDecl> repetition_fields() {
  std::vector<StatDecl> f = {
      {"count", I, "repetitions", "schedule.repeat.count"},
      {"start_cycle", I, "cycle", "schedule.repeat.start_cycle: when the first repetition was due"},
      {"period_cycles", I, "cycles", "schedule.repeat.period_cycles; 0: back to back"},
      {"gap_cycles", I, "cycles", "schedule.repeat.gap_cycles (back to back)"},
      {"started", I, "repetitions", "repetitions that started before the run ended"},
      {"completed", I, "repetitions", "of those, completed (every message delivered); the distributions are over these"},
      {"late", I, "repetitions", "repetitions that started after their due cycle (the previous one was still running)"},
      {"under_load", I, "repetitions", "completed repetitions that ended while background traffic was still offered"}};
  for (const auto& [name, what] : {std::pair<std::string, std::string>{"completion_cycles", "completion time (end - start)"},
                                   {"step_contention_cycles", "same-step header stall cycles"},
                                   {"depth_contention_cycles", "other-step header stall cycles"},
                                   {"background_contention_cycles", "header stall cycles behind background worms"}}) {
    const auto d = distribution_of(name, what);
    f.insert(f.end(), d.begin(), d.end());
  }
  return f;
}

const StatTable kRepetitions{
    "summary.json", "repetitions", "a repeated schedule: the distribution over its completed repetitions",
    "only with schedule.repeat, or a schedule with traffic.measure_cycles", 27, repetition_fields()};
WORMSIM_DECLARE_STATS(kRepetitions);

const StatTable kInvariants{
    "summary.json", "invariants", "the simulator's self-checks", "always", 30,
    {{"flits_conserved", B, "", "completed: flits_injected == flits_ejected; stopped: the rest are in buffers"},
     {"all_messages_delivered", B, "", "delivered == messages"},
     {"buffers_consistent", B, "", "no buffer over capacity, and buffered flits = injected - ejected"}}};
WORMSIM_DECLARE_STATS(kInvariants);

const StatTable kHost{
    "summary.json", "host", "wall-clock figures and the fast paths' counters", "only with output.host_timing: true", 40,
    {{"elaboration_seconds", N, "seconds", "building the network"},
     {"simulation_seconds", N, "seconds", "simulating (sc_start)"},
     {"wall_seconds", N, "seconds", "from the start of the command until the metrics are computed"},
     {"simulated_cycles_per_second", N, "cycles per second", "span_cycles / simulation_seconds"},
     {"flit_hops_per_second", N, "flits per second", "flit_hops / simulation_seconds"},
     {"express_worms", I, "worms", "worms whose body the express loop moved"},
     {"express_flit_moves", I, "flits", "flit moves and injections the express loop made"},
     {"express_handbacks", I, "stages", "express stages handed back to their routers when another worm came to share their input or output port (several VCs per port)"},
     {"express_parallel_cycles", I, "cycles", "cycles in which the express loop shared its flit moves with a second thread (one VC per port, at least 65536 routers and 4096 worms to visit, a second CPU)"},
     {"event_batches", I, "batches", "batches of up to 32 of a cycle's events (tries after deliveries and injections, headers that left a stage) walked with their loads prefetched level by level (a network of at least 16384 routers)"},
     {"steady_worms", I, "worms", "express worms skipped while they streamed steadily"},
     {"steady_cycles", I, "worm-cycles", "worm-cycles skipped that way"},
     {"peak_rss_mib", N, "MiB", "peak resident memory of the process (getrusage), once the metrics are computed"}}};
WORMSIM_DECLARE_STATS(kHost);

const StatTable kMessages{
    "messages.csv", "", "one row per message, by id: schedule messages, then background (output.messages: schedule: the schedule's only)",
    "always", 50,
    {{"id", I, "", "message id, 0-based"},
     {"step", I, "", "schedule step, 0-based; -1 for background traffic (-1 - i for traffic.classes[i])"},
     {"index", I, "", "position within its step; empty for background traffic"},
     {"src", I, "", "source node id"},
     {"dst", I, "", "destination node id"},
     {"src_coord", T, "", "source node name (quoted)"},
     {"dst_coord", T, "", "destination node name (quoted)"},
     {"packet", T, "", "packet name (quoted)"},
     {"flits", I, "flits", "L, the message length"},
     {"hops", I, "hops", "H, the route length"},
     {"release", I, "cycle", "cycle the message is handed to its sender's NI"},
     {"inject", I, "cycle", "cycle its header enters the source router; empty if never"},
     {"header_arrival", I, "cycle", "cycle its header is ejected; empty if never"},
     {"delivered", I, "cycle", "cycle its tail is ejected; empty if never"},
     {"latency", I, "cycles", "delivered - release; empty if undelivered"},
     {"zero_load_latency", I, "cycles", "t_s + (H+1) t_r + H t_l + L - 1"},
     {"blocked_cycles", I, "cycles", "latency - zero_load_latency (>= 0); empty if undelivered"},
     {"port_wait_cycles", I, "cycles", "inject - (release + t_s) (0 if not injected)"},
     {"step_contention_cycles", I, "cycles", "header stalls charged to same-step worms"},
     {"depth_contention_cycles", I, "cycles", "header stalls charged to other-step worms"},
     {"background_cycles", I, "cycles", "header stalls charged to background worms"},
     {"other_cycles", I, "cycles", "blocked - port_wait - step - depth - background (>= 0); empty if undelivered"}}};
WORMSIM_DECLARE_STATS(kMessages);

const StatTable kLinks{
    "links.csv", "", "one row per directed link, by link id", "always", 60,
    {{"link", I, "", "link id, 0-based"},
     {"src", I, "", "source node id"},
     {"dst", I, "", "destination node id"},
     {"src_coord", T, "", "source node name (quoted)"},
     {"dst_coord", T, "", "destination node name (quoted)"},
     {"dim", I, "", "dimension the link moves along"},
     {"dir", I, "", "1 or -1: + or - direction; hypercube: 1 sets the bit, -1 clears it"},
     {"wrap", I, "", "1 for a torus wrap-around link (the dateline), else 0"},
     {"busy_cycles", I, "cycles", "flits carried (= cycles busy), all traffic"},
     {"utilisation", N, "", "busy_cycles / span_cycles, 6 decimals"}}};
WORMSIM_DECLARE_STATS(kLinks);

const StatTable kSteps{
    "steps.csv", "", "one row per schedule step (none without a schedule)", "always", 70,
    {{"step", I, "", "step number, 0-based"},
     {"messages", I, "messages", "messages in the step"},
     {"delivered", I, "messages", "of which delivered"},
     {"start", I, "cycle", "earliest release among them; empty if none was released"},
     {"end", I, "cycle", "latest tail ejection; empty unless every message was delivered"},
     {"duration", I, "cycles", "end - start; empty like end"},
     {"max_latency", I, "cycles", "largest latency of a delivered message (0 if none)"},
     {"max_zero_load_latency", I, "cycles", "largest zero-load latency"},
     {"mean_latency", N, "cycles", "mean latency of the delivered messages, 3 decimals"},
     {"tcd", I, "hops", "sum of hops"},
     {"step_contention_messages", I, "messages", "messages of the step with same-step header stalls"},
     {"step_contention_cycles", I, "cycles", "same-step header stall cycles of the step's messages"},
     {"depth_contention_messages", I, "messages", "messages of the step with other-step header stalls"},
     {"depth_contention_cycles", I, "cycles", "other-step header stall cycles of the step's messages"}}};
WORMSIM_DECLARE_STATS(kSteps);

const StatTable kRepetitionRows{
    "repetitions.csv", "", "one row per repetition of the schedule", "like summary.json repetitions", 75,
    {{"repetition", I, "", "repetition number, 0-based: its messages are steps repetition x S .. (repetition + 1) x S - 1"},
     {"due", I, "cycle", "cycle it was due to start"},
     {"start", I, "cycle", "cycle its first messages were released; empty if it never started"},
     {"end", I, "cycle", "cycle its last tail was ejected; empty unless every message was delivered"},
     {"completion_cycles", I, "cycles", "end - start; empty like end"},
     {"late_cycles", I, "cycles", "start - due (0 unless the previous repetition was still running when it was due)"},
     {"messages", I, "messages", "messages of the repetition"},
     {"delivered", I, "messages", "of which delivered"},
     {"max_latency", I, "cycles", "largest latency of a delivered message (0 if none)"},
     {"step_contention_messages", I, "messages", "messages with same-step header stalls"},
     {"step_contention_cycles", I, "cycles", "same-step header stall cycles"},
     {"depth_contention_messages", I, "messages", "messages with other-step header stalls"},
     {"depth_contention_cycles", I, "cycles", "other-step header stall cycles"},
     {"background_contention_messages", I, "messages", "messages with header stalls behind background worms"},
     {"background_contention_cycles", I, "cycles", "header stall cycles behind background worms"},
     {"port_wait_cycles", I, "cycles", "cycles its messages waited for an injection channel or credits"},
     {"under_load", I, "", "1 if background traffic was still offered when it ended, else 0 (empty if it did not end)"}}};
WORMSIM_DECLARE_STATS(kRepetitionRows);

// output.router_stats (docs/metrics.md, "Router statistics"): over the
// measurement window when the run has one, else over span_cycles.
const std::string kOver = "over router_stats.cycles";
const StatTable kRouterStats{
    "summary.json", "router_stats", "buffer occupancy, allocation stalls and hop counts, network-wide",
    "only with output.router_stats: true", 28,
    {{"cycles", I, "cycles", "cycles the figures cover: traffic.measure_cycles in a measured run, else span_cycles"},
     {"flit_cycles", I, "flit-cycles", "sum over every input buffer of its occupancy integral, " + kOver},
     {"occupancy.mean", N, "flits", "flit_cycles / cycles / routers: flits buffered in a router, time-averaged"},
     {"occupancy.max", N, "flits", "the largest time-averaged occupancy of one router"},
     {"occupancy.max_router", I, "", "that router's id (the lowest on a tie)"},
     {"vc_alloc_stall_cycles", I, "cycles", "head-cycles waiting at the front of a VC for a free output VC"},
     {"switch_alloc_stall_cycles", I, "cycles", "head-cycles holding an output VC and a credit, losing the switch"},
     {"credit_stall_cycles", I, "cycles", "head-cycles holding an output VC without a credit downstream"},
     {"hops.messages", I, "messages", "delivered messages counted (as in metrics.latency, or the measured packets)"},
     {"hops.mean", N, "hops", "mean route length"},
     {"hops.min", I, "hops", "shortest route"},
     {"hops.p50", I, "hops", "median route length (nearest rank)"},
     {"hops.p99", I, "hops", "99th percentile route length (nearest rank)"},
     {"hops.max", I, "hops", "longest route"}}};
WORMSIM_DECLARE_STATS(kRouterStats);

const StatTable kRouterRows{
    "routers.csv", "", "one row per router, by id (output.router_stats: true)", "only with output.router_stats: true",
    80,
    {{"router", I, "", "router id, 0-based"},
     {"name", T, "", "router name (quoted)"},
     {"occupancy_mean", N, "flits", "flit_cycles / router_stats.cycles: flits in its input buffers, time-averaged, 6 decimals"},
     {"flit_cycles", I, "flit-cycles", "occupancy integral of its input buffers, " + kOver},
     {"vc_alloc_stall_cycles", I, "cycles", "its heads' cycles waiting for a free output VC"},
     {"switch_alloc_stall_cycles", I, "cycles", "its heads' cycles losing switch arbitration"},
     {"credit_stall_cycles", I, "cycles", "its heads' cycles without a credit downstream"}}};
WORMSIM_DECLARE_STATS(kRouterRows);

const StatTable kVcRows{
    "vcs.csv", "", "one row per input VC of every router, by router, port, VC (output.router_stats: true)",
    "only with output.router_stats: true", 85,
    {{"router", I, "", "router id, 0-based"},
     {"port", I, "", "input port: link ports first (links.csv's ports), then injection channels"},
     {"vc", I, "", "virtual channel (injection channels have one)"},
     {"input", T, "", "link or injection"},
     {"occupancy_mean", N, "flits", "flit_cycles / router_stats.cycles, 6 decimals"},
     {"flit_cycles", I, "flit-cycles", "occupancy integral of the VC's buffer, " + kOver},
     {"vc_alloc_stall_cycles", I, "cycles", "cycles a ready head at its front waited for a free output VC"},
     {"switch_alloc_stall_cycles", I, "cycles", "cycles such a head held an output VC and a credit and lost the switch"},
     {"credit_stall_cycles", I, "cycles", "cycles such a head held an output VC without a credit"}}};
WORMSIM_DECLARE_STATS(kVcRows);

const StatTable kHopRows{
    "hops.csv", "", "the hop-count distribution of the delivered messages of router_stats.hops",
    "only with output.router_stats: true", 90,
    {{"hops", I, "hops", "route length"},
     {"messages", I, "messages", "delivered messages of that length (lengths with none are left out)"}}};
WORMSIM_DECLARE_STATS(kHopRows);

}  // namespace

const StatTable& router_summary_stats() { return kRouterStats; }
const StatTable& router_columns() { return kRouterRows; }
const StatTable& vc_columns() { return kVcRows; }
const StatTable& hop_columns() { return kHopRows; }
const StatTable& metrics_stats() { return kMetrics; }
const StatTable& background_stats() { return kBackground; }
const StatTable& load_stats() { return kLoad; }
const StatTable& class_stats() { return kClasses; }
const StatTable& class_load_stats() { return kClassLoad; }
const StatTable& class_latency_columns() { return kClassLatencyRows; }
const StatTable& warmup_stats() { return kWarmup; }
const StatTable& warmup_columns() { return kWarmupRows; }
const StatTable& repetition_stats() { return kRepetitions; }
const StatTable& repetition_columns() { return kRepetitionRows; }
const StatTable& invariant_stats() { return kInvariants; }
const StatTable& host_stats() { return kHost; }
const StatTable& message_columns() { return kMessages; }
const StatTable& link_columns() { return kLinks; }
const StatTable& step_columns() { return kSteps; }

}  // namespace wormsim

#include "sim/multicast_outputs.hpp"

#include <algorithm>

#include "sim/csv_text.hpp"
#include "sim/output_tables.hpp"

namespace wormsim {

namespace {

using namespace stat_type_letters;

const StatTable kMulticast{
    "summary.json", "multicast", "multidestination worms (hardware multicast) and their copies",
    "only with multicast messages", 26,
    {{"worms", I, "messages", "multidestination worms (a multicast message may take several)"},
     {"copies", I, "copies", "destinations of those worms: one copy each"},
     {"copies_delivered", I, "copies", "of those, delivered (tail ejected)"},
     {"tree_links", I, "hops", "links of the worms' trees, summed: each carries the worm once (the TCD analogue)"},
     {"copy_latency.mean", N, "cycles", "mean over delivered copies of tail ejection - release"},
     {"copy_latency.max", I, "cycles", "largest copy latency"},
     {"first_copy_latency.mean", N, "cycles", "mean over worms of their earliest copy's latency"},
     {"last_copy_latency.mean", N, "cycles", "mean over worms of their last copy's latency (the worm's latency)"},
     {"absorb_stall_cycles", I, "cycles", "cycles ready heads waited for an ejection channel they absorb into"},
     {"branch_stall_cycles", I, "cycles",
      "cycles ready heads waited for a link branch: its VC, its credit, or the switch"}}};
WORMSIM_DECLARE_STATS(kMulticast);

const StatTable kCopies{
    "copies.csv", "", "one row per copy of a multidestination worm (per destination)", "only with multicast messages",
    52,
    {{"id", I, "", "message id of the worm (messages.csv)"},
     {"step", I, "", "schedule step, 0-based"},
     {"src", I, "", "source node id"},
     {"dst", I, "", "this copy's destination node id"},
     {"order", I, "", "position of the destination in the worm's order, 0-based"},
     {"hops", I, "hops", "links from the source to the destination along the worm's tree"},
     {"header_arrival", I, "cycle", "cycle the copy's header is ejected; empty if never"},
     {"delivered", I, "cycle", "cycle the copy's tail is ejected; empty if never"},
     {"latency", I, "cycles", "delivered - release; empty if undelivered"},
     {"zero_load_latency", I, "cycles", "t_s + (hops+1) t_r + hops t_l + L - 1: a unicast worm's over the same hops"}}};
WORMSIM_DECLARE_STATS(kCopies);

}  // namespace

nlohmann::ordered_json multicast_json(const Network& net) {
  const SimContext& ctx = net.context();
  uint64_t copies = 0, delivered = 0, links = 0, absorb = 0, branch = 0, max_latency = 0;
  double latency_sum = 0, first_sum = 0, last_sum = 0;
  uint64_t worms_done = 0;
  for (const MulticastCopies& c : ctx.copies) {
    const MessageRecord& m = ctx.msgs[c.msg];
    copies += c.dsts.size();
    links += m.hops;
    absorb += c.absorb_stalls;
    branch += c.branch_stalls;
    uint64_t first = kNever;
    for (uint64_t t : c.tail) {
      if (t == kNever) continue;
      ++delivered;
      latency_sum += static_cast<double>(t - m.release);
      max_latency = std::max(max_latency, t - m.release);
      first = std::min(first, t - m.release);
    }
    if (m.delivered == kNever) continue;
    ++worms_done;
    first_sum += static_cast<double>(first);
    last_sum += static_cast<double>(m.delivered - m.release);
  }
  auto mean = [](double sum, uint64_t n) { return n ? sum / static_cast<double>(n) : 0.0; };
  return StatBlock(kMulticast)
      .set("worms", ctx.copies.size())
      .set("copies", copies)
      .set("copies_delivered", delivered)
      .set("tree_links", links)
      .set("copy_latency.mean", mean(latency_sum, delivered))
      .set("copy_latency.max", max_latency)
      .set("first_copy_latency.mean", mean(first_sum, worms_done))
      .set("last_copy_latency.mean", mean(last_sum, worms_done))
      .set("absorb_stall_cycles", absorb)
      .set("branch_stall_cycles", branch)
      .json();
}

std::string copies_csv(const Network& net) {
  const SimContext& ctx = net.context();
  CsvText os;
  os << kCopies.csv_header();
  for (const MulticastCopies& c : ctx.copies) {
    const MessageRecord& m = ctx.msgs[c.msg];
    for (size_t i = 0; i < c.dsts.size(); ++i) {
      os << c.msg << ',' << m.step << ',' << m.src << ',' << c.dsts[i] << ',' << i << ',' << c.depth[i] << ',';
      if (c.header[i] != kNever) os << c.header[i];
      os << ',';
      if (c.tail[i] != kNever) os << c.tail[i] << ',' << (c.tail[i] - m.release);
      else os << ',';
      os << ',' << ctx.timing.zero_load_latency(c.depth[i], m.flits) << '\n';
    }
  }
  return std::move(os).str();
}

}  // namespace wormsim

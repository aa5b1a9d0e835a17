#include "sim/message_rows.hpp"

#include "sim/metrics.hpp"
#include "sim/outputs.hpp"

namespace wormsim {

namespace {

// A multidestination worm's links: its tree, breadth first from the source.
void write_tree_links(CsvText& os, const Topology& topo, const SimContext& ctx, uint32_t id) {
  const MessageRecord& m = ctx.msgs[id];
  const uint32_t entries = ctx.copies_of_msg(id).entries;
  std::vector<int> router_of(entries, -1);  // per visit (its first entry): the router it is at
  router_of[0] = topo.endpoint_router(m.src);
  int visit_router = router_of[0];
  bool first = true;
  for (uint32_t e = 0; e < entries; ++e) {
    if (router_of[e] >= 0) visit_router = router_of[e];
    const RouteHop& h = ctx.hops[m.route_begin + e];
    if (h.port == kEjectBranch) continue;
    const int link = topo.link_id(visit_router, h.port);
    router_of[ctx.hop_next[m.route_begin + e]] = topo.link_dst(link);
    if (!first) os << ' ';
    os << link;
    first = false;
  }
  os << '\n';
}

}  // namespace

QuotedNames::QuotedNames(const Topology& topo, const Schedule& sched)
    : topo_(topo), sched_(sched), nodes_(static_cast<size_t>(topo.num_endpoints())), packets_(sched.packets.size()),
      unnamed_(csv_quoted("")) {}

const std::string& QuotedNames::node(int endpoint) {
  std::string& q = nodes_[static_cast<size_t>(endpoint)];
  if (q.empty()) q = csv_quoted(topo_.node_name(endpoint));
  return q;
}

const std::string& QuotedNames::packet(int pk) {
  if (pk < 0) return unnamed_;
  std::string& q = packets_[static_cast<size_t>(pk)];
  if (q.empty()) q = csv_quoted(sched_.packets[static_cast<size_t>(pk)].name);
  return q;
}

void write_message_row(CsvText& os, QuotedNames& names, const SimContext& ctx, uint64_t id, const MessageRecord& m,
                       int64_t index, int packet) {
  const MessageView v = view_message(ctx, m);
  os << id << ',' << m.step << ',';
  if (index >= 0) os << index;
  os << ',' << m.src << ',' << m.dst << ',' << names.node(m.src) << ',' << names.node(m.dst) << ','
     << names.packet(packet) << ',' << m.flits << ',' << m.hops << ',';
  put_cycle(os, m.release);
  os << ',';
  put_cycle(os, m.inject);
  os << ',';
  put_cycle(os, m.header_arrival);
  os << ',';
  put_cycle(os, m.delivered);
  os << ',';
  if (v.delivered) os << v.latency;
  os << ',' << v.zero_load << ',';
  if (v.delivered) os << v.blocked;
  os << ',' << v.port_wait << ',' << m.stall_step << ',' << m.stall_depth << ',' << m.stall_background << ',';
  if (v.delivered) os << v.other;
  os << '\n';
}

void write_step_row(CsvText& os, const StepMetrics& s) {
  const bool done = s.delivered == s.messages && s.messages > 0;
  os << s.step << ',' << s.messages << ',' << s.delivered << ',';
  put_cycle(os, s.start);
  os << ',';
  if (done) os << s.end << ',' << (s.end - s.start);
  else os << ',';
  os << ',' << s.max_latency << ',' << s.max_zero_load << ',' << Fixed{s.mean_latency, 3} << ',' << s.tcd << ','
     << s.step_contention.messages << ',' << s.step_contention.cycles << ',' << s.depth_contention.messages << ','
     << s.depth_contention.cycles << '\n';
}

// A message's links (links.csv ids), space-separated: as far as its header got
// for a message still under way when an adaptive run stopped. Links alone
// (their routers are in links.csv) keep the file small: a busy run writes one
// id per flit-free hop, and every byte is checksummed and synced.
void write_route_row(CsvText& os, const Topology& topo, const SimContext& ctx, uint32_t slot, uint64_t id) {
  const MessageRecord& m = ctx.msgs[slot];
  os << id << ',';
  if (m.multicast) {
    write_tree_links(os, topo, ctx, slot);
    return;
  }
  const RouteHop* route = ctx.route_of(slot);
  int node = topo.endpoint_router(m.src);
  for (int h = 0; h < m.hops && route[h].port != kChosenInRouter; ++h) {
    const int link = topo.link_id(node, route[h].port);
    if (h) os << ' ';
    os << link;
    node = topo.link_dst(link);
  }
  os << '\n';
}

}  // namespace wormsim

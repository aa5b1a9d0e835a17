#include "sim/router_stats.hpp"

#include <utility>

#include "sim/csv_text.hpp"
#include "sim/output_tables.hpp"
#include "sim/outputs.hpp"

namespace wormsim {

namespace {

double per_cycle(uint64_t flit_cycles, uint64_t cycles) {
  return cycles ? static_cast<double>(flit_cycles) / static_cast<double>(cycles) : 0.0;
}

void put_counters(CsvText& os, const VcCounters& c, uint64_t cycles) {
  os << fixed_text(per_cycle(c.flit_cycles, cycles), 6) << ',' << c.flit_cycles << ',' << c.vc_alloc << ','
     << c.switch_alloc << ',' << c.credit << '\n';
}

}  // namespace

RouterStats compute_router_stats(const Network& net, const RunMetrics& metrics, const MeasurementWindow* window,
                                 const LoadMetrics* load) {
  RouterStats s;
  const size_t n = net.vc_counter_count();
  if (window) {
    s.cycles = window->spec().measure;
    s.vcs = window->vc_counters_in_window();
    s.vcs.resize(n);  // a run stopped before the window closed: nothing counted
    s.hops = load->hops;
  } else {
    // Flits still buffered when a run stops count up to its span, like the links' busy cycles.
    s.cycles = metrics.span;
    s.vcs = net.vc_counters_at(metrics.span);
    s.hops = metrics.hops;
  }
  const int routers = net.topology().num_nodes();
  s.routers.assign(static_cast<size_t>(routers), VcCounters{});
  for (int r = 0; r < routers; ++r) {
    const Router& router = net.router(r);
    for (int ip = 0; ip < router.in_ports(); ++ip)
      for (int vc = 0; vc < router.vcs_per_port(ip); ++vc)
        s.routers[static_cast<size_t>(r)] += s.vcs[static_cast<size_t>(router.counter_index(ip, vc))];
  }
  return s;
}

nlohmann::ordered_json router_stats_json(const RouterStats& s) {
  VcCounters total;
  size_t busiest = 0;
  for (size_t r = 0; r < s.routers.size(); ++r) {
    total += s.routers[r];
    if (s.routers[r].flit_cycles > s.routers[busiest].flit_cycles) busiest = r;
  }
  const double routers = static_cast<double>(s.routers.size());
  const LatencyStats hops = s.hops.stats();
  return StatBlock(router_summary_stats())
      .set("cycles", s.cycles)
      .set("flit_cycles", total.flit_cycles)
      .set("occupancy.mean", routers > 0 ? per_cycle(total.flit_cycles, s.cycles) / routers : 0.0)
      .set("occupancy.max", s.routers.empty() ? 0.0 : per_cycle(s.routers[busiest].flit_cycles, s.cycles))
      .set("occupancy.max_router", static_cast<int64_t>(busiest))
      .set("vc_alloc_stall_cycles", total.vc_alloc)
      .set("switch_alloc_stall_cycles", total.switch_alloc)
      .set("credit_stall_cycles", total.credit)
      .set("hops.messages", s.hops.count())
      .set("hops.mean", hops.mean)
      .set("hops.min", s.hops.min())
      .set("hops.p50", hops.p50)
      .set("hops.p99", hops.p99)
      .set("hops.max", hops.max)
      .json();
}

std::string routers_csv(const Network& net, const RouterStats& s) {
  const Topology& topo = net.topology();
  CsvText os;
  os << router_columns().csv_header();
  for (size_t r = 0; r < s.routers.size(); ++r) {
    os << r << ',' << csv_quoted(topo.router_name(static_cast<int>(r))) << ',';
    put_counters(os, s.routers[r], s.cycles);
  }
  return std::move(os).str();
}

std::string vcs_csv(const Network& net, const RouterStats& s) {
  CsvText os;
  os << vc_columns().csv_header();
  for (int r = 0; r < net.topology().num_nodes(); ++r) {
    const Router& router = net.router(r);
    for (int ip = 0; ip < router.in_ports(); ++ip)
      for (int vc = 0; vc < router.vcs_per_port(ip); ++vc) {
        os << r << ',' << ip << ',' << vc << ',' << (ip < router.link_ports() ? "link" : "injection") << ',';
        put_counters(os, s.vcs[static_cast<size_t>(router.counter_index(ip, vc))], s.cycles);
      }
  }
  return std::move(os).str();
}

std::string hops_csv(const RouterStats& s) {
  CsvText os;
  os << hop_columns().csv_header();
  for (const auto& [hops, messages] : s.hops.counts()) os << hops << ',' << messages << '\n';
  return std::move(os).str();
}

}  // namespace wormsim

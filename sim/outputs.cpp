#include "sim/outputs.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/topology_shape.hpp"
#include "sim/atomic_file.hpp"
#include "sim/class_outputs.hpp"
#include "sim/config_echo.hpp"
#include "sim/csv_text.hpp"
#include "sim/executor.hpp"
#include "sim/message_rows.hpp"
#include "sim/output_tables.hpp"
#include "sim/streamed_message_rows.hpp"
#include "sim/multicast_outputs.hpp"
#include "sim/repetition_outputs.hpp"
#include "sim/schedule_retirement.hpp"
#include "sim/warmup_outputs.hpp"
#include "sim/version.hpp"

namespace wormsim {

using ojson = nlohmann::ordered_json;

namespace {

std::string fixed(double v, int digits = 6) { return fixed_text(v, digits); }


nlohmann::ordered_json load_json(const LoadMetrics& l) {
  return StatBlock(load_stats())
      .set("warmup_cycles", l.warmup)
      .set("measure_cycles", l.measure)
      .set("drain_limit_cycles", l.drain_limit)
      .set("drain_cycles", l.drain_cycles)
      .set("saturated", l.saturated)
      .set("backlogged", l.backlogged)
      .set("packets", l.packets)
      .set("delivered", l.delivered)
      .set("offered_packets_per_node_cycle", l.offered_packets)
      .set("offered.mean", l.offered.mean)
      .set("offered.min", l.offered.min)
      .set("offered.max", l.offered.max)
      .set("accepted.mean", l.accepted.mean)
      .set("accepted.min", l.accepted.min)
      .set("accepted.max", l.accepted.max)
      .set("packet_latency.mean", l.packet_latency.mean)
      .set("packet_latency.p50", l.packet_latency.p50)
      .set("packet_latency.p99", l.packet_latency.p99)
      .set("packet_latency.max", l.packet_latency.max)
      .set("network_latency.mean", l.network_latency.mean)
      .set("network_latency.p50", l.network_latency.p50)
      .set("network_latency.p99", l.network_latency.p99)
      .set("network_latency.max", l.network_latency.max)
      .set("link_utilisation.mean", l.link_utilisation_mean)
      .set("link_utilisation.max", l.link_utilisation_max)
      .json();
}

}  // namespace

std::string summary_json(const RunReport& rep) {
  const RunMetrics& m = rep.metrics;
  const Network& net = *rep.network;
  const Topology& topo = net.topology();
  ojson j;
  j["wormsim_version"] = kWormsimVersion;
  j["status"] = m.status;
  j["config"] = config_echo(*rep.config);
  j["seed"] = rep.config->seed;
  ojson sched{{"name", rep.schedule->name},
              {"algorithm", rep.schedule->algorithm},
              {"steps", rep.schedule->steps.size()},
              {"messages", rep.schedule->num_messages()},
              {"broadcast", rep.schedule->broadcast}};
  if (rep.schedule->broadcast) sched["source"] = topo.node_name(rep.schedule->source);
  j["schedule"] = sched;
  j["metrics"] = StatBlock(metrics_stats())
                     .set("completion_cycles", m.completion)
                     .set("messages", m.messages)
                     .set("delivered", m.delivered)
                     .set("tcd", m.tcd)
                     .set("flit_hops", m.flit_hops)
                     .set("latency.mean", m.latency_mean)
                     .set("latency.p50", m.latency_p50)
                     .set("latency.p99", m.latency_p99)
                     .set("latency.max", m.latency_max)
                     .set("step_contention.messages", m.step_contention.messages)
                     .set("step_contention.cycles", m.step_contention.cycles)
                     .set("depth_contention.messages", m.depth_contention.messages)
                     .set("depth_contention.cycles", m.depth_contention.cycles)
                     .set("background_contention.messages", m.background_contention.messages)
                     .set("background_contention.cycles", m.background_contention.cycles)
                     .set("port_wait.messages", m.port_wait.messages)
                     .set("port_wait.cycles", m.port_wait.cycles)
                     .set("other_delay.messages", m.other_delay.messages)
                     .set("other_delay.cycles", m.other_delay.cycles)
                     .set("link_utilisation.mean", m.link_util_mean)
                     .set("link_utilisation.max", m.link_util_max)
                     .set("link_utilisation.links", m.links)
                     .set("link_utilisation.links_used", m.links_used)
                     .set("flits_injected", m.flits_injected)
                     .set("flits_ejected", m.flits_ejected)
                     .set("span_cycles", m.span)
                     .set("simulated_cycles", net.cycles_simulated())
                     .json();
  if (m.has_background) {
    const auto& b = m.background;
    const Config& c = *rep.config;
    // A measured run offers up to its drain cap after the window, wherever the window opened.
    const uint64_t offered_cycles = rep.load ? rep.load->warmup + rep.load->measure + rep.load->drain_limit : c.traffic_cycles;
    const double window_node_cycles = static_cast<double>(offered_cycles) * topo.num_endpoints();
    j["background"] =
        StatBlock(background_stats())
            .set("pattern", aggregate_pattern(c))
            .set("offered_rate", aggregate_rate(c))
            .set("messages", b.messages)
            .set("delivered", b.delivered)
            .set("accepted_flits_per_node_cycle", window_node_cycles > 0 ? b.flits_delivered / window_node_cycles : 0.0)
            .set("latency.mean", b.latency.mean)
            .set("latency.p50", b.latency.p50)
            .set("latency.p99", b.latency.p99)
            .set("latency.max", b.latency.max)
            .set("source_queue.max", static_cast<int64_t>(net.source_queue_max()))
            .set("source_queue.end", static_cast<int64_t>(net.source_queue_now()))
            .json();
    if (rep.classes) j["classes"] = classes_json(rep, offered_cycles);
  }
  if (rep.load) j["load"] = load_json(*rep.load);
  if (rep.load && rep.load->adaptive) j["warmup"] = warmup_json(*rep.load->adaptive, rep.load->warmup);
  if (rep.repetitions) j["repetitions"] = repetitions_json(*rep.repetitions);
  if (!net.context().copies.empty()) j["multicast"] = multicast_json(net);
  if (rep.router_stats) j["router_stats"] = router_stats_json(*rep.router_stats);
  // A run that stopped early still conserves flits: those not ejected are in buffers.
  const bool complete = m.status == "completed";
  const bool buffers_ok = rep.buffers_consistent;
  j["invariants"] = StatBlock(invariant_stats())
                        .set("flits_conserved", complete ? m.flits_injected == m.flits_ejected
                                                         : m.flits_injected >= m.flits_ejected && buffers_ok)
                        .set("all_messages_delivered", m.delivered == m.messages)
                        .set("buffers_consistent", buffers_ok)
                        .json();
  if (!net.deadlock_cycle().empty()) {
    ojson cyc = ojson::array();
    for (const WaitEdge& w : net.deadlock_cycle()) {
      const auto& msg = net.context().msgs[w.msg];
      cyc.push_back(ojson{{"node", topo.router_name(w.node)},
                          {"in_port", w.in_port},
                          {"vc", w.vc},
                          {"waits_for_output", w.out_port >= topo.num_ports() ? ojson("ejection") : ojson(w.out_port)},
                          {"message", net.message_id(w.msg)},
                          {"message_src", topo.node_name(msg.src)},
                          {"message_dst", topo.node_name(msg.dst)},
                          {"waits_for_message", w.blocker == kNoMessage ? ojson(nullptr) : ojson(net.message_id(w.blocker))}});
      if (w.queued) cyc.back()["queued"] = true;
    }
    j["deadlock"] = cyc;
  }
  if (rep.outputs) {
    ojson files = ojson::object();
    for (const OutputFile& f : *rep.outputs) files[f.name] = ojson{{"bytes", f.bytes}, {"crc32", crc32_hex(f.crc32)}};
    j["outputs"] = files;
  }
  j["warnings"] = rep.warnings;
  if (rep.config->host_timing) {
    const double sim = rep.host.simulation_seconds;
    j["host"] = StatBlock(host_stats())
                    .set("elaboration_seconds", rep.host.elaboration_seconds)
                    .set("simulation_seconds", sim)
                    .set("wall_seconds", rep.host.wall_seconds)
                    .set("simulated_cycles_per_second", sim > 0 ? static_cast<double>(m.span) / sim : 0.0)
                    .set("flit_hops_per_second", sim > 0 ? static_cast<double>(m.flit_hops) / sim : 0.0)
                    .set("express_worms", rep.host.express_worms)
                    .set("express_flit_moves", rep.host.express_flit_moves)
                    .set("express_handbacks", rep.host.express_handbacks)
                    .set("express_parallel_cycles", rep.host.express_parallel_cycles)
                    .set("event_batches", rep.host.event_batches)
                    .set("steady_worms", rep.host.steady_worms)
                    .set("steady_cycles", rep.host.steady_cycles)
                    .set("peak_rss_mib", rep.host.peak_rss_mib)
                    .json();
  }
  return j.dump(2) + "\n";
}

namespace {
// output.messages: schedule lists the schedule's messages only; rows streamed
// while the run went (StreamedMessageRows) hold the background's.
bool listed(const RunReport& rep, const MessageRecord& m) {
  return !m.free() && (m.step >= 0 || (rep.config->background_rows && !rep.streamed_rows));
}

// Calls visit(slot) for each listed message of the table, in id order (the
// order of the slots, unless slots were recycled or ids set aside).
template <typename Visit>
void for_each_listed(const RunReport& rep, Visit visit) {
  const Network& net = *rep.network;
  const auto& msgs = net.context().msgs;
  if (net.ids_are_slots()) {
    for (size_t slot = 0; slot < msgs.size(); ++slot)
      if (listed(rep, msgs[slot])) visit(static_cast<uint32_t>(slot));
    return;
  }
  std::vector<std::pair<uint64_t, uint32_t>> by_id;  // (id, slot)
  for (size_t slot = 0; slot < msgs.size(); ++slot)
    if (listed(rep, msgs[slot])) by_id.emplace_back(net.message_id(static_cast<uint32_t>(slot)), slot);
  std::sort(by_id.begin(), by_id.end());
  for (const auto& [id, slot] : by_id) visit(slot);
}

// The messages.csv rows of the listed messages, in id order: those of the
// repetitions retired during the run, the table's, those never begun.
void write_table_message_rows(CsvText& os, const RunReport& rep) {
  const Network& net = *rep.network;
  const SimContext& ctx = net.context();
  QuotedNames names(net.topology(), *rep.schedule);
  const ScheduleExecutor& exec = *rep.executor;
  if (rep.retired_schedule) rep.retired_schedule->copy_rows_before(os, false);
  for_each_listed(rep, [&](uint32_t slot) {
    const MessageRecord& m = ctx.msgs[slot];
    const uint64_t id = net.message_id(slot);
    // Background messages (step -1) come after the schedule's and carry no named packet.
    const bool scheduled = m.step >= 0;
    write_message_row(os, names, ctx, id, m, scheduled ? exec.index_in_step(id, m.step) : -1,
                      scheduled ? exec.packet_of(id) : -1);
  });
  if (rep.retired_schedule) rep.retired_schedule->copy_rows_after(os, false);
}

void write_table_route_rows(CsvText& os, const RunReport& rep) {
  const Network& net = *rep.network;
  if (rep.retired_schedule) rep.retired_schedule->copy_rows_before(os, true);
  for_each_listed(rep, [&](uint32_t slot) {
    write_route_row(os, net.topology(), net.context(), slot, net.message_id(slot));
  });
  if (rep.retired_schedule) rep.retired_schedule->copy_rows_after(os, true);
}
}  // namespace

void write_messages_csv(CsvText& os, const RunReport& rep) {
  os << message_columns().csv_header();
  write_table_message_rows(os, rep);
}

void write_routes_csv(CsvText& os, const RunReport& rep) {
  os << kRoutesHeader;
  write_table_route_rows(os, rep);
}

// Fixed{0.0}, as links.csv writes an idle link's utilisation.
constexpr std::string_view kIdleUtilisation = "0.000000";
// From this many links on, links.csv is written by a thread of its own (write_csv_outputs).
constexpr int kLinksWorthAThread = 1 << 18;

void write_links_csv(CsvText& os, const RunReport& rep) {
  const Network& net = *rep.network;
  const Topology& topo = net.topology();
  const auto& busy = net.context().link_busy;
  const double span = static_cast<double>(rep.metrics.span);
  os << link_columns().csv_header();
  // Each router's quoted name is built once, for all the links it ends.
  std::vector<std::string> names(static_cast<size_t>(topo.num_nodes()));
  auto name = [&](int router) -> const std::string& {
    std::string& q = names[static_cast<size_t>(router)];
    if (q.empty()) q = csv_quoted(topo.router_name(router));
    return q;
  };
  for (int l = 0; l < topo.num_links(); ++l) {
    const int port = topo.link_port(l);
    os << l << ',' << topo.link_src(l) << ',' << topo.link_dst(l) << ',' << name(topo.link_src(l))
       << ',' << name(topo.link_dst(l)) << ',' << topo.port_dim(port) << ','
       << topo.link_dir(l)
       << ',' << (topo.link_is_wrap(l) ? 1 : 0) << ',' << busy[l] << ',';
    // Most links of a large network carry nothing: their utilisation needs no formatting.
    if (busy[l] == 0) os << kIdleUtilisation;
    else os << Fixed{span > 0 ? static_cast<double>(busy[l]) / span : 0.0};
    os << '\n';
  }
}

void write_steps_csv(CsvText& os, const RunReport& rep) {
  os << step_columns().csv_header();
  // The steps whose messages were all retired as the run went, then the
  // others, then those of the repetitions a stopped run never began.
  if (rep.retired_schedule) rep.retired_schedule->copy_step_rows(os);
  for (const StepMetrics& s : rep.metrics.steps) write_step_row(os, s);
  if (rep.retired_schedule) rep.retired_schedule->copy_step_rows_after(os);
}

bool holds_other_config(const std::string& dir, const Config& config) {
  std::ifstream in(std::filesystem::path(dir) / kSummaryFile, std::ios::binary);
  if (!in) return false;
  const ojson previous = ojson::parse(in, nullptr, false);
  if (previous.is_discarded() || !previous.is_object() || !previous.contains("config")) return false;
  return previous["config"] != config_echo(config);
}

std::string csv_quoted(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

void write_csv_outputs(OutputSet& set, const RunReport& rep) {
  // Streamed: messages.csv, links.csv and routes.csv of a large run are each
  // hundreds of MB (docs/performance.md, "Memory").
  // links.csv reads nothing the other tables write; in a big network it is
  // most of the bytes (a row per link), so a second thread writes it meanwhile.
  // In a smaller one the thread's start (its stack, its malloc arena, its
  // buffer's fresh pages: about 5 ms of CPU on this machine kind) would cost a
  // third or more of the writing it took over.
  const bool links_meanwhile = rep.network->topology().num_links() >= kLinksWorthAThread;
  const auto links = [&rep](CsvText& os) { write_links_csv(os, rep); };
  if (links_meanwhile) set.add_streamed_in_background("links.csv", links, "messages.csv");
  // A schedule's rows all retired while the run went are already the file.
  const bool retired_whole = rep.retired_schedule && !rep.streamed_rows && rep.retired_schedule->holds_every_row();
  if (rep.streamed_rows)
    rep.streamed_rows->write_messages(set, [&](CsvText& os) { write_table_message_rows(os, rep); });
  else if (retired_whole)
    rep.retired_schedule->commit_rows(set, false);
  else
    set.add_streamed("messages.csv", [&](CsvText& os) { write_messages_csv(os, rep); });
  if (!links_meanwhile) set.add_streamed("links.csv", links);
  set.add_streamed("steps.csv", [&](CsvText& os) { write_steps_csv(os, rep); });
  if (rep.streamed_rows)
    rep.streamed_rows->write_routes(set, [&](CsvText& os) { write_table_route_rows(os, rep); });
  else if (retired_whole)
    rep.retired_schedule->commit_rows(set, true);
  else
    set.add_streamed("routes.csv", [&](CsvText& os) { write_routes_csv(os, rep); });
  if (rep.repetitions)
    set.add_streamed("repetitions.csv", [&](CsvText& os) {
      // The repetitions whose rows were written as the run went, the others,
      // then those a stopped run never began.
      const ScheduleRetirement* retired = rep.retired_schedule;
      if (!retired) return write_repetitions_csv(os, *rep.repetitions);
      write_repetitions_csv(
          os, *rep.repetitions, [retired](CsvText& rows) { retired->copy_repetition_rows(rows); },
          [retired](CsvText& rows) { retired->copy_repetition_rows_after(rows); });
    });
  if (!rep.network->context().copies.empty()) set.add("copies.csv", copies_csv(*rep.network));
  if (rep.load && rep.load->adaptive) set.add("warmup.csv", warmup_csv(*rep.load->adaptive));
  if (rep.classes) set.add("latency.csv", class_latency_csv(rep));
  if (rep.router_stats) {
    set.add("routers.csv", routers_csv(*rep.network, *rep.router_stats));
    set.add("vcs.csv", vcs_csv(*rep.network, *rep.router_stats));
    set.add("hops.csv", hops_csv(*rep.router_stats));
  }
  set.wait_background();
}

namespace {

// A multicast message is one message of the schedule and one worm or more in
// the network (metrics.messages counts worms): both are said when they differ.
// Background traffic alone has no schedule messages: metrics.messages counts
// the generated ones.
std::string schedule_messages_text(const RunReport& rep) {
  if (rep.schedule->num_messages() == 0) return std::to_string(rep.metrics.messages) + " messages";
  const long long repetitions = rep.repetitions ? rep.repetitions->spec.count : 1;
  const long long messages = static_cast<long long>(rep.schedule->num_messages()) * repetitions;
  const long long worms = static_cast<long long>(rep.metrics.messages);
  std::string text = std::to_string(messages) + " messages";
  if (worms != messages) text += " as " + std::to_string(worms) + " worms";
  return text;
}

}  // namespace

std::string human_summary(const RunReport& rep, const std::string& dir, const std::vector<OutputFile>& files) {
  const RunMetrics& m = rep.metrics;
  const Config& c = *rep.config;
  std::ostringstream os;
  os << "wormsim " << kWormsimVersion << ": " << c.topology.describe() << ", " << c.ports.describe() << ", "
     << c.vcs << " VC x " << c.buffer_flits << " flits, " << to_string(c.mode) << " mode\n";
  os << "schedule:    " << (rep.schedule->name.empty() ? "(unnamed)" : rep.schedule->name) << " ("
     << rep.schedule->steps.size() << " steps, " << schedule_messages_text(rep);
  if (rep.repetitions) os << " in " << rep.repetitions->spec.count << " repetitions";
  os << ")\n";
  os << "status:      " << m.status << "\n";
  os << "completion:  " << m.completion << " cycles\n";
  os << "TCD:         " << m.tcd << " hops (" << m.flit_hops << " flit-hops)\n";
  if (m.delivered == 0 && m.messages > 0)
    os << "latency:     none (no message delivered)\n";
  else
    os << "latency:     mean " << fixed(m.latency_mean, 2) << ", p50 " << m.latency_p50 << ", p99 " << m.latency_p99
       << ", max " << m.latency_max << " cycles\n";
  os << "contention:  step " << m.step_contention.cycles << " cycles (" << m.step_contention.messages
     << " msgs), depth " << m.depth_contention.cycles << " cycles (" << m.depth_contention.messages
     << " msgs), port wait " << m.port_wait.cycles << " cycles\n";
  os << "links:       mean utilisation " << fixed(m.link_util_mean, 4) << ", max " << fixed(m.link_util_max, 4)
     << " (" << m.links_used << " of " << m.links << " used)\n";
  if (rep.load) {
    const LoadMetrics& l = *rep.load;
    if (l.adaptive)
      os << "warm-up:     " << (l.adaptive->stabilised() ? "stabilised" : "NOT stabilised (cap reached)") << " after "
         << l.adaptive->samples().size() << " samples of " << l.adaptive->spec().sample << " cycles\n";
    os << "load window: cycles " << l.warmup << ".." << l.warmup + l.measure << (l.backlogged ? ", saturated (backlogged)" : l.saturated ? ", saturated" : "")
       << "; offered " << fixed(l.offered.mean, 4) << ", accepted " << fixed(l.accepted.mean, 4)
       << " flits/node/cycle; packet latency mean " << fixed(l.packet_latency.mean, 2) << ", network latency mean "
       << fixed(l.network_latency.mean, 2) << " cycles\n";
  }
  if (rep.repetitions) {
    const RepetitionMetrics& r = *rep.repetitions;
    os << "repetitions: " << r.completed << " of " << r.spec.count << " completed";
    if (r.completed)
      os << "; completion min " << r.completion.min << ", mean " << fixed(r.completion.mean, 2) << ", p95 "
         << r.completion.p95 << ", max " << r.completion.max << " cycles; background contention mean "
         << fixed(r.background_contention.mean, 2) << " cycles";
    os << "\n";
  }
  if (m.has_background) {
    os << "background:  " << m.background.delivered << " of " << m.background.messages << " packets delivered, latency mean "
       << fixed(m.background.latency.mean, 2) << ", p99 " << m.background.latency.p99 << " cycles\n";
    if (rep.classes) os << classes_text(rep);
  }
  os << "outputs:     " << dir << "/{" << kSummaryFile;
  for (const OutputFile& f : files) os << ',' << f.name;
  os << "}\n";
  return os.str();
}

}  // namespace wormsim

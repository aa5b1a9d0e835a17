#include "sim/class_outputs.hpp"

#include <string>

#include "sim/csv_text.hpp"
#include "sim/output_tables.hpp"

namespace wormsim {

namespace {

using ojson = nlohmann::ordered_json;

void set_latency(StatBlock& b, const std::string& name, const LatencyHistogram& h) {
  const LatencyStats s = h.stats();
  b.set(name + ".mean", s.mean)
      .set(name + ".p50", s.p50)
      .set(name + ".p90", h.percentile(90))
      .set(name + ".p99", s.p99)
      .set(name + ".max", s.max);
}

ojson class_load_json(const ClassFigures& f, uint64_t accepted_flits, double node_cycles) {
  StatBlock b(class_load_stats());
  b.set("packets", f.packets)
      .set("delivered", f.window_delivered)
      .set("offered_packets_per_node_cycle", static_cast<double>(f.packets) / node_cycles)
      .set("offered_flits_per_node_cycle", static_cast<double>(f.offered_flits) / node_cycles)
      .set("accepted_flits_per_node_cycle", static_cast<double>(accepted_flits) / node_cycles);
  set_latency(b, "packet_latency", f.packet);
  set_latency(b, "network_latency", f.network);
  return b.json();
}

}  // namespace

ojson classes_json(const RunReport& rep, uint64_t offered_cycles) {
  const Config& c = *rep.config;
  const double endpoints = static_cast<double>(rep.network->topology().num_endpoints());
  const double run_node_cycles = static_cast<double>(offered_cycles) * endpoints;
  ojson out = ojson::array();
  for (size_t i = 0; i < c.classes.size(); ++i) {
    const BackgroundSpec& spec = c.classes[i].spec;
    const ClassFigures& f = rep.classes->figures()[i];
    StatBlock b(class_stats());
    b.set("name", c.classes[i].name)
        .set("pattern", spec.pattern)
        .set("injection", spec.injection)
        .set("offered_rate", spec.rate)
        .set("messages", f.messages)
        .set("delivered", f.delivered)
        .set("accepted_flits_per_node_cycle",
             run_node_cycles > 0 ? static_cast<double>(f.flits_delivered) / run_node_cycles : 0.0);
    set_latency(b, "latency", f.latency);
    ojson entry = b.json();
    if (rep.load)
      entry["load"] = class_load_json(f, rep.class_accepted.at(i), static_cast<double>(rep.load->measure) * endpoints);
    out.push_back(std::move(entry));
  }
  return out;
}

std::string class_latency_csv(const RunReport& rep) {
  CsvText os;
  os << class_latency_columns().csv_header();
  const auto rows = [&os](const std::string& name, const char* which, const LatencyHistogram& h) {
    for (const auto& [cycles, messages] : h.counts()) os << name << ',' << which << ',' << cycles << ',' << messages << '\n';
  };
  const Config& c = *rep.config;
  for (size_t i = 0; i < c.classes.size(); ++i) {
    const ClassFigures& f = rep.classes->figures()[i];
    const std::string& name = c.classes[i].name;  // letters, digits, _ . - only: never quoted
    rows(name, "latency", f.latency);
    if (!rep.load) continue;
    rows(name, "packet_latency", f.packet);
    rows(name, "network_latency", f.network);
  }
  return std::move(os).str();
}

std::string classes_text(const RunReport& rep) {
  const Config& c = *rep.config;
  const double endpoints = static_cast<double>(rep.network->topology().num_endpoints());
  std::string out;
  for (size_t i = 0; i < c.classes.size(); ++i) {
    const ClassFigures& f = rep.classes->figures()[i];
    out += "class " + c.classes[i].name + ": " + std::to_string(f.delivered) + " of " + std::to_string(f.messages) +
           " packets delivered, latency mean " + fixed_text(f.latency.stats().mean, 2) + ", p99 " +
           std::to_string(f.latency.percentile(99)) + " cycles";
    if (rep.load) {
      const double node_cycles = static_cast<double>(rep.load->measure) * endpoints;
      out += "; window: offered " + fixed_text(static_cast<double>(f.offered_flits) / node_cycles, 4) + ", accepted " +
             fixed_text(static_cast<double>(rep.class_accepted.at(i)) / node_cycles, 4) +
             " flits/node/cycle, packet latency mean " + fixed_text(f.packet.stats().mean, 2) + " cycles";
    }
    out += "\n";
  }
  return out;
}

std::string aggregate_pattern(const Config& c) {
  std::string p;
  for (const TrafficClass& tc : c.classes) p += (p.empty() ? "" : "+") + tc.spec.pattern;
  return p;
}

double aggregate_rate(const Config& c) {
  double r = 0.0;
  for (const TrafficClass& tc : c.classes) r += tc.spec.rate;
  return r;
}

}  // namespace wormsim

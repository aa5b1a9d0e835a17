#include "sim/saturation_outputs.hpp"

#include <algorithm>
#include <charconv>
#include <sstream>

#include <nlohmann/json.hpp>

#include "decl/stat.hpp"
#include "sim/config_echo.hpp"
#include "sim/csv_text.hpp"
#include "sim/version.hpp"

namespace wormsim {

using ojson = nlohmann::ordered_json;

namespace {

using namespace stat_type_letters;
const char* const kPackets = "packets per node per cycle";
const char* const kFlits = "flits per node per cycle";

const StatTable kCurve{
    "curve.csv", "", "wormsim saturate: one row per measured offered load, by rate", "only from wormsim saturate", 80,
    {{"rate", N, kPackets, "traffic.rate of the run (6 significant digits)"},
     {"role", T, "", "low or high (the search's bounds), bisection, or curve (the evenly spaced points)"},
     {"status", T, "", "the run's status: completed, or saturated (its window did not drain)"},
     {"offered_packets", N, kPackets, "load.offered_packets_per_node_cycle of the run"},
     {"offered", N, kFlits, "load.offered.mean: flits of the window's packets / (endpoints x window)"},
     {"accepted", N, kFlits, "load.accepted.mean: flits ejected during the window / (endpoints x window)"},
     {"packet_latency", N, "cycles", "load.packet_latency.mean: delivered - created (source queueing included)"},
     {"network_latency", N, "cycles", "load.network_latency.mean: delivered - injected"},
     {"packets", I, "packets", "load.packets: created in the window"},
     {"delivered", I, "packets", "load.delivered: of those, delivered"},
     {"saturated", I, "", "1 if a criterion in force fired for this point, else 0"},
     {"fired", T, "", "the criteria that fired (throughput, latency, drain), separated by ';'"}}};
WORMSIM_DECLARE_STATS(kCurve);

const StatTable kSaturation{
    "summary.json", "saturation", "wormsim saturate: the saturation search and its result",
    "only from wormsim saturate", 26,
    {{"criterion", T, "", "the criteria in force (--criterion), comma-separated"},
     {"tolerance", N, "", "--tolerance: throughput fires when accepted < (1 - tolerance) x offered"},
     {"latency_multiple", N, "", "--latency-multiple: latency fires above this multiple of the zero-load latency"},
     {"resolution", N, "", "--resolution: the bisection stops when rate.high - rate.low <= resolution x rate.low"},
     {"low_bound", N, kPackets, "--low: the search's lower bound"},
     {"high_bound", N, kPackets, "--high: the search's upper bound"},
     {"found", B, "", "the high bound was saturated, so the bracket holds the saturation point"},
     {"zero_load_latency", N, "cycles", "mean packet latency at the low bound: the latency criterion's reference"},
     {"rate.low", N, kPackets, "the highest rate found not saturated (the bracket's low end)"},
     {"rate.high", N, kPackets, "the lowest rate found saturated; null when not found"},
     {"offered.low", N, kFlits, "offered load measured at rate.low"},
     {"offered.high", N, kFlits, "offered load measured at rate.high; null when not found"},
     {"throughput", N, kFlits, "accepted throughput at rate.low: the saturation throughput"},
     {"fired", T, "", "the criteria that fired at rate.high; empty when not found"},
     {"peak_accepted", N, kFlits, "the largest accepted throughput on the curve"},
     {"bound", N, kFlits, "the channel-load bound where known (uniform traffic on a mesh or torus), else null"},
     {"bound_formula", T, "", "how the bound was worked out, or why it is not known"},
     {"throughput_over_bound", N, "", "throughput / bound; null when the bound is not known"},
     {"bisection_steps", I, "runs", "runs of the bisection"},
     {"runs", I, "runs", "runs in all: the bounds, the bisection and the curve"}}};
WORMSIM_DECLARE_STATS(kSaturation);

ojson or_null(bool have, double v) { return have ? ojson(v) : ojson(nullptr); }

std::string status_of(const SearchResult& r) { return r.outcome == SearchOutcome::Found ? "found" : "not_saturated"; }

std::string percent(double fraction) { return fixed_text(100.0 * fraction, 1) + "%"; }

}  // namespace

std::string curve_csv(const SaturationReport& rep) {
  CsvText os;
  os << kCurve.csv_header();
  for (const CurvePoint& p : rep.result->curve) {
    std::string fired = p.fired();
    std::replace(fired.begin(), fired.end(), ',', ';');
    os << rate_text(p.rate) << ',' << p.role << ',' << p.m.status << ',' << fixed_text(p.m.offered_packets, 6) << ','
       << fixed_text(p.m.offered, 6) << ',' << fixed_text(p.m.accepted, 6) << ',' << fixed_text(p.m.packet_latency, 3)
       << ',' << fixed_text(p.m.network_latency, 3) << ',' << p.m.packets << ',' << p.m.delivered << ','
       << (p.saturated() ? 1 : 0) << ',' << fired << '\n';
  }
  return std::move(os).str();
}

std::string saturation_summary_json(const SaturationReport& rep, const std::vector<OutputFile>& outputs) {
  const SearchResult& r = *rep.result;
  const SaturationOptions& o = *rep.options;
  const CurvePoint& below = r.curve.at(static_cast<size_t>(r.below));
  const CurvePoint* above = r.above >= 0 ? &r.curve[static_cast<size_t>(r.above)] : nullptr;
  double peak = 0.0;
  for (const CurvePoint& p : r.curve) peak = std::max(peak, p.m.accepted);
  ojson j;
  j["wormsim_version"] = kWormsimVersion;
  j["command"] = "saturate";
  j["status"] = status_of(r);
  j["config"] = config_echo(*rep.config);
  j["seed"] = rep.config->seed;
  j["saturation"] = StatBlock(kSaturation)
                        .set("criterion", o.criterion.names())
                        .set("tolerance", o.criterion.tolerance)
                        .set("latency_multiple", o.criterion.latency_multiple)
                        .set("resolution", o.resolution)
                        .set("low_bound", o.low)
                        .set("high_bound", o.high)
                        .set("found", above != nullptr)
                        .set("zero_load_latency", r.zero_load_latency)
                        .set("rate.low", below.rate)
                        .set("rate.high", or_null(above, above ? above->rate : 0.0))
                        .set("offered.low", below.m.offered)
                        .set("offered.high", or_null(above, above ? above->m.offered : 0.0))
                        .set("throughput", below.m.accepted)
                        .set("fired", above ? above->fired() : "")
                        .set("peak_accepted", peak)
                        .set("bound", or_null(rep.bound.known, rep.bound.flits))
                        .set("bound_formula", rep.bound.formula)
                        .set("throughput_over_bound", or_null(rep.bound.known, below.m.accepted / rep.bound.flits))
                        .set("bisection_steps", r.bisection_steps)
                        .set("runs", r.curve.size())
                        .json();
  ojson files = ojson::object();
  for (const OutputFile& f : outputs) files[f.name] = ojson{{"bytes", f.bytes}, {"crc32", crc32_hex(f.crc32)}};
  j["outputs"] = files;
  return j.dump(2) + "\n";
}

std::string saturation_text(const SaturationReport& rep, const std::string& dir) {
  const SearchResult& r = *rep.result;
  const SaturationOptions& o = *rep.options;
  const Config& cfg = *rep.config;
  std::ostringstream os;
  const BackgroundSpec& traffic = cfg.classes.front().spec;
  os << "wormsim " << kWormsimVersion << " saturate: " << cfg.topology.describe() << ", " << traffic.pattern
     << " traffic, " << traffic.injection << " injection, packets of " << fixed_text(rep.mean_flits, 2)
     << " flits on average\n";
  os << "criterion:   " << o.criterion.names() << " (throughput: accepted < " << fixed_text(1 - o.criterion.tolerance, 2)
     << " x offered; latency: packet latency > " << fixed_text(o.criterion.latency_multiple, 2)
     << " x zero-load; drain: the run saturated)\n";
  os << "      rate   offered  accepted  packet lat  network lat  status     role       fired\n";
  for (const CurvePoint& p : r.curve) {
    char line[200];
    std::snprintf(line, sizeof line, "%10s  %8s  %8s  %10s  %11s  %-9s  %-9s  %s\n", rate_text(p.rate).c_str(),
                  fixed_text(p.m.offered, 4).c_str(), fixed_text(p.m.accepted, 4).c_str(),
                  fixed_text(p.m.packet_latency, 2).c_str(), fixed_text(p.m.network_latency, 2).c_str(),
                  p.m.status.c_str(), p.role.c_str(), p.fired().empty() ? "-" : p.fired().c_str());
    os << line;
  }
  os << "(rate: packets/node/cycle; offered, accepted: flits/node/cycle; latencies: cycles)\n";
  const CurvePoint& below = r.curve.at(static_cast<size_t>(r.below));
  os << "zero-load:   packet latency " << fixed_text(r.zero_load_latency, 2) << " cycles at rate " << rate_text(o.low)
     << "\n";
  if (r.above >= 0) {
    const CurvePoint& above = r.curve[static_cast<size_t>(r.above)];
    os << "saturation:  between rate " << rate_text(below.rate) << " and " << rate_text(above.rate)
       << " packets/node/cycle (offered " << fixed_text(below.m.offered, 4) << " .. " << fixed_text(above.m.offered, 4)
       << " flits/node/cycle) after " << r.bisection_steps << " bisection steps; at " << rate_text(above.rate)
       << ": " << above.fired() << "\n";
  } else {
    os << "saturation:  not found: the high bound, rate " << rate_text(o.high)
       << ", is not saturated; give a higher --high\n";
  }
  os << "throughput:  " << fixed_text(below.m.accepted, 4) << " flits/node/cycle accepted at rate "
     << rate_text(below.rate) << "\n";
  if (rep.bound.known)
    os << "bound:       " << fixed_text(rep.bound.flits, 4) << " flits/node/cycle (" << rep.bound.formula
       << "); measured " << percent(below.m.accepted / rep.bound.flits) << " of it\n";
  else
    os << "bound:       not known (" << rep.bound.formula << ")\n";
  os << "outputs:     " << dir << "/{summary.json," << kCurveCsv << "," << kCurveSvg << "}\n";
  return os.str();
}

}  // namespace wormsim

#include "sim/saturation_search.hpp"

#include <algorithm>
#include <charconv>

namespace wormsim {

namespace {

std::string join(const std::vector<std::string>& parts) {
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : ",") + p;
  return s;
}

void judge(CurvePoint& p, const SaturationCriterion& c, double zero_load) {
  p.throughput_fired = c.throughput && p.m.accepted < (1.0 - c.tolerance) * p.m.offered;
  p.latency_fired = c.latency && p.m.packet_latency > c.latency_multiple * zero_load;
  p.drain_fired = c.drain && p.m.status == "saturated";
}

std::vector<CurvePoint> measure(const PointRunner& run, const std::vector<double>& rates, const std::string& role) {
  const std::vector<PointMeasure> ms = run(rates);
  std::vector<CurvePoint> pts;
  for (size_t i = 0; i < rates.size(); ++i) pts.push_back(CurvePoint{rates[i], role, ms.at(i)});
  return pts;
}

// The curve's own rates: evenly spaced up to curve_to x the saturation rate,
// leaving out those the search has measured already.
std::vector<double> curve_rates(const SaturationOptions& opt, double saturation, const std::vector<CurvePoint>& have) {
  std::vector<double> rates;
  for (int i = 1; i <= opt.curve_points; ++i) {
    const double r = round_rate(std::min(1.0, opt.curve_to * saturation * i / opt.curve_points));
    const bool known = std::any_of(have.begin(), have.end(), [&](const CurvePoint& p) { return p.rate == r; }) ||
                       std::find(rates.begin(), rates.end(), r) != rates.end();
    if (r > 0.0 && !known) rates.push_back(r);
  }
  return rates;
}

}  // namespace

std::string SaturationCriterion::names() const {
  std::vector<std::string> n;
  if (throughput) n.push_back("throughput");
  if (latency) n.push_back("latency");
  if (drain) n.push_back("drain");
  return join(n);
}

std::string CurvePoint::fired() const {
  std::vector<std::string> n;
  if (throughput_fired) n.push_back("throughput");
  if (latency_fired) n.push_back("latency");
  if (drain_fired) n.push_back("drain");
  return join(n);
}

// std::to_chars and from_chars ignore the locale: the same bytes everywhere.
std::string rate_text(double rate) {
  char buf[48];
  const auto end = std::to_chars(buf, buf + sizeof buf, rate, std::chars_format::general, 6).ptr;
  return std::string(buf, end);
}

double round_rate(double rate) {
  const std::string text = rate_text(rate);
  double v = 0.0;
  std::from_chars(text.data(), text.data() + text.size(), v);
  return v;
}

SearchResult search_saturation(const SaturationOptions& opt, const PointRunner& run) {
  SearchResult r;
  std::vector<CurvePoint> pts = measure(run, {opt.low, opt.high}, "low");
  pts[1].role = "high";
  CurvePoint& low = pts[0];
  if (low.m.packets == 0)
    throw SearchError("no packets were created in the measurement window at the low bound (traffic.rate=" +
                      rate_text(opt.low) + "): raise --low or lengthen traffic.measure_cycles");
  // The reference of the latency criterion: a light load's latency.
  r.zero_load_latency = low.m.packet_latency;
  for (CurvePoint& p : pts) judge(p, opt.criterion, r.zero_load_latency);
  if (low.saturated())
    throw SearchError("the low bound is already saturated (traffic.rate=" + rate_text(opt.low) + ", criterion " +
                      low.fired() + "): give a lower --low");

  double below = opt.low, above = opt.high;
  if (!pts[1].saturated()) {
    r.outcome = SearchOutcome::NotSaturated;
    below = opt.high;
  } else {
    while (above - below > opt.resolution * below) {
      const double mid = round_rate((below + above) / 2);
      if (mid <= below || mid >= above) break;  // finer than the rates can be written
      CurvePoint p = measure(run, {mid}, "bisection").front();
      judge(p, opt.criterion, r.zero_load_latency);
      (p.saturated() ? above : below) = mid;
      pts.push_back(p);
      ++r.bisection_steps;
    }
  }
  std::vector<CurvePoint> curve = measure(run, curve_rates(opt, below, pts), "curve");
  for (CurvePoint& p : curve) judge(p, opt.criterion, r.zero_load_latency);
  pts.insert(pts.end(), curve.begin(), curve.end());
  std::sort(pts.begin(), pts.end(), [](const CurvePoint& a, const CurvePoint& b) { return a.rate < b.rate; });
  r.curve = std::move(pts);
  for (size_t i = 0; i < r.curve.size(); ++i) {
    if (r.curve[i].rate == below) r.below = static_cast<int>(i);
    if (r.outcome == SearchOutcome::Found && r.curve[i].rate == above) r.above = static_cast<int>(i);
  }
  return r;
}

}  // namespace wormsim

#include "sim/curve_svg.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "sim/csv_text.hpp"

namespace wormsim {

namespace {

constexpr double kPanelW = 400, kPanelH = 300, kLeft = 64, kTop = 48, kGap = 84, kBottom = 86;
const char* const kBlue = "#1f77b4";
const char* const kOrange = "#ff7f0e";
const char* const kRed = "#d62728";
const char* const kGrey = "#888888";

std::string num(double v) { return fixed_text(std::round(v * 10.0) / 10.0, 1); }

// A tick step of 1, 2 or 5 times a power of ten giving about five ticks up to `top`.
double tick_step(double top) {
  const double raw = top / 5.0;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0})
    if (m * p >= raw) return m * p;
  return 10.0 * p;
}

std::string tick_label(double v, double step) {
  const int digits = std::max(0, static_cast<int>(-std::floor(std::log10(step) + 1e-9)));
  return fixed_text(v, digits);
}

// One panel: data coordinates [0, xmax] x [0, ymax] mapped to a box at (x0, y0).
struct Panel {
  double x0, y0, xmax, ymax;
  double px(double x) const { return x0 + kPanelW * std::min(x, xmax) / xmax; }
  double py(double y) const { return y0 + kPanelH - kPanelH * std::min(y, ymax) / ymax; }
};

void axes(std::string& s, const Panel& p, const std::string& title, const std::string& xlabel,
          const std::string& ylabel) {
  s += "<rect x=\"" + num(p.x0) + "\" y=\"" + num(p.y0) + "\" width=\"" + num(kPanelW) + "\" height=\"" +
       num(kPanelH) + "\" fill=\"none\" stroke=\"#333\"/>\n";
  const double xs = tick_step(p.xmax), ys = tick_step(p.ymax);
  for (double x = 0; x <= p.xmax * (1 + 1e-9); x += xs)
    s += "<text x=\"" + num(p.px(x)) + "\" y=\"" + num(p.y0 + kPanelH + 16) + "\" text-anchor=\"middle\">" +
         tick_label(x, xs) + "</text>\n";
  for (double y = 0; y <= p.ymax * (1 + 1e-9); y += ys)
    s += "<text x=\"" + num(p.x0 - 6) + "\" y=\"" + num(p.py(y) + 4) + "\" text-anchor=\"end\">" + tick_label(y, ys) +
         "</text>\n";
  s += "<text x=\"" + num(p.x0 + kPanelW / 2) + "\" y=\"" + num(p.y0 - 12) +
       "\" text-anchor=\"middle\" font-weight=\"bold\">" + title + "</text>\n";
  s += "<text x=\"" + num(p.x0 + kPanelW / 2) + "\" y=\"" + num(p.y0 + kPanelH + 36) + "\" text-anchor=\"middle\">" +
       xlabel + "</text>\n";
  s += "<text transform=\"translate(" + num(p.x0 - 46) + "," + num(p.y0 + kPanelH / 2) +
       ") rotate(-90)\" text-anchor=\"middle\">" + ylabel + "</text>\n";
}

void polyline(std::string& s, const Panel& p, const std::vector<std::pair<double, double>>& pts, const char* colour) {
  s += "<polyline fill=\"none\" stroke=\"" + std::string(colour) + "\" stroke-width=\"1.8\" points=\"";
  for (const auto& [x, y] : pts) s += num(p.px(x)) + "," + num(p.py(y)) + " ";
  s += "\"/>\n";
  for (const auto& [x, y] : pts)
    s += "<circle cx=\"" + num(p.px(x)) + "\" cy=\"" + num(p.py(y)) + "\" r=\"3\" fill=\"" + colour + "\"/>\n";
}

void hline(std::string& s, const Panel& p, double y, const char* colour, const std::string& label) {
  s += "<line x1=\"" + num(p.x0) + "\" y1=\"" + num(p.py(y)) + "\" x2=\"" + num(p.x0 + kPanelW) + "\" y2=\"" +
       num(p.py(y)) + "\" stroke=\"" + colour + "\" stroke-dasharray=\"6,4\"/>\n";
  s += "<text x=\"" + num(p.x0 + 6) + "\" y=\"" + num(p.py(y) - 5) + "\" fill=\"" + colour + "\">" + label +
       "</text>\n";
}

// The bracket of the saturation point as a shaded band.
void bracket_band(std::string& s, const Panel& p, double lo, double hi) {
  s += "<rect x=\"" + num(p.px(lo)) + "\" y=\"" + num(p.y0) + "\" width=\"" + num(std::max(2.0, p.px(hi) - p.px(lo))) +
       "\" height=\"" + num(kPanelH) + "\" fill=\"" + kRed + "\" fill-opacity=\"0.15\"/>\n";
}

}  // namespace

std::string curve_svg(const SaturationReport& rep) {
  const SearchResult& r = *rep.result;
  const SaturationOptions& o = *rep.options;
  std::vector<std::pair<double, double>> packet, network, accepted;
  double xmax = 0, amax = 0;
  // The plot covers the curve's range around the saturation point; the far
  // bisection points and the high bound (often many times further) are in curve.csv.
  const double last_rate = r.above >= 0 ? o.curve_to * r.curve[static_cast<size_t>(r.below)].rate * (1 + 1e-5) : 2.0;
  for (const CurvePoint& p : r.curve) {
    if (p.rate > last_rate && p.rate != r.curve[static_cast<size_t>(std::max(r.above, 0))].rate) continue;
    packet.emplace_back(p.m.offered, p.m.packet_latency);
    network.emplace_back(p.m.offered, p.m.network_latency);
    accepted.emplace_back(p.m.offered, p.m.accepted);
    xmax = std::max(xmax, p.m.offered);
    amax = std::max(amax, p.m.accepted);
  }
  // Past saturation packet latency grows without bound: the latency axis stops
  // at twice the criterion's threshold, and points above it sit on the top edge.
  const double threshold = o.criterion.latency_multiple * r.zero_load_latency;
  const double lat_top = std::max(1.0, 2.0 * threshold);
  if (rep.bound.known) amax = std::max(amax, rep.bound.flits);
  xmax = std::max(xmax, 1e-6) * 1.05;
  const Panel lat{kLeft, kTop, xmax, lat_top};
  const Panel thr{kLeft + kPanelW + kGap, kTop, xmax, std::max(amax, 1e-6) * 1.1};
  const double width = 2 * kPanelW + kLeft + kGap + 24, height = kTop + kPanelH + kBottom;

  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(width) + "\" height=\"" + num(height) +
                  "\" viewBox=\"0 0 " + num(width) + " " + num(height) +
                  "\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" "
                  "fill=\"white\"/>\n";
  const std::string flits = "offered load (flits/node/cycle)";
  axes(s, lat, "latency vs offered load", flits, "latency (cycles)");
  axes(s, thr, "accepted vs offered load", flits, "accepted (flits/node/cycle)");
  if (r.above >= 0) {
    const double lo = r.curve[static_cast<size_t>(r.below)].m.offered, hi = r.curve[static_cast<size_t>(r.above)].m.offered;
    bracket_band(s, lat, lo, hi);
    bracket_band(s, thr, lo, hi);
  }
  if (o.criterion.latency)
    hline(s, lat, threshold, kGrey, fixed_text(o.criterion.latency_multiple, 1) + " x zero-load latency");
  polyline(s, lat, packet, kBlue);
  polyline(s, lat, network, kOrange);
  s += "<line x1=\"" + num(thr.px(0)) + "\" y1=\"" + num(thr.py(0)) + "\" x2=\"" + num(thr.px(thr.xmax)) + "\" y2=\"" +
       num(thr.py(thr.xmax)) + "\" stroke=\"" + kGrey + "\" stroke-dasharray=\"2,3\"/>\n";
  if (rep.bound.known) hline(s, thr, rep.bound.flits, kRed, "channel-load bound " + fixed_text(rep.bound.flits, 3));
  polyline(s, thr, accepted, kBlue);
  // Legend and the result, under the panels.
  const double ly = kTop + kPanelH + 58;
  s += "<circle cx=\"" + num(kLeft) + "\" cy=\"" + num(ly - 4) + "\" r=\"4\" fill=\"" + kBlue +
       "\"/><text x=\"" + num(kLeft + 8) + "\" y=\"" + num(ly) + "\">packet latency / accepted</text>\n";
  s += "<circle cx=\"" + num(kLeft + 190) + "\" cy=\"" + num(ly - 4) + "\" r=\"4\" fill=\"" + kOrange +
       "\"/><text x=\"" + num(kLeft + 198) + "\" y=\"" + num(ly) + "\">network latency</text>\n";
  const CurvePoint& below = r.curve.at(static_cast<size_t>(r.below));
  std::string result = r.above >= 0 ? "saturation: " + fixed_text(below.m.accepted, 4) + " flits/node/cycle accepted"
                                    : "not saturated up to the high bound";
  if (r.above >= 0 && rep.bound.known)
    result += " (" + fixed_text(100.0 * below.m.accepted / rep.bound.flits, 1) + "% of the bound)";
  s += "<text x=\"" + num(kLeft + 330) + "\" y=\"" + num(ly) + "\">" + result + "; shaded: the bracket</text>\n";
  s += "</svg>\n";
  return s;
}

}  // namespace wormsim

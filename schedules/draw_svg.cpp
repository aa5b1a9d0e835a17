#include "schedules/draw_svg.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "models/routing.hpp"
#include "models/topology_shape.hpp"
#include "schedules/diagnostics.hpp"

namespace wormsim {

namespace {

constexpr double kPi = 3.14159265358979323846;

// ---------------------------------------------------------------- geometry

struct Pt {
  double x = 0.0, y = 0.0;
};
Pt operator+(Pt a, Pt b) { return {a.x + b.x, a.y + b.y}; }
Pt operator-(Pt a, Pt b) { return {a.x - b.x, a.y - b.y}; }
Pt operator*(Pt a, double k) { return {a.x * k, a.y * k}; }
double length(Pt a) { return std::hypot(a.x, a.y); }
Pt unit(Pt a) {
  const double l = length(a);
  return l > 1e-9 ? a * (1.0 / l) : Pt{1.0, 0.0};
}
double distance(Pt a, Pt b) { return length(a - b); }

struct Box {
  double x0 = std::numeric_limits<double>::infinity(), y0 = x0;
  double x1 = -x0, y1 = -x0;
  bool empty() const { return x0 > x1; }
  double width() const { return empty() ? 0.0 : x1 - x0; }
  double height() const { return empty() ? 0.0 : y1 - y0; }
  void add(Pt p) {
    x0 = std::min(x0, p.x), y0 = std::min(y0, p.y);
    x1 = std::max(x1, p.x), y1 = std::max(y1, p.y);
  }
  void add(const Box& b) {
    if (!b.empty()) add(Pt{b.x0, b.y0}), add(Pt{b.x1, b.y1});
  }
};

// ---------------------------------------------------------------- text

// One decimal is finer than a screen pixel; std::to_chars ignores the locale, so
// the output stays byte-identical whatever the caller did with setlocale.
std::string num(double v) {
  double r = std::round(v * 10.0) / 10.0;
  if (r == 0.0) r = 0.0;  // no "-0"
  char buf[48];
  const auto res = std::to_chars(buf, buf + sizeof buf, r, std::chars_format::fixed, 1);
  std::string s(buf, res.ptr);
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  return s;
}

std::string xml_escape(const std::string& in) {
  std::string out;
  out.reserve(in.size());
  for (char c : in) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        // Control characters other than tab/newline are not allowed in XML 1.0.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') out += ' ';
        else out += c;
    }
  }
  return out;
}

// Rough width of a label in a sans-serif font, to size the canvas around text.
double text_width(const std::string& s, double size) { return 0.6 * size * static_cast<double>(s.size()); }

// Dark enough for white step numbers on top; neighbours in the list contrast.
const char* step_colour(int step) {
  static const char* const kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                         "#0f8b99", "#8c564b", "#c2408f", "#555555", "#8c8c00"};
  return kPalette[step % 10];
}

constexpr const char* kLinkColour = "#c8c8c8";
constexpr const char* kNodeStroke = "#8a8a8a";
constexpr const char* kSourceFill = "#222222";
constexpr const char* kTickColour = "#777777";
constexpr double kStroke = 2.2;     // message line width
constexpr double kHeadLen = 9.0;    // arrowhead length
constexpr double kHeadHalf = 4.2;   // arrowhead half width
constexpr double kLaneGap = 3.6;    // distance between messages sharing a link
constexpr double kBadgeH = 13.0;    // step-number badge height

// ---------------------------------------------------------------- canvas

// A message stroke: a start point and straight or quadratic pieces.
struct Op {
  char kind = 'L';  // 'L' or 'Q'
  Pt c;             // Q: control point
  Pt p;
};
struct Piece {
  bool dashed = false;
  Pt start;
  std::vector<Op> ops;
};

// SVG body text in layout coordinates, and the box it covers.
class Canvas {
 public:
  void raw(const std::string& s) { out_ += s; }
  void line(Pt a, Pt b, const std::string& attrs) {
    box_.add(a), box_.add(b);
    out_ += "<line x1=\"" + num(a.x) + "\" y1=\"" + num(a.y) + "\" x2=\"" + num(b.x) + "\" y2=\"" +
            num(b.y) + "\" " + attrs + "/>\n";
  }
  void rect(Pt corner, Pt size, const std::string& attrs) {
    box_.add(corner), box_.add(corner + size);
    out_ += "<rect x=\"" + num(corner.x) + "\" y=\"" + num(corner.y) + "\" width=\"" + num(size.x) +
            "\" height=\"" + num(size.y) + "\" " + attrs + "/>\n";
  }
  void circle(Pt c, double r, const std::string& attrs) {
    box_.add(c - Pt{r, r}), box_.add(c + Pt{r, r});
    out_ += "<circle cx=\"" + num(c.x) + "\" cy=\"" + num(c.y) + "\" r=\"" + num(r) + "\" " + attrs + "/>\n";
  }
  // anchor: "start", "middle" or "end"; `at` is on the baseline.
  void text(Pt at, const std::string& s, double size, const std::string& anchor, const std::string& attrs,
            bool halo = false) {
    const double w = text_width(s, size);
    // A white outline drawn underneath keeps labels legible where lines cross them
    // (SVG 1.1 has no paint-order, so it is a second text element).
    if (halo) text_element(at, s, size, anchor, "stroke=\"#ffffff\" stroke-width=\"3\" stroke-linejoin=\"round\"");
    const double left = anchor == "middle" ? at.x - w / 2 : anchor == "end" ? at.x - w : at.x;
    box_.add(Pt{left, at.y - 0.8 * size}), box_.add(Pt{left + w, at.y + 0.25 * size});
    text_element(at, s, size, anchor, attrs);
  }
  void path(const Piece& p, const std::string& attrs) {
    std::string d = "M" + num(p.start.x) + " " + num(p.start.y);
    box_.add(p.start);
    for (const Op& op : p.ops) {
      if (op.kind == 'Q') d += "Q" + num(op.c.x) + " " + num(op.c.y) + " ", box_.add(op.c);
      else d += "L";
      d += num(op.p.x) + " " + num(op.p.y);
      box_.add(op.p);
    }
    out_ += "<path d=\"" + d + "\" " + attrs + "/>\n";
  }
  void polygon_path(const std::vector<Pt>& pts, const std::string& attrs) {
    std::string d;
    for (size_t i = 0; i < pts.size(); ++i) {
      d += (i ? "L" : "M") + num(pts[i].x) + " " + num(pts[i].y);
      box_.add(pts[i]);
    }
    out_ += "<path d=\"" + d + "Z\" " + attrs + "/>\n";
  }
  const std::string& str() const { return out_; }
  const Box& box() const { return box_; }

 private:
  void text_element(Pt at, const std::string& s, double size, const std::string& anchor, const std::string& attrs) {
    out_ += "<text x=\"" + num(at.x) + "\" y=\"" + num(at.y) + "\" font-size=\"" + num(size) + "\"" +
            (anchor == "start" ? "" : " text-anchor=\"" + anchor + "\"") + (attrs.empty() ? "" : " " + attrs) +
            ">" + xml_escape(s) + "</text>\n";
  }

  std::string out_;
  Box box_;
};

// Filled triangle with its tip at `tip`, pointing along unit vector `dir`.
std::vector<Pt> arrowhead(Pt tip, Pt dir, double len = kHeadLen, double half = kHeadHalf) {
  const Pt base = tip - dir * len;
  const Pt n{-dir.y, dir.x};
  return {tip, base + n * half, base - n * half};
}

// Step number in a coloured rounded box, centred on `at`.
void step_badge(Canvas& c, Pt at, int step, const char* colour) {
  const std::string label = std::to_string(step + 1);
  const double w = std::max(kBadgeH, 6.2 * static_cast<double>(label.size()) + 5.0);
  c.rect(at - Pt{w / 2, kBadgeH / 2}, Pt{w, kBadgeH},
         "rx=\"" + num(kBadgeH / 2) + "\" fill=\"" + colour + "\" stroke=\"#ffffff\" stroke-width=\"1.2\"");
  c.text(at + Pt{0.0, 3.5}, label, 10.0, "middle", "fill=\"#ffffff\" font-weight=\"bold\"");
}

// ---------------------------------------------------------------- messages

struct DrawnMessage {
  int step = 0;   // 0-based
  int index = 0;  // within the step
  int src = -1, dst = -1;
  Route route;
};

// Every message with its route, in drawing order; throws for what cannot be drawn.
std::vector<DrawnMessage> collect_messages(const Schedule& s, const Topology& topo, const RoutingFunction* routing) {
  std::vector<DrawnMessage> out;
  for (size_t st = 0; st < s.steps.size(); ++st) {
    for (size_t i = 0; i < s.steps[st].size(); ++i) {
      const ScheduledMessage& m = s.steps[st][i];
      const std::string where = message_location(st, i);
      if (m.is_multicast())
        throw std::invalid_argument(where + ": a multicast message (\"multicast\": " + m.scheme() +
                                    "); drawings show unicast messages only");
      if (!topo.valid_endpoint(m.src) || !topo.valid_endpoint(m.dst))
        throw std::invalid_argument(where + ": node out of range for " + topo.spec().describe());
      if (m.src == m.dst) throw std::invalid_argument(where + ": src and dst are the same node, nothing to draw");
      DrawnMessage d{static_cast<int>(st), static_cast<int>(i), m.src, m.dst, {}};
      if (m.route().empty()) {
        const int from = topo.endpoint_router(m.src), to = topo.endpoint_router(m.dst);
        d.route = routing ? routing->route(from, to) : dimension_order_route(topo, from, to);
      } else {
        if (m.route().front() != topo.endpoint_router(m.src) || m.route().back() != topo.endpoint_router(m.dst))
          throw std::invalid_argument(where + ": route must start at src and end at dst");
        try {
          d.route = route_from_nodes(topo, m.route());
        } catch (const std::invalid_argument& e) {
          throw std::invalid_argument(where + ": " + e.what());
        }
      }
      out.push_back(std::move(d));
    }
  }
  return out;
}

// The reverse of a directed link, so both directions share one set of lanes.
int reverse_link(const Topology& topo, int link) {
  return topo.link_id(topo.link_dst(link), topo.opposite_port(topo.link_port(link)));
}

// Messages that use the same physical link (in either direction, in any step)
// are drawn side by side instead of on top of each other: the i-th of n users
// of a link is shifted by (i - (n-1)/2) lane gaps across it, in drawing order.
class LinkLanes {
 public:
  LinkLanes(const Topology& topo, const std::vector<DrawnMessage>& msgs, double max_width)
      : topo_(topo), max_width_(max_width), total_(topo.num_links(), 0), used_(topo.num_links(), 0) {
    for (const auto& m : msgs)
      for (int link : m.route.links) ++total_[key(link)];
  }
  // Offset for the next use of `link`.
  double next(int link) {
    const int k = key(link);
    const int n = total_[k];
    if (n <= 1) return 0.0;
    const double gap = std::min(kLaneGap, max_width_ / (n - 1));
    return (used_[k]++ - (n - 1) / 2.0) * gap;
  }

 private:
  int key(int link) const {
    const int rev = reverse_link(topo_, link);
    return rev >= 0 ? std::min(link, rev) : link;
  }
  const Topology& topo_;
  double max_width_;
  std::vector<int> total_, used_;
};

// One hop as drawn on a grid: a straight line, a curve, or a jump (two dashed
// stubs: one leaving the node, one entering the destination from the other side).
struct Hop {
  enum class Kind { Line, Curve, Jump } kind = Kind::Line;
  Pt a, b;     // ends: node centres, already shifted into the hop's lane
  Pt c;        // Curve: control point
  Pt out, in;  // Jump: end of the leaving stub, start of the entering stub
  Pt lane;     // the shift applied to all of the above
  void shift(Pt o) { a = a + o, b = b + o, c = c + o, out = out + o, in = in + o, lane = lane + o; }
};

// What the renderer needs to draw one message.
struct Shape {
  std::vector<Piece> pieces;
  Pt tip, dir;                  // the arrowhead at the destination
  std::vector<Pt> label_spots;  // where the step number may go, best first
};

Pt hop_start_direction(const Hop& h) {
  switch (h.kind) {
    case Hop::Kind::Line: return unit(h.b - h.a);
    case Hop::Kind::Curve: return unit(h.c - h.a);
    case Hop::Kind::Jump: return unit(h.out - h.a);
  }
  return {1.0, 0.0};
}

// Shortens the last stroke so it ends under an arrowhead whose tip touches the
// destination node's rim.
void finish_with_arrow(Shape& sh, double node_r) {
  Piece& last = sh.pieces.back();
  Op& op = last.ops.back();
  const Pt before = op.kind == 'Q' ? op.c : last.ops.size() > 1 ? last.ops[last.ops.size() - 2].p : last.start;
  sh.dir = unit(op.p - before);
  sh.tip = op.p - sh.dir * node_r;
  op.p = sh.tip - sh.dir * (0.7 * kHeadLen);
}

// Joins the hops of one route into strokes. Consecutive straight hops at a right
// angle meet at the corner of their lanes; anything else is joined by a short jog.
class StrokeBuilder {
 public:
  explicit StrokeBuilder(double node_r) : node_r_(node_r) {}

  void add(const Hop& h, bool first) {
    const Pt begin = first ? h.a + hop_start_direction(h) * node_r_ : h.a;
    if (h.kind == Hop::Kind::Jump) return add_jump(h, begin);
    if (!open_) {
      cur_ = Piece{false, begin, {}};
      open_ = true;
    } else if (last_line_ && h.kind == Hop::Kind::Line && perpendicular(last_dir_, unit(h.b - h.a))) {
      // The previous lane is node + o1, this one node + o2 with o1 and o2 across
      // their own hops, so they cross at node + o1 + o2: the previous end plus o2.
      cur_.ops.back().p = cur_.ops.back().p + h.lane;
    } else {
      jog_to(begin);
    }
    if (h.kind == Hop::Kind::Line) cur_.ops.push_back(Op{'L', {}, h.b});
    else cur_.ops.push_back(Op{'Q', h.c, h.b});
    last_line_ = h.kind == Hop::Kind::Line;
    last_dir_ = unit(h.b - h.a);
  }

  Shape finish() {
    flush();
    Shape sh;
    sh.pieces = std::move(pieces_);
    finish_with_arrow(sh, node_r_);
    return sh;
  }

 private:
  static bool perpendicular(Pt u, Pt v) { return std::abs(u.x * v.x + u.y * v.y) < 1e-6; }

  void add_jump(const Hop& h, Pt begin) {
    if (open_) jog_to(h.a);
    flush();
    pieces_.push_back(Piece{true, begin, {Op{'L', {}, h.out}}});
    pieces_.push_back(Piece{true, h.in, {Op{'L', {}, h.b}}});
    cur_ = Piece{false, h.b, {}};
    open_ = true;
    last_line_ = false;
  }
  void jog_to(Pt p) {
    const Pt end = cur_.ops.empty() ? cur_.start : cur_.ops.back().p;
    if (distance(end, p) > 0.05) cur_.ops.push_back(Op{'L', {}, p});
    last_line_ = false;
  }
  void flush() {
    if (open_ && !cur_.ops.empty()) pieces_.push_back(cur_);
    open_ = false;
  }

  double node_r_;
  std::vector<Piece> pieces_;
  Piece cur_;
  bool open_ = false;
  bool last_line_ = false;
  Pt last_dir_;
};

// Where the step number can go: the middle of the hop nearest the middle of the
// route first, then the other hops outward, then the ends of jump stubs, then
// quarter points, then beside the hops' middles.
std::vector<Pt> hop_label_spots(const std::vector<Hop>& hops) {
  std::vector<int> order(hops.size());
  for (size_t i = 0; i < hops.size(); ++i) order[i] = static_cast<int>(i);
  const double mid = (static_cast<double>(hops.size()) - 1.0) / 2.0;
  std::stable_sort(order.begin(), order.end(),
                   [&](int x, int y) { return std::abs(x - mid) < std::abs(y - mid); });
  std::vector<Pt> spots, jumps, quarters, beside;
  for (int i : order) {
    const Hop& h = hops[i];
    switch (h.kind) {
      case Hop::Kind::Line: {
        const Pt centre = (h.a + h.b) * 0.5, u = unit(h.b - h.a), n{-u.y, u.x};
        spots.push_back(centre);
        quarters.push_back(h.a + (h.b - h.a) * 0.25), quarters.push_back(h.a + (h.b - h.a) * 0.75);
        // Beside the line is still clearly its label when the line itself is crowded.
        for (double side : {1.0, -1.0}) beside.push_back(centre + n * (side * (kBadgeH - 1.0)));
        break;
      }
      case Hop::Kind::Curve: {
        // Nested arcs share their apex x, so their quarter points are the useful fallback.
        auto at = [&](double t) { return h.a * ((1 - t) * (1 - t)) + h.c * (2 * t * (1 - t)) + h.b * (t * t); };
        spots.push_back(at(0.5));
        quarters.push_back(at(0.3)), quarters.push_back(at(0.7));
        break;
      }
      case Hop::Kind::Jump: jumps.push_back(h.out), jumps.push_back(h.in); break;
    }
  }
  for (const auto* more : {&jumps, &quarters, &beside}) spots.insert(spots.end(), more->begin(), more->end());
  return spots;
}

Shape shape_from_hops(const std::vector<Hop>& hops, double node_r) {
  StrokeBuilder b(node_r);
  for (size_t i = 0; i < hops.size(); ++i) b.add(hops[i], i == 0);
  Shape sh = b.finish();
  sh.label_spots = hop_label_spots(hops);
  return sh;
}

// The shape of a message whose hops a layout draws one by one (grid layouts):
// each link gets its lane, `hop_of` places it, the hops are joined.
template <class HopOf>
Shape shape_along_route(const Route& route, LinkLanes& lanes, double node_r, HopOf hop_of) {
  std::vector<Hop> hops;
  for (int link : route.links) hops.push_back(hop_of(link, lanes.next(link)));
  return shape_from_hops(hops, node_r);
}

// Picks, for each step number, the first candidate spot not covered by an earlier
// badge, else the spot that overlaps least. A spatial hash keeps this linear.
class LabelPlacer {
 public:
  Pt place(const std::vector<Pt>& spots) {
    Pt chosen = spots.front();
    double best = -1.0;
    for (const Pt& p : spots) {
      const double room = clearance(p);
      if (room > best) best = room, chosen = p;
      if (room >= 1.0) break;
    }
    placed_[cell_of(chosen)].push_back(chosen);
    return chosen;
  }

 private:
  static constexpr double kClearX = kBadgeH + 3.0;
  static constexpr double kClearY = kBadgeH + 1.0;
  static std::pair<long, long> cell_of(Pt p) {
    return {static_cast<long>(std::floor(p.x / kClearX)), static_cast<long>(std::floor(p.y / kClearX))};
  }
  // How far p is from the nearest badge, in badge sizes (>= 1: no overlap).
  double clearance(Pt p) const {
    double room = 2.0;
    const auto [cx, cy] = cell_of(p);
    for (long dx = -1; dx <= 1; ++dx) {
      for (long dy = -1; dy <= 1; ++dy) {
        auto it = placed_.find({cx + dx, cy + dy});
        if (it == placed_.end()) continue;
        for (const Pt& q : it->second)
          room = std::min(room, std::max(std::abs(q.x - p.x) / kClearX, std::abs(q.y - p.y) / kClearY));
      }
    }
    return room;
  }
  std::map<std::pair<long, long>, std::vector<Pt>> placed_;
};

// ---------------------------------------------------------------- layouts

// A legend line; `dashed` puts a dashed-stub sample in front of it.
struct Note {
  bool dashed = false;
  std::string text;
};

class Layout {
 public:
  virtual ~Layout() = default;
  // Faint links, nodes and their labels.
  virtual void draw_network(Canvas& c) const = 0;
  // The message's strokes; called once per message in drawing order (lanes keep state).
  virtual Shape shape(const DrawnMessage& m) = 0;
  // Lines for the legend that explain this layout's conventions.
  virtual std::vector<Note> notes() const = 0;
};

// Nodes to highlight: the broadcast source, or else every packet's origin.
std::vector<bool> highlighted_nodes(const Schedule& s, const Topology& topo) {
  std::vector<bool> hl(topo.num_nodes(), false);
  if (topo.valid_node(s.source)) {
    hl[s.source] = true;
  } else {
    for (const Packet& p : s.packets)
      if (topo.valid_node(p.origin)) hl[p.origin] = true;
  }
  return hl;
}

// `cls` lets the legend's sample node stay out of the "node" class.
void draw_node(Canvas& c, Pt p, double r, bool highlight, const std::string& cls = "node") {
  if (highlight) {
    c.circle(p, r + 3.0, std::string("fill=\"none\" stroke=\"") + kSourceFill + "\" stroke-width=\"1.5\"");
    c.circle(p, r, "class=\"" + cls + " source\" fill=\"" + kSourceFill + "\"");
  } else {
    c.circle(p, r, "class=\"" + cls + "\" fill=\"#ffffff\" stroke=\"" + kNodeStroke + "\" stroke-width=\"1.2\"");
  }
}

const std::string kFaint = std::string("stroke=\"") + kLinkColour + "\" stroke-width=\"1.4\" fill=\"none\"";
const std::string kFaintDashed = kFaint + " stroke-dasharray=\"3 3\"";
const std::string kFainter = "stroke=\"#dcdcdc\" stroke-width=\"1\" fill=\"none\"";

// 2-D and 3-D meshes and tori: each z-slice is a grid with x to the right and y
// downward; slices stand in a row (or rows of opt.slices_per_row), z increasing
// to the right. Torus wrap-around hops and hops along z are jumps: a dashed stub
// leaves the node (toward the grid edge it wraps over, or diagonally up-right for
// +z and down-left for -z) and a matching stub enters the destination.
class GridLayout : public Layout {
 public:
  GridLayout(const Topology& topo, const Schedule& s, const SvgOptions& opt, const std::vector<DrawnMessage>& msgs)
      : topo_(topo), opt_(opt), lanes_(topo, msgs, 0.42 * opt.cell), hl_(highlighted_nodes(s, topo)) {
    nx_ = topo.radix(0);
    ny_ = topo.num_dims() > 1 ? topo.radix(1) : 1;
    nz_ = topo.num_dims() > 2 ? topo.radix(2) : 1;
    torus_ = topo.wraps(0);
    per_row_ = opt.slices_per_row > 0 ? std::min(nz_, opt.slices_per_row) : nz_;
    tick_off_ = opt.cell * (torus_ ? 0.85 : 0.5);
    gap_x_ = opt.cell * (torus_ ? 2.0 : 1.5);
    gap_y_ = opt.cell * (torus_ ? 2.2 : 1.8);
  }

  void draw_network(Canvas& c) const override {
    c.raw("<g class=\"links\">\n");
    for (int node = 0; node < topo_.num_nodes(); ++node) draw_links_of(c, node);
    c.raw("</g>\n<g class=\"nodes\">\n");
    for (int node = 0; node < topo_.num_nodes(); ++node) draw_node(c, pos(node), opt_.node_radius, hl_[node]);
    c.raw("</g>\n");
    if (opt_.label_nodes || nz_ > 1) {
      c.raw("<g class=\"ticks\" fill=\"" + std::string(kTickColour) + "\">\n");
      for (int z = 0; z < nz_; ++z) draw_slice_labels(c, z);
      c.raw("</g>\n");
    }
  }

  Shape shape(const DrawnMessage& m) override {
    return shape_along_route(m.route, lanes_, opt_.node_radius, [this](int link, double lane) { return hop(link, lane); });
  }

  std::vector<Note> notes() const override {
    std::vector<Note> n{{false, "x to the right, y downward, (0,0) top left"}};
    if (torus_) n.push_back({true, "wrap-around hop: leaves over one grid edge, re-enters at the opposite edge"});
    if (nz_ > 1) n.push_back({true, "hop along z: leaves up-right to the next slice (+z) or down-left to the previous (-z)"});
    return n;
  }

 private:
  Pt slice_origin(int z) const {
    const double w = (nx_ - 1) * opt_.cell + gap_x_, h = (ny_ - 1) * opt_.cell + gap_y_;
    return {(z % per_row_) * w, (z / per_row_) * h};
  }
  Pt pos(int node) const {
    const int z = topo_.num_dims() > 2 ? topo_.coord(node, 2) : 0;
    const int y = topo_.num_dims() > 1 ? topo_.coord(node, 1) : 0;
    return slice_origin(z) + Pt{topo_.coord(node, 0) * opt_.cell, y * opt_.cell};
  }
  // Unit vector of a move along dimension dim in direction dir, and across it (the lane axis).
  static Pt along(int dim, int dir) {
    if (dim == 2) return unit(Pt{static_cast<double>(dir), static_cast<double>(-dir)});
    return dim == 0 ? Pt{static_cast<double>(dir), 0.0} : Pt{0.0, static_cast<double>(dir)};
  }
  static Pt across(int dim) { return dim == 2 ? unit(Pt{1.0, 1.0}) : dim == 0 ? Pt{0.0, 1.0} : Pt{1.0, 0.0}; }
  double stub_length(int dim) const { return opt_.cell * (dim == 2 ? 0.4 : 0.5); }

  Hop hop(int link, double lane) const {
    const int port = topo_.link_port(link);
    const int dim = topo_.port_dim(port), dir = topo_.port_dir(port);
    Hop h;
    h.a = pos(topo_.link_src(link));
    h.b = pos(topo_.link_dst(link));
    if (dim == 2 || topo_.link_is_wrap(link)) {
      const Pt u = along(dim, dir) * stub_length(dim);
      h.kind = Hop::Kind::Jump;
      h.out = h.a + u;
      h.in = h.b - u;
    }
    h.shift(across(dim) * lane);
    return h;
  }

  void draw_links_of(Canvas& c, int node) const {
    for (int dim = 0; dim < std::min(2, topo_.num_dims()); ++dim) {
      const int plus = topo_.link_id(node, topo_.port_for(dim, +1));
      if (plus >= 0 && !topo_.link_is_wrap(plus)) c.line(pos(node), pos(topo_.link_dst(plus)), kFaint);
      for (int dir : {+1, -1}) {
        const int l = topo_.link_id(node, topo_.port_for(dim, dir));
        if (l >= 0 && topo_.link_is_wrap(l))
          c.line(pos(node), pos(node) + along(dim, dir) * stub_length(dim), kFaintDashed);
      }
    }
  }

  void draw_slice_labels(Canvas& c, int z) const {
    const Pt o = slice_origin(z);
    const double right = (nx_ - 1) * opt_.cell, bottom = (ny_ - 1) * opt_.cell;
    if (nz_ > 1)
      c.text(o + Pt{right / 2, -tick_off_ - 16.0}, "z = " + std::to_string(z), 13.0, "middle",
             "fill=\"#333333\" font-weight=\"bold\"");
    if (!opt_.label_nodes) return;
    for (int x = 0; x < nx_; ++x) c.text(o + Pt{x * opt_.cell, -tick_off_ + 4.0}, std::to_string(x), 10.0, "middle", "");
    for (int y = 0; y < ny_; ++y) c.text(o + Pt{-tick_off_, y * opt_.cell + 3.5}, std::to_string(y), 10.0, "middle", "");
    c.text(o + Pt{right + 0.32 * opt_.cell, -tick_off_ + 4.0}, "x", 10.0, "middle", "font-style=\"italic\"");
    c.text(o + Pt{-tick_off_, bottom + 0.4 * opt_.cell}, "y", 10.0, "middle", "font-style=\"italic\"");
  }

  const Topology& topo_;
  const SvgOptions& opt_;
  LinkLanes lanes_;
  std::vector<bool> hl_;
  int nx_ = 1, ny_ = 1, nz_ = 1, per_row_ = 1;
  bool torus_ = false;
  double tick_off_ = 0.0, gap_x_ = 0.0, gap_y_ = 0.0;
};

// Inverse of the reflected Gray code: the position of label g in Gray order.
int gray_rank(int g) {
  int r = 0;
  for (; g; g >>= 1) r ^= g;
  return r;
}

// Hypercubes as a Karnaugh-map grid: the low ceil(d/2) bits pick the column and
// the high bits the row, both in Gray order, so neighbours in the grid are
// neighbours in the cube. The other cube links (between non-adjacent columns or
// rows) are arcs bulging above their row or right of their column.
class CubeLayout : public Layout {
 public:
  CubeLayout(const Topology& topo, const Schedule& s, const SvgOptions& opt, const std::vector<DrawnMessage>& msgs)
      : topo_(topo), opt_(opt), lanes_(topo, msgs, 0.42 * opt.cell), hl_(highlighted_nodes(s, topo)) {
    low_bits_ = (topo.num_dims() + 1) / 2;
  }

  void draw_network(Canvas& c) const override {
    c.raw("<g class=\"links\">\n");
    for (int link = 0; link < topo_.num_links(); ++link) {
      if (topo_.link_src(link) > topo_.link_dst(link)) continue;  // each cube edge once
      const Hop h = hop(link, 0.0);
      if (h.kind == Hop::Kind::Curve) c.path(Piece{false, h.a, {Op{'Q', h.c, h.b}}}, kFainter);
      else c.line(h.a, h.b, kFaint);
    }
    c.raw("</g>\n<g class=\"nodes\">\n");
    for (int node = 0; node < topo_.num_nodes(); ++node) draw_node(c, pos(node), opt_.node_radius, hl_[node]);
    c.raw("</g>\n");
    if (!opt_.label_nodes) return;
    c.raw("<g class=\"ticks\" fill=\"" + std::string(kTickColour) + "\">\n");
    for (int node = 0; node < topo_.num_nodes(); ++node)
      c.text(pos(node) + Pt{0.0, opt_.node_radius + 10.0}, topo_.node_name(node), 9.0, "middle", "", true);
    c.raw("</g>\n");
  }

  Shape shape(const DrawnMessage& m) override {
    return shape_along_route(m.route, lanes_, opt_.node_radius, [this](int link, double lane) { return hop(link, lane); });
  }

  std::vector<Note> notes() const override {
    return {{false, "columns: low " + std::to_string(low_bits_) + " bits, rows: high bits, both in Gray order"},
            {false, "arcs: cube links between non-adjacent columns (bulging up) or rows (bulging right)"}};
  }

 private:
  Pt grid(int node) const {
    const int mask = (1 << low_bits_) - 1;
    return {static_cast<double>(gray_rank(node & mask)), static_cast<double>(gray_rank(node >> low_bits_))};
  }
  Pt pos(int node) const { return grid(node) * opt_.cell; }

  Hop hop(int link, double lane) const {
    const int a = topo_.link_src(link), b = topo_.link_dst(link);
    Hop h;
    h.a = pos(a), h.b = pos(b);
    // Orient by position, not by direction of travel, so both directions (and the
    // faint link) bulge and shift to the same side.
    const Pt ga = grid(a), gb = grid(b);
    const bool a_first = ga.x + ga.y < gb.x + gb.y;
    const Pt along = unit(a_first ? h.b - h.a : h.a - h.b);
    const Pt normal{along.y, -along.x};  // up for rows, right for columns
    const double cells = length(gb - ga);
    if (cells > 1.5) {
      h.kind = Hop::Kind::Curve;
      const double bulge = opt_.cell * (0.16 + 0.06 * cells);
      h.c = (h.a + h.b) * 0.5 + normal * (2.0 * bulge);  // a quadratic peaks at half its control offset
    }
    h.shift(normal * lane);
    return h;
  }

  const Topology& topo_;
  const SvgOptions& opt_;
  LinkLanes lanes_;
  std::vector<bool> hl_;
  int low_bits_ = 1;
};

// 1-D networks: a line (mesh) as a row of nodes, a ring (torus) as a circle with
// node 0 at the top and + clockwise. Each maximal same-direction run of a route is
// one arc: above the row / outside the circle for +, below / inside for -. Arcs
// are taller for longer runs; identical runs are stacked.
class ArcLayout : public Layout {
 public:
  ArcLayout(const Topology& topo, const Schedule& s, const SvgOptions& opt)
      : topo_(topo), opt_(opt), hl_(highlighted_nodes(s, topo)) {
    k_ = topo.radix(0);
    ring_ = topo.wraps(0);
    node_r_ = std::max(opt.node_radius, opt.label_nodes ? 9.0 : opt.node_radius);
    radius_ = std::max(1.6 * opt.cell, k_ * opt.cell / (2.0 * kPi));
  }

  void draw_network(Canvas& c) const override {
    c.raw("<g class=\"links\">\n");
    if (ring_ && k_ > 1) c.circle({0.0, 0.0}, radius_, kFaint);
    if (!ring_ && k_ > 1) c.line(at(0.0, 0.0), at(k_ - 1.0, 0.0), kFaint);
    c.raw("</g>\n<g class=\"nodes\">\n");
    for (int node = 0; node < k_; ++node) {
      draw_node(c, at(node, 0.0), node_r_, hl_[node]);
      if (opt_.label_nodes)
        c.text(at(node, 0.0) + Pt{0.0, 3.5}, std::to_string(node), 10.0, "middle",
               hl_[node] ? "fill=\"#ffffff\"" : "fill=\"#333333\"");
    }
    c.raw("</g>\n");
  }

  Shape shape(const DrawnMessage& m) override {
    Shape sh;
    std::vector<Run> runs = split_runs(m);
    const Run* longest = &runs.front();
    for (const Run& r : runs) {
      sh.pieces.push_back(arc_piece(r));
      if (r.hops > longest->hops) longest = &r;
    }
    finish_with_arrow(sh, 0.0);  // arcs already end on the node's rim
    for (double t : {0.5, 0.3, 0.7, 0.15, 0.85}) sh.label_spots.push_back(arc_point(*longest, t));
    return sh;
  }

  std::vector<Note> notes() const override {
    if (ring_)
      return {{false, "node 0 at the top, + direction clockwise"},
              {false, "arcs outside the ring: + direction, inside: - direction"}};
    return {{false, "arcs above the line: + direction (rightward), below: - direction"}};
  }

 private:
  struct Run {
    int from = 0, hops = 0, dir = 1;
    double height = 0.0;
  };

  // Point at position s along the line/ring (node units) and h pixels off the baseline (+ side positive).
  Pt at(double s, double h) const {
    if (!ring_) return {s * opt_.cell, -h};
    const double angle = -kPi / 2 + 2.0 * kPi * s / k_;
    return Pt{std::cos(angle), std::sin(angle)} * (radius_ + h);
  }

  std::vector<Run> split_runs(const DrawnMessage& m) {
    std::vector<Run> runs;
    int node = m.src;
    for (int link : m.route.links) {
      const int dir = topo_.port_dir(topo_.link_port(link));
      if (runs.empty() || runs.back().dir != dir) runs.push_back(Run{node, 0, dir, 0.0});
      ++runs.back().hops;
      node = topo_.link_dst(link);
    }
    for (Run& r : runs) {
      const int stacked = repeats_[std::make_tuple(r.from, r.hops, r.dir)]++;
      double h = opt_.cell * (0.42 * std::sqrt(static_cast<double>(r.hops)) + 0.22 * stacked);
      if (ring_ && r.dir < 0) h = std::min(h, 0.85 * (radius_ - node_r_) - node_r_);  // stay inside the circle
      r.height = h;
    }
    return runs;
  }

  Pt arc_point(const Run& r, double t) const {
    const double lift = node_r_ + r.height * std::sin(kPi * t);
    return at(r.from + r.dir * r.hops * t, r.dir * lift);
  }

  Piece arc_piece(const Run& r) const {
    const int samples = std::min(240, 16 + 6 * r.hops);
    Piece p{false, arc_point(r, 0.0), {}};
    for (int i = 1; i <= samples; ++i) p.ops.push_back(Op{'L', {}, arc_point(r, static_cast<double>(i) / samples)});
    return p;
  }

  const Topology& topo_;
  const SvgOptions& opt_;
  std::vector<bool> hl_;
  int k_ = 1;
  bool ring_ = false;
  double node_r_ = 9.0, radius_ = 0.0;
  std::map<std::tuple<int, int, int>, int> repeats_;
};

// ---------------------------------------------------------------- checks

void check_options(const SvgOptions& opt) {
  if (!std::isfinite(opt.cell) || opt.cell < 16.0 || opt.cell > 1000.0)
    throw std::invalid_argument("SVG cell size must be 16..1000 pixels, got " + num(opt.cell));
  if (!std::isfinite(opt.node_radius) || opt.node_radius < 1.0 || opt.node_radius > opt.cell / 4)
    throw std::invalid_argument("SVG node radius must be 1..cell/4 pixels, got " + num(opt.node_radius));
  if (opt.slices_per_row < 0) throw std::invalid_argument("SVG slices_per_row must be 0 (one row) or positive");
  if (opt.max_nodes < 1) throw std::invalid_argument("SVG max_nodes must be positive");
}

void check_drawable(const Schedule& s, const Topology& topo, const SvgOptions& opt) {
  if (s.topology != topo.spec())
    throw std::invalid_argument("the schedule is for " + s.topology.describe() + " but the topology given is " +
                                topo.spec().describe());
  check_drawable_topology(topo.spec(), opt);
}

std::unique_ptr<Layout> make_layout(const Schedule& s, const Topology& topo, const SvgOptions& opt,
                                    const std::vector<DrawnMessage>& msgs) {
  if (topo.shape().drawing() == DrawingStyle::Cube) return std::make_unique<CubeLayout>(topo, s, opt, msgs);
  if (topo.num_dims() == 1) return std::make_unique<ArcLayout>(topo, s, opt);
  return std::make_unique<GridLayout>(topo, s, opt, msgs);
}

// ---------------------------------------------------------------- assembly

std::string message_tooltip(const DrawnMessage& m, const Topology& topo) {
  return "step " + std::to_string(m.step + 1) + ": " + topo.node_name(m.src) + " -> " + topo.node_name(m.dst) + ", " +
         std::to_string(m.route.hops()) + (m.route.hops() == 1 ? " hop" : " hops");
}

// Draws every message (grouped per step, coloured) and then all step badges on top.
void draw_messages(Canvas& arrows, Canvas& badges, Layout& layout, const std::vector<DrawnMessage>& msgs,
                   const Topology& topo, const SvgOptions& opt) {
  LabelPlacer placer;
  int open_step = -1;
  for (const DrawnMessage& m : msgs) {
    const char* colour = step_colour(m.step);
    if (m.step != open_step) {
      if (open_step >= 0) arrows.raw("</g>\n");
      open_step = m.step;
      arrows.raw("<g class=\"step\" id=\"step-" + std::to_string(m.step + 1) + "\" stroke=\"" + colour +
                 "\" stroke-width=\"" + num(kStroke) + "\" fill=\"none\" stroke-linejoin=\"round\" " +
                 "stroke-linecap=\"round\" stroke-opacity=\"0.92\">\n");
    }
    const Shape sh = layout.shape(m);
    arrows.raw("<g class=\"msg\"><title>" + xml_escape(message_tooltip(m, topo)) + "</title>\n");
    for (const Piece& p : sh.pieces)
      arrows.path(p, p.dashed ? "class=\"stub\" stroke-dasharray=\"4 2.5\"" : "class=\"hop\"");
    arrows.polygon_path(arrowhead(sh.tip, sh.dir), std::string("class=\"arrowhead\" fill=\"") + colour +
                                                       "\" stroke=\"none\" fill-opacity=\"1\"");
    arrows.raw("</g>\n");
    if (opt.label_steps) step_badge(badges, placer.place(sh.label_spots), m.step, colour);
  }
  if (open_step >= 0) arrows.raw("</g>\n");
}

struct Header {
  std::string title, subtitle;
};

Header make_header(const Schedule& s, const Topology& topo, const SvgOptions& opt,
                   const std::vector<DrawnMessage>& msgs) {
  long long tcd = 0;
  for (const auto& m : msgs) tcd += m.route.hops();
  Header h;
  h.title = !opt.title.empty() ? opt.title : !s.name.empty() ? s.name : "schedule";
  h.subtitle = topo.spec().describe();
  if (!s.algorithm.empty()) h.subtitle += "  |  algorithm " + s.algorithm;
  if (topo.valid_node(s.source)) h.subtitle += "  |  source " + topo.node_name(s.source);
  h.subtitle += "  |  " + std::to_string(s.steps.size()) + (s.steps.size() == 1 ? " step" : " steps");
  h.subtitle += "  |  " + std::to_string(msgs.size()) + (msgs.size() == 1 ? " message" : " messages");
  h.subtitle += "  |  TCD " + std::to_string(tcd);
  return h;
}

constexpr double kMargin = 24.0;
constexpr double kHeaderH = 58.0;
constexpr double kLegendEntryW = 78.0;
constexpr double kLegendRowH = 20.0;
constexpr double kNoteIndent = 31.0;  // room for a dashed-stub sample

// What the legend says besides the steps.
struct LegendText {
  std::string marker;  // label of the highlighted node ("source", "packet origin") or empty
  std::vector<Note> notes;
  double widest_note() const {
    double w = 0.0;
    for (const auto& n : notes) w = std::max(w, (n.dashed ? kNoteIndent : 0.0) + text_width(n.text, 11.0));
    return w;
  }
};

LegendText legend_text(const Schedule& s, const Topology& topo, const Layout& layout) {
  LegendText t;
  const std::vector<bool> hl = highlighted_nodes(s, topo);
  if (topo.valid_node(s.source)) t.marker = "source";
  else if (std::find(hl.begin(), hl.end(), true) != hl.end()) t.marker = "packet origin";
  t.notes = layout.notes();
  return t;
}

// Step swatches in rows that fit `width`, then the highlighted node, then the notes.
Canvas legend_canvas(int steps, const LegendText& text, double width, double top) {
  Canvas c;
  c.raw("<g class=\"legend\">\n");
  const int per_row = std::max(1, static_cast<int>((width - 2 * kMargin) / kLegendEntryW));
  auto slot = [&](int i) { return Pt{kMargin + (i % per_row) * kLegendEntryW, top + 10.0 + (i / per_row) * kLegendRowH}; };
  int used = 0;
  for (int st = 0; st < steps; ++st, ++used) {
    const Pt o = slot(used);
    const char* colour = step_colour(st);
    c.line(o, o + Pt{18.0, 0.0}, std::string("stroke=\"") + colour + "\" stroke-width=\"" + num(kStroke) + "\"");
    c.polygon_path(arrowhead(o + Pt{26.0, 0.0}, {1.0, 0.0}), std::string("fill=\"") + colour + "\"");
    c.text(o + Pt{31.0, 4.0}, "step " + std::to_string(st + 1), 11.0, "start", "fill=\"#333333\"");
  }
  if (!text.marker.empty()) {
    const Pt o = slot(used++);
    draw_node(c, o + Pt{8.0, 0.0}, 5.0, true, "legend-node");
    c.text(o + Pt{20.0, 4.0}, text.marker, 11.0, "start", "fill=\"#333333\"");
  }
  double y = (used ? slot(used - 1).y + kLegendRowH : top + 10.0) + 4.0;
  for (const Note& n : text.notes) {
    if (n.dashed)
      c.line({kMargin, y - 4.0}, {kMargin + 22.0, y - 4.0},
             "stroke=\"#555555\" stroke-width=\"2\" stroke-dasharray=\"4 2.5\"");
    c.text({kMargin + (n.dashed ? kNoteIndent : 0.0), y}, n.text, 11.0, "start", "fill=\"#555555\"");
    y += 16.0;
  }
  c.raw("</g>\n");
  return c;
}

std::string svg_open(double width, double height, const Header& head) {
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + num(width) +
                    "\" height=\"" + num(height) + "\" viewBox=\"0 0 " + num(width) + " " + num(height) +
                    "\" font-family=\"Helvetica, Arial, sans-serif\">\n";
  out += "<title>" + xml_escape(head.title + " - " + head.subtitle) + "</title>\n";
  out += "<rect class=\"background\" x=\"0\" y=\"0\" width=\"" + num(width) + "\" height=\"" + num(height) +
         "\" fill=\"#ffffff\"/>\n";
  out += "<text x=\"" + num(kMargin) + "\" y=\"" + num(kMargin + 8.0) +
         "\" font-size=\"16\" font-weight=\"bold\" fill=\"#222222\">" + xml_escape(head.title) + "</text>\n";
  out += "<text x=\"" + num(kMargin) + "\" y=\"" + num(kMargin + 27.0) + "\" font-size=\"11\" fill=\"#555555\">" +
         xml_escape(head.subtitle) + "</text>\n";
  return out;
}

}  // namespace

void check_drawable_topology(const TopologySpec& spec, const SvgOptions& opt) {
  const std::string what = spec.describe();
  const TopologyShape& shape = topology_shape(spec);
  try {
    shape.check_drawable(spec);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("cannot draw " + what + ": " + e.what());
  }
  const bool cube = shape.drawing() == DrawingStyle::Cube;
  const int dims = static_cast<int>(shape.router_radices(spec).size());
  if (cube && dims > kSvgMaxHypercubeDim)
    throw std::invalid_argument("cannot draw " + what + ": hypercube pictures stop at d=" +
                                std::to_string(kSvgMaxHypercubeDim) + " (" +
                                std::to_string(1 << kSvgMaxHypercubeDim) + " nodes); use `schedule check` for figures");
  if (!cube && dims > 3)
    throw std::invalid_argument("cannot draw " + what + ": pictures cover 1-D (line, ring), 2-D (grid) and 3-D "
                                "(row of z-slices) meshes and tori, and hypercubes up to d=" +
                                std::to_string(kSvgMaxHypercubeDim));
  const long long nodes = Topology::validate(spec);
  if (nodes > opt.max_nodes)
    throw std::invalid_argument("cannot draw " + what + ": " + std::to_string(nodes) +
                                " nodes is more than the picture limit of " + std::to_string(opt.max_nodes));
}

std::string schedule_to_svg(const Schedule& s, const Topology& topo, const SvgOptions& opt) {
  check_options(opt);
  check_drawable(s, topo, opt);
  const std::vector<DrawnMessage> msgs = collect_messages(s, topo, opt.routing);
  std::unique_ptr<Layout> layout = make_layout(s, topo, opt, msgs);

  Canvas network, arrows, badges;
  layout->draw_network(network);
  draw_messages(arrows, badges, *layout, msgs, topo, opt);
  Box content = network.box();
  content.add(arrows.box());
  content.add(badges.box());

  const Header head = make_header(s, topo, opt, msgs);
  const LegendText legend = legend_text(s, topo, *layout);
  double width = std::max({content.width() + 2 * kMargin, text_width(head.title, 16.0) + 2 * kMargin,
                           text_width(head.subtitle, 11.0) + 2 * kMargin, 260.0});
  if (opt.legend) width = std::max(width, legend.widest_note() + 2 * kMargin);
  const double content_top = kHeaderH + 8.0;
  const double legend_top = content_top + content.height() + 16.0;
  double height = legend_top + kMargin - 16.0;
  Canvas key;
  if (opt.legend) {
    key = legend_canvas(static_cast<int>(s.steps.size()), legend, width, legend_top);
    height = std::max(height, key.box().y1 + kMargin - 8.0);
  }
  // Centre the drawing horizontally when the title or legend is wider.
  const Pt shift{(width - content.width()) / 2 - content.x0, content_top - content.y0};

  std::string out = svg_open(width, height, head);
  out += "<g class=\"drawing\" transform=\"translate(" + num(shift.x) + " " + num(shift.y) + ")\">\n";
  out += network.str();
  out += "<g class=\"messages\">\n" + arrows.str() + "</g>\n";
  out += "<g class=\"step-labels\">\n" + badges.str() + "</g>\n";
  out += "</g>\n";
  out += key.str();
  out += "</svg>\n";
  return out;
}

}  // namespace wormsim

#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "models/topology.hpp"
#include "schedules/draw_svg.hpp"
#include "schedules/schedule.hpp"

using namespace wormsim;

namespace {

TopologySpec spec(const std::string& k, std::vector<int> dims) { return TopologySpec{k, std::move(dims)}; }

ScheduledMessage msg(int src, int dst, std::vector<int> route = {}) {
  ScheduledMessage m{src, dst, 0, 0, {}};
  if (!route.empty()) m.set_route(std::move(route));
  return m;
}

// A broadcast on `topo` with the given steps (node ids).
Schedule broadcast(const TopologySpec& topo, int source, std::vector<std::vector<ScheduledMessage>> steps,
                   std::string name = "test") {
  Schedule s = make_broadcast_schedule(topo, source, 16, std::move(name), "hand");
  s.steps = std::move(steps);
  return s;
}

std::string draw(const Schedule& s, const SvgOptions& opt = {}) { return schedule_to_svg(s, Topology(s.topology), opt); }

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + what.size())) ++n;
  return n;
}

// Checks that tags nest and close properly and that every '&' starts an entity;
// returns an explanation of the first problem, or "" when the text is well formed.
std::string xml_problem(const std::string& x) {
  std::vector<std::string> open;
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i] == '&') {
      const size_t semi = x.find(';', i);
      const std::string ent = semi == std::string::npos ? "" : x.substr(i, semi - i + 1);
      if (ent != "&amp;" && ent != "&lt;" && ent != "&gt;" && ent != "&quot;" && ent != "&apos;")
        return "bare & at " + std::to_string(i);
      continue;
    }
    if (x[i] != '<') continue;
    const size_t end = x.find('>', i);
    if (end == std::string::npos) return "unclosed tag at " + std::to_string(i);
    const std::string tag = x.substr(i + 1, end - i - 1);
    if (tag.find('<') != std::string::npos) return "'<' inside a tag at " + std::to_string(i);
    if (tag[0] == '/') {
      if (open.empty() || open.back() != tag.substr(1)) return "mismatched </" + tag.substr(1) + ">";
      open.pop_back();
    } else if (tag.back() != '/') {
      open.push_back(tag.substr(0, tag.find_first_of(" \n")));
    }
    i = end;
  }
  return open.empty() ? "" : "unclosed <" + open.back() + ">";
}

// All numbers in the d attributes of paths with the given class, as (x, y) pairs per path.
std::vector<std::vector<std::pair<double, double>>> path_points(const std::string& svg, const std::string& cls) {
  std::vector<std::vector<std::pair<double, double>>> out;
  const std::regex path_re("<path d=\"([^\"]*)\" class=\"" + cls + "\"");
  const std::regex num_re("-?[0-9]+(\\.[0-9]+)?");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), path_re); it != std::sregex_iterator(); ++it) {
    const std::string d = (*it)[1];
    std::vector<double> v;
    for (auto n = std::sregex_iterator(d.begin(), d.end(), num_re); n != std::sregex_iterator(); ++n)
      v.push_back(std::stod(n->str()));
    std::vector<std::pair<double, double>> pts;
    for (size_t i = 0; i + 1 < v.size(); i += 2) pts.emplace_back(v[i], v[i + 1]);
    out.push_back(pts);
  }
  return out;
}

// Centres of the node circles, in node-id order.
std::vector<std::pair<double, double>> node_centres(const std::string& svg) {
  std::vector<std::pair<double, double>> out;
  const std::regex re("<circle cx=\"([-0-9.]+)\" cy=\"([-0-9.]+)\" r=\"[0-9.]+\" class=\"node");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator(); ++it)
    out.emplace_back(std::stod((*it)[1]), std::stod((*it)[2]));
  return out;
}

// Stroke colour of each step group, in step order.
std::vector<std::string> step_colours(const std::string& svg) {
  std::vector<std::string> out;
  const std::regex re("<g class=\"step\" id=\"step-[0-9]+\" stroke=\"(#[0-9a-f]{6})\"");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator(); ++it)
    out.push_back((*it)[1]);
  return out;
}

// Broadcast on a 4x4 mesh from (0,0): 3 steps, 5 messages, some turning corners.
Schedule mesh4_broadcast() {
  return broadcast(spec("mesh", {4, 4}), 0,
                   {{msg(0, 10)},                      // (0,0) -> (2,2)
                    {msg(0, 2), msg(10, 8)},           // (0,0) -> (2,0), (2,2) -> (0,2)
                    {msg(0, 15), msg(2, 5, {2, 1, 5})}});  // explicit route (2,0) (1,0) (1,1)
}

}  // namespace

TEST(DrawSvg, StandaloneWellFormedSvg) {
  const std::string svg = draw(mesh4_broadcast());
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"", 0), 0u);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_NE(svg.find("viewBox=\"0 0 "), std::string::npos);
}

TEST(DrawSvg, OneArrowheadPerMessageAndOneStrokePerHopRun) {
  const Schedule s = mesh4_broadcast();
  const std::string svg = draw(s);
  EXPECT_EQ(count(svg, "class=\"arrowhead\""), s.num_messages());
  EXPECT_EQ(count(svg, "<g class=\"msg\">"), s.num_messages());
  // No wrap or z hops on a 2-D mesh: each message is one solid stroke.
  EXPECT_EQ(count(svg, "class=\"hop\""), s.num_messages());
  EXPECT_EQ(count(svg, "class=\"stub\""), 0u);
  // Tooltips name the ends and the hop count (the explicit route has 2 hops).
  EXPECT_NE(svg.find("<title>step 3: (2,0) -&gt; (1,1), 2 hops</title>"), std::string::npos);
  EXPECT_NE(svg.find("<title>step 1: (0,0) -&gt; (2,2), 4 hops</title>"), std::string::npos);
}

TEST(DrawSvg, TitleSummarisesTheSchedule) {
  const std::string svg = draw(mesh4_broadcast());
  EXPECT_NE(svg.find(">test</text>"), std::string::npos);
  // TCD = 4 + 2 + 2 + 6 + 2.
  EXPECT_NE(svg.find("mesh 4x4  |  algorithm hand  |  source (0,0)  |  3 steps  |  5 messages  |  TCD 16"),
            std::string::npos);
  SvgOptions o;
  o.title = "Figure 3";
  EXPECT_NE(draw(mesh4_broadcast(), o).find(">Figure 3</text>"), std::string::npos);
}

TEST(DrawSvg, StepLabelsAndLegend) {
  const std::string svg = draw(mesh4_broadcast());
  EXPECT_EQ(count(svg, "<g class=\"step\""), 3u);
  // One badge per message, carrying its 1-based step number.
  const std::regex badge("font-weight=\"bold\">([0-9]+)</text>");
  std::vector<std::string> labels;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), badge); it != std::sregex_iterator(); ++it)
    labels.push_back((*it)[1]);
  EXPECT_EQ(labels, (std::vector<std::string>{"1", "2", "2", "3", "3"}));
  for (const char* entry : {">step 1</text>", ">step 2</text>", ">step 3</text>", ">source</text>"})
    EXPECT_NE(svg.find(entry), std::string::npos) << entry;

  SvgOptions o;
  o.label_steps = false;
  o.legend = false;
  const std::string bare = draw(mesh4_broadcast(), o);
  EXPECT_EQ(count(bare, "font-weight=\"bold\">1</text>"), 0u);
  EXPECT_EQ(bare.find(">step 1</text>"), std::string::npos);
  EXPECT_EQ(count(bare, "class=\"arrowhead\""), 5u);
}

TEST(DrawSvg, ColoursDifferBetweenStepsAndCycle) {
  // 11 steps along a line of 12 nodes: 0 -> 1, 1 -> 2, ...
  std::vector<std::vector<ScheduledMessage>> steps;
  for (int i = 0; i < 11; ++i) steps.push_back({msg(i, i + 1)});
  const std::string svg = draw(broadcast(spec("mesh", {12, 1}), 0, steps));
  const std::vector<std::string> colours = step_colours(svg);
  ASSERT_EQ(colours.size(), 11u);
  EXPECT_EQ(std::set<std::string>(colours.begin(), colours.begin() + 10).size(), 10u);
  EXPECT_EQ(colours[10], colours[0]);  // the palette cycles after 10 steps
  // Arrowheads are filled with their step's colour.
  EXPECT_NE(svg.find("class=\"arrowhead\" fill=\"" + colours[3] + "\""), std::string::npos);
}

TEST(DrawSvg, Deterministic) {
  const Schedule s = mesh4_broadcast();
  EXPECT_EQ(draw(s), draw(s));
  const Schedule t = broadcast(spec("torus", {4, 4, 3}), 5,
                               {{msg(5, 47)}, {msg(5, 20), msg(47, 0)}});
  EXPECT_EQ(draw(t), draw(t));
  SvgOptions o;
  o.cell = 40;
  EXPECT_NE(draw(s), draw(s, o));
}

TEST(DrawSvg, GridHasXRightYDownAndHighlightsTheSource) {
  const std::string svg = draw(broadcast(spec("mesh", {3, 2}), 4, {{msg(4, 0)}}));
  const auto nodes = node_centres(svg);
  ASSERT_EQ(nodes.size(), 6u);
  EXPECT_GT(nodes[1].first, nodes[0].first);    // (1,0) right of (0,0)
  EXPECT_EQ(nodes[1].second, nodes[0].second);
  EXPECT_GT(nodes[3].second, nodes[0].second);   // (0,1) below (0,0)
  EXPECT_EQ(nodes[3].first, nodes[0].first);
  EXPECT_EQ(count(svg, "class=\"node source\""), 1u);
  EXPECT_NE(svg.find("font-style=\"italic\">x</text>"), std::string::npos);
  EXPECT_NE(svg.find("font-style=\"italic\">y</text>"), std::string::npos);
}

TEST(DrawSvg, SharedLinkMessagesAreSideBySide) {
  // (0,0) -> (2,0) and (1,0) -> (3,0) share the link (1,0)-(2,0) in the same step.
  SvgOptions o;
  const std::string svg = draw(broadcast(spec("mesh", {4, 1}), 0, {{msg(0, 2), msg(1, 3)}}), o);
  const auto paths = path_points(svg, "hop");
  ASSERT_EQ(paths.size(), 2u);
  // The height at which each message crosses the middle of the shared link.
  auto crossing = [&](const std::vector<std::pair<double, double>>& pts) {
    const double mid = 1.5 * o.cell;
    for (size_t i = 0; i + 1 < pts.size(); ++i)
      if (std::min(pts[i].first, pts[i + 1].first) < mid && std::max(pts[i].first, pts[i + 1].first) > mid) {
        EXPECT_EQ(pts[i].second, pts[i + 1].second);  // horizontal there
        return pts[i].second;
      }
    ADD_FAILURE() << "path does not cross the shared link";
    return 0.0;
  };
  const double y0 = crossing(paths[0]), y1 = crossing(paths[1]);
  EXPECT_NE(y0, y1);                  // in different lanes...
  EXPECT_LE(std::abs(y0 - y1), 10.0); // ...close to the link
}

TEST(DrawSvg, TorusWrapIsTwoShortStubs) {
  SvgOptions o;  // cell 56
  // (3,0) -> (0,0) is one hop over the wrap-around link.
  const std::string svg = draw(broadcast(spec("torus", {4, 4}), 3, {{msg(3, 0)}}), o);
  EXPECT_EQ(count(svg, "class=\"hop\""), 0u);
  const auto stubs = path_points(svg, "stub");
  ASSERT_EQ(stubs.size(), 2u);
  for (const auto& s : stubs) {
    ASSERT_EQ(s.size(), 2u);
    const double len = std::hypot(s[1].first - s[0].first, s[1].second - s[0].second);
    EXPECT_LE(len, o.cell * 0.6);  // a stub, not a line across the picture
  }
  EXPECT_GT(stubs[0][1].first, stubs[0][0].first);  // leaves (3,0) to the right...
  EXPECT_GT(stubs[1][1].first, stubs[1][0].first);  // ...and enters (0,0) from the left
  EXPECT_LT(stubs[1][0].first, stubs[0][0].first - 2 * o.cell);
  EXPECT_EQ(count(svg, "class=\"arrowhead\""), 1u);
  EXPECT_NE(svg.find("wrap-around hop"), std::string::npos);
}

TEST(DrawSvg, ThreeDimensionsAreARowOfZSlices) {
  // (0,0,0) -> (1,0,2): one x hop, then two z hops.
  const std::string svg = draw(broadcast(spec("mesh", {3, 2, 3}), 0, {{msg(0, 13)}}));
  for (const char* z : {">z = 0</text>", ">z = 1</text>", ">z = 2</text>"})
    EXPECT_EQ(count(svg, z), 1u) << z;
  EXPECT_EQ(svg.find(">z = 3</text>"), std::string::npos);
  const auto nodes = node_centres(svg);
  ASSERT_EQ(nodes.size(), 18u);
  // Slices stand left to right: the same (x,y) sits further right in each later slice.
  EXPECT_GT(nodes[6].first, nodes[5].first);
  EXPECT_GT(nodes[12].first, nodes[11].first);
  EXPECT_EQ(nodes[6].second, nodes[0].second);
  // Each z hop is a leaving and an entering stub; the x hop a solid stroke.
  EXPECT_EQ(count(svg, "class=\"stub\""), 4u);
  EXPECT_EQ(count(svg, "class=\"hop\""), 1u);
  EXPECT_EQ(count(svg, "class=\"arrowhead\""), 1u);

  SvgOptions o;
  o.slices_per_row = 2;  // z=2 goes to a second row
  const auto wrapped = node_centres(draw(broadcast(spec("mesh", {3, 2, 3}), 0, {{msg(0, 13)}}), o));
  EXPECT_GT(wrapped[12].second, wrapped[0].second);
  EXPECT_EQ(wrapped[12].first, wrapped[0].first);
}

TEST(DrawSvg, RingNodesOnACircleWithArcs) {
  // Ring of 8: 0 -> 4 clockwise (+), 0 -> 6 anticlockwise (-, 2 hops), 4 -> 5.
  const Schedule s = broadcast(spec("torus", {8}), 0, {{msg(0, 4)}, {msg(0, 6), msg(4, 5)}});
  const std::string svg = draw(s);
  const auto nodes = node_centres(svg);
  ASSERT_EQ(nodes.size(), 8u);
  double cx = 0, cy = 0;
  for (const auto& n : nodes) cx += n.first / 8, cy += n.second / 8;
  const double r = std::hypot(nodes[0].first - cx, nodes[0].second - cy);
  for (const auto& n : nodes) EXPECT_NEAR(std::hypot(n.first - cx, n.second - cy), r, 0.5);
  EXPECT_LT(nodes[0].second, cy - r + 1);  // node 0 at the top
  EXPECT_GT(nodes[2].first, cx + r - 1);   // + goes clockwise: node 2 on the right
  EXPECT_EQ(count(svg, "class=\"arrowhead\""), 3u);
  // + arcs run outside the circle, - arcs inside.
  const auto arcs = path_points(svg, "hop");
  ASSERT_EQ(arcs.size(), 3u);
  auto peak = [&](const std::vector<std::pair<double, double>>& pts) {
    double far = 0, near = 1e9;
    for (const auto& p : pts) {
      const double d = std::hypot(p.first - cx, p.second - cy);
      far = std::max(far, d), near = std::min(near, d);
    }
    return std::make_pair(far, near);
  };
  EXPECT_GT(peak(arcs[0]).first, r + 20);  // 0 -> 4 outside
  EXPECT_LT(peak(arcs[1]).second, r - 20); // 0 -> 6 inside
  EXPECT_NE(svg.find("node 0 at the top"), std::string::npos);
}

TEST(DrawSvg, LineNodesInARowPlusAboveMinusBelow) {
  const std::string svg = draw(broadcast(spec("mesh", {6}), 2, {{msg(2, 5)}, {msg(2, 0)}}));
  const auto nodes = node_centres(svg);
  ASSERT_EQ(nodes.size(), 6u);
  for (size_t i = 1; i < nodes.size(); ++i) {
    EXPECT_EQ(nodes[i].second, nodes[0].second);
    EXPECT_GT(nodes[i].first, nodes[i - 1].first);
  }
  const auto arcs = path_points(svg, "hop");
  ASSERT_EQ(arcs.size(), 2u);
  double top = 1e9, bottom = -1e9;
  for (const auto& p : arcs[0]) top = std::min(top, p.second);
  for (const auto& p : arcs[1]) bottom = std::max(bottom, p.second);
  EXPECT_LT(top, nodes[0].second - 20);     // + arc above
  EXPECT_GT(bottom, nodes[0].second + 20);  // - arc below
  // Node numbers are written in the nodes.
  EXPECT_NE(svg.find(">5</text>"), std::string::npos);
}

TEST(DrawSvg, HypercubeGrayGrid) {
  // d=4 binomial tree from 0000: 15 messages over 4 steps.
  std::vector<std::vector<ScheduledMessage>> steps;
  std::vector<int> informed{0};
  for (int bit = 3; bit >= 0; --bit) {
    std::vector<ScheduledMessage> step;
    const size_t n = informed.size();
    for (size_t i = 0; i < n; ++i) {
      step.push_back(msg(informed[i], informed[i] ^ (1 << bit)));
      informed.push_back(informed[i] ^ (1 << bit));
    }
    steps.push_back(step);
  }
  const std::string svg = draw(broadcast(spec("hypercube", {4}), 0, steps));
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_EQ(count(svg, "class=\"arrowhead\""), 15u);
  EXPECT_EQ(node_centres(svg).size(), 16u);
  EXPECT_NE(svg.find(">1011</text>"), std::string::npos);
  // Gray order: cube neighbours 0001 and 0011 are neighbouring columns.
  const auto nodes = node_centres(svg);
  EXPECT_NEAR(std::abs(nodes[1].first - nodes[3].first), 56.0, 0.1);
  EXPECT_EQ(step_colours(svg).size(), 4u);
}

TEST(DrawSvg, EscapesText) {
  Schedule s = mesh4_broadcast();
  s.name = "a<b & \"c\"";
  const std::string svg = draw(s);
  EXPECT_NE(svg.find(">a&lt;b &amp; &quot;c&quot;</text>"), std::string::npos);
  EXPECT_EQ(svg.find("a<b"), std::string::npos);
  EXPECT_EQ(xml_problem(svg), "");
}

TEST(DrawSvg, EmptyScheduleDrawsTheNetwork) {
  const std::string svg = draw(broadcast(spec("torus", {3, 3}), 4, {}));
  EXPECT_EQ(xml_problem(svg), "");
  EXPECT_EQ(node_centres(svg).size(), 9u);
  EXPECT_EQ(count(svg, "class=\"arrowhead\""), 0u);
}

TEST(DrawSvg, SizedToContent) {
  const std::regex size_re("width=\"([0-9.]+)\" height=\"([0-9.]+)\"");
  std::smatch small, big;
  const std::string a = draw(broadcast(spec("mesh", {4, 4}), 0, {{msg(0, 1)}}));
  const std::string b = draw(broadcast(spec("mesh", {16, 16}), 0, {{msg(0, 1)}}));
  ASSERT_TRUE(std::regex_search(a, small, size_re));
  ASSERT_TRUE(std::regex_search(b, big, size_re));
  EXPECT_GT(std::stod(big[1]), 15 * 56.0);
  EXPECT_GT(std::stod(big[2]), 15 * 56.0);
  EXPECT_LT(std::stod(small[1]), std::stod(big[1]));
  for (const auto& n : node_centres(b)) EXPECT_GE(n.first, 0.0);
}

TEST(DrawSvg, RefusesWhatItCannotDraw) {
  auto message_of = [](auto&& fn) {
    try {
      fn();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no exception");
  };
  const Schedule cube7 = broadcast(spec("hypercube", {7}), 0, {{msg(0, 1)}});
  EXPECT_NE(message_of([&] { draw(cube7); }).find("hypercube pictures stop at d=6"), std::string::npos);
  const Schedule mesh4d = broadcast(spec("mesh", {2, 2, 2, 2}), 0, {{msg(0, 1)}});
  EXPECT_NE(message_of([&] { draw(mesh4d); }).find("cannot draw mesh 2x2x2x2"), std::string::npos);
  const Schedule s = mesh4_broadcast();
  EXPECT_NE(message_of([&] { schedule_to_svg(s, Topology(spec("torus", {4, 4}))); })
                .find("the schedule is for mesh 4x4 but the topology given is torus 4x4"),
            std::string::npos);
  const Schedule jump = broadcast(spec("mesh", {4, 4}), 0, {{msg(0, 5, {0, 5})}});
  EXPECT_NE(message_of([&] { draw(jump); }).find("step 1, message 1"), std::string::npos);
  ScheduledMessage multicast = msg(0, -1);
  multicast.set_multicast("dual-path", {1, 2});
  EXPECT_EQ(message_of([&] { draw(broadcast(spec("mesh", {4, 4}), 0, {{msg(0, 3)}, {multicast}})); }),
            "step 2, message 1: a multicast message (\"multicast\": dual-path); drawings show unicast messages only");
  const Schedule self = broadcast(spec("mesh", {4, 4}), 0, {{msg(0, 1)}, {msg(3, 3)}});
  EXPECT_NE(message_of([&] { draw(self); }).find("step 2, message 1: src and dst are the same"), std::string::npos);
  const Schedule out = broadcast(spec("mesh", {4, 4}), 0, {{msg(0, 16)}});
  EXPECT_NE(message_of([&] { draw(out); }).find("out of range"), std::string::npos);
  SvgOptions tiny;
  tiny.max_nodes = 8;
  EXPECT_NE(message_of([&] { draw(s, tiny); }).find("16 nodes is more than the picture limit of 8"),
            std::string::npos);
  SvgOptions bad;
  bad.cell = 0;
  EXPECT_NE(message_of([&] { draw(s, bad); }).find("cell size"), std::string::npos);
  // d=6 is still drawn.
  EXPECT_NO_THROW(draw(broadcast(spec("hypercube", {6}), 0, {{msg(0, 63)}})));
}

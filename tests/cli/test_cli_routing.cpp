// Routing functions in runs (network.routing): every function delivers uniform
// and adversarial traffic past saturation with the watchdog armed; the routes it
// took (routes.csv) are minimal and obey its turn rules; the same seed gives the
// same bytes; unsafe VC counts and unsupported networks are refused at load time.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <set>

#include "cli_harness.hpp"

using namespace wormsim_cli;

namespace {

// One CSV line into fields (quoted fields may hold commas).
std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    else if (c == ',' && !quoted) out.emplace_back();
    else out.back() += c;
  }
  return out;
}

std::vector<int> numbers(const std::string& text) {
  std::vector<int> out;
  std::istringstream is(text);
  for (int v; is >> v;) out.push_back(v);
  return out;
}

struct Link {
  int src, dst, dim, dir;
};

struct RunRoutes {
  std::map<int, Link> links;                // links.csv
  std::vector<std::vector<int>> link_ids;  // routes.csv, per message
  std::vector<std::pair<int, int>> src_dst;  // messages.csv
};

RunRoutes read_routes(const fs::path& dir) {
  RunRoutes r;
  const auto link_lines = lines(read_file(dir / "links.csv"));
  for (size_t i = 1; i < link_lines.size(); ++i) {
    const auto f = fields(link_lines[i]);
    r.links[std::stoi(f[0])] = Link{std::stoi(f[1]), std::stoi(f[2]), std::stoi(f[5]), std::stoi(f[6])};
  }
  const auto route_lines = lines(read_file(dir / "routes.csv"));
  EXPECT_EQ(route_lines.at(0), "id,links");
  for (size_t i = 1; i < route_lines.size(); ++i) {
    const auto f = fields(route_lines[i]);
    EXPECT_EQ(std::stoul(f.at(0)), i - 1);
    r.link_ids.push_back(numbers(f.at(1)));
  }
  const auto msg_lines = lines(read_file(dir / "messages.csv"));
  for (size_t i = 1; i < msg_lines.size(); ++i) {
    const auto f = fields(msg_lines[i]);
    r.src_dst.emplace_back(std::stoi(f[3]), std::stoi(f[4]));
  }
  return r;
}

int distance(const std::string& topology, const std::vector<int>& dims, int a, int b) {
  if (topology == "hypercube") return __builtin_popcount(static_cast<unsigned>(a ^ b));
  int h = 0;
  for (int k : dims) {
    const int d = std::abs(a % k - b % k);
    h += topology == "torus" ? std::min(d, k - d) : d;
    a /= k;
    b /= k;
  }
  return h;
}

// A rule on a turn: the link into a router, then the link out of it (the router is in.dst).
using TurnRule = bool (*)(const Link& in, const Link& out, int x_of_router);

struct RoutingCase {
  std::string routing, topology;
  std::vector<int> dims;
  int vcs;
  TurnRule rule;  // null: no turn restriction
  int concentration = 1;  // cmesh: endpoints per router (messages.csv names endpoints, links.csv routers)
};

std::string dims_text(const std::vector<int>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + std::to_string(dims[i]);
  return s + "]";
}

bool west_first(const Link& in, const Link& out, int) { return !(out.dim == 0 && out.dir < 0) || (in.dim == 0 && in.dir < 0); }
bool north_last(const Link& in, const Link& out, int) { return !(in.dim == 1 && in.dir > 0) || (out.dim == 1 && out.dir > 0); }
bool negative_first(const Link& in, const Link& out, int) { return !(in.dir > 0 && out.dir < 0); }
bool odd_even(const Link& in, const Link& out, int x) {
  if (x % 2 == 0 && in.dim == 0 && in.dir > 0 && out.dim == 1) return false;
  if (x % 2 == 1 && in.dim == 1 && out.dim == 0 && out.dir < 0) return false;
  return true;
}
bool dimension_order_yx(const Link& in, const Link& out, int) { return !(in.dim == 0 && out.dim == 1); }

const std::vector<RoutingCase>& routing_cases() {
  static const std::vector<RoutingCase> v = {
      {"west-first", "mesh", {8, 8}, 1, west_first},
      {"north-last", "mesh", {8, 8}, 2, north_last},
      {"negative-first", "mesh", {8, 8}, 1, negative_first},
      {"negative-first", "mesh", {4, 4, 4}, 1, negative_first},
      {"negative-first", "hypercube", {6}, 1, negative_first},
      {"odd-even", "mesh", {8, 8}, 1, odd_even},
      {"minimal-adaptive", "mesh", {8, 8}, 2, nullptr},
      {"minimal-adaptive", "torus", {8, 8}, 3, nullptr},
      {"minimal-adaptive", "torus", {5, 4}, 4, nullptr},
      {"minimal-adaptive", "hypercube", {6}, 2, nullptr},
      {"dimension-order:yx", "mesh", {8, 8}, 1, dimension_order_yx},
      {"dimension-order:yx", "torus", {6, 6}, 2, dimension_order_yx},
      {"west-first", "cmesh", {4, 4}, 1, west_first, 2},
      {"minimal-adaptive", "cmesh", {4, 4}, 2, nullptr, 2},
  };
  return v;
}

std::vector<std::string> case_args(const RoutingCase& c, const std::string& traffic, const fs::path& out) {
  return {"run", default_config().string(), "--set", "schedule=null", "--set", "network.topology=" + c.topology,
          "--set", "network.dims=" + dims_text(c.dims), "--set", "network.vcs=" + std::to_string(c.vcs), "--set",
          "network.routing=" + c.routing, "--set", "traffic=" + traffic, "--set", "run.watchdog_cycles=2000",
          "--set", "output.host_timing=false", "--set",
          c.topology == "cmesh" ? "network.concentration=" + std::to_string(c.concentration) : "run.seed=1",
          "--out", out.string(), "--quiet"};
}

// Past saturation: 0.1 packets of 8 flits per node and cycle is 0.8 flits, several
// times what these networks accept; the watchdog stops any deadlock.
TEST(CliRouting, EveryFunctionDeliversHeavyTrafficOnMinimalRoutesItAllows) {
  TempDir tmp;
  for (const RoutingCase& c : routing_cases()) {
    for (const char* pattern : {"uniform", "transpose", "bit-complement"}) {
      if (std::string(pattern) == "transpose" && c.dims.size() == 2 && c.dims[0] != c.dims[1]) continue;
      SCOPED_TRACE(c.routing + " on " + c.topology + dims_text(c.dims) + ", " + pattern);
      const fs::path out = tmp / (c.routing + c.topology + std::to_string(c.dims.size()) + pattern);
      const std::string traffic = std::string("{pattern: ") + pattern + ", rate: 0.1, flits: 8, cycles: 1500}";
      const Result r = run_wormsim(case_args(c, traffic, out), tmp.path(), 120);
      ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
      const RunRoutes routes = read_routes(out);
      ASSERT_GT(routes.link_ids.size(), 500u);
      size_t turns = 0;
      for (size_t m = 0; m < routes.link_ids.size(); ++m) {
        const auto& ids = routes.link_ids[m];
        const int src = routes.src_dst[m].first / c.concentration, dst = routes.src_dst[m].second / c.concentration;
        ASSERT_EQ(static_cast<int>(ids.size()), distance(c.topology, c.dims, src, dst)) << "message " << m;
        int node = src;
        for (size_t h = 0; h < ids.size(); ++h) {
          const Link& l = routes.links.at(ids[h]);
          ASSERT_EQ(l.src, node) << "message " << m << " hop " << h;
          node = l.dst;
          if (h == 0 || !c.rule) continue;
          const Link& in = routes.links.at(ids[h - 1]);
          turns += in.dim != l.dim;
          ASSERT_TRUE(c.rule(in, l, l.src % c.dims[0])) << "forbidden turn at node " << l.src << ", message " << m;
        }
        ASSERT_EQ(node, dst) << "message " << m;
      }
      if (c.rule) {
        EXPECT_GT(turns, 100u);
      }
    }
  }
}

// Adaptive choices depend on credits, which depend on everything: still one seed, one set of bytes.
TEST(CliRouting, AdaptiveRunsAreDeterministic) {
  TempDir tmp;
  for (const RoutingCase& c : {routing_cases()[0], routing_cases()[5], routing_cases()[7]}) {
    SCOPED_TRACE(c.routing);
    std::string bytes[2];
    for (int i = 0; i < 2; ++i) {
      const fs::path out = tmp / (c.routing + std::to_string(i));
      const Result r = run_wormsim(case_args(c, "{pattern: uniform, rate: 0.05, flits: 6, cycles: 800}", out), tmp.path());
      ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
      for (const auto& f : output_files()) bytes[i] += read_file(out / f);
    }
    EXPECT_TRUE(bytes[0] == bytes[1]);
  }
}

// Adaptive routing spreads a hot pair of columns over more links than dimension order does.
TEST(CliRouting, AdaptiveRoutesDifferFromDimensionOrder) {
  TempDir tmp;
  std::set<int> used[2];
  const char* names[2] = {"dimension-order", "minimal-adaptive"};
  for (int i = 0; i < 2; ++i) {
    const RoutingCase c{names[i], "mesh", {8, 8}, 2, nullptr};
    const fs::path out = tmp / names[i];
    const Result r = run_wormsim(case_args(c, "{pattern: transpose, rate: 0.05, flits: 8, cycles: 800}", out), tmp.path());
    ASSERT_TRUE(r.exited && r.exit_code == 0) << r.describe();
    for (const auto& ids : read_routes(out).link_ids) used[i].insert(ids.begin(), ids.end());
  }
  EXPECT_GT(used[1].size(), used[0].size());
}

TEST(CliRouting, UnsafeOrUnsupportedCombinationsAreRefused) {
  TempDir tmp;
  const std::string cfg = default_config().string();
  struct Refusal {
    std::vector<std::string> sets;
    std::string expected;
  };
  const std::vector<Refusal> refusals = {
      {{"network.topology=torus", "network.vcs=2", "network.routing=minimal-adaptive"},
       ": network.routing (from --set): minimal-adaptive on a torus needs vcs >= 3: 2 dateline + 1 adaptive (got network.vcs = 2)"},
      {{"network.routing=minimal-adaptive"},
       ": network.routing (from --set): minimal-adaptive on a mesh needs vcs >= 2: 1 escape + 1 adaptive (got network.vcs = 1)"},
      {{"network.topology=torus", "network.routing=west-first"},
       ": network.routing (from --set): west-first is a turn model for meshes: on a torus its wrap-around links close a cycle"},
      {{"network.dims=[4,4,4]", "network.routing=odd-even"},
       ": network.routing (from --set): odd-even needs a 2-D grid of routers (a 2-D mesh or cmesh), got mesh 4x4x4"},
      {{"network.routing=west-first", "network.port_model=all-port"},
       ": network.routing (from --set): west-first chooses each hop in the router, but all-port injection ties a message"},
      {{"network.routing=dimension-order:xz"},
       ": network.routing (from --set): dimension-order:ORDER must name each of the 2 dimensions once"},
      {{"network.routing=valiant"}, ": network.routing (from --set): unknown routing function \"valiant\" (expected one of: "
                                    "dimension-order, west-first, north-last, negative-first, odd-even, minimal-adaptive)"},
  };
  for (const Refusal& ref : refusals) {
    SCOPED_TRACE(ref.expected);
    std::vector<std::string> args = {"run", cfg, "--out", (tmp / "o").string()};
    for (const auto& s : ref.sets) {
      args.push_back("--set");
      args.push_back(s);
    }
    const Result r = run_wormsim(args, tmp.path());
    EXPECT_EXIT_CODE(r, 1);
    EXPECT_CONTAINS(r.err, "error: " + cfg + ref.expected);
    EXPECT_FALSE(fs::exists(tmp / "o" / "summary.json"));
  }
}

// schedule check counts static step contention under deterministic functions and says it cannot under adaptive ones.
TEST(CliRouting, ScheduleCheckKnowsContentionOnlyForDeterministicRouting) {
  TempDir tmp;
  const std::string sched = default_schedule().string();
  const Result dor = run_wormsim({"schedule", "check", sched, "--routing", "dimension-order:yx"}, tmp.path());
  EXPECT_EXIT_CODE(dor, 0);
  EXPECT_CONTAINS(dor.out, "pair(s) of same-step messages share a link");
  const Result adaptive = run_wormsim({"schedule", "check", sched, "--routing", "odd-even", "--json"}, tmp.path());
  EXPECT_EXIT_CODE(adaptive, 0);
  EXPECT_CONTAINS(adaptive.out, "\"routing\": \"odd-even\"");
  EXPECT_CONTAINS(adaptive.out, "\"step_contention_pairs\": null");
  const Result text = run_wormsim({"schedule", "check", sched, "--routing", "minimal-adaptive"}, tmp.path());
  EXPECT_CONTAINS(text.out, "step contention:       cannot be known statically: minimal-adaptive is adaptive");
  const Result torus = run_wormsim({"schedule", "check", sched, "--routing", "north-last:x"}, tmp.path());
  EXPECT_EXIT_CODE(torus, 1);
  EXPECT_CONTAINS(torus.err, "error: --routing: north-last takes no option");
}

// schedule draw follows a deterministic --routing for messages without a route,
// and refuses adaptive functions (their routes exist only in a run).
TEST(CliRouting, ScheduleDrawFollowsTheRoutingFunction) {
  TempDir tmp;
  auto schedule = [](const std::string& route) {
    return std::string(R"({"wormsim_schedule": 1, "name": "one message", "topology": {"kind": "mesh", "dims": [4, 4]},)"
                       R"( "flits": 4, "steps": [[{"src": 0, "dst": 10)") +
           route + "}]]}";
  };
  write_file(tmp / "plain.json", schedule(""));
  write_file(tmp / "y_first.json", schedule(R"(, "route": [0, 4, 8, 9, 10])"));
  auto draw = [&](const std::string& file, const std::vector<std::string>& extra, const std::string& svg) {
    std::vector<std::string> args{"schedule", "draw", (tmp / file).string(), "-o", (tmp / svg).string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_wormsim(args, tmp.path());
  };
  EXPECT_EXIT_CODE(draw("plain.json", {}, "xy.svg"), 0);
  EXPECT_EXIT_CODE(draw("plain.json", {"--routing", "dimension-order:yx"}, "yx.svg"), 0);
  EXPECT_EXIT_CODE(draw("y_first.json", {}, "explicit.svg"), 0);
  EXPECT_EQ(read_file(tmp / "yx.svg"), read_file(tmp / "explicit.svg"));
  EXPECT_NE(read_file(tmp / "xy.svg"), read_file(tmp / "yx.svg"));
  // An explicit route wins over --routing.
  EXPECT_EXIT_CODE(draw("y_first.json", {"--routing", "dimension-order:xy"}, "explicit_xy.svg"), 0);
  EXPECT_EQ(read_file(tmp / "explicit_xy.svg"), read_file(tmp / "explicit.svg"));

  const Result adaptive = draw("plain.json", {"--routing", "odd-even"}, "oe.svg");
  EXPECT_EXIT_CODE(adaptive, 2);
  EXPECT_CONTAINS(adaptive.err, "error: --routing: odd-even is adaptive");
  EXPECT_FALSE(fs::exists(tmp / "oe.svg"));
  const Result unknown = draw("plain.json", {"--routing", "zigzag"}, "z.svg");
  EXPECT_EXIT_CODE(unknown, 2);
  EXPECT_CONTAINS(unknown.err, "error: --routing: ");
  const Result bad_order = draw("plain.json", {"--routing", "dimension-order:xx"}, "b.svg");
  EXPECT_EXIT_CODE(bad_order, 1);
  EXPECT_CONTAINS(bad_order.err, "dimension-order:ORDER must name each of the 2 dimensions once");
}

}  // namespace

// Multicast messages in schedules (docs/multicast.md, "Multicast in
// schedules"): the `dst` list with `multicast`, its errors in the loader, the
// validator's refusals naming the message, broadcast coverage counting each
// destination, and a write-then-load round trip.
#include <gtest/gtest.h>

#include <string>

#include "models/port_model.hpp"
#include "schedules/analysis.hpp"
#include "schedules/diagnostics.hpp"
#include "schedules/schedule_json.hpp"
#include "schedules/validator.hpp"

namespace wormsim {
namespace {

const std::string kMesh44 = R"({"kind": "mesh", "dims": [4, 4]})";

std::string on(const std::string& steps, const std::string& topology = kMesh44, const std::string& extra = "") {
  return R"({"topology": )" + topology + "," + extra + R"( "steps": )" + steps + "}";
}

// The one diagnostic of loading (and, if it loads, validating) `json`, as "where: what".
std::string only_finding(const std::string& json, const std::string& routing = "dimension-order") {
  Schedule s;
  Diagnostics d("t.json");
  if (parse_schedule_json(json, s, d)) validate_schedule(s, s.topology, PortModel{}, d, routing);
  if (d.items().size() != 1) return "(" + std::to_string(d.items().size()) + " findings)\n" + d.format();
  return d.items()[0].where + ": " + d.items()[0].what;
}

Schedule load(const std::string& json) {
  Schedule s;
  Diagnostics d("t.json");
  EXPECT_TRUE(parse_schedule_json(json, s, d)) << d.format();
  return s;
}

TEST(MulticastSchedule, DestinationListsLoadAsNodesAndRoundTrip) {
  const Schedule s = load(on(R"([[{"src": [1, 1], "dst": [[0, 0], 3, [2, 2]], "multicast": "dual-path"},
                                  {"src": 0, "dst": [1, 0]}]])"));
  const ScheduledMessage& m = s.steps[0][0];
  EXPECT_EQ(m.scheme(), "dual-path");
  EXPECT_EQ(m.dst, -1);
  EXPECT_EQ(m.dsts(), (std::vector<int>{0, 3, 10}));  // the schedule's order
  EXPECT_EQ(s.steps[0][1].dst, 1);  // a flat list without multicast is still one node's coordinates
  EXPECT_FALSE(s.steps[0][1].is_multicast());
  const std::string text = schedule_to_json(s);
  EXPECT_NE(text.find(R"({"src":[1,1],"dst":[[0,0],[3,0],[2,2]],"multicast":"dual-path"})"), std::string::npos)
      << text;
  const Schedule back = load(text);
  EXPECT_EQ(back.steps[0][0].dsts(), m.dsts());
  EXPECT_EQ(back.steps[0][0].scheme(), m.scheme());
  EXPECT_EQ(schedule_to_json(back), text);
}

TEST(MulticastSchedule, OneDestinationAndHypercubeIds) {
  const Schedule s = load(on(R"([[{"src": 0, "dst": [6], "multicast": "tree"}]])", R"({"kind": "hypercube", "dims": [3]})"));
  EXPECT_EQ(s.steps[0][0].dsts(), (std::vector<int>{6}));
  EXPECT_EQ(only_finding(on(R"([[{"src": 0, "dst": [3, 5], "multicast": "dual-path"}]])",
                            R"({"kind": "hypercube", "dims": [3]})")),
            "(0 findings)\n");
}

TEST(MulticastSchedule, LoaderRefusesMalformedMulticastMessages) {
  EXPECT_EQ(only_finding(on(R"([[{"src": 0, "dst": [[1, 0], [2, 0]]}]])")),
            "step 1, message 1, field \"dst\": a list of destinations needs \"multicast\": SCHEME (one of: dual-path, "
            "multi-path, column-path, tree)");
  EXPECT_EQ(only_finding(on(R"([[{"src": 0, "dst": [1], "multicast": 3}]])")),
            "step 1, message 1, field \"multicast\": expected a scheme name (one of: dual-path, multi-path, "
            "column-path, tree), got 3");
  EXPECT_EQ(only_finding(on(R"([[{"src": 0, "dst": [], "multicast": "tree"}]])")),
            "step 1, message 1, field \"dst\": with \"multicast\" expected a non-empty list of nodes, got []");
  EXPECT_EQ(only_finding(on(R"([[{"src": 0, "dst": [1], "multicast": "tree", "route": [0, 1]}]])")),
            "step 1, message 1, field \"route\": a multicast message takes no route: its scheme routes its worms");
  EXPECT_EQ(only_finding(on(R"([[{"src": 0, "dst": [1, 16], "multicast": "tree"}]])")).substr(0, 44),
            "step 1, message 1, field \"dst\" entry 2: node");
}

TEST(MulticastSchedule, ValidatorRefusesBadDestinationSetsNamingTheMessage) {
  EXPECT_EQ(only_finding(on(R"([[], [{"src": 5, "dst": [1, 5], "multicast": "dual-path"}]])")),
            "step 2, message 1, field \"dst\": destination (1,1) is the source of the multicast (multicast dual-path)");
  EXPECT_EQ(only_finding(on(R"([[{"src": 5, "dst": [1, 2, [1, 0]], "multicast": "tree"}]])")),
            "step 1, message 1, field \"dst\": destination (1,0) comes twice in the multicast (multicast tree)");
  EXPECT_EQ(only_finding(on(R"([[{"src": 5, "dst": [1], "multicast": "dual"}]])")),
            "step 1, message 1, field \"multicast\": unknown multicast scheme \"dual\" (expected one of: dual-path, "
            "multi-path, column-path, tree)");
  EXPECT_EQ(only_finding(on(R"([[{"src": 5, "dst": [1], "multicast": "column-path"}]])",
                            R"({"kind": "torus", "dims": [4, 4]})")),
            "step 1, message 1, field \"multicast\": column-path needs a 2-D mesh or cmesh (its worms are XY routes), "
            "got a torus 4x4");
  EXPECT_EQ(only_finding(on(R"([[{"src": 5, "dst": [1], "multicast": "tree"}]])"), "west-first"),
            "step 1, message 1, field \"multicast\": tree multicast follows the unicast routes, which need a "
            "deterministic network.routing (dimension-order); the network's routing is adaptive");
}

TEST(MulticastSchedule, BroadcastCountsEachDestinationAsADelivery) {
  const std::string from0 = R"( "broadcast": {"source": 0},)";
  // Unicast to (2,0), then a path multicast along each row from its first two holders.
  const std::string rows = R"([[{"src": 0, "dst": 8}],
      [{"src": 0, "dst": [1, 2, 3, 4, 5, 6, 7], "multicast": "dual-path"},
       {"src": 8, "dst": [9, 10, 11, 12, 13, 14, 15], "multicast": "dual-path"}]])";
  EXPECT_EQ(only_finding(on(rows, kMesh44, from0)), "(0 findings)\n");
  // The same in one step: (0,2) forwards a packet it does not hold yet.
  const std::string early = R"([[{"src": 0, "dst": 8},
      {"src": 8, "dst": [9, 10, 11, 12, 13, 14, 15], "multicast": "dual-path"}],
      [{"src": 0, "dst": [1, 2, 3, 4, 5, 6, 7], "multicast": "dual-path"}]])";
  EXPECT_EQ(only_finding(on(early, kMesh44, from0)).substr(0, 55),
            "step 1, message 2, field \"src\": (0,2) sends packet \"0\" ");
  const std::string twice = R"([[{"src": 0, "dst": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], "multicast": "tree"}],
      [{"src": 1, "dst": 2}]])";
  EXPECT_EQ(only_finding(on(twice, kMesh44, from0)), "step 2, message 1, field \"dst\": (2,0) is informed twice");
  const std::string missing = R"([[{"src": 0, "dst": [1, 2, 3], "multicast": "column-path"}]])";
  EXPECT_EQ(only_finding(on(missing, kMesh44, from0)).substr(0, 37), "broadcast: 12 node(s) never informed:");
}

// docs/examples/mesh4x4_rows_multicast.json: unicast down column 1 (2 + 1 + 1
// hops), then in each row a dual-path worm of 1 link west and one of 2 links east.
TEST(MulticastSchedule, MixedScheduleFigures) {
  Schedule s;
  Diagnostics d("rows");
  ASSERT_TRUE(load_schedule_file(std::string(WORMSIM_SOURCE_DIR) + "/docs/examples/mesh4x4_rows_multicast.json",
                                 s, d)) << d.format();
  validate_schedule(s, s.topology, PortModel{}, d);
  EXPECT_TRUE(d.items().empty()) << d.format();
  const StaticAnalysis a = analyze_schedule(s, Topology(s.topology));
  EXPECT_EQ(a.steps, 3);
  EXPECT_EQ(a.messages, 7);
  EXPECT_EQ(a.step_tcd, (std::vector<int64_t>{2, 2, 12}));
  EXPECT_EQ(a.tcd, 16);
  EXPECT_EQ(a.max_hops, 2);
  EXPECT_EQ(a.multicast_messages, 4);
  EXPECT_EQ(a.multicast_worms, 8);
  EXPECT_EQ(a.multicast_channel_use, 12);
  EXPECT_EQ(a.multicast_longest_path, 2);
  EXPECT_EQ(a.contention_pairs, 0);
}

// Two multicasts of one step that share a link are one contention pair.
TEST(MulticastSchedule, MulticastsSharingALinkAreAContentionPair) {
  const Schedule s = load(on(R"([[{"src": 0, "dst": [2, 3], "multicast": "dual-path"},
                                  {"src": 1, "dst": [3], "multicast": "column-path"}]])"));
  const StaticAnalysis a = analyze_schedule(s, Topology(s.topology));
  EXPECT_EQ(a.tcd, 3 + 2);
  EXPECT_EQ(a.contention_pairs, 1);
  ASSERT_EQ(a.contention.size(), 1u);
  EXPECT_EQ(a.contention[0].link, Topology(s.topology).link_id(1, 0));  // (1,0)->(2,0), the first shared
}

}  // namespace
}  // namespace wormsim

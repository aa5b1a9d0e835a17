// Semantic checks of schedules (schedules/validator.*): src = dst, packets sent
// before they are held, broadcast coverage, topology mismatch, and port-model
// warnings (errors after promote_warnings, i.e. --strict).
#include <gtest/gtest.h>

#include <string>

#include "models/port_model.hpp"
#include "schedules/diagnostics.hpp"
#include "schedules/schedule.hpp"
#include "schedules/schedule_json.hpp"
#include "schedules/validator.hpp"

using namespace wormsim;

namespace {

Schedule load(const std::string& json) {
  Schedule s;
  Diagnostics d("t.json");
  EXPECT_TRUE(parse_schedule_json(json, s, d)) << d.format() << json;
  return s;
}

PortModel port_model(const std::string& text) {
  PortModel pm;
  EXPECT_TRUE(parse_port_model(text, pm)) << text;
  return pm;
}

struct Checked {
  Diagnostics diag{"t.json"};
  std::string text;
};

// Validates `json` on its own topology (or `network` if given) with the port model.
Checked check(const std::string& json, const std::string& ports = "one-port", const TopologySpec* network = nullptr) {
  const Schedule s = load(json);
  Checked c;
  validate_schedule(s, network ? *network : s.topology, port_model(ports), c.diag);
  c.text = c.diag.format();
  return c;
}

std::string on(const std::string& topology, const std::string& steps, const std::string& extra = "") {
  return R"({"topology": )" + topology + "," + extra + R"( "steps": )" + steps + "}";
}
const std::string kMesh44 = R"({"kind": "mesh", "dims": [4, 4]})";
const std::string kLine3 = R"({"kind": "line", "dims": [3]})";
const std::string kLine4 = R"({"kind": "line", "dims": [4]})";
const std::string kFromZero = R"( "broadcast": {"source": 0},)";

#define EXPECT_HAS(text, needle) \
  EXPECT_NE(std::string(text).find(needle), std::string::npos) << "expected\n  " << (needle) << "\nin\n" << (text)

void expect_only_error(const Checked& c, const std::string& where, const std::string& what) {
  ASSERT_EQ(c.diag.items().size(), 1u) << c.text;
  const Diagnostic& d = c.diag.items()[0];
  EXPECT_EQ(d.severity, Diagnostic::Severity::Error) << c.text;
  EXPECT_EQ(d.where, where) << c.text;
  EXPECT_EQ(d.what, what) << c.text;
}

void expect_only_warning(const Checked& c, const std::string& where, const std::string& what) {
  ASSERT_EQ(c.diag.items().size(), 1u) << c.text;
  const Diagnostic& d = c.diag.items()[0];
  EXPECT_EQ(d.severity, Diagnostic::Severity::Warning) << c.text;
  EXPECT_EQ(d.where, where) << c.text;
  EXPECT_EQ(d.what, what) << c.text;
  EXPECT_FALSE(c.diag.has_errors());
  EXPECT_EQ(c.diag.warnings(), 1);
}

}  // namespace

// --- valid schedules --------------------------------------------------------------

TEST(Validator, ShippedDefaultScheduleIsClean) {
  Schedule s;
  Diagnostics d("default");
  ASSERT_TRUE(load_schedule_file(std::string(WORMSIM_SOURCE_DIR) + "/configs/schedules/mesh4x4_eye_from_1_1.json", s, d));
  for (const char* pm : {"one-port", "all-port", "2-port"}) {
    Diagnostics v("default");
    validate_schedule(s, s.topology, port_model(pm), v);
    EXPECT_TRUE(v.items().empty()) << pm << "\n" << v.format();
  }
}

TEST(Validator, DocumentedRingExampleIsClean) {
  const Checked c = check(R"({"topology": {"kind": "ring", "dims": [4]}, "flits": 2, "broadcast": {"source": 0},
    "packets": {"a": 2},
    "steps": [[{"src": 0, "dst": 1}, {"src": 2, "dst": 3, "packet": "a"}],
              [{"src": 1, "dst": 2}, {"src": 0, "dst": 3, "route": [0, 1, 2, 3], "flits": 8},
               {"src": 3, "dst": 1, "packet": "a", "route": [3, 0, 1]}]]})");
  EXPECT_TRUE(c.diag.items().empty()) << c.text;
}

TEST(Validator, ForwardingInALaterStepIsFine) {
  const Checked c = check(on(kLine4, R"([[{"src": 0, "dst": 1}], [{"src": 1, "dst": 2}], [{"src": 2, "dst": 3}]])", kFromZero));
  EXPECT_TRUE(c.diag.items().empty()) << c.text;
}

TEST(Validator, NonBroadcastWithoutPacketsHasNoDependencies) {
  // Anonymous packets: every node may send in step 1.
  const Checked c = check(on(kLine4, R"([[{"src": 1, "dst": 2}, {"src": 3, "dst": 0}], [{"src": 2, "dst": 1}]])"));
  EXPECT_TRUE(c.diag.items().empty()) << c.text;
}

TEST(Validator, EmptyScheduleIsClean) {
  const Checked c = check(on(kMesh44, "[]"));
  EXPECT_TRUE(c.diag.items().empty()) << c.text;
}

// --- errors -------------------------------------------------------------------------

TEST(Validator, SrcEqualsDst) {
  const Checked c = check(on(kMesh44, R"([[{"src": [0, 0], "dst": [1, 0]}], [{"src": [2, 2], "dst": 10}]])"));
  expect_only_error(c, "step 2, message 1, field \"dst\"", "src and dst are the same node (2,2)");
  EXPECT_HAS(c.text, "t.json: step 2, message 1, field \"dst\": error: src and dst are the same node (2,2)\n");
}

TEST(Validator, PacketSentInTheStepItArrives) {
  const Checked c = check(on(kLine3, R"([[{"src": 0, "dst": 1}, {"src": 1, "dst": 2}]])", kFromZero));
  expect_only_error(c, "step 1, message 2, field \"src\"",
                    "(1) sends packet \"0\" before it holds it (a node holds a packet from the step after it receives "
                    "it)");
}

TEST(Validator, PacketSentInAnEarlierStepThanItArrives) {
  const Checked c = check(on(kLine4, R"([[{"src": 1, "dst": 2, "packet": "p"}], [{"src": 0, "dst": 1, "packet": "p"}]])",
                             R"( "packets": {"p": 0},)"));
  expect_only_error(c, "step 1, message 1, field \"src\"",
                    "(1) sends packet \"p\" before it holds it (a node holds a packet from the step after it receives "
                    "it)");
}

TEST(Validator, PacketHeldFromItsEarliestArrival) {
  // Node 1 gets p in step 1 and again in step 3: its send in step 2 stands on the
  // first. Node 2 gets q only in step 3: its send in step 2 is refused, though it
  // holds q later.
  const Checked c = check(on(kLine4, R"([[{"src": 0, "dst": 1, "packet": "p"}],
      [{"src": 1, "dst": 3, "packet": "p"}, {"src": 2, "dst": 3, "packet": "q"}],
      [{"src": 3, "dst": 1, "packet": "p"}, {"src": 0, "dst": 2, "packet": "q"}]])",
                             R"( "packets": {"p": 0, "q": 0},)"));
  expect_only_error(c, "step 2, message 2, field \"src\"",
                    "(2) sends packet \"q\" before it holds it (a node holds a packet from the step after it receives "
                    "it)");
}

TEST(Validator, UndeclaredPacketOriginatesAtItsFirstSender) {
  // The example of docs/schedule-format.md: z originates at node 1, so node 2 cannot send it in step 1.
  const Checked c = check(on(kLine3, R"([[{"src": 0, "dst": 1}, {"src": 1, "dst": 2, "packet": "z"},
                                          {"src": 2, "dst": 0, "packet": "z"}], [{"src": 1, "dst": 0, "packet": "z"}]])"));
  expect_only_error(c, "step 1, message 3, field \"src\"",
                    "(2) sends packet \"z\" before it holds it (a node holds a packet from the step after it receives "
                    "it)");
}

TEST(Validator, NodeInformedTwice) {
  const Checked c = check(on(kLine3, R"([[{"src": 0, "dst": 1}], [{"src": 1, "dst": 2}, {"src": 0, "dst": 2}]])", kFromZero));
  expect_only_error(c, "step 2, message 2, field \"dst\"", "(2) is informed twice");
}

TEST(Validator, NodeInformedThreeTimesIsReportedOnce) {
  const Checked c = check(on(kLine4, R"([[{"src": 0, "dst": 1}], [{"src": 0, "dst": 2}, {"src": 1, "dst": 3}],
                                         [{"src": 2, "dst": 1}, {"src": 3, "dst": 1}]])",
                             kFromZero));
  expect_only_error(c, "step 3, message 1, field \"dst\"", "(1) is informed twice");
}

TEST(Validator, NodesNeverInformed) {
  const Checked c = check(on(kLine4, R"([[{"src": 0, "dst": 1}]])", kFromZero));
  expect_only_error(c, "broadcast", "2 node(s) never informed: (2), (3)");
}

TEST(Validator, NeverInformedListsTheFirstEight) {
  const Checked c = check(on(kMesh44, R"([[{"src": [0, 0], "dst": [1, 0]}]])", kFromZero));
  expect_only_error(c, "broadcast",
                    "14 node(s) never informed: (2,0), (3,0), (0,1), (1,1), (2,1), (3,1), (0,2), (1,2), ...");
}

TEST(Validator, BroadcastSentBackToItsSource) {
  const Checked c = check(on(kLine3, R"([[{"src": 0, "dst": 1}], [{"src": 1, "dst": 2}], [{"src": 2, "dst": 0}]])", kFromZero));
  expect_only_error(c, "step 3, message 1, field \"dst\"", "sends the broadcast back to its source (0)");
}

TEST(Validator, OtherPacketsDoNotCountForBroadcastCoverage) {
  // Sending a side packet to the source is not sending the broadcast back, and does not inform anybody.
  const Checked c = check(on(kLine3, R"([[{"src": 0, "dst": 1}, {"src": 1, "dst": 0, "packet": "s"}],
                                         [{"src": 1, "dst": 2}]])",
                             kFromZero));
  EXPECT_TRUE(c.diag.items().empty()) << c.text;
}

TEST(Validator, TopologyMismatchStopsTheOtherChecks) {
  const TopologySpec network{"mesh", {8, 8}};
  // src = dst would be an error too, but only the mismatch is reported.
  const Checked c = check(on(kMesh44, R"([[{"src": 3, "dst": 3}]])"), "one-port", &network);
  expect_only_error(c, "field \"topology\"", "schedule is for mesh 4x4 but the network is mesh 8x8");
}

TEST(Validator, TopologyKindMismatch) {
  const TopologySpec network{"mesh", {4}};
  const Checked c = check(on(R"({"kind": "ring", "dims": [4]})", "[]"), "one-port", &network);
  expect_only_error(c, "field \"topology\"", "schedule is for torus 4 but the network is mesh 4");
}

TEST(Validator, AliasesMatchTheirCanonicalKind) {
  const TopologySpec network{"mesh", {4}};
  const Checked c = check(on(kLine4, R"([[{"src": 0, "dst": 3}]])"), "one-port", &network);
  EXPECT_TRUE(c.diag.items().empty()) << c.text;
}

TEST(Validator, AllErrorsAreReported) {
  const Checked c = check(on(kLine4, R"([[{"src": 0, "dst": 1}, {"src": 1, "dst": 1}], [{"src": 0, "dst": 0}]])", kFromZero));
  // src = dst twice, (1) sends before it holds, (1) informed twice (by itself), back to the source, never informed.
  EXPECT_EQ(c.diag.errors(), 6) << c.text;
  EXPECT_HAS(c.text, "step 1, message 2, field \"src\": error: (1) sends packet \"0\" before it holds it");
  EXPECT_HAS(c.text, "step 1, message 2, field \"dst\": error: (1) is informed twice");
  EXPECT_HAS(c.text, "step 2, message 1, field \"dst\": error: sends the broadcast back to its source (0)");
  EXPECT_HAS(c.text, "step 1, message 2, field \"dst\": error: src and dst are the same node (1)");
  EXPECT_HAS(c.text, "step 2, message 1, field \"dst\": error: src and dst are the same node (0)");
  EXPECT_HAS(c.text, "broadcast: error: 2 node(s) never informed: (2), (3)");
}

// --- port model -------------------------------------------------------------------

TEST(Validator, OnePortTwoSendsInOneStepIsAWarning) {
  Checked c = check(on(kMesh44, R"([[{"src": [0, 0], "dst": [1, 0]}, {"src": [0, 0], "dst": [0, 1]}]])"));
  expect_only_warning(c, "step 1", "(0,0) sends 2 messages but the one-port model allows 1 at once; they will be serialised");
  EXPECT_EQ(c.text, "t.json: step 1: warning: (0,0) sends 2 messages but the one-port model allows 1 at once; they "
                    "will be serialised\n");
  c.diag.promote_warnings();
  EXPECT_TRUE(c.diag.has_errors());
  EXPECT_EQ(c.diag.errors(), 1);
  EXPECT_EQ(c.diag.warnings(), 0);
  EXPECT_EQ(c.diag.format(), "t.json: step 1: error: (0,0) sends 2 messages but the one-port model allows 1 at once; "
                             "they will be serialised\n");
}

TEST(Validator, OnePortSendsInDifferentStepsAreFine) {
  const Checked c = check(on(kMesh44, R"([[{"src": [0, 0], "dst": [1, 0]}], [{"src": [0, 0], "dst": [0, 1]}]])"));
  EXPECT_TRUE(c.diag.items().empty()) << c.text;
}

TEST(Validator, OnePortViolationInALaterStepNamesThatStep) {
  const Checked c = check(on(kLine4, R"([[], [], [{"src": 1, "dst": 0}, {"src": 1, "dst": 2}, {"src": 1, "dst": 3}]])"));
  expect_only_warning(c, "step 3", "(1) sends 3 messages but the one-port model allows 1 at once; they will be serialised");
}

TEST(Validator, PortWarningsOfOneStepComeInNodeOrder) {
  const Checked c = check(on(kLine4, R"([[{"src": 3, "dst": 2}, {"src": 1, "dst": 0}, {"src": 3, "dst": 0},
      {"src": 1, "dst": 2}]])"));
  EXPECT_EQ(c.text, "t.json: step 1: warning: (1) sends 2 messages but the one-port model allows 1 at once; they will "
                    "be serialised\nt.json: step 1: warning: (3) sends 2 messages but the one-port model allows 1 at "
                    "once; they will be serialised\n");
}

TEST(Validator, PortCountsStartAfreshEachStep) {
  // One send per step each, from the same nodes and on the same links: nothing carries over.
  const std::string steps = on(kMesh44, R"([[{"src": [1, 1], "dst": [3, 1]}, {"src": [0, 0], "dst": [0, 1]}],
      [{"src": [1, 1], "dst": [2, 1]}, {"src": [0, 0], "dst": [0, 2]}]])");
  EXPECT_TRUE(check(steps).diag.items().empty()) << check(steps).text;
  EXPECT_TRUE(check(steps, "all-port").diag.items().empty()) << check(steps, "all-port").text;
}

TEST(Validator, KPortAllowsK) {
  const std::string three = on(kMesh44, R"([[{"src": 5, "dst": 4}, {"src": 5, "dst": 6}, {"src": 5, "dst": 1}]])");
  EXPECT_TRUE(check(three, "3-port").diag.items().empty());
  expect_only_warning(check(three, "2-port"), "step 1",
                      "(1,1) sends 3 messages but the 2-port model allows 2 at once; they will be serialised");
}

TEST(Validator, AllPortSameFirstLinkIsAWarning) {
  // (1,1)->(3,1) and (1,1)->(2,1) both leave on the +x link of (1,1).
  Checked c = check(on(kMesh44, R"([[{"src": [1, 1], "dst": [3, 1]}, {"src": [1, 1], "dst": [2, 1]}]])"), "all-port");
  expect_only_warning(c, "step 1",
                      "(1,1) starts two messages on the same link in one step; the all-port model gives each link one "
                      "injection channel, so they will be serialised");
  c.diag.promote_warnings();
  EXPECT_TRUE(c.diag.has_errors());
}

TEST(Validator, AllPortDifferentLinksAreFine) {
  const Checked c = check(
      on(kMesh44,
         R"([[{"src": [1, 1], "dst": [3, 1]}, {"src": [1, 1], "dst": [1, 3]}, {"src": [1, 1], "dst": [0, 0]}, {"src": [1, 1], "dst": [1, 0]}]])"),
      "all-port");
  EXPECT_TRUE(c.diag.items().empty()) << c.text;
}

TEST(Validator, AllPortUsesTheExplicitRoutesFirstLink) {
  // Same destinations as the warning case, but the second message leaves on +y.
  const Checked c = check(on(kMesh44, R"([[{"src": [1, 1], "dst": [3, 1]},
      {"src": [1, 1], "dst": [2, 1], "route": [[1, 1], [1, 2], [2, 2], [2, 1]]}]])"),
                          "all-port");
  EXPECT_TRUE(c.diag.items().empty()) << c.text;
}

TEST(Validator, AllPortMoreSendsThanLinks) {
  // A mesh corner has two links.
  const Checked c = check(
      on(kMesh44, R"([[{"src": [0, 0], "dst": [1, 0]}, {"src": [0, 0], "dst": [0, 1]}, {"src": [0, 0], "dst": [1, 1]}]])"),
      "all-port");
  // (0,0)->(1,1) goes x first, so it shares the +x link with (0,0)->(1,0): two warnings.
  EXPECT_FALSE(c.diag.has_errors()) << c.text;
  EXPECT_EQ(c.diag.warnings(), 2) << c.text;
  EXPECT_HAS(c.text, "t.json: step 1: warning: (0,0) sends 3 messages but the all-port model allows 2 at once");
  EXPECT_HAS(c.text, "t.json: step 1: warning: (0,0) starts two messages on the same link in one step");
}

TEST(Validator, WarningsAndErrorsTogether) {
  const Checked c = check(on(kLine3, R"([[{"src": 0, "dst": 1}, {"src": 0, "dst": 2}, {"src": 1, "dst": 1}]])"));
  EXPECT_EQ(c.diag.errors(), 1) << c.text;
  EXPECT_EQ(c.diag.warnings(), 1) << c.text;
}

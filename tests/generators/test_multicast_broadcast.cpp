// Hardware-multicast broadcast generators (schedules/generators/multicast_broadcast.cpp):
// one step, one multicast message from the source to every other node, that
// validates as a broadcast; its static figures (`schedule check`) hand-checked
// on a 4x4 mesh from (1,1) against the worms of tests/unit/test_multicast_schemes.cpp.
#include <gtest/gtest.h>

#include "generation_error.hpp"
#include "models/port_model.hpp"
#include "schedules/analysis.hpp"
#include "schedules/generators/generators.hpp"
#include "schedules/schedule_json.hpp"
#include "schedules/validator.hpp"

namespace wormsim {
namespace {

GeneratorOptions from(int source) {
  GeneratorOptions o;
  o.source = source;
  return o;
}

TEST(MulticastBroadcast, OneStepOneMessageToEveryOtherNodeThatValidates) {
  const TopologySpec mesh{"mesh", {4, 4}};
  for (const char* scheme : {"dual-path", "multi-path", "column-path", "tree"}) {
    const Schedule s = generate_schedule(scheme, mesh, from(5));
    ASSERT_EQ(s.steps.size(), 1u) << scheme;
    ASSERT_EQ(s.steps[0].size(), 1u) << scheme;
    const ScheduledMessage& m = s.steps[0][0];
    EXPECT_EQ(m.scheme(), scheme);
    EXPECT_EQ(m.src, 5);
    EXPECT_EQ(m.dst, -1);
    EXPECT_EQ(m.dsts(), (std::vector<int>{0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}));
    EXPECT_EQ(s.algorithm, scheme);
    EXPECT_TRUE(s.broadcast);
    Diagnostics diag("generated");
    validate_schedule(s, mesh, PortModel{}, diag);
    EXPECT_FALSE(diag.has_errors()) << scheme << ": " << diag.format();
    // Written and loaded back: the same message.
    Schedule back;
    Diagnostics load_diag("round trip");
    ASSERT_TRUE(parse_schedule_json(schedule_to_json(s), back, load_diag)) << load_diag.format();
    EXPECT_EQ(back.steps[0][0].dsts(), m.dsts());
    EXPECT_EQ(back.steps[0][0].scheme(), m.scheme());
  }
}

struct Figures {
  int64_t worms, channel_use;
  int longest;
};

TEST(MulticastBroadcast, StaticFiguresFromTheMiddleOfA4x4Mesh) {
  const TopologySpec mesh{"mesh", {4, 4}};
  const Topology topo(mesh);
  // dual-path: worms of 9 and 6 links; multi-path: 3 + 6 + 2 + 5; column-path: 8 worms,
  // columns 0..3 up/down 3+2, 2+1, 3+2, 4+3; tree: the 15 links of the XY spanning tree,
  // deepest destination (3,3) 4 hops away.
  const std::map<std::string, Figures> want = {{"dual-path", {2, 15, 9}},
                                               {"multi-path", {4, 16, 6}},
                                               {"column-path", {8, 20, 4}},
                                               {"tree", {1, 15, 4}}};
  for (const auto& [scheme, f] : want) {
    const StaticAnalysis a = analyze_schedule(generate_schedule(scheme, mesh, from(5)), topo);
    EXPECT_EQ(a.steps, 1) << scheme;
    EXPECT_EQ(a.messages, 1) << scheme;
    EXPECT_EQ(a.multicast_messages, 1) << scheme;
    EXPECT_EQ(a.multicast_worms, f.worms) << scheme;
    EXPECT_EQ(a.multicast_channel_use, f.channel_use) << scheme;
    EXPECT_EQ(a.tcd, f.channel_use) << scheme;
    EXPECT_EQ(a.flit_hops, 16 * f.channel_use) << scheme;
    EXPECT_EQ(a.multicast_longest_path, f.longest) << scheme;
    EXPECT_EQ(a.max_hops, f.longest) << scheme;
    EXPECT_EQ(a.contention_pairs, 0) << scheme;
  }
}

TEST(MulticastBroadcast, RefusesNetworksTheSchemeCannotRunOn) {
  EXPECT_EQ(generation_error("column-path", TopologySpec{"torus", {4, 4}}, from(0)),
            "column-path needs a 2-D mesh or cmesh (its worms are XY routes), got a torus 4x4");
  EXPECT_EQ(generation_error("multi-path", TopologySpec{"hypercube", {3}}, from(0)), "");
  EXPECT_EQ(generation_error("multi-path", TopologySpec{"mesh", {3, 3, 3}}, from(13)), "");
  EXPECT_EQ(generation_error("dual-path", TopologySpec{"hypercube", {3}}, from(0)), "");
  GeneratorOptions params = from(0);
  params.params["k"] = "1";
  EXPECT_NE(generation_error("tree", TopologySpec{"mesh", {4, 4}}, params), "");
}

}  // namespace
}  // namespace wormsim

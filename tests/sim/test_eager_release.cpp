// Eager mode's release rule, read back from the message records: a node sends
// its messages in schedule order, each once the node holds its packet (from
// the start for the packet's origin, else from the cycle the message bringing
// it was delivered) and once the node's previous send has left its
// interface (one-port). Several packets with their own origins, among them the
// first and the last node, spread over nodes and steps so that each node's
// sends interleave with other nodes' in id order.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "harness.hpp"

namespace wormsim::test {
namespace {

struct EagerLcg {
  uint64_t s;
  int next(int n) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<int>((s >> 33) % static_cast<uint64_t>(n));
  }
};

// Each step, every holder of each packet may pass it to a node that has
// not got it yet; a node receives each packet once.
Schedule interleaved_gossip(const TopologySpec& spec, const std::vector<int>& origins, int steps) {
  const Topology topo(spec);
  const int n = topo.num_endpoints();
  Schedule s;
  s.topology = spec;
  s.flits = 4;
  EagerLcg rng{11};
  std::vector<std::set<int>> holders;
  for (int o : origins) {
    s.add_packet("", o);
    holders.push_back({o});
  }
  for (int step = 0; step < steps; ++step) {
    std::vector<ScheduledMessage> msgs;
    std::vector<std::set<int>> after = holders;
    for (size_t p = 0; p < origins.size(); ++p)
      for (int from : holders[p]) {
        if (rng.next(3) == 0) continue;
        const int to = rng.next(n);
        if (after[p].count(to)) continue;
        after[p].insert(to);
        ScheduledMessage m;
        m.src = from;
        m.dst = to;
        m.packet = static_cast<int>(p);
        m.flits = 1 + rng.next(12);
        msgs.push_back(m);
      }
    // Ids in a step in an order unrelated to the senders'.
    for (size_t i = msgs.size(); i > 1; --i) std::swap(msgs[i - 1], msgs[static_cast<size_t>(rng.next(static_cast<int>(i)))]);
    s.steps.push_back(msgs);
    holders = after;
  }
  return s;
}

TEST(EagerRelease, EachSendLeavesInOrderOnceItsNodeHoldsThePacketAndItsChannelIsFree) {
  const TopologySpec spec{"mesh", {6, 6}};
  const int last = 35;
  const Schedule s = interleaved_gossip(spec, {0, last, 14, 14}, 7);
  ASSERT_GE(s.num_messages(), 60u);
  SimRun r = simulate(s, default_params(), ExecutionMode::Eager);
  ASSERT_EQ(r.net->status(), RunStatus::Completed);

  // When each node got each packet.
  std::map<std::pair<int, int>, uint64_t> got;
  uint64_t start = kNever;
  std::vector<std::pair<int, int>> sends;  // (src, packet) by id
  for (const auto& step : s.steps)
    for (const ScheduledMessage& m : step) sends.emplace_back(m.src, m.packet);
  for (size_t id = 0; id < sends.size(); ++id) {
    const MessageRecord& m = r.msg(id);
    ASSERT_NE(m.delivered, kNever) << "message " << id;
    got[{m.dst, sends[id].second}] = m.delivered;
    start = std::min(start, m.release);
  }
  for (size_t p = 0; p < s.packets.size(); ++p) got[{s.packets[p].origin, static_cast<int>(p)}] = start;

  std::map<int, size_t> previous;  // per node: its last send so far
  int waited_for_channel = 0, first_sends_of_relays = 0, sends_of_last = 0;
  for (size_t id = 0; id < sends.size(); ++id) {
    const auto [src, packet] = sends[id];
    const MessageRecord& m = r.msg(id);
    const uint64_t holds_from = got.at({src, packet});
    EXPECT_GE(m.release, holds_from) << "message " << id << " left before its node held packet " << packet;
    sends_of_last += src == last;
    const auto prev = previous.find(src);
    if (prev == previous.end()) {
      EXPECT_EQ(m.release, holds_from) << "message " << id << ", its node's first send, waited for nothing";
      first_sends_of_relays += holds_from != start;
    } else {
      const MessageRecord& before = r.msg(prev->second);
      EXPECT_GT(m.release, before.release) << "message " << id << " overtook message " << prev->second;
      // One-port: the previous worm's tail entered the router no earlier than inject + flits - 1.
      EXPECT_GE(m.release, before.inject + before.flits) << "message " << id << " shared its node's channel";
      if (m.release > holds_from) ++waited_for_channel;
      else EXPECT_EQ(m.release, holds_from);
    }
    previous[src] = id;
  }
  // The rule's three cases all occur in this schedule.
  EXPECT_GT(waited_for_channel, 0);
  EXPECT_GT(first_sends_of_relays, 0);
  EXPECT_GT(sends_of_last, 0) << "the last node, an origin, sends too";
}

}  // namespace
}  // namespace wormsim::test

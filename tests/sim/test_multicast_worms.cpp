// Multidestination worms in the router (docs/multicast.md, "The router"),
// checked on hand-built worms: a path worm's copies arrive as a unicast worm's
// would at each destination; a tree's copies arrive at zero-load latency; a
// fork waits, in lock step, for its blocked branch; an absorb waits for the
// ejection channel; conservation counts every copy; fast paths change nothing;
// the watchdog finds a deadlock of path worms that visit in an unsafe order.
#include <gtest/gtest.h>

#include <map>
#include <utility>
#include <vector>

#include "harness.hpp"
#include "models/multicast/multicast_scheme.hpp"
#include "models/routing.hpp"

namespace wormsim::test {
namespace {

// Releases given messages at given cycles.
class ReleaseAt : public TrafficSource {
 public:
  explicit ReleaseAt(std::vector<std::pair<uint32_t, uint64_t>> at) : at_(std::move(at)) {}
  void start(Network& net, uint64_t now) override { release_due(net, now); }
  void after_routers(Network&, uint64_t) override {}
  void after_interfaces(Network& net, uint64_t now) override { release_due(net, now + 1); }
  bool finished() const override { return next_ == at_.size(); }
  // The cycle before a release: its after_interfaces releases at the release cycle.
  uint64_t next_event() const override {
    return next_ < at_.size() ? (at_[next_].second > 0 ? at_[next_].second - 1 : 0) : kNever;
  }

 private:
  void release_due(Network& net, uint64_t when) {
    for (; next_ < at_.size() && at_[next_].second <= when; ++next_) net.release(at_[next_].first, when);
  }
  std::vector<std::pair<uint32_t, uint64_t>> at_;
  size_t next_ = 0;
};

struct Built {
  std::unique_ptr<Topology> topo;
  std::unique_ptr<Network> net;
  const MessageRecord& msg(uint32_t id) const { return net->context().msgs.at(id); }
  const MulticastCopies& copies(uint32_t id) const {
    return net->context().copies.at(net->context().copies_of.at(id));
  }
  uint64_t copy_header(uint32_t id, int dst) const { return copies(id).header.at(copies(id).index_of(dst)); }
  uint64_t copy_tail(uint32_t id, int dst) const { return copies(id).tail.at(copies(id).index_of(dst)); }
};

Built build(const TopologySpec& spec, const NetworkParams& p) {
  Built b;
  b.topo = std::make_unique<Topology>(spec);
  b.net = std::make_unique<Network>("network", *b.topo, p);
  return b;
}

TreeEdge edge(const Topology& t, int router, int dim, int dir) { return TreeEdge{router, t.port_for(dim, dir), 0}; }

// A path worm along a line: each copy's header and tail reach its destination
// when a unicast worm's would (docs/timing-model.md), for several timings and lengths.
TEST(MulticastWorms, PathCopiesArriveAsUnicastWormsWould) {
  NetworkParams p = default_params();
  p.timing = Timing{2, 1, 3, 1};
  p.buffer_flits = 4;
  Built b = build({"mesh", {6}}, p);
  const Topology& t = *b.topo;
  const std::vector<uint32_t> lengths{1, 4, 16};
  std::vector<std::pair<uint32_t, uint64_t>> at;
  std::vector<uint32_t> ids;
  uint64_t when = 0;
  for (uint32_t len : lengths) {
    MulticastWorm w;
    w.src = 1;
    w.dsts = {2, 3, 5};
    for (int r = 1; r < 5; ++r) w.edges.push_back(edge(t, r, 0, +1));
    ids.push_back(b.net->add_multicast_message(w, len, static_cast<int>(ids.size())));
    at.emplace_back(ids.back(), when);
    when += 200;  // each crosses an idle network
  }
  ReleaseAt src(at);
  b.net->set_traffic(&src);
  sc_core::sc_start();
  b.net->rethrow_failure();
  ASSERT_EQ(b.net->status(), RunStatus::Completed);
  for (size_t i = 0; i < ids.size(); ++i) {
    const MessageRecord& m = b.msg(ids[i]);
    for (int d : {2, 3, 5}) {
      const long long hops = d - 1;
      EXPECT_EQ(b.copy_tail(ids[i], d) - m.release, p.timing.zero_load_latency(hops, lengths[i])) << d;
      EXPECT_EQ(b.copy_header(ids[i], d) - m.release, p.timing.zero_load_latency(hops, 1)) << d;
    }
    EXPECT_EQ(m.delivered, b.copy_tail(ids[i], 5));
    EXPECT_EQ(m.header_arrival, b.copy_header(ids[i], 2));
    EXPECT_EQ(m.stall_step + m.stall_depth + m.stall_background, 0u);
  }
  const RunMetrics r = compute_metrics(*b.net, 3);
  // Conservation counts every copy: 3 copies of 1 + 4 + 16 flits.
  EXPECT_EQ(r.flits_ejected, 3u * (1 + 4 + 16));
  EXPECT_EQ(r.flits_injected, r.flits_ejected);
}

// multi-path from router 0 of a 3-cube with all-port interfaces: its three
// worms (one per source channel, docs/multicast.md) leave at once, so every copy
// arrives when a unicast worm along its worm's path would.
TEST(MulticastWorms, MultiPathWormsOnAHypercubeLeaveTogether) {
  NetworkParams p = default_params();
  p.ports.kind = PortKind::AllPort;
  Built b = build({"hypercube", {3}}, p);
  const Topology& t = *b.topo;
  const auto route = make_routing("dimension-order", t, p.vcs);
  std::vector<int> all;
  for (int d = 1; d < 8; ++d) all.push_back(d);
  const auto worms = make_multicast("multi-path", MulticastSetting{&t, route.get(), p.vcs})->plan(0, all);
  ASSERT_EQ(worms.size(), 3u);
  std::vector<std::pair<uint32_t, uint64_t>> at;
  for (const MulticastWorm& w : worms) at.emplace_back(b.net->add_multicast_message(w, 6, 0), 0);
  ReleaseAt src(at);
  b.net->set_traffic(&src);
  sc_core::sc_start();
  b.net->rethrow_failure();
  ASSERT_EQ(b.net->status(), RunStatus::Completed);
  int copies = 0;
  for (size_t i = 0; i < worms.size(); ++i) {
    std::map<int, long long> hops;  // router -> links from the source along the worm
    for (size_t e = 0; e < worms[i].edges.size(); ++e)
      hops[t.neighbor(worms[i].edges[e].router, worms[i].edges[e].port)] = static_cast<long long>(e) + 1;
    for (int d : worms[i].dsts) {
      EXPECT_EQ(b.copy_tail(at[i].first, d), static_cast<uint64_t>(p.timing.zero_load_latency(hops.at(d), 6))) << d;
      ++copies;
    }
  }
  EXPECT_EQ(copies, 7);
}

// The dimension-order tree from the centre of a 3x3 mesh to every other node:
// each copy arrives at the zero-load latency of its distance.
TEST(MulticastWorms, TreeCopiesArriveAtZeroLoadLatency) {
  NetworkParams p = default_params();
  Built b = build({"mesh", {3, 3}}, p);
  const Topology& t = *b.topo;
  MulticastWorm w;
  w.src = 4;
  for (int d = 0; d < 9; ++d)
    if (d != 4) w.dsts.push_back(d);
  w.edges = {edge(t, 4, 0, +1), edge(t, 4, 0, -1), edge(t, 4, 1, +1), edge(t, 4, 1, -1),
             edge(t, 5, 1, +1), edge(t, 5, 1, -1), edge(t, 3, 1, +1), edge(t, 3, 1, -1)};
  const uint32_t id = b.net->add_multicast_message(w, 8, 0);
  ReleaseAt src({{id, 0}});
  b.net->set_traffic(&src);
  sc_core::sc_start();
  b.net->rethrow_failure();
  ASSERT_EQ(b.net->status(), RunStatus::Completed);
  for (int d : w.dsts)
    EXPECT_EQ(b.copy_tail(id, d), static_cast<uint64_t>(p.timing.zero_load_latency(t.distance(4, d), 8))) << d;
  // Every link of the tree carried the 8 flits once.
  uint64_t link_flits = 0;
  for (uint64_t f : b.net->context().link_busy) link_flits += f;
  EXPECT_EQ(link_flits, 8u * w.edges.size());
  const RunMetrics r = compute_metrics(*b.net, 1);
  EXPECT_EQ(r.flits_ejected, 8u * 8u);
  EXPECT_EQ(r.flits_injected, r.flits_ejected);
}

// A 2-branch tree on a line of 3 (from the middle to both ends) whose branch
// to the right is held by a unicast worm passing through: the fork holds the
// branch it got and waits; neither copy advances until the worm's tail has
// gone, then both move in lock step.
TEST(MulticastWorms, ForkWaitsInLockStepForItsBlockedBranch) {
  NetworkParams p = default_params();
  Built b = build({"mesh", {3}}, p);
  const Topology& t = *b.topo;
  const uint32_t blocker = b.net->add_message(0, 2, dimension_order_route(t, 0, 2), 24, 0);
  MulticastWorm w;
  w.src = 1;
  w.dsts = {0, 2};
  w.edges = {edge(t, 1, 0, -1), edge(t, 1, 0, +1)};
  const uint32_t id = b.net->add_multicast_message(w, 6, 0);
  ReleaseAt src({{blocker, 0}, {id, 2}});
  b.net->set_traffic(&src);
  sc_core::sc_start();
  b.net->rethrow_failure();
  ASSERT_EQ(b.net->status(), RunStatus::Completed);
  const MessageRecord& u = b.msg(blocker);
  const MessageRecord& m = b.msg(id);
  const Timing& tm = p.timing;
  // The unicast tail leaves router 1 at u.delivered - (t_l + t_r); the fork takes the link the cycle after.
  const uint64_t departs = u.delivered - static_cast<uint64_t>(tm.link_delay + tm.router_delay) + 1;
  const uint64_t arrives = departs + static_cast<uint64_t>(tm.link_delay + tm.router_delay);
  EXPECT_EQ(b.copy_header(id, 0), arrives);  // the free branch did not run ahead
  EXPECT_EQ(b.copy_header(id, 2), arrives);
  EXPECT_EQ(b.copy_tail(id, 0), arrives + 5);
  EXPECT_EQ(b.copy_tail(id, 2), arrives + 5);
  const uint64_t ready = m.inject + static_cast<uint64_t>(tm.router_delay);
  EXPECT_EQ(m.stall_step, departs - ready);  // charged to the unicast worm (same step)
  EXPECT_EQ(b.copies(id).branch_stalls, departs - ready);
  EXPECT_EQ(b.copies(id).absorb_stalls, 0u);
}

// A path worm through a router whose ejection channel a unicast worm holds:
// it absorbs there, so it waits for the channel, and its next copy waits too.
TEST(MulticastWorms, AbsorbWaitsForTheEjectionChannel) {
  NetworkParams p = default_params();
  Built b = build({"mesh", {3}}, p);
  const Topology& t = *b.topo;
  const uint32_t other = b.net->add_message(2, 1, dimension_order_route(t, 2, 1), 30, 0);
  MulticastWorm w;
  w.src = 0;
  w.dsts = {1, 2};
  w.edges = {edge(t, 0, 0, +1), edge(t, 1, 0, +1)};
  const uint32_t id = b.net->add_multicast_message(w, 4, 1);
  ReleaseAt src({{other, 0}, {id, 0}});
  b.net->set_traffic(&src);
  sc_core::sc_start();
  b.net->rethrow_failure();
  ASSERT_EQ(b.net->status(), RunStatus::Completed);
  const MessageRecord& u = b.msg(other);
  const MessageRecord& m = b.msg(id);
  const uint64_t hop = static_cast<uint64_t>(p.timing.link_delay + p.timing.router_delay);
  EXPECT_EQ(b.copy_header(id, 1), u.delivered + 1);  // the ejection channel is free the cycle after the tail
  EXPECT_EQ(b.copy_header(id, 2), u.delivered + 1 + hop);
  EXPECT_EQ(b.copy_tail(id, 2), u.delivered + 1 + hop + 3);
  const uint64_t ready = m.inject + static_cast<uint64_t>(p.timing.router_delay) + hop;  // its header is ready at router 1
  EXPECT_EQ(m.stall_depth, u.delivered + 1 - ready);
  EXPECT_EQ(b.copies(id).absorb_stalls, u.delivered + 1 - ready);
  EXPECT_EQ(b.copies(id).branch_stalls, 0u);
}

// Four long path worms on the 2x2 mesh, each from one corner to the next two
// corners clockwise: each holds its first link and waits for the one the next
// holds. Visiting destinations in an order that is not label-monotone is what
// a Hamiltonian-path scheme rules out; the watchdog finds the cycle.
TEST(MulticastWorms, WatchdogFindsADeadlockOfPathWormsInAnUnsafeOrder) {
  NetworkParams p = default_params();
  p.buffer_flits = 2;
  p.watchdog_cycles = 200;
  Built b = build({"mesh", {2, 2}}, p);
  const Topology& t = *b.topo;
  const int ring[4] = {0, 1, 3, 2};  // clockwise
  std::vector<std::pair<uint32_t, uint64_t>> at;
  for (int k = 0; k < 4; ++k) {
    const int a = ring[k], c = ring[(k + 1) % 4], d = ring[(k + 2) % 4];
    MulticastWorm w;
    w.src = a;
    w.dsts = {c, d};
    for (auto [from, to] : {std::pair{a, c}, std::pair{c, d}})
      for (int port = 0; port < t.num_ports(); ++port)
        if (t.neighbor(from, port) == to) w.edges.push_back(TreeEdge{from, port, 0});
    at.emplace_back(b.net->add_multicast_message(w, 64, 0), 0);
  }
  ReleaseAt src(at);
  b.net->set_traffic(&src);
  sc_core::sc_start();
  b.net->rethrow_failure();
  ASSERT_EQ(b.net->status(), RunStatus::Deadlock);
  EXPECT_EQ(b.net->deadlock_cycle().size(), 4u);
  for (const WaitEdge& e : b.net->deadlock_cycle()) EXPECT_LT(e.blocker, 4u);
}

// A schedule's multicast message in eager mode: a destination holds the packet
// when its own copy's tail arrives, not when the worm's last copy does, and
// forwards it from then on; in barrier mode the next step waits for every copy.
Schedule copy_then_forward() {
  Schedule s;
  s.topology = {"mesh", {4, 4}};
  s.flits = 8;
  const int pk = s.add_packet("p", 0);
  ScheduledMessage m;  // (0,0) to (1,0) and (3,0): one path worm along row 0
  m.src = 0;
  m.set_multicast("dual-path", {1, 3});
  m.packet = pk;
  ScheduledMessage u;  // then (1,0) to (1,3)
  u.src = 1;
  u.dst = 13;
  u.packet = pk;
  s.steps = {{m}, {u}};
  return s;
}

TEST(MulticastWorms, EagerForwardingStartsWhenItsCopyArrives) {
  const SimRun r = simulate(copy_then_forward(), default_params(), ExecutionMode::Eager);
  ASSERT_EQ(r.net->status(), RunStatus::Completed);
  const MulticastCopies& c = r.net->context().copies.at(0);
  const Timing t = default_params().timing;
  EXPECT_EQ(c.tail.at(c.index_of(1)), static_cast<uint64_t>(t.zero_load_latency(1, 8)));
  EXPECT_EQ(r.msg(1).release, c.tail.at(c.index_of(1)));
  EXPECT_LT(r.msg(1).release, r.msg(0).delivered);
  EXPECT_EQ(r.msg(0).delivered, static_cast<uint64_t>(t.zero_load_latency(3, 8)));
}

TEST(MulticastWorms, BarrierStepWaitsForEveryCopy) {
  const SimRun r = simulate(copy_then_forward(), default_params(), ExecutionMode::Barrier);
  ASSERT_EQ(r.net->status(), RunStatus::Completed);
  EXPECT_EQ(r.msg(1).release, r.msg(0).delivered);
}

}  // namespace
}  // namespace wormsim::test

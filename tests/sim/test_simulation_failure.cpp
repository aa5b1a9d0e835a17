// An exception thrown while the network simulates a cycle (an allocation that
// fails, say) ends the simulation there and reaches the caller of sc_start
// through Network::rethrow_failure, instead of SystemC's kernel, which printed
// its own report ("Error: (E549) uncaught exception") and left the run to exit
// without its error message.
#include <gtest/gtest.h>

#include <new>

#include "harness.hpp"

namespace wormsim::test {
namespace {

// Sends one message along a 4x4 mesh's row, and fails in cycle `fail_at`.
class FailingSource : public TrafficSource {
 public:
  explicit FailingSource(uint64_t fail_at) : fail_at_(fail_at) {}
  void start(Network& net, uint64_t now) override {
    const Topology& t = net.topology();
    net.release(net.add_message(0, 3, dimension_order_route(t, 0, 3), 64, 0), now);
  }
  void after_routers(Network&, uint64_t now) override {
    last_ = now;
    if (now == fail_at_) throw std::bad_alloc();
  }
  void after_interfaces(Network&, uint64_t) override {}
  bool finished() const override { return true; }
  uint64_t last() const { return last_; }

 private:
  uint64_t fail_at_, last_ = 0;
};

TEST(SimulationFailure, EndsTheSimulationInItsCycleAndReachesTheCaller) {
  Topology topo(TopologySpec("mesh", {4, 4}));
  Network net("network", topo, default_params());
  FailingSource source(20);
  net.set_traffic(&source);
  sc_core::sc_start();
  EXPECT_THROW(net.rethrow_failure(), std::bad_alloc);
  EXPECT_EQ(source.last(), 20u);  // no cycle after the failing one
  // The 64-flit message had not been delivered: the run did not go on to its end.
  EXPECT_EQ(net.context().msgs[0].delivered, kNever);
}

}  // namespace
}  // namespace wormsim::test

#include "harness.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

namespace wormsim::test {

SimRun simulate(const Schedule& s, const NetworkParams& p, ExecutionMode mode) {
  SimRun r;
  r.topo = std::make_unique<Topology>(s.topology);
  r.net = std::make_unique<Network>("network", *r.topo, p);
  r.exec = std::make_unique<ScheduleExecutor>(s, *r.net, mode);
  r.net->set_traffic(r.exec.get());
  sc_core::sc_start();
  r.net->rethrow_failure();
  return r;
}

uint64_t latency(const SimRun& r, size_t id) {
  const MessageRecord& m = r.msg(id);
  EXPECT_NE(m.delivered, kNever) << "message " << id << " not delivered";
  return m.delivered - m.release;
}

}  // namespace wormsim::test

int sc_main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}

int main(int argc, char** argv) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
  return sc_core::sc_elab_and_sim(argc, argv);
}

// Config values come from the declarations (sim/config_<section>.cpp); the few
// member initialisers left in model-level structs serve specs built in code
// (tests, benchmarks). They must say what the declarations say: a loaded config
// that leaves the keys out equals a default-constructed struct.
#include <gtest/gtest.h>

#include <fstream>

#include "sim/config.hpp"

namespace wormsim {
namespace {

Config load_minimal(const std::string& traffic) {
  // One file per test: ctest runs this file's tests as parallel processes.
  const std::string path = ::testing::TempDir() + "struct_defaults_" +
                           ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".yaml";
  std::ofstream(path) << "network: {topology: mesh, dims: [4, 4]}\ntraffic: " << traffic << "\n";
  return load_config(path, {});
}

TEST(StructDefaults, TimingAndPortModelAreTheDeclaredDefaults) {
  const Config c = load_minimal("{pattern: uniform, rate: 0.01, cycles: 10}");
  const Timing t;
  EXPECT_EQ(c.timing.router_delay, t.router_delay);
  EXPECT_EQ(c.timing.link_delay, t.link_delay);
  EXPECT_EQ(c.timing.startup, t.startup);
  EXPECT_EQ(c.timing.credit_delay, t.credit_delay);
  const PortModel p;
  EXPECT_EQ(c.ports.kind, p.kind);
  EXPECT_EQ(c.ports.k, p.k);
}

TEST(StructDefaults, BackgroundSpecIsTheDeclaredTraffic) {
  const Config c = load_minimal("{pattern: uniform, rate: 0.01, cycles: 10}");
  const BackgroundSpec b;  // its pattern has no declared default: traffic.pattern must be given
  EXPECT_EQ(c.classes.at(0).spec.injection, b.injection);
  EXPECT_EQ(c.classes.at(0).spec.seed, b.seed);  // run.seed, given to the traffic
  EXPECT_EQ(c.classes.at(0).spec.hotspots, b.hotspots);
}

}  // namespace
}  // namespace wormsim

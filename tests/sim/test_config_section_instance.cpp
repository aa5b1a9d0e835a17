// A section declared once and read as several instances (the entries of a
// list, e.g. traffic classes): keys, plug-in conditions, errors and the
// recorded values all belong to the instance.
#include <gtest/gtest.h>

#include "sim/config_reader.hpp"

namespace wormsim {
namespace {

// An entry of traffic.classes. Reading the (absent) traffic section first
// links its reader, beside which its declarations are registered.
YAML::Node entry(const std::string& yaml) {
  ConfigFile file("none.yaml");
  Config c;
  const YAML::Node root = YAML::Load("{}");
  ConfigSection absent(file, root["traffic"], "traffic", c);
  read_traffic(absent, c);
  return YAML::Load(yaml);
}

TEST(ConfigSectionInstance, ReadsTheDeclaredKeysAndRecordsThemAtItsOwnPath) {
  ConfigFile file("c.yaml");
  Config c;
  ConfigSection s(file, entry("{pattern: uniform, injection: on-off, burst_alpha: 0.5, burst_beta: 0.25}"),
                  "traffic.classes[1]", c, "traffic");
  EXPECT_EQ(s.choice("injection"), "on-off");
  // The on-off keys apply: its condition is this instance's injection.
  EXPECT_NO_THROW(s.check_keys());
  EXPECT_EQ(s.choice("pattern"), "uniform");
  EXPECT_EQ(c.values["traffic"]["classes"][1]["injection"], "on-off");
  EXPECT_EQ(c.values["traffic"]["classes"][1]["pattern"], "uniform");
  EXPECT_FALSE(c.values["traffic"].contains("injection"));
}

TEST(ConfigSectionInstance, ConditionsAndErrorsNameTheInstance) {
  ConfigFile file("c.yaml");
  Config c;
  c.values["traffic"]["injection"] = "on-off";  // another instance's choice does not count
  ConfigSection s(file, entry("{pattern: uniform, burst_alpha: 0.5}"), "traffic.classes[0]", c, "traffic");
  try {
    s.check_keys();
    FAIL() << "burst_alpha without on-off injection was accepted";
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("c.yaml: traffic.classes[0].burst_alpha"), std::string::npos) << what;
    EXPECT_NE(what.find("only meaningful with traffic.classes[0].injection: on-off"), std::string::npos) << what;
  }
}

TEST(ConfigSectionInstance, ATypoIsNamedAtTheInstance) {
  ConfigFile file("c.yaml");
  Config c;
  ConfigSection s(file, entry("{pattern: uniform, rtae: 0.1}"), "traffic.classes[2]", c, "traffic");
  try {
    s.check_keys();
    FAIL() << "a typo was accepted";
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("c.yaml: traffic.classes[2].rtae"), std::string::npos) << what;
    EXPECT_NE(what.find("did you mean rate?"), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace wormsim

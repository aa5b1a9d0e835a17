// preparse_config (sim/config.hpp): a config parsed ahead serves one later
// load_config of the same text, with the same result and the same located
// errors as parsing it then; it is not served twice, nor for another text.
// (`wormsim batch` preparses its base config before forking each point.)
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "sim/config.hpp"

namespace wormsim {
namespace {

const std::string kMesh44 = "network: {topology: mesh, dims: [4, 4]}\nschedule: {algorithm: binomial}\n";

std::string write_config(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

std::string error_of(const std::string& path, const std::vector<std::string>& overrides) {
  try {
    load_config(path, overrides);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ConfigPreparse, ServesOneLoadWithItsOverridesThenParsesAgain) {
  const std::string path = write_config("preparse_a.yaml", kMesh44);
  preparse_config(path);
  EXPECT_EQ(load_config(path, {"network.dims=[8,8]"}).topology.dims, (std::vector<int>{8, 8}));
  // The override went into the preparsed tree, which is not served again.
  EXPECT_EQ(load_config(path, {}).topology.dims, (std::vector<int>{4, 4}));
}

TEST(ConfigPreparse, ErrorsKeepTheirLines) {
  const std::string path =
      write_config("preparse_b.yaml", "network:\n  topology: mesh\n  dims: [4, 4]\n  vcz: 2\n");
  const std::string parsed_now = error_of(path, {});
  EXPECT_NE(parsed_now.find("(line 4)"), std::string::npos) << parsed_now;
  preparse_config(path);
  EXPECT_EQ(error_of(path, {}), parsed_now);
}

TEST(ConfigPreparse, AFileChangedSinceIsParsedAfresh) {
  const std::string path = write_config("preparse_c.yaml", kMesh44);
  preparse_config(path);
  write_config("preparse_c.yaml", "network: {topology: mesh, dims: [2, 3]}\nschedule: {algorithm: binomial}\n");
  EXPECT_EQ(load_config(path, {}).topology.dims, (std::vector<int>{2, 3}));
}

TEST(ConfigPreparse, AFileThatDoesNotParseIsLeftToLoadConfig) {
  const std::string path = write_config("preparse_d.yaml", "network: [unclosed\n");
  preparse_config(path);  // does not throw
  EXPECT_NE(error_of(path, {}).find("not valid YAML"), std::string::npos);
  preparse_config(::testing::TempDir() + "preparse_missing.yaml");
  EXPECT_NE(error_of(::testing::TempDir() + "preparse_missing.yaml", {}).find("cannot open config file"),
            std::string::npos);
}

}  // namespace
}  // namespace wormsim

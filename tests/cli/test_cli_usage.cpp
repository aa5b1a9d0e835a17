// Command-line usage: exit code 2 for a bad command line, 0 for --help,
// --version and `algorithms`; `schedule generate` option errors.
#include <gtest/gtest.h>

#include "cli_harness.hpp"

using namespace wormsim_cli;

namespace {

Result run_in_tmp(const std::vector<std::string>& args) {
  TempDir tmp;
  return run_wormsim(args, tmp.path());
}

}  // namespace

TEST(CliUsage, NoArguments) {
  const Result r = run_in_tmp({});
  EXPECT_EXIT_CODE(r, 2);
  EXPECT_CONTAINS(r.err, "A subcommand is required");
}

TEST(CliUsage, UnknownSubcommand) {
  const Result r = run_in_tmp({"simulate", "configs/default.yaml"});
  EXPECT_EXIT_CODE(r, 2);
  EXPECT_CONTAINS(r.err, "Run with --help for more information.");
}

TEST(CliUsage, RunWithoutConfig) {
  const Result r = run_in_tmp({"run"});
  EXPECT_EXIT_CODE(r, 2);
  EXPECT_CONTAINS(r.err, "config is required");
  EXPECT_EQ(r.out, "");
}

TEST(CliUsage, RunWithUnknownOption) {
  const Result r = run_in_tmp({"run", default_config().string(), "--bogus"});
  EXPECT_EXIT_CODE(r, 2);
  EXPECT_CONTAINS(r.err, "--bogus");
}

TEST(CliUsage, RunWithTwoConfigs) {
  const Result r = run_in_tmp({"run", default_config().string(), default_config().string()});
  EXPECT_EXIT_CODE(r, 2);
}

TEST(CliUsage, SetWithoutValueArgument) {
  const Result r = run_in_tmp({"run", default_config().string(), "--set"});
  EXPECT_EXIT_CODE(r, 2);
}

TEST(CliUsage, BadLogLevel) {
  const Result r = run_in_tmp({"--log-level", "loud", "run", default_config().string()});
  EXPECT_EXIT_CODE(r, 2);
  EXPECT_CONTAINS(r.err, "--log-level: loud not in {trace,debug,info,warn,error,critical,off}");
}

TEST(CliUsage, ScheduleWithoutSubcommand) {
  const Result r = run_in_tmp({"schedule"});
  EXPECT_EXIT_CODE(r, 2);
  EXPECT_CONTAINS(r.err, "A subcommand is required");
}

TEST(CliUsage, ScheduleCheckWithoutFile) {
  const Result r = run_in_tmp({"schedule", "check"});
  EXPECT_EXIT_CODE(r, 2);
  EXPECT_CONTAINS(r.err, "file is required");
}

TEST(CliUsage, ScheduleCheckUnsupportedRouting) {
  const Result r = run_in_tmp({"schedule", "check", default_schedule().string(), "--routing", "adaptive"});
  EXPECT_EXIT_CODE(r, 2);
}

TEST(CliUsage, GenerateUnknownTopologyIsUsage) {
  const Result r = run_in_tmp({"schedule", "generate", "-a", "eye", "-t", "donut", "-d", "4,4"});
  EXPECT_EXIT_CODE(r, 2);
  EXPECT_CONTAINS(r.err, "error: --topology: expected cmesh, hypercube, mesh, torus, line or ring, got \"donut\"");
}

TEST(CliUsage, GenerateWithoutDims) {
  const Result r = run_in_tmp({"schedule", "generate", "-a", "eye"});
  EXPECT_EXIT_CODE(r, 2);
}

// CLI11's own ',' split drops empty entries: "4," was a one-dimensional mesh.
TEST(CliUsage, GenerateDimsWithAnEmptyEntryIsUsage) {
  for (const char* dims : {"4,", "4,,4", ",4", "4,x"}) {
    const Result r = run_in_tmp({"schedule", "generate", "-a", "eye", "-d", dims});
    EXPECT_EXIT_CODE(r, 2);
    EXPECT_CONTAINS(r.err, std::string("--dims: expected a radix (an integer) in each ','-separated entry, got '") +
                               dims + "'");
    EXPECT_EQ(r.out, "");
  }
  const Result survey = run_in_tmp({"schedule", "survey", "-a", "eye", "-d", "4,"});
  EXPECT_EXIT_CODE(survey, 2);
  EXPECT_CONTAINS(survey.err, "--dims: expected a radix (an integer) in each ','-separated entry, got '4,'");
}

TEST(CliUsage, GenerateDimsCommasOrWordsAreTheSame) {
  const Result commas = run_in_tmp({"schedule", "generate", "-a", "binomial", "-d", "4,8"});
  const Result words = run_in_tmp({"schedule", "generate", "-a", "binomial", "-d", "4", "8"});
  const Result both = run_in_tmp({"schedule", "generate", "-a", "binomial", "-d", "4", "-d", "8"});
  EXPECT_EXIT_CODE(commas, 0);
  EXPECT_CONTAINS(commas.out, "\"dims\":[4,8]");
  EXPECT_EQ(commas.out, words.out);
  EXPECT_EQ(commas.out, both.out);
}

TEST(CliUsage, GenerateBadParamSyntax) {
  const Result r = run_in_tmp({"schedule", "generate", "-a", "eye", "-d", "4,4", "--param", "novalue"});
  EXPECT_EXIT_CODE(r, 2);
  EXPECT_CONTAINS(r.err, "error: --param novalue: expected name=value");
}

TEST(CliUsage, GenerateFlitsOutOfRange) {
  const Result r = run_in_tmp({"schedule", "generate", "-a", "eye", "-d", "4,4", "--flits", "0"});
  EXPECT_EXIT_CODE(r, 2);
}

TEST(CliUsage, GenerateUnknownAlgorithmIsInputError) {
  const Result r = run_in_tmp({"schedule", "generate", "-a", "no-such-algorithm", "-d", "4,4"});
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, "error: unknown algorithm \"no-such-algorithm\" (expected one of: ");
  EXPECT_EQ(r.out, "");
}

TEST(CliUsage, GenerateSourceOutOfRangeIsInputError) {
  const Result r = run_in_tmp({"schedule", "generate", "-a", "eye", "-d", "4,4", "-s", "9,9"});
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, "error: --source: coordinate 0 = 9 is out of range 0..3");
}

TEST(CliUsage, GenerateMalformedSourceIsUsage) {
  const Result r = run_in_tmp({"schedule", "generate", "-a", "eye", "-d", "4,4", "-s", "one,two"});
  EXPECT_EXIT_CODE(r, 2);
  EXPECT_CONTAINS(r.err, "error: --source: expected a node id, coordinates like 1,2, or eye");
}

TEST(CliUsage, HelpExitsZero) {
  const Result r = run_in_tmp({"--help"});
  EXPECT_EXIT_CODE(r, 0);
  EXPECT_CONTAINS(r.out, "Usage:");
  EXPECT_CONTAINS(r.out, "run");
  EXPECT_CONTAINS(r.out, "schedule");
}

TEST(CliUsage, VersionExitsZero) {
  const Result r = run_in_tmp({"--version"});
  EXPECT_EXIT_CODE(r, 0);
  EXPECT_EQ(r.out.rfind("wormsim ", 0), 0u) << r.out;
  EXPECT_EQ(r.err, "");
}

TEST(CliUsage, AlgorithmsListsGenerators) {
  const Result r = run_in_tmp({"algorithms"});
  EXPECT_EXIT_CODE(r, 0);
  EXPECT_CONTAINS(r.out, "  eye: ");
  EXPECT_CONTAINS(r.out, "  hypercube-binomial: ");
}

TEST(CliUsage, UnknownCommandsAndOptionsSuggestTheNearest) {
  Result r = run_in_tmp({"rnu", "configs/default.yaml"});
  EXPECT_EXIT_CODE(r, 2);
  EXPECT_CONTAINS(r.err, "error: unknown command \"rnu\" (did you mean run?); the commands are run, batch, config, schedule, "
                         "algorithms");
  r = run_in_tmp({"bogus"});
  EXPECT_EXIT_CODE(r, 2);
  EXPECT_CONTAINS(r.err, "error: unknown command \"bogus\"; the commands are");
  r = run_in_tmp({"schedule", "chek", "x.json"});
  EXPECT_EXIT_CODE(r, 2);
  EXPECT_CONTAINS(r.err, "error: unknown command \"schedule chek\" (did you mean check?)");
  r = run_in_tmp({"-v"});
  EXPECT_EXIT_CODE(r, 2);
  EXPECT_CONTAINS(r.err, "error: unknown option -v (did you mean -V?)");
}

TEST(CliUsage, ShortVersionFlag) {
  const Result r = run_in_tmp({"-V"});
  EXPECT_EXIT_CODE(r, 0);
  EXPECT_EQ(r.out.rfind("wormsim ", 0), 0u) << r.out;
}

TEST(CliUsage, GlobalOptionsMayFollowTheCommandsArguments) {
  TempDir tmp;
  const Result r = run_wormsim({"run", default_config().string(), "--out", (tmp / "o").string(), "--quiet",
                                "--log-level", "info"},
                               tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  EXPECT_CONTAINS(r.err, "[info] elaborated mesh 4x4");
}

TEST(CliUsage, ConfigCheckSaysWhatARunWouldRefuseWithoutRunning) {
  TempDir tmp;
  Result r = run_wormsim({"config", "check", default_config().string(), "--set", "network.dims=[8,8]", "--set",
                          "schedule.algorithm=eye"},
                         tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  EXPECT_CONTAINS(r.out, ": ok: mesh 8x8, one-port, 1 VC x 4 flits; eye broadcast on mesh 8x8");
  EXPECT_CONTAINS(r.out, "(6 steps, 63 messages)");
  r = run_wormsim({"config", "check", default_config().string(), "--set", "network.vc=2"}, tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, "network.vc (from --set): unknown key (did you mean vcs?)");
  r = run_wormsim({"config", "check", default_config().string(), "--set", "network.dims=[6,6]", "--set",
                   "schedule.algorithm=eye"},
                  tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, "schedule.algorithm: error:");
  // A multicast worm whose route a header cannot index (CliBadConfig.MulticastRouteTooLong).
  r = run_wormsim({"config", "check", default_config().string(), "--set", "network.dims=[182,182]", "--set",
                   "schedule={algorithm: dual-path}"},
                  tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, "more than a header can index (65535)");
  EXPECT_FALSE(fs::exists(tmp / "out")) << "config check writes nothing";
}

// CLI::Range lets "nan" through (every comparison with it is false): refused by name.
TEST(CliUsage, NanIsNotANumberOfSeconds) {
  const Result progress = run_in_tmp({"run", default_config().string(), "--progress", "nan", "--quiet"});
  EXPECT_EXIT_CODE(progress, 2);
  EXPECT_CONTAINS(progress.err, "--progress: expected a number, got nan");
  const Result timeout =
      run_in_tmp({"batch", default_config().string(), "--points", "p.jsonl", "--timeout", "nan"});
  EXPECT_EXIT_CODE(timeout, 2);
  EXPECT_CONTAINS(timeout.err, "--timeout: expected a number, got nan");
}

// An empty --out would write the outputs loose into the working directory.
TEST(CliUsage, AnEmptyOutputFolderIsRefused) {
  TempDir tmp;
  for (const char* cmd : {"run", "saturate"}) {
    const Result r = run_wormsim({cmd, default_config().string(), "--out", ""}, tmp.path());
    EXPECT_EXIT_CODE(r, 2);
    EXPECT_CONTAINS(r.err, "--out: expected a folder, got an empty path");
  }
  EXPECT_TRUE(fs::is_empty(tmp.path()));
}

// The range --cell declares is the one the drawing takes (nodes shrink with small cells).
TEST(CliUsage, DrawCellRangeIsTheDrawingsOwn) {
  TempDir tmp;
  const std::string schedule = (source_dir() / "configs" / "schedules" / "mesh4x4_eye_from_1_1.json").string();
  for (const char* cell : {"16", "1000"}) {
    const Result r = run_wormsim({"schedule", "draw", schedule, "-o", "d.svg", "--cell", cell}, tmp.path());
    EXPECT_EXIT_CODE(r, 0);
    EXPECT_CONTAINS(read_file(tmp / "d.svg"), "<svg");
  }
  for (const char* cell : {"15", "1001", "nan"}) {
    const Result r = run_wormsim({"schedule", "draw", schedule, "-o", "e.svg", "--cell", cell}, tmp.path());
    EXPECT_EXIT_CODE(r, 2);
    EXPECT_FALSE(fs::exists(tmp / "e.svg"));
  }
}

// A survey that fails on a source prints no table: a partial one would read as the whole.
TEST(CliUsage, ASurveyThatFailsPrintsNoPartialTable) {
  const Result r = run_in_tmp({"schedule", "survey", "-a", "eye", "-t", "mesh", "-d", "5", "3"});
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_CONTAINS(r.err, "error: --dims: eye needs every side a power of two, got 5");
}

// --set KEY[INDEX]=VALUE at the end of a path changes one entry of a list.
TEST(CliUsage, SetChangesOneEntryOfAList) {
  TempDir tmp;
  const Result r = run_wormsim({"run", default_config().string(), "--set", "schedule={algorithm: binomial}", "--set",
                                "network.dims[1]=8", "--out", "o", "--quiet"},
                               tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  EXPECT_EQ(load_json(tmp / "o" / "summary.json").at("config").at("network").at("dims"),
            nlohmann::json::parse("[4, 8]"));
}

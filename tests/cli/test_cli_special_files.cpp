// Special files as inputs and outputs (docs/reliability.md, "Special files"):
// `-o` writes through devices, FIFOs, `-` and symlinks instead of replacing
// them; stdout that cannot be written is an error; a FIFO, a folder or a
// symlink loop named as an input is refused by name instead of hanging.
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <thread>

#include "cli_harness.hpp"

using namespace wormsim_cli;

namespace {

const std::vector<std::string> kGenerate{"schedule", "generate", "-a", "binomial", "-d", "4", "4"};

std::vector<std::string> generate_to(const std::string& out) {
  std::vector<std::string> a = kGenerate;
  a.insert(a.end(), {"-o", out});
  return a;
}

// What `schedule generate` writes to stdout, the reference for what -o writes.
std::string generated() {
  TempDir tmp;
  const Result r = run_wormsim(kGenerate, tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  return r.out;
}

}  // namespace

TEST(SpecialFiles, OutputToACharacterDeviceWritesThroughIt) {
  TempDir tmp;
  const fs::path dev = tmp / "mynull";
  ASSERT_EQ(::mknod(dev.c_str(), S_IFCHR | 0666, makedev(1, 3)), 0) << "mknod (a /dev/null twin) needs root";
  const Result r = run_wormsim(generate_to(dev.string()), tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  EXPECT_TRUE(fs::is_character_file(dev)) << "the device was replaced";
}

TEST(SpecialFiles, OutputToAFullDeviceIsAnError) {
  TempDir tmp;
  const Result r = run_wormsim(generate_to("/dev/full"), tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, "error: /dev/full: cannot write: No space left on device");
  EXPECT_TRUE(fs::is_character_file("/dev/full"));
}

TEST(SpecialFiles, OutputToAFifoWritesThroughIt) {
  TempDir tmp;
  const fs::path fifo = tmp / "f";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  std::string got;
  std::thread reader([&] { got = read_file(fifo); });
  const Result r = run_wormsim(generate_to(fifo.string()), tmp.path());
  reader.join();
  EXPECT_EXIT_CODE(r, 0);
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_EQ(got, generated());
}

TEST(SpecialFiles, OutputDashIsStandardOutput) {
  TempDir tmp;
  const Result r = run_wormsim(generate_to("-"), tmp.path());
  EXPECT_EXIT_CODE(r, 0);
  EXPECT_EQ(r.out, generated());
  EXPECT_FALSE(fs::exists(tmp / "-"));
}

TEST(SpecialFiles, OutputThroughASymlinkReplacesItsTargetAndKeepsTheLink) {
  TempDir tmp;
  fs::create_directories(tmp / "real");
  write_file(tmp / "real" / "s.json", "old");
  fs::permissions(tmp / "real" / "s.json", fs::perms(0640));
  fs::create_symlink("real/s.json", tmp / "link.json");
  fs::create_symlink("real/new.json", tmp / "dangling.json");
  EXPECT_EXIT_CODE(run_wormsim(generate_to("link.json"), tmp.path()), 0);
  EXPECT_EXIT_CODE(run_wormsim(generate_to("dangling.json"), tmp.path()), 0);
  EXPECT_TRUE(fs::is_symlink(tmp / "link.json"));
  EXPECT_TRUE(fs::is_symlink(tmp / "dangling.json"));
  EXPECT_EQ(read_file(tmp / "real" / "s.json"), generated());
  EXPECT_EQ(read_file(tmp / "real" / "new.json"), generated());
  EXPECT_EQ(fs::status(tmp / "real" / "s.json").permissions(), fs::perms(0640)) << "an existing file keeps its mode";
  // The same for a drawing.
  write_file(tmp / "sched.json", generated());
  fs::create_symlink("real/pic.svg", tmp / "pic.svg");
  EXPECT_EXIT_CODE(run_wormsim({"schedule", "draw", "sched.json", "-o", "pic.svg"}, tmp.path()), 0);
  EXPECT_TRUE(fs::is_symlink(tmp / "pic.svg"));
  EXPECT_CONTAINS(read_file(tmp / "real" / "pic.svg"), "<svg");
}

TEST(SpecialFiles, OutputToAFolderOrASymlinkLoopIsRefused) {
  TempDir tmp;
  fs::create_directories(tmp / "dir");
  Result r = run_wormsim(generate_to("dir"), tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, "error: dir: cannot write: it is a folder");
  fs::create_symlink("b", tmp / "a");
  fs::create_symlink("a", tmp / "b");
  r = run_wormsim(generate_to("a"), tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, "error: a: cannot write: too many levels of symbolic links");
}

// Every command that prints its result fails when stdout cannot take it.
TEST(SpecialFiles, StandardOutputThatCannotBeWrittenIsAnError) {
  TempDir tmp;
  write_file(tmp / "sched.json", generated());
  const std::vector<std::vector<std::string>> commands = {
      kGenerate,
      {"schedule", "check", "sched.json", "--json"},
      {"schedule", "check", "sched.json"},
      {"schedule", "survey", "-a", "binomial", "-d", "4,4"},
      {"algorithms"},
      {"run", default_config().string(), "--out", (tmp / "o").string()},
  };
  RunControl full;
  full.stdout_path = "/dev/full";
  for (const auto& c : commands) {
    std::string shown;
    for (const auto& a : c) shown += a + " ";
    SCOPED_TRACE(shown);
    const Result r = run_wormsim_with(c, tmp.path(), full);
    EXPECT_EXIT_CODE(r, 1);
    EXPECT_CONTAINS(r.err, "error: standard output: cannot write");
  }
}

// A file cut short on a full disk is an error too (here the disk is an RLIMIT_FSIZE).
TEST(SpecialFiles, StandardOutputCutShortOnAFullDiskIsAnError) {
  TempDir tmp;
  RunControl full;
  full.stdout_path = (tmp / "g.json").string();
  full.file_size_limit = 4096;
  const Result r = run_wormsim_with({"schedule", "generate", "-a", "binomial", "-d", "64", "64"}, tmp.path(), full);
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, "error: standard output: cannot write: File too large");
}

TEST(SpecialFiles, AFifoAsTheConfigIsRefusedNotWaitedOn) {
  TempDir tmp;
  ASSERT_EQ(::mkfifo((tmp / "f.yaml").c_str(), 0644), 0);
  const Result r = run_wormsim({"run", "f.yaml"}, tmp.path(), 20);
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, "error: f.yaml: cannot open config file: not a regular file (a FIFO)");
  fs::create_directories(tmp / "d.yaml");
  EXPECT_CONTAINS(run_wormsim({"run", "d.yaml"}, tmp.path()).err,
                  "error: d.yaml: cannot open config file: not a regular file (a folder)");
}

// A file that stat calls regular but whose read fails (EIO) is named with the reason.
TEST(SpecialFiles, AReadErrorNamesTheFile) {
  TempDir tmp;
  const Result r = run_wormsim({"run", "/proc/self/mem"}, tmp.path(), 20);
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, "error: /proc/self/mem: cannot open config file: read failed: Input/output error");
}

TEST(SpecialFiles, AFifoAsAScheduleIsRefusedByEveryCommand) {
  TempDir tmp;
  ASSERT_EQ(::mkfifo((tmp / "s.json").c_str(), 0644), 0);
  for (const std::vector<std::string>& c : {std::vector<std::string>{"schedule", "check", "s.json"},
                                            std::vector<std::string>{"schedule", "draw", "s.json", "-o", "x.svg"}}) {
    const Result r = run_wormsim(c, tmp.path(), 20);
    EXPECT_EXIT_CODE(r, 1);
    EXPECT_CONTAINS(r.err, "s.json: error: cannot open schedule file: not a regular file (a FIFO)");
  }
}

TEST(SpecialFiles, ASymlinkLoopAsTheScheduleFileIsALocatedError) {
  TempDir tmp;
  fs::create_symlink("loop2", tmp / "loop1");
  fs::create_symlink("loop1", tmp / "loop2");
  write_file(tmp / "c.yaml", "network: {topology: mesh, dims: [4, 4]}\nschedule: {file: loop1}\n");
  const Result r = run_wormsim({"run", "c.yaml", "--out", "o"}, tmp.path());
  EXPECT_EXIT_CODE(r, 1);
  EXPECT_CONTAINS(r.err, "loop1: error: cannot open schedule file: Too many levels of symbolic links (named by "
                         "schedule.file in c.yaml)");
  EXPECT_EQ(r.err.find("uncaught"), std::string::npos) << r.err;
}

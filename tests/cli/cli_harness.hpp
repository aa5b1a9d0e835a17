// Helpers for the command-line tests: run the wormsim binary as a user would
// (fork + exec, stdout and stderr captured separately, a hard timeout so a hang
// fails the test instead of hanging ctest), scratch folders that clean up after
// themselves, and small file helpers.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace wormsim_cli {

namespace fs = std::filesystem;

struct Result {
  int exit_code = -1;   // valid when exited
  bool exited = false;  // false: killed by a signal (a crash) or by the timeout
  int signal = 0;
  bool timed_out = false;
  std::string out, err;

  // "exit 1" / "signal 11" / "timeout", for failure messages.
  std::string describe() const {
    std::string s = timed_out ? "timeout" : exited ? "exit " + std::to_string(exit_code) : "signal " + std::to_string(signal);
    return s + "\n--- stdout ---\n" + out + "--- stderr ---\n" + err;
  }
};

inline fs::path source_dir() { return fs::path(WORMSIM_SOURCE_DIR); }
inline fs::path data_dir() { return source_dir() / "tests" / "data"; }
// The hostile-input corpus: configs/ and schedules/, each file with the error text it must produce.
inline fs::path bad_inputs_dir() { return source_dir() / "tests" / "bad_inputs"; }
inline fs::path default_config() { return source_dir() / "configs" / "default.yaml"; }
inline fs::path default_schedule() { return source_dir() / "configs" / "schedules" / "mesh4x4_eye_from_1_1.json"; }

// How a child is run, beyond its arguments.
struct RunControl {
  int timeout_s = 60;         // the process group is killed after this
  int signal_after_ms = -1;   // >= 0: send `signal` to the process that long after it started
  int signal = SIGINT;
  long long file_size_limit = -1;  // >= 0: RLIMIT_FSIZE in bytes (a full disk), with SIGXFSZ ignored
  std::string stdout_path;    // non-empty: stdout goes to this file (e.g. /dev/full) instead of being captured
  std::string stdin_path;     // non-empty: stdin comes from this file instead of /dev/null
  std::vector<std::pair<std::string, std::string>> env;  // set in the child's environment
};

inline Result run_wormsim_with(const std::vector<std::string>& args, const fs::path& cwd, const RunControl& ctl);

// Address-space limit (RLIMIT_AS, bytes) run_wormsim puts on the binary; 0: none.
// Set it for a scope with ScopedMemoryLimit.
inline rlim_t& child_address_space_limit() {
  static rlim_t limit = 0;
  return limit;
}

struct ScopedMemoryLimit {
  explicit ScopedMemoryLimit(rlim_t bytes) { child_address_space_limit() = bytes; }
  ~ScopedMemoryLimit() { child_address_space_limit() = 0; }
  ScopedMemoryLimit(const ScopedMemoryLimit&) = delete;
  ScopedMemoryLimit& operator=(const ScopedMemoryLimit&) = delete;
};

// AddressSanitizer reserves terabytes of address space at start-up: a binary
// built with it cannot run under an address-space limit at all.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

// Runs WORMSIM_BIN with `args` in `cwd`. Kills the process group after `timeout_s`.
// With interrupt_after_ms >= 0, sends SIGINT to the process that long after it started.
inline Result run_wormsim(const std::vector<std::string>& args, const fs::path& cwd, int timeout_s = 60,
                          int interrupt_after_ms = -1) {
  RunControl ctl;
  ctl.timeout_s = timeout_s;
  ctl.signal_after_ms = interrupt_after_ms;
  return run_wormsim_with(args, cwd, ctl);
}

inline Result run_wormsim_with(const std::vector<std::string>& args, const fs::path& cwd, const RunControl& ctl) {
  const int timeout_s = ctl.timeout_s;
  const int interrupt_after_ms = ctl.signal_after_ms;
  Result r;
  int out_pipe[2], err_pipe[2];
  if (::pipe(out_pipe) != 0 || ::pipe(err_pipe) != 0) throw std::runtime_error("pipe failed");
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    ::setpgid(0, 0);
    if (ctl.stdout_path.empty()) {
      ::dup2(out_pipe[1], STDOUT_FILENO);
    } else {
      const int fd = ::open(ctl.stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd < 0) ::_exit(125);
      ::dup2(fd, STDOUT_FILENO);
      ::close(fd);
    }
    ::dup2(err_pipe[1], STDERR_FILENO);
    for (const auto& [name, value] : ctl.env) ::setenv(name.c_str(), value.c_str(), 1);
    if (ctl.file_size_limit >= 0) {
      const rlimit lim{static_cast<rlim_t>(ctl.file_size_limit), static_cast<rlim_t>(ctl.file_size_limit)};
      ::setrlimit(RLIMIT_FSIZE, &lim);
      ::signal(SIGXFSZ, SIG_IGN);  // writes past the limit fail with EFBIG, as on a full disk
    }
    ::close(out_pipe[0]);
    ::close(out_pipe[1]);
    ::close(err_pipe[0]);
    ::close(err_pipe[1]);
    const int in = ::open(ctl.stdin_path.empty() ? "/dev/null" : ctl.stdin_path.c_str(), O_RDONLY);
    if (in >= 0) ::dup2(in, STDIN_FILENO);
    if (::chdir(cwd.c_str()) != 0) ::_exit(126);
    if (const rlim_t limit = child_address_space_limit()) {
      const rlimit as{limit, limit};
      if (::setrlimit(RLIMIT_AS, &as) != 0) ::_exit(125);
    }
    std::vector<std::string> argv_s{WORMSIM_BIN};
    argv_s.insert(argv_s.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : argv_s) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(WORMSIM_BIN, argv.data());
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // also from the parent, so the kill below cannot race the child's setpgid
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::seconds(timeout_s);
  bool interrupted = interrupt_after_ms < 0;
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&r.out, &r.err};
  int open_fds = 2;
  char buf[65536];
  while (open_fds > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      r.timed_out = true;
      ::kill(-pid, SIGKILL);
      break;
    }
    int wait_ms = static_cast<int>(left.count());
    if (!interrupted) {
      const auto since = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
      if (since.count() >= interrupt_after_ms) {
        ::kill(pid, ctl.signal);
        interrupted = true;
      } else {
        wait_ms = std::min<int>(wait_ms, static_cast<int>(interrupt_after_ms - since.count()));
      }
    }
    const int n = ::poll(fds, 2, wait_ms);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
      if (got > 0) {
        sinks[i]->append(buf, static_cast<size_t>(got));
      } else if (got == 0 || errno != EINTR) {
        ::close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  for (auto& f : fds)
    if (f.fd >= 0) ::close(f.fd);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) {
    r.exited = !r.timed_out;
    r.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    r.signal = WTERMSIG(status);
  }
  return r;
}

// A fresh folder under the system temp dir, removed with everything in it.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "wormsim-cli-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }
  fs::path operator/(const std::string& name) const { return path_ / name; }

 private:
  fs::path path_;
};

inline std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return {};
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A JSON file parsed (a parse error throws, which fails the test), and a run's summary.json.
inline nlohmann::json load_json(const fs::path& p) { return nlohmann::json::parse(read_file(p)); }
inline nlohmann::json summary_of(const fs::path& out) { return load_json(out / "summary.json"); }

// What two runs that must write the same bytes are compared on: every file but
// summary.json, the summary without its host block, and the host block apart
// (its counters say which internal paths the run took).
struct ComparedRun {
  std::map<std::string, std::string> files;
  nlohmann::json summary, host;
};

// `wormsim run ARGS --out TMP/NAME --quiet` with `env` set, expected to exit `exit_code`.
inline ComparedRun run_compared(const fs::path& tmp, const std::vector<std::string>& args_in, const std::string& name,
                                const std::vector<std::pair<std::string, std::string>>& env, int exit_code = 0) {
  std::vector<std::string> args = {"run"};
  args.insert(args.end(), args_in.begin(), args_in.end());
  args.insert(args.end(), {"--out", (tmp / name).string(), "--quiet"});
  RunControl ctl;
  ctl.timeout_s = 120;
  ctl.env = env;
  const Result r = run_wormsim_with(args, tmp, ctl);
  EXPECT_TRUE(r.exited && r.exit_code == exit_code) << r.describe();
  ComparedRun run;
  for (const auto& entry : fs::directory_iterator(tmp / name)) {
    const std::string file = entry.path().filename().string();
    if (file != "summary.json") run.files[file] = read_file(entry.path());
  }
  run.summary = summary_of(tmp / name);
  run.host = run.summary.at("host");
  run.summary.erase("host");
  return run;
}

// Shipped configs several test files run.
inline const std::string kDefault = default_config().string();
inline const std::string kLoadConfig = (source_dir() / "configs" / "load_8x8_uniform.yaml").string();
inline const std::string kStudy = (source_dir() / "configs" / "studies" / "bcast_under_load_8x8.yaml").string();

// The mean distance between two distinct nodes of a k x k mesh.
inline double mean_mesh_distance(int k) {
  double sum = 0;
  long pairs = 0;
  for (int a = 0; a < k * k; ++a)
    for (int b = 0; b < k * k; ++b)
      if (a != b) sum += std::abs(a % k - b % k) + std::abs(a / k - b / k), ++pairs;
  return sum / static_cast<double>(pairs);
}

inline void write_file(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + p.string());
}

inline std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> v;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

// The rows of a CSV output (messages.csv, repetitions.csv...) as column name -> text.
inline std::vector<std::map<std::string, std::string>> csv_rows(const fs::path& file) {
  const std::vector<std::string> text = lines(read_file(file));
  auto split = [](const std::string& l) {
    std::vector<std::string> f;
    std::string cur;
    bool quoted = false;
    for (char ch : l) {
      if (ch == '"') quoted = !quoted;
      else if (ch == ',' && !quoted) f.push_back(std::exchange(cur, ""));
      else cur += ch;
    }
    f.push_back(cur);
    return f;
  };
  const std::vector<std::string> header = split(text.at(0));
  std::vector<std::map<std::string, std::string>> rows;
  for (size_t i = 1; i < text.size(); ++i) {
    const std::vector<std::string> f = split(text[i]);
    std::map<std::string, std::string> row;
    for (size_t c = 0; c < header.size() && c < f.size(); ++c) row[header[c]] = f[c];
    rows.push_back(row);
  }
  return rows;
}

inline const std::vector<std::string>& output_files() {
  static const std::vector<std::string> files{"summary.json", "messages.csv", "links.csv", "steps.csv", "routes.csv"};
  return files;
}

}  // namespace wormsim_cli

// Process ended normally (no signal, no timeout) with the given code.
#define EXPECT_EXIT_CODE(result, code)                                        \
  do {                                                                        \
    const auto& r_ = (result);                                                \
    EXPECT_TRUE(r_.exited && r_.exit_code == (code))                          \
        << "expected exit " << (code) << ", got " << r_.describe();           \
  } while (0)

#define EXPECT_CONTAINS(haystack, needle)                                                           \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos)                                  \
      << "expected to find\n  " << (needle) << "\nin\n" << (haystack)

namespace wormsim_cli {

// One bad setting of a config: the --set overrides, the key the error must
// name (after the config's path) and what it must say is expected.
struct BadSetting {
  std::vector<std::string> sets;
  std::string key, error;
};

}  // namespace wormsim_cli

// Each bad setting makes `wormsim run CONFIG` exit 1 with an error naming the
// file and the key, and no outputs are written.
#define EXPECT_SETTINGS_REFUSED(tmp, config, cases)                                                 \
  do {                                                                                              \
    for (const ::wormsim_cli::BadSetting& c_ : (cases)) {                                           \
      std::vector<std::string> args_{"run", (config), "--out", ((tmp) / "o").string()};             \
      for (const auto& s_ : c_.sets) args_.insert(args_.end(), {"--set", s_});                      \
      const ::wormsim_cli::Result res_ = ::wormsim_cli::run_wormsim(args_, (tmp).path());           \
      EXPECT_EXIT_CODE(res_, 1);                                                                    \
      EXPECT_CONTAINS(res_.err, (config) + ": " + c_.key);                                          \
      EXPECT_CONTAINS(res_.err, c_.error);                                                          \
    }                                                                                               \
    EXPECT_FALSE(std::filesystem::exists((tmp) / "o" / "summary.json"));                             \
  } while (0)

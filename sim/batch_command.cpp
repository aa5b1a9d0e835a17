#include "sim/batch_command.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/memory_guard.hpp"
#include "models/network.hpp"
#include "sim/atomic_file.hpp"
#include "sim/batch_network.hpp"
#include "sim/batch_points.hpp"
#include "sim/run.hpp"

namespace wormsim {

namespace {

using Clock = std::chrono::steady_clock;

constexpr size_t kStderrKeptBytes = 64 * 1024;  // the tail of a point's stderr kept in its result

volatile std::sig_atomic_t g_interrupted = 0;
void on_batch_signal(int) { g_interrupted = 1; }

struct PointResult {
  std::optional<int> exit_code;  // none: refused, not run or killed
  std::string error;             // the batch's own reason, or the last line the point wrote on stderr
  std::string stderr_text;
  double seconds = 0;  // wall time of the point's child
};

// The network every point runs on, elaborated once; null when no point's config loads.
struct BatchNetwork {
  std::unique_ptr<Config> cfg;  // the config it was elaborated from
  int line = 0;                 // that point's line
  std::unique_ptr<Topology> topo;
  Network* net = nullptr;       // never destroyed (as in `run`: the process exits when done)
};

// Refusals of points whose network differs from the first loadable point's,
// by index; nullopt for a point that may run. Points whose config does not load are
// left to their run, which reports the error as `wormsim run` would.
std::vector<std::optional<std::string>> refuse_other_networks(const BatchOptions& opts, const std::vector<BatchPoint>& points,
                                               BatchNetwork& bn) {
  std::vector<std::optional<std::string>> refused(points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    Config cfg;
    try {
      cfg = load_config(opts.config_path, points[i].overrides);
    } catch (const std::exception&) {
      continue;
    }
    if (!bn.cfg) {
      bn.cfg = std::make_unique<Config>(std::move(cfg));
      bn.line = points[i].line;
      continue;
    }
    if (const auto d = network_difference(*bn.cfg, cfg))
      refused[i] = opts.points_path + ":" + std::to_string(points[i].line) + ": " + *d + " (line " +
                   std::to_string(bn.line) +
                   "): a batch runs all its points on one network; run this point in another batch or with "
                   "`wormsim run`";
  }
  return refused;
}

void elaborate(BatchNetwork& bn) {
  if (!bn.cfg) return;
  try {
    Topology::validate(bn.cfg->topology);
  } catch (const std::exception&) {
    return;  // each point's run reports it
  }
  bn.topo = std::make_unique<Topology>(bn.cfg->topology);
  bn.net = new Network("network", *bn.topo, network_params(*bn.cfg));
}

// In the child: runs the point as `run --quiet` (or `config check`) would, on
// the batch's network, and never returns.
[[noreturn]] void run_in_child(const BatchOptions& opts, const BatchPoint& p, Network* net, int err_fd, pid_t parent) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // a killed batch leaves no point running
  if (::getppid() != parent) ::_exit(kExitInternal);
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  const int null_fd = ::open("/dev/null", O_WRONLY);
  if (null_fd < 0 || ::dup2(null_fd, STDOUT_FILENO) < 0 || ::dup2(err_fd, STDERR_FILENO) < 0) ::_exit(kExitInternal);
  defer_syncs();
  RunOptions ro;
  ro.config_path = opts.config_path;
  ro.overrides = p.overrides;
  ro.out_dir = p.out;
  ro.strict = opts.strict;
  ro.quiet = true;
  int code = kExitInternal;
  try {
    code = run_guarded(
        [&]() -> int {
          if (opts.check) return config_check_command(ro);
          const auto t0 = Clock::now();
          RunInputs in;
          if (const int c = load_run_inputs(ro, in)) return c;
          return run_loaded(ro, in, t0, net);
        },
        kExitInputError);
  } catch (const std::exception& e) {
    std::cerr << "internal error: " << e.what() << "\n";
  }
  std::cerr.flush();
  std::fflush(stderr);
  ::_exit(code);
}

std::string last_line(const std::string& text) {
  size_t end = text.find_last_not_of(" \t\r\n");
  if (end == std::string::npos) return "";
  const size_t begin = text.rfind('\n', end);
  return text.substr(begin == std::string::npos ? 0 : begin + 1, end - (begin == std::string::npos ? 0 : begin + 1) + 1);
}

// Reads the child's stderr until it exits (the pipe's end), killing it at the
// time limit; an interrupt of the batch is passed on as SIGTERM, which the run
// answers by stopping with status "interrupted" and writing its outputs.
void wait_for(pid_t pid, int fd, double timeout, PointResult& r) {
  const auto deadline = Clock::now() + std::chrono::duration<double>(timeout);
  bool timed_out = false, passed_on = false;
  char buf[4096];
  for (;;) {
    if (g_interrupted && !passed_on) {
      ::kill(pid, SIGTERM);
      passed_on = true;
    }
    int wait_ms = -1;
    if (timeout > 0 && !timed_out) {
      const double left = std::chrono::duration<double>(deadline - Clock::now()).count();
      if (left <= 0) {
        ::kill(pid, SIGKILL);
        timed_out = true;
      } else {
        wait_ms = static_cast<int>(std::min(left * 1000.0 + 1.0, 1e9));
      }
    }
    pollfd pfd{fd, POLLIN, 0};
    const int n = ::poll(&pfd, 1, wait_ms);
    if (n < 0 && errno != EINTR) break;
    if (n <= 0) continue;
    const ssize_t got = ::read(fd, buf, sizeof buf);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;  // every writer gone: the child has exited
    r.stderr_text.append(buf, static_cast<size_t>(got));
    if (r.stderr_text.size() > 2 * kStderrKeptBytes) r.stderr_text.erase(0, r.stderr_text.size() - kStderrKeptBytes);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (r.stderr_text.size() > kStderrKeptBytes) r.stderr_text.erase(0, r.stderr_text.size() - kStderrKeptBytes);
  if (timed_out) {
    std::ostringstream t;
    t << "timeout: killed after " << timeout << " s";
    r.error = t.str();
  } else if (WIFEXITED(status)) {
    r.exit_code = WEXITSTATUS(status);
    if (*r.exit_code != kExitOk) r.error = "exit " + std::to_string(*r.exit_code) + ": " + last_line(r.stderr_text);
  } else if (WIFSIGNALED(status)) {
    r.error = std::string("killed by signal ") + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) +
              "): " + last_line(r.stderr_text);
  }
}

PointResult run_point(const BatchOptions& opts, const BatchPoint& p, Network* net) {
  PointResult r;
  int fds[2];
  if (::pipe(fds) != 0) {
    r.error = std::string("cannot run the point: pipe: ") + std::strerror(errno);
    return r;
  }
  std::cout.flush();
  std::cerr.flush();
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    r.error = std::string("cannot run the point: fork: ") + std::strerror(errno);
    ::close(fds[0]);
    ::close(fds[1]);
    return r;
  }
  if (pid == 0) {
    ::close(fds[0]);
    run_in_child(opts, p, net, fds[1], parent);
  }
  ::close(fds[1]);
  const auto start = Clock::now();
  wait_for(pid, fds[0], opts.timeout, r);
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  ::close(fds[0]);
  return r;
}

// The batch's single flush to disk: one syncfs(2) per file system holding a
// point's folder, before any point is reported (docs/reliability.md, "Batches").
void sync_outputs(const std::vector<BatchPoint>& points) {
  std::set<dev_t> synced;
  for (const BatchPoint& p : points) {
    const int fd = ::open(p.out.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && synced.insert(st.st_dev).second) ::syncfs(fd);
    ::close(fd);
  }
}

// A point's exit code as the batch counts it (batch_command.hpp).
int counted_code(const PointResult& r, bool refused) {
  if (r.exit_code) return *r.exit_code;
  if (refused) return kExitInputError;
  return r.error.rfind("killed by signal", 0) == 0 ? kExitInternal : kExitIncomplete;
}

}  // namespace

int batch_command(const BatchOptions& opts) {
  std::vector<BatchPoint> points;
  try {
    points = read_batch_points(opts.points_path);
  } catch (const ConfigError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitInputError;
  }
  // A check elaborates nothing: its points may have networks of their own.
  BatchNetwork bn;
  const std::vector<std::optional<std::string>> refused =
      opts.check ? std::vector<std::optional<std::string>>(points.size()) : refuse_other_networks(opts, points, bn);
  if (!opts.check) elaborate(bn);
  // From here the points run in forked children, each loading the same base config.
  preparse_config(opts.config_path);

  g_interrupted = 0;
  std::signal(SIGINT, on_batch_signal);
  std::signal(SIGTERM, on_batch_signal);
  std::vector<PointResult> results(points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    if (refused[i]) results[i].error = *refused[i];
    else if (g_interrupted) results[i].error = "not run: the batch was interrupted";
    else results[i] = run_point(opts, points[i], bn.net);
  }
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  if (!opts.check) sync_outputs(points);

  int code = kExitOk, failed = 0;
  std::string lines;
  for (size_t i = 0; i < points.size(); ++i) {
    const PointResult& r = results[i];
    nlohmann::json j;
    j["line"] = points[i].line;
    j["out"] = points[i].out;
    j["exit_code"] = r.exit_code ? nlohmann::json(*r.exit_code) : nlohmann::json(nullptr);
    j["error"] = r.error.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.error);
    j["refused"] = refused[i].has_value();
    j["seconds"] = r.seconds;
    j["stderr"] = r.stderr_text;
    lines += j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    const int c = counted_code(r, refused[i].has_value());
    if (c != kExitOk) {
      ++failed;
      if (refused[i]) std::cerr << "batch: " << r.error << "\n";  // names the file and line already
      else std::cerr << "batch: " << opts.points_path << ":" << points[i].line << " (" << points[i].out << "): " << r.error << "\n";
    }
    code = std::max(code, c);
  }
  write_stdout(lines);
  if (failed) std::cerr << "batch: " << failed << " of " << points.size() << " points failed\n";
  return code;
}

}  // namespace wormsim

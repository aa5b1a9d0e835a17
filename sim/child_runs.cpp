#include "sim/child_runs.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace wormsim {

namespace fs = std::filesystem;

namespace {

constexpr size_t kStderrTailLines = 6;

// This binary, as the kernel knows it: children run exactly the same code.
std::string self_path() {
  char buf[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) throw std::runtime_error(std::string("cannot find this binary (/proc/self/exe): ") + std::strerror(errno));
  return std::string(buf, static_cast<size_t>(n));
}

std::vector<std::string> child_args(const std::string& exe, const ChildRunSpec& spec, double rate) {
  std::vector<std::string> args{exe, "run", spec.config};
  for (const auto& s : spec.overrides) args.insert(args.end(), {"--set", s});
  // Host timing would make the runs' summaries differ from one run to the next.
  args.insert(args.end(), {"--set", "traffic.rate=" + rate_text(rate), "--set", "output.host_timing=false", "--out",
                           child_run_dir(spec, rate), "--quiet", "--progress", "0"});
  return args;
}

// Starts one run with stdout discarded and stderr in its folder's stderr.log.
// The child dies with this process (a killed search leaves no run behind).
pid_t start_child(const std::string& exe, const ChildRunSpec& spec, double rate) {
  const std::string dir = child_run_dir(spec, rate);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw std::runtime_error(dir + ": cannot create the run's folder: " + ec.message());
  std::vector<std::string> args = child_args(exe, spec, rate);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::string err_path = (fs::path(dir) / "stderr.log").string();
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("cannot start a run: fork: ") + std::strerror(errno));
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    const int out = ::open("/dev/null", O_WRONLY);
    const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (out < 0 || err < 0) ::_exit(126);
    ::dup2(out, STDOUT_FILENO);
    ::dup2(err, STDERR_FILENO);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return pid;
}

std::string stderr_tail(const std::string& dir) {
  std::ifstream in(fs::path(dir) / "stderr.log");
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) lines.push_back(l);
  std::string s;
  for (size_t i = lines.size() > kStderrTailLines ? lines.size() - kStderrTailLines : 0; i < lines.size(); ++i)
    s += (s.empty() ? "" : " | ") + lines[i];
  return s;
}

std::string how_it_ended(int status) {
  if (WIFEXITED(status)) return "exit " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) return std::string("killed by signal ") + std::to_string(WTERMSIG(status));
  return "ended abnormally";
}

// The measure a finished run gives, or nullopt with `why` set.
std::optional<PointMeasure> read_measure(const std::string& dir, std::string& why) {
  std::ifstream in(fs::path(dir) / "summary.json");
  if (!in) {
    why = "it wrote no summary.json";
    return std::nullopt;
  }
  try {
    const nlohmann::json s = nlohmann::json::parse(in);
    if (!s.contains("load")) {
      why = "its summary.json has no load block";
      return std::nullopt;
    }
    const nlohmann::json& l = s.at("load");
    PointMeasure m;
    m.status = s.at("status").get<std::string>();
    m.offered_packets = l.at("offered_packets_per_node_cycle").get<double>();
    m.offered = l.at("offered").at("mean").get<double>();
    m.accepted = l.at("accepted").at("mean").get<double>();
    m.packet_latency = l.at("packet_latency").at("mean").get<double>();
    m.network_latency = l.at("network_latency").at("mean").get<double>();
    m.packets = l.at("packets").get<int64_t>();
    m.delivered = l.at("delivered").get<int64_t>();
    return m;
  } catch (const nlohmann::json::exception& e) {
    why = std::string("its summary.json cannot be read: ") + e.what();
    return std::nullopt;
  }
}

// The outcome of one run: its measure, or the message that explains its failure.
struct Outcome {
  std::optional<PointMeasure> measure;
  std::string failure;
};

Outcome finish(const ChildRunSpec& spec, double rate, int status) {
  const std::string dir = child_run_dir(spec, rate);
  Outcome o;
  std::string why;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) o.measure = read_measure(dir, why);
  else why = how_it_ended(status);
  if (!o.measure) {
    const std::string tail = stderr_tail(dir);
    o.failure = "the run at traffic.rate=" + rate_text(rate) + " failed (" + why + ")" +
                (tail.empty() ? "" : ": " + tail) + "; its folder: " + dir;
  } else if (!spec.keep) {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  return o;
}

}  // namespace

std::string child_run_dir(const ChildRunSpec& spec, double rate) {
  return (fs::path(spec.runs_dir) / ("rate-" + rate_text(rate))).string();
}

std::vector<PointMeasure> run_children(const ChildRunSpec& spec, const std::vector<double>& rates) {
  static const std::string exe = self_path();
  std::vector<Outcome> outcomes(rates.size());
  std::map<pid_t, size_t> running;
  size_t next = 0;
  std::string start_failure;
  while (next < rates.size() || !running.empty()) {
    while (start_failure.empty() && next < rates.size() && static_cast<int>(running.size()) < spec.jobs) {
      try {
        running[start_child(exe, spec, rates[next])] = next;
      } catch (const std::runtime_error& e) {
        start_failure = e.what();  // let the runs already started finish, then report
      }
      ++next;
    }
    if (running.empty()) break;
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("waiting for the runs: ") + std::strerror(errno));
    }
    const auto it = running.find(pid);
    if (it == running.end()) continue;
    outcomes[it->second] = finish(spec, rates[it->second], status);
    running.erase(it);
  }
  if (!start_failure.empty()) throw std::runtime_error(start_failure);
  // The lowest failed rate, whichever ended first.
  size_t lowest = rates.size();
  for (size_t i = 0; i < rates.size(); ++i)
    if (!outcomes[i].measure && (lowest == rates.size() || rates[i] < rates[lowest])) lowest = i;
  if (lowest < rates.size()) throw std::runtime_error(outcomes[lowest].failure);
  std::vector<PointMeasure> out;
  for (const Outcome& o : outcomes) out.push_back(*o.measure);
  return out;
}

}  // namespace wormsim

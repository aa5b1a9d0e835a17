#include "models/memory_guard.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <limits>
#include <new>

namespace wormsim {

void MemoryEstimate::add(std::string key, std::string what, double bytes) {
  terms.push_back(MemoryTerm{std::move(key), std::move(what), bytes});
}

double MemoryEstimate::total() const {
  double sum = 0;
  for (const MemoryTerm& t : terms) sum += t.bytes;
  return sum;
}

const MemoryTerm& MemoryEstimate::dominant() const {
  return *std::max_element(terms.begin(), terms.end(),
                           [](const MemoryTerm& a, const MemoryTerm& b) { return a.bytes < b.bytes; });
}

namespace {

double physical_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<double>(pages) * static_cast<double>(page) : 0.0;
}

// The process's virtual size: under RLIMIT_AS it counts against the limit too.
double virtual_bytes() {
  std::ifstream statm("/proc/self/statm");
  double pages = 0;
  if (!(statm >> pages)) return 0;
  return pages * static_cast<double>(sysconf(_SC_PAGE_SIZE));
}

std::string file_text(const char* path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// A "Key:   N kB" line of /proc/meminfo, in bytes; negative if absent.
double meminfo_bytes(const std::string& meminfo, const std::string& key) {
  const std::string at = "\n" + key + ":";
  const size_t pos = ("\n" + meminfo).find(at);
  if (pos == std::string::npos) return -1;
  const char* p = meminfo.c_str() + pos + key.size() + 1;
  char* end = nullptr;
  const double kib = std::strtod(p, &end);
  return end == p || kib < 0 ? -1 : kib * 1024.0;
}

// /proc/meminfo is read only under strict overcommit: the mode's file is one byte.
double commit_left_now() {
  const std::string mode = file_text("/proc/sys/vm/overcommit_memory");
  return commit_left_after(0, mode, mode.empty() || mode[0] != '2' ? std::string() : file_text("/proc/meminfo"));
}

// The virtual size when the command started (run_guarded): estimates cover
// everything the command allocates, including what it already has when it
// checks again after reading its input, so the limit is measured from there.
// The same for the commit limit: what the machine's other commitments left
// when the command started (set by run_guarded; NaN before).
double g_start_virtual_bytes = 0;
double g_start_commit_left = std::numeric_limits<double>::quiet_NaN();
double g_held_early_bytes = 0;

}  // namespace

double commit_left_after(double bytes, const std::string& overcommit_mode, const std::string& meminfo) {
  constexpr double kUnbounded = std::numeric_limits<double>::infinity();
  if (overcommit_mode.empty() || overcommit_mode[0] != '2') return kUnbounded;
  const double limit = meminfo_bytes(meminfo, "CommitLimit"), committed = meminfo_bytes(meminfo, "Committed_AS");
  if (limit < 0 || committed < 0) return kUnbounded;
  return limit - committed - bytes;
}

void set_memory_held_early(double bytes) { g_held_early_bytes = bytes; }

AvailableMemory tightest_memory(double physical, double address_space_left, double commit_left) {
  AvailableMemory a{physical, "the machine has"};
  const auto tighter = [&](double left, const char* phrase) {
    if (left < std::numeric_limits<double>::infinity() && (a.bytes <= 0 || left < a.bytes))
      a = AvailableMemory{std::max(1.0, left), phrase};
  };
  tighter(address_space_left, "the address-space limit (ulimit -v) leaves");
  tighter(commit_left, "the commit limit (vm.overcommit_memory = 2) leaves");
  return a;
}

AvailableMemory available_memory() {
  double address_space_left = std::numeric_limits<double>::infinity();
  rlimit lim{};
  if (getrlimit(RLIMIT_AS, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY) {
    const double used = g_start_virtual_bytes > 0 ? g_start_virtual_bytes : virtual_bytes();
    address_space_left = static_cast<double>(lim.rlim_cur) - used;
  }
  const double commit_left = std::isnan(g_start_commit_left) ? commit_left_now() : g_start_commit_left;
  AvailableMemory a = tightest_memory(physical_bytes(), address_space_left, commit_left);
  if (g_held_early_bytes > 0 && a.bytes > 0) {
    a.bytes = std::max(1.0, a.bytes - g_held_early_bytes);
    a.phrase += ", besides the routers' pool already taken,";
  }
  return a;
}

void note_command_start() {
  g_start_virtual_bytes = virtual_bytes();
  g_start_commit_left = commit_left_now();
}

double address_space_left_after(double bytes) {
  double left = commit_left_now() - bytes;
  rlimit lim{};
  if (getrlimit(RLIMIT_AS, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY)
    left = std::min(left, static_cast<double>(lim.rlim_cur) - virtual_bytes() - bytes);
  return left;
}

std::string format_bytes(double bytes) {
  constexpr double kMiB = 1024.0 * 1024.0, kGiB = 1024.0 * kMiB;
  char buf[64];
  if (bytes >= kGiB) std::snprintf(buf, sizeof buf, "%.1f GiB", bytes / kGiB);
  else std::snprintf(buf, sizeof buf, "%.1f MiB", bytes / kMiB);
  return buf;
}

void require_memory(const MemoryEstimate& e, const std::string& file) {
  const AvailableMemory have = available_memory();
  const double need = e.total();
  if (have.bytes <= 0 || need <= kMemoryFraction * have.bytes) return;
  const MemoryTerm& big = e.dominant();
  std::string msg = file.empty() ? std::string() : file + ": ";
  msg += big.key + ": this " + e.command + " needs about " + format_bytes(need) + " (" + e.sizes + "; " + big.what +
         ": " + format_bytes(big.bytes) + ") but " + have.phrase + " " + format_bytes(have.bytes) +
         "; refusing to start";
  throw MemoryRefused(msg);
}

namespace {

// Address space set aside while a command runs and given back at the first
// failed allocation: unwinding needs memory too (nlohmann::json frees a big
// document with a heap-allocated stack, inside a noexcept destructor, where a
// second std::bad_alloc would abort the process).
constexpr size_t kUnwindReserveBytes = 32u << 20;
void* g_unwind_reserve = nullptr;

void release_reserve_and_fail() {
  if (g_unwind_reserve) {
    std::free(g_unwind_reserve);
    g_unwind_reserve = nullptr;
  }
  throw std::bad_alloc();
}

}  // namespace

int run_guarded(const std::function<int()>& command, int error_code) {
  g_unwind_reserve = std::malloc(kUnwindReserveBytes);
  std::set_new_handler(release_reserve_and_fail);
  note_command_start();
  try {
    return command();
  } catch (const MemoryRefused& e) {
    std::cerr << "error: " << e.what() << "\n";
  } catch (const std::bad_alloc&) {
    // The failed allocation's memory was never taken and the stack is unwound: printing is safe.
    std::fputs("error: out of memory: an allocation failed (std::bad_alloc); the input is too large for the memory "
               "available (see docs/reliability.md, \"Memory\")\n",
               stderr);
  } catch (const std::length_error& e) {
    std::cerr << "error: out of memory: a size too large to allocate (" << e.what()
              << "); the input is too large (see docs/reliability.md, \"Memory\")\n";
  }
  return error_code;
}

}  // namespace wormsim

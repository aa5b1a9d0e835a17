#include "sim/progress_log.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "models/network.hpp"

namespace wormsim {

namespace {
// Reading the clock every cycle would cost more than some cycles do.
constexpr uint32_t kCyclesPerClockRead = 4096;
}  // namespace

ProgressLog::ProgressLog(uint64_t messages, uint64_t traffic_end, double interval_s)
    : messages_(messages), traffic_end_(traffic_end), interval_(interval_s), started_(Clock::now()), last_(started_) {}

void ProgressLog::after_routers(Network& net, uint64_t now) {
  // Schedule messages have steps; background ones have none (step < 0).
  const SimContext& ctx = net.context();
  for (uint32_t slot : ctx.delivered_now) ++(ctx.msgs[slot].step >= 0 ? delivered_ : background_);
  if (++calls_ % kCyclesPerClockRead != 0) return;
  if (Clock::now() - last_ >= interval_) report(now);
}

void ProgressLog::report(uint64_t now) {
  const auto t = Clock::now();
  const double rate = static_cast<double>(now - last_cycle_) / std::chrono::duration<double>(t - last_).count();
  std::string line = "progress: cycle " + std::to_string(now) + " (" + std::to_string(static_cast<uint64_t>(rate)) +
                     " cycles/s), ";
  if (messages_ == 0) {
    line += std::to_string(background_) + " messages delivered";
  } else {
    line += std::to_string(delivered_) + " of " + std::to_string(messages_) + " messages delivered";
    if (background_ > 0) line += " (and " + std::to_string(background_) + " background)";
  }
  // Left: what the schedule's pace says, and at least the rest of the traffic window.
  double left = -1.0;
  if (messages_ > 0 && delivered_ > 0 && delivered_ < messages_) {
    const double elapsed = std::chrono::duration<double>(t - started_).count();
    left = elapsed * static_cast<double>(messages_ - delivered_) / static_cast<double>(delivered_);
  }
  if (traffic_end_ > now && rate > 0) left = std::max(left, static_cast<double>(traffic_end_ - now) / rate);
  if (left >= 0) line += ", about " + std::to_string(static_cast<uint64_t>(left + 0.5)) + " s left";
  spdlog::info("{}", line);
  last_ = t;
  last_cycle_ = now;
}

}  // namespace wormsim

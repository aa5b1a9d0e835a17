// Keeps a long load run's memory flat: once a background message's tail is
// ejected and its rows are in messages.csv and routes.csv
// (StreamedMessageRows, which writes them in id order; none with
// output.messages: schedule), it is folded into the run's tallies and its
// slot in the message table is recycled for a later one (Network::recycle). The figures and files come out as if every message had
// stayed in the table.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "models/traffic_source.hpp"
#include "sim/class_metrics.hpp"
#include "sim/load_metrics.hpp"
#include "sim/metrics.hpp"
#include "sim/streamed_message_rows.hpp"

namespace wormsim {

class MessageRetirement : public TrafficSource {
 public:
  // `window`: the measurement window, if the run has one. `hops`: fold route
  // lengths too (output.router_stats). `classes`: fold per-class figures too
  // (traffic.classes; 0: not). `rows`: where the retired messages' rows go
  // (null: they are not listed).
  MessageRetirement(int endpoints, const MeasurementWindow* window, bool hops, size_t classes,
                    StreamedMessageRows* rows);

  void start(Network&, uint64_t) override {}
  // Runs after every other source has looked at this cycle's deliveries.
  void after_routers(Network& net, uint64_t now) override;
  void after_interfaces(Network&, uint64_t) override {}
  bool finished() const override { return true; }

  const MessageTally& retired() const { return retired_; }
  const WindowTally* retired_in_window() const { return window_ ? &in_window_ : nullptr; }
  const ClassTally* retired_by_class() const { return classes_ ? &*classes_ : nullptr; }
  uint64_t recycled() const { return recycled_; }

 private:
  // Folds the delivered message in slot `id` into the tallies and frees the slot.
  void retire(Network& net, uint32_t id);

  const MeasurementWindow* window_;
  StreamedMessageRows* rows_;
  MessageTally retired_;
  WindowTally in_window_;
  std::optional<ClassTally> classes_;
  uint64_t recycled_ = 0;
};

}  // namespace wormsim

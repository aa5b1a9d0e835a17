#include "sim/schedule_retirement.hpp"

#include <stdexcept>

namespace wormsim {

namespace {
constexpr size_t kRetiredChunkBytes = size_t{64} << 10;  // one per spill file in memory while the network is simulated
}  // namespace

ScheduleRetirement::ScheduleRetirement(OutputSet& set, Network& net, ScheduleExecutor& exec, const Schedule& sched,
                                       int num_steps, bool hops, uint32_t repetitions)
    : exec_(exec), names_(net.topology(), sched), tally_(num_steps, true, hops), rows_(repetitions) {
  open(messages_before_, set, "retired-messages.csv");
  open(routes_before_, set, "retired-routes.csv");
  open(messages_after_, set, "unbegun-messages.csv");
  open(routes_after_, set, "unbegun-routes.csv");
}

// Spill files are read back, never committed: they only have to end as a
// temporary's does, so that a killed run's are cleared by the next run into the folder.
void ScheduleRetirement::open(Spill& spill, OutputSet& set, const std::string& name) {
  spill.file = std::make_unique<StreamedFile>(set.path_of(name));
  spill.file->without_checksum();
  spill.text = std::make_unique<CsvText>(*spill.file, kRetiredChunkBytes);
}

void ScheduleRetirement::after_routers(Network& net, uint64_t) {
  if (!error_.empty()) return;  // the run is stopping: the records stay
  for (const ScheduleExecutor::Finished& f : exec_.take_finished()) {
    try {
      retire(net, f.repetition, f.slots, messages_before_, routes_before_);
      ++during_run_;
    } catch (const std::runtime_error& e) {
      error_ = std::string(e.what()) + " (the rows of a repetition of the schedule, written as the run goes; the run " +
               "was stopped at cycle " + std::to_string(net.cycle()) + " and its outputs were not written)";
      Network::request_stop();
      return;
    }
  }
}

void ScheduleRetirement::retire(Network& net, uint32_t r, const std::vector<uint32_t>& slots, Spill& messages,
                                Spill& routes) {
  const SimContext& ctx = net.context();
  // Every row first: a write error leaves the records where they were.
  for (uint32_t slot : slots) {
    const MessageRecord& m = ctx.msgs[slot];
    const uint64_t id = net.message_id(slot);
    write_message_row(*messages.text, names_, ctx, id, m, exec_.index_in_step(id, m.step), exec_.packet_of(id));
    write_route_row(*routes.text, net.topology(), ctx, slot, id);
  }
  RepetitionRow& row = rows_[r].emplace();
  for (uint32_t slot : slots) {
    tally_.add(ctx, ctx.msgs[slot]);
    count_repetition_message(row, ctx, ctx.msgs[slot]);
    net.recycle(slot);
  }
}

void ScheduleRetirement::finish(Network& net) {
  after_routers(net, net.cycle());
  if (!error_.empty()) return;
  try {
    for (uint32_t r = exec_.repetitions_begun(); r < rows_.size(); ++r)
      retire(net, r, exec_.add_unreleased(net, r), messages_after_, routes_after_);
    for (Spill* s : {&messages_before_, &routes_before_, &messages_after_, &routes_after_}) s->text->flush();
  } catch (const std::runtime_error& e) {
    error_ = std::string(e.what()) + " (the rows of the repetitions of the schedule that never began)";
  }
}

void ScheduleRetirement::throw_if_failed() const {
  if (!error_.empty()) throw std::runtime_error(error_);
}

void ScheduleRetirement::copy(const Spill& spill, CsvText& out) {
  spill.file->read_back([&out](std::string_view bytes) { out << bytes; });
}

void ScheduleRetirement::copy_rows_before(CsvText& out, bool routes) const {
  throw_if_failed();
  copy(routes ? routes_before_ : messages_before_, out);
}

void ScheduleRetirement::copy_rows_after(CsvText& out, bool routes) const {
  throw_if_failed();
  copy(routes ? routes_after_ : messages_after_, out);
}

}  // namespace wormsim

#include "sim/schedule_retirement.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include "sim/output_tables.hpp"
#include "sim/repetition_outputs.hpp"

namespace wormsim {

namespace {
constexpr size_t kRetiredChunkBytes = size_t{64} << 10;  // one per spill file in memory while the network is simulated

size_t forced_batch() {
  static const size_t batch = [] {
    const char* v = std::getenv("WORMSIM_RETIRE_BATCH");
    return v ? static_cast<size_t>(std::strtoull(v, nullptr, 10)) : size_t{0};
  }();
  return batch;
}
}  // namespace

size_t retire_batch(size_t per_repetition) {
  return forced_batch() ? forced_batch() : std::clamp(per_repetition, kRetireBatchMin, kRetireBatchMax);
}
bool retire_batch_forced() { return forced_batch() != 0; }

bool retires_schedule(const Schedule& schedule, uint32_t repetitions, bool traced) {
  if (traced || schedule.has_multicast()) return false;
  if (repetitions > 1 || retire_batch_forced()) return true;
  const size_t messages = schedule.num_messages();
  size_t largest = 0;
  for (const auto& step : schedule.steps) largest = std::max(largest, step.size());
  return messages >= kStreamedFrom && largest * kStepShareDivisor <= messages;
}

ScheduleRetirement::ScheduleRetirement(OutputSet& set, Network& net, ScheduleExecutor& exec, const Schedule& sched,
                                       int num_steps, bool hops, RepeatedSchedule& repeated, bool repetition_rows)
    : exec_(exec),
      set_(set),
      names_(net.topology(), sched),
      // Background messages apart from the schedule's, as compute_metrics would tally them (none if it has no message).
      tally_(num_steps, exec.messages_per_repetition() > 0, hops),
      repeated_(repeated),
      repetitions_(repeated.spec().count),
      repetition_rows_(repetition_rows),
      rows_without_messages_(repetition_rows && exec.messages_per_repetition() == 0),
      batch_(retire_batch(exec.messages_per_repetition())),
      total_(static_cast<uint64_t>(exec.messages_per_repetition()) * repetitions_) {
  open(messages_before_, set, "retired-messages.csv", message_columns().csv_header());
  open(routes_before_, set, "retired-routes.csv", kRoutesHeader);
  open(steps_, set, "retired-steps.csv");
  if (repetition_rows_) open(repetitions_file_, set, "retired-repetitions.csv");
}

// The files of retired rows start with the header and keep their CRC-32: when
// they hold every row, they are committed as they are. The files of the
// repetitions never begun are read back, never committed: they only have to
// end as a temporary's does, so that a killed run's are cleared by the next
// run into the folder.
void ScheduleRetirement::open(Spill& spill, OutputSet& set, const std::string& name, std::string_view header) {
  spill.file = std::make_unique<StreamedFile>(set.path_of(name));
  if (header.empty()) spill.file->without_checksum();
  spill.text = std::make_unique<CsvText>(*spill.file, kRetiredChunkBytes);
  if (!header.empty()) *spill.text << header;  // an empty view's data may be null, which memcpy must not get
  spill.header = header.size();
}

void ScheduleRetirement::after_routers(Network& net, uint64_t) {
  if (exec_.retirable() < batch_ && !rows_without_messages_) return;
  retire_during_run(net);
}

void ScheduleRetirement::retire_during_run(Network& net) {
  const uint64_t before = rows_before_;
  retire_retirable(net);
  during_run_ += rows_before_ - before;
}

void ScheduleRetirement::retire_retirable(Network& net) {
  if (!error_.empty()) return;  // the run is stopping: the records stay
  const std::vector<uint32_t> slots = exec_.take_retirable();
  if (slots.empty() && exec_.messages_per_repetition() > 0) return;
  try {
    retire(net, slots, messages_before_, routes_before_);
    rows_before_ += slots.size();
    write_retired_steps();
    if (repetition_rows_) write_retired_repetitions();
  } catch (const std::runtime_error& e) {
    error_ = std::string(e.what()) + " (the rows of the schedule's delivered messages, written as the run goes; the " +
             "run was stopped at cycle " + std::to_string(net.cycle()) + " and its outputs were not written)";
    Network::request_stop();
  }
}

void ScheduleRetirement::write_retired_steps() {
  const int before = steps_written_;
  const uint64_t retired = exec_.handed_over();  // every message below it is retired by now
  while (steps_written_ < tally_.num_steps() && exec_.step_first(static_cast<size_t>(steps_written_) + 1) <= retired)
    ++steps_written_;
  if (steps_written_ > before)
    tally_.pop_steps_before(steps_written_, [this](const StepMetrics& s) { write_step_row(*steps_.text, s); });
}

RepetitionRow& ScheduleRetirement::row_of(uint64_t r) {
  while (rows_first_ + rows_.size() <= r) rows_.emplace_back();
  return rows_[static_cast<size_t>(r - rows_first_)];
}

// A repetition whose messages are all retired had them all delivered, so it has
// ended (RepeatedSchedule, a source before this one, saw it this cycle): its
// row and times are final.
void ScheduleRetirement::write_retired_repetitions() {
  const uint64_t retired = exec_.handed_over();
  const uint64_t per_repetition = exec_.messages_per_repetition();
  while (rows_first_ < repetitions_ && (rows_first_ + uint64_t{1}) * per_repetition <= retired &&
         repeated_.times(rows_first_).end != kNever) {
    RepetitionRow& row = row_of(rows_first_);
    row.repetition = rows_first_;
    row.times = repeated_.times(rows_first_);
    write_repetition_row(*repetitions_file_.text, row);
    rep_tally_.add(row);
    rows_.pop_front();
    ++rows_first_;
  }
  repeated_.forget_before(rows_first_);
}

RetiredRepetitions ScheduleRetirement::take_repetitions() {
  RetiredRepetitions r{rows_first_, steps_after_.file ? exec_.repetitions_begun() : repetitions_, {},
                       std::move(rep_tally_)};
  r.rows.reserve(rows_.size());
  for (; !rows_.empty(); rows_.pop_front()) r.rows.push_back(rows_.front());
  return r;
}

void ScheduleRetirement::write_rows(const Network& net, const std::vector<uint32_t>& slots, Spill& messages,
                                    Spill& routes) {
  const SimContext& ctx = net.context();
  for (uint32_t slot : slots) {
    const MessageRecord& m = ctx.msgs[slot];
    const uint64_t id = net.message_id(slot);
    write_message_row(*messages.text, names_, ctx, id, m, exec_.index_in_step(id, m.step), exec_.packet_of(id));
    write_route_row(*routes.text, net.topology(), ctx, slot, id);
  }
}

void ScheduleRetirement::retire(Network& net, const std::vector<uint32_t>& slots, Spill& messages, Spill& routes) {
  const SimContext& ctx = net.context();
  // Every row first: a write error leaves the records where they were.
  write_rows(net, slots, messages, routes);
  const uint64_t per_repetition = exec_.messages_per_repetition();
  // Slots come in id order, a repetition's ids are consecutive, and a deque keeps its
  // elements where they are as it grows: one lookup per repetition, not per message.
  uint64_t last = UINT64_MAX;
  RepetitionRow* row = nullptr;
  for (uint32_t slot : slots) {
    tally_.add(ctx, ctx.msgs[slot]);
    if (repetition_rows_) {
      const uint64_t r = net.message_id(slot) / per_repetition;
      if (r != last) row = &row_of(last = r);
      count_repetition_message(*row, ctx, ctx.msgs[slot]);
    }
    net.recycle(slot);
  }
}

// Its messages count in the run's figures (tally_, which keeps no step of a
// repetition never begun); its steps are tallied apart and written at once.
void ScheduleRetirement::retire_unbegun(Network& net, uint32_t r) {
  const SimContext& ctx = net.context();
  const std::vector<uint32_t> slots = exec_.add_unreleased(net, r);
  write_rows(net, slots, messages_after_, routes_after_);
  const int first_step = static_cast<int>(r * exec_.steps_per_repetition());
  MessageTally steps(first_step + static_cast<int>(exec_.steps_per_repetition()), true);
  steps.start_at_step(first_step);
  RepetitionRow row;
  for (uint32_t slot : slots) {
    tally_.add(ctx, ctx.msgs[slot]);
    steps.add(ctx, ctx.msgs[slot]);
    if (repetition_rows_) count_repetition_message(row, ctx, ctx.msgs[slot]);
    net.recycle(slot);
  }
  // Its empty steps at its start may be written already (write_retired_steps: they end where the one before does).
  steps.pop_steps_before(steps.num_steps(), [this](const StepMetrics& s) {
    if (s.step >= steps_written_) write_step_row(*steps_after_.text, s);
  });
  if (!repetition_rows_) return;
  row.repetition = r;
  row.times = repeated_.times(r);
  write_repetition_row(*repetitions_after_.text, row);
  rep_tally_.add(row);
}

void ScheduleRetirement::finish(Network& net) {
  retire_retirable(net);
  if (!error_.empty()) return;
  try {
    exec_.add_unmade(net);
    const uint32_t begun = exec_.repetitions_begun();
    if (begun < repetitions_) {
      tally_.keep_steps_before(static_cast<int>(begun * exec_.steps_per_repetition()));
      open(messages_after_, set_, "unbegun-messages.csv");
      open(routes_after_, set_, "unbegun-routes.csv");
      open(steps_after_, set_, "unbegun-steps.csv");
      if (repetition_rows_) open(repetitions_after_, set_, "unbegun-repetitions.csv");
    }
    for (uint32_t r = begun; r < repetitions_; ++r) retire_unbegun(net, r);
    for (Spill* s : {&messages_before_, &routes_before_, &messages_after_, &routes_after_, &steps_, &repetitions_file_,
                     &steps_after_, &repetitions_after_})
      if (s->text) s->text->flush();
  } catch (const std::runtime_error& e) {
    error_ = std::string(e.what()) + " (the rows of the schedule's messages, written when the run ended)";
  }
}

void ScheduleRetirement::throw_if_failed() const {
  if (!error_.empty()) throw std::runtime_error(error_);
}

void ScheduleRetirement::copy(const Spill& spill, CsvText& out) {
  if (!spill.file) return;
  uint64_t skip = spill.header;  // the file's own header: the table writes one
  spill.file->read_back([&out, &skip](std::string_view bytes) {
    const size_t drop = static_cast<size_t>(std::min<uint64_t>(skip, bytes.size()));
    skip -= drop;
    out << bytes.substr(drop);
  });
}

void ScheduleRetirement::copy_rows_before(CsvText& out, bool routes) const {
  throw_if_failed();
  copy(routes ? routes_before_ : messages_before_, out);
}

void ScheduleRetirement::copy_rows_after(CsvText& out, bool routes) const {
  throw_if_failed();
  copy(routes ? routes_after_ : messages_after_, out);
}

void ScheduleRetirement::copy_step_rows(CsvText& out) const {
  throw_if_failed();
  copy(steps_, out);
}

void ScheduleRetirement::copy_repetition_rows(CsvText& out) const {
  throw_if_failed();
  copy(repetitions_file_, out);
}

void ScheduleRetirement::copy_step_rows_after(CsvText& out) const {
  throw_if_failed();
  copy(steps_after_, out);
}

void ScheduleRetirement::copy_repetition_rows_after(CsvText& out) const {
  throw_if_failed();
  copy(repetitions_after_, out);
}

void ScheduleRetirement::commit_rows(OutputSet& set, bool routes) const {
  throw_if_failed();
  if (!holds_every_row()) throw std::logic_error("the table holds rows of the schedule: they cannot be left out");
  // Flushed by finish().
  set.add_written(routes ? "routes.csv" : "messages.csv", *(routes ? routes_before_ : messages_before_).file);
}

}  // namespace wormsim

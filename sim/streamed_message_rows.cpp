#include "sim/streamed_message_rows.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

#include "sim/output_tables.hpp"

namespace wormsim {

namespace {

constexpr size_t kWindowPerEndpoint = 64;  // as sim/run_memory.cpp counts the messages under way
constexpr size_t kWindowAtLeast = 4096;
constexpr size_t kChunkBytes = size_t{64} << 10;

// Where the next byte written through `text` into `file` goes.
uint64_t end_of(const StreamedFile& file, const CsvText& text) { return file.bytes() + text.buffered(); }

// Reads rows back from the file of late rows, each at its offset.
class LateReader {
 public:
  explicit LateReader(const std::string& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw std::runtime_error(path + ": cannot read: " + std::strerror(errno));
  }
  ~LateReader() { ::close(fd_); }
  LateReader(const LateReader&) = delete;
  LateReader& operator=(const LateReader&) = delete;
  const std::string& row(uint64_t offset, uint32_t bytes) {
    buf_.resize(bytes);
    for (size_t got = 0; got < bytes;) {
      const ssize_t n = ::pread(fd_, buf_.data() + got, bytes - got, static_cast<off_t>(offset + got));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) throw std::runtime_error(path_ + ": cannot read: " + (n < 0 ? std::strerror(errno) : "too short"));
      got += static_cast<size_t>(n);
    }
    return buf_;
  }

 private:
  std::string path_;
  int fd_ = -1;
  std::string buf_;
};

}  // namespace

StreamedMessageRows::StreamedMessageRows(OutputSet& set, const Network& net, const Schedule& sched, size_t window)
    : net_(net), names_(net.topology(), sched), first_(net.messages_added()),
      window_(window ? window
                     : std::max(kWindowAtLeast, kWindowPerEndpoint * static_cast<size_t>(net.topology().num_endpoints()))),
      next_(first_) {
  open(messages_, set, "messages.csv", message_columns().csv_header());
  open(routes_, set, "routes.csv", std::string(kRoutesHeader));
}

// A spill file is renamed into place or read back, never committed under its
// own name: that only has to end as a temporary's does, so that a killed
// run's is cleared by the next run into the folder.
void StreamedMessageRows::open(Rows& rows, OutputSet& set, const std::string& name, const std::string& header) {
  rows.name = name;
  rows.header = header;
  rows.with_header = first_ == 0;
  rows.file = std::make_unique<StreamedFile>(set.path_of("background-" + name));
  // Its CRC-32 only if it is renamed into place (commit): most often it is
  // read back, and the simulation need not pay for a pass over every byte.
  rows.file->without_checksum();
  // Small chunks: each file keeps one in memory while the network is simulated.
  rows.text = std::make_unique<CsvText>(*rows.file, kChunkBytes);
  if (rows.with_header) *rows.text << header;
  // Opened even if no row is ever late, so that a stale one of a killed run
  // with this pid is truncated and removed (the folder's cleaning keeps this
  // pid's temporaries).
  rows.late_file = std::make_unique<StreamedFile>(set.path_of("late-" + name));
  rows.late_file->without_checksum();
  rows.late_text = std::make_unique<CsvText>(*rows.late_file, kChunkBytes);
}

void StreamedMessageRows::place(uint32_t slot) {
  const uint64_t at = net_.message_id(slot) - next_;
  if (at >= waiting_.size()) waiting_.resize(at + 1, kUnder);
  if (waiting_[at] != kUnder && waiting_[at] != slot)
    throw std::logic_error("messages.csv: two messages with id " + std::to_string(next_ + at));
  waiting_[at] = slot;
}

void StreamedMessageRows::write_ready(bool bounded) {
  const SimContext& ctx = net_.context();
  while (!waiting_.empty()) {
    const uint32_t slot = waiting_.front();
    if (slot == kUnder) {
      if (!bounded || waiting_.size() <= window_) break;
      // Passed over: its rows go to the late rows when it is delivered.
      passed_.emplace(next_, std::make_pair(end_of(*messages_.file, *messages_.text), end_of(*routes_.file, *routes_.text)));
    } else {
      write_message_row(*messages_.text, names_, ctx, next_, ctx.msgs[slot], -1, -1);
      write_route_row(*routes_.text, net_.topology(), ctx, slot, next_);
      written_.push_back(slot);
    }
    waiting_.pop_front();
    ++next_;
  }
}

void StreamedMessageRows::write_late(uint32_t slot, uint64_t id) {
  const auto place = passed_.find(id);
  if (place == passed_.end())
    throw std::logic_error("messages.csv: the rows of message " + std::to_string(id) + " were written twice");
  const SimContext& ctx = net_.context();
  const auto note = [id](Rows& rows, uint64_t at, uint64_t from) {
    const uint64_t to = end_of(*rows.late_file, *rows.late_text);
    rows.late.push_back(LateRow{at, id, from, static_cast<uint32_t>(to - from)});
  };
  uint64_t from = end_of(*messages_.late_file, *messages_.late_text);
  write_message_row(*messages_.late_text, names_, ctx, id, ctx.msgs[slot], -1, -1);
  note(messages_, place->second.first, from);
  from = end_of(*routes_.late_file, *routes_.late_text);
  write_route_row(*routes_.late_text, net_.topology(), ctx, slot, id);
  note(routes_, place->second.second, from);
  passed_.erase(place);
}

const std::vector<uint32_t>& StreamedMessageRows::delivered(uint32_t slot) {
  written_.clear();
  // After a write error the records are kept: the run is stopping.
  if (!error_.empty()) return written_;
  try {
    const uint64_t id = net_.message_id(slot);
    if (id < next_) {
      write_late(slot, id);
      written_.push_back(slot);
    } else {
      place(slot);
      write_ready(true);
    }
  } catch (const std::runtime_error& e) {
    error_ = std::string(e.what()) + " (the background's rows, written as the run goes; the run was stopped at cycle " +
             std::to_string(net_.cycle()) + " and its outputs were not written)";
    Network::request_stop();
  }
  return written_;
}

void StreamedMessageRows::finish() {
  if (!error_.empty()) return;
  std::vector<std::pair<uint64_t, uint32_t>> left;  // (id, slot)
  const auto& msgs = net_.context().msgs;
  for (size_t slot = 0; slot < msgs.size(); ++slot)
    if (!msgs[slot].free() && msgs[slot].step < 0)
      left.emplace_back(net_.message_id(static_cast<uint32_t>(slot)), static_cast<uint32_t>(slot));
  std::sort(left.begin(), left.end());
  written_.clear();
  try {
    for (const auto& [id, slot] : left) {
      if (id < next_)
        write_late(slot, id);
      else
        place(slot);
    }
    write_ready(false);
  } catch (const std::runtime_error& e) {
    error_ = e.what();
    return;
  }
  if (!waiting_.empty() || !passed_.empty() || next_ != net_.messages_added())
    throw std::logic_error("messages.csv: the rows of message " +
                           std::to_string(passed_.empty() ? next_ : passed_.begin()->first) + " were never written");
  // Rows that belong at the same place go in id order.
  const auto in_place = [](const LateRow& a, const LateRow& b) { return std::tie(a.at, a.id) < std::tie(b.at, b.id); };
  std::sort(messages_.late.begin(), messages_.late.end(), in_place);
  std::sort(routes_.late.begin(), routes_.late.end(), in_place);
}

void StreamedMessageRows::throw_if_failed() const {
  if (!error_.empty()) throw std::runtime_error(error_);
}

void StreamedMessageRows::commit(Rows& rows, OutputSet& set, const std::function<void(CsvText&)>& schedule_rows) {
  throw_if_failed();
  rows.text->flush();
  rows.late_text->flush();
  if (rows.with_header && rows.late.empty()) {
    rows.file->checksum_written();
    set.add_written(rows.name, *rows.file);
    rows.late_text.reset();
    rows.late_file.reset();  // removes the (empty) file of late rows
    return;
  }
  std::unique_ptr<LateReader> late;
  if (!rows.late.empty()) late = std::make_unique<LateReader>(rows.late_file->temporary_path());
  set.add_streamed(rows.name, [&](CsvText& os) {
    if (!rows.with_header) {
      os << rows.header;
      schedule_rows(os);
    }
    // The spilled rows, with the late ones copied in where they belong.
    size_t next_late = 0;
    uint64_t at = 0;  // offset in the spill file of bytes[0]
    auto late_rows_at = [&](uint64_t offset) {
      for (; next_late < rows.late.size() && rows.late[next_late].at == offset; ++next_late)
        os << late->row(rows.late[next_late].offset, rows.late[next_late].bytes);
    };
    rows.file->read_back([&](std::string_view bytes) {
      size_t from = 0;
      while (next_late < rows.late.size() && rows.late[next_late].at < at + bytes.size()) {
        const auto upto = static_cast<size_t>(rows.late[next_late].at - at);
        os << bytes.substr(from, upto - from);
        late_rows_at(rows.late[next_late].at);
        from = upto;
      }
      os << bytes.substr(from);
      at += bytes.size();
    });
    late_rows_at(at);
    if (next_late != rows.late.size()) throw std::logic_error(rows.name + ": late rows beyond the end of the file");
  });
  late.reset();
  rows.text.reset();
  rows.file.reset();  // removes the spill files
  rows.late_text.reset();
  rows.late_file.reset();
}

void StreamedMessageRows::write_messages(OutputSet& set, const std::function<void(CsvText&)>& schedule_rows) {
  commit(messages_, set, schedule_rows);
}

void StreamedMessageRows::write_routes(OutputSet& set, const std::function<void(CsvText&)>& schedule_rows) {
  commit(routes_, set, schedule_rows);
}

}  // namespace wormsim

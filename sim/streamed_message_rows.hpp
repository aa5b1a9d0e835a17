// messages.csv and routes.csv of a run with background traffic, written while
// it runs, so that no record has to be kept for them to the end: each
// background message's rows are written once it is delivered, and then
// MessageRetirement recycles its record (docs/load-studies.md, "Long runs").
//
// The files list messages in id order. A message delivered before an earlier
// one keeps its record until the earlier one's rows are out, within a window
// of a few messages per endpoint. A message that holds the window up longer
// than that (a starved packet can wait for most of a run) is passed over: the
// place where its rows belong is noted, they go to a file of late rows once it
// is delivered, and they are copied into their place at the end. The background rows go to spill files in the output folder; the
// schedule's messages (ids 0..S-1, every repetition's, set aside before the
// run) are written at the end, before the spilled ones: from their records,
// and from the spill files of the repetitions retired as the run went
// (sim/schedule_retirement.hpp). A
// run of background traffic alone, with no late message, has its spill file
// renamed into place.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "models/network.hpp"
#include "schedules/schedule.hpp"
#include "sim/csv_text.hpp"
#include "sim/message_rows.hpp"
#include "sim/output_set.hpp"
#include "sim/streamed_file.hpp"

namespace wormsim {

class StreamedMessageRows {
 public:
  // Before the simulation, once the schedule's messages are in `net`: every
  // message added from now on is a background one. `window`: the messages the
  // window may hold behind one still under way (0: a few per endpoint).
  // Throws std::runtime_error naming the file when the folder cannot be written.
  StreamedMessageRows(OutputSet& set, const Network& net, const Schedule& sched, size_t window = 0);
  StreamedMessageRows(const StreamedMessageRows&) = delete;
  StreamedMessageRows& operator=(const StreamedMessageRows&) = delete;

  // The background message in table slot `slot` is delivered. Returns the
  // slots whose rows this wrote, in id order: their records are done with.
  // A write error stops the run (Network::request_stop) and is thrown again
  // by write_messages.
  const std::vector<uint32_t>& delivered(uint32_t slot);
  // After the run: the rows of the background messages still in the table
  // (their records stay).
  void finish();
  // Throws the first write error as a std::runtime_error, if there was one.
  void throw_if_failed() const;
  // Complete the files into `set`: the header, the schedule's rows (written by
  // `schedule_rows` from the table), then the background rows. Throw
  // std::runtime_error.
  void write_messages(OutputSet& set, const std::function<void(CsvText&)>& schedule_rows);
  void write_routes(OutputSet& set, const std::function<void(CsvText&)>& schedule_rows);

  // Messages whose rows were written late (for the tests and the log).
  uint64_t late() const { return messages_.late.size(); }

 private:
  // A row written out of order: where it belongs in the spill file, and where
  // it is in the file of late rows.
  struct LateRow {
    uint64_t at, id, offset;
    uint32_t bytes;
  };
  // One file's background rows.
  struct Rows {
    std::string name, header;
    bool with_header = false;  // the spill file starts with the header (no schedule rows go before it)
    std::unique_ptr<StreamedFile> file, late_file;
    std::unique_ptr<CsvText> text, late_text;
    std::vector<LateRow> late;
  };
  static constexpr uint32_t kUnder = UINT32_MAX;  // a waiting_ entry whose message is still under way
  void open(Rows& rows, OutputSet& set, const std::string& name, const std::string& header);
  // Puts the message in slot `slot` in the window (it is not late).
  void place(uint32_t slot);
  // Writes the rows of the window's messages up to the first one still under
  // way; with `bounded`, passes over those that make the window too long.
  void write_ready(bool bounded);
  // Writes the rows of a message passed over.
  void write_late(uint32_t slot, uint64_t id);
  void commit(Rows& rows, OutputSet& set, const std::function<void(CsvText&)>& schedule_rows);

  const Network& net_;
  QuotedNames names_;
  const uint64_t first_;           // the first background message's id
  const size_t window_;
  Rows messages_, routes_;
  uint64_t next_;                  // the id whose rows go out next
  std::deque<uint32_t> waiting_;   // ids next_, next_ + 1, ...: their slots (kUnder until delivered)
  // Messages passed over and still under way: where their rows belong in
  // messages_' and routes_' spill files. (Once written, a late row costs
  // Rows::late an entry per file until the end: 64 bytes a message.)
  std::unordered_map<uint64_t, std::pair<uint64_t, uint64_t>> passed_;
  std::vector<uint32_t> written_;  // delivered()'s answer
  std::string error_;              // the first write error
};

}  // namespace wormsim

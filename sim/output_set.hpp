// A run's output folder, replaced as one set (docs/reliability.md, "Outputs as
// one set"):
//  - the folder is created and locked (flock on .wormsim.lock) before the
//    simulation starts, so an unwritable --out fails at once and a second run
//    into the same folder is refused while the first one holds it;
//  - writing a new set first removes the old summary.json and any stale trace,
//    then writes each file atomically, then summary.json last with a manifest
//    (size and CRC-32 of every other file), so a reader can always tell a
//    complete, consistent set from a mixed or partial one.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace wormsim {

class CsvText;
class StreamedFile;

// One file of the set, as listed in summary.json "outputs".
struct OutputFile {
  std::string name;  // relative to the folder
  uint64_t bytes = 0;
  uint32_t crc32 = 0;
};

// The files a run can leave besides summary.json; the traces only when asked for.
inline constexpr const char* kSummaryFile = "summary.json";
inline constexpr const char* kLockFile = ".wormsim.lock";
inline constexpr const char* kTraceFiles[] = {"trace.json", "trace.vcd"};

std::string crc32_hex(uint32_t crc);
uint32_t crc32_of(const std::string& bytes);

class OutputSet {
 public:
  // Creates `dir` if needed and takes its lock. Throws std::runtime_error naming
  // the folder when it cannot be created or written, or is locked by another run.
  explicit OutputSet(std::string dir);
  ~OutputSet();
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;

  const std::string& dir() const { return dir_; }
  std::string path_of(const std::string& name) const;

  // Starts replacing the set: removes summary.json and the trace files (those
  // this run writes come back through add/adopt). Idempotent.
  void begin();
  // Writes one file of the set atomically and records it for the manifest.
  void add(const std::string& name, const std::string& content);
  // The same for a table `fill` writes into a CsvText that sends each full
  // chunk to the file as it goes (sim/streamed_file.hpp): never held whole.
  void add_streamed(const std::string& name, const std::function<void(CsvText&)>& fill);
  // The same, written by a second thread while the caller writes the others
  // (a big network's links.csv is most of its outputs); listed in the manifest
  // right after the file named `after`, or last when the set has none. Without
  // a second CPU, written now. One at a time: wait_background() lists it.
  void add_streamed_in_background(const std::string& name, std::function<void(CsvText&)> fill,
                                  const std::string& after);
  // Waits for the file being written in the background and lists it; throws
  // what writing it threw.
  void wait_background();
  // Commits a file written while the run went (a StreamedFile in the folder) into the set as `name`.
  void add_written(const std::string& name, StreamedFile& file);
  // Moves a file already written elsewhere in the folder into the set.
  void adopt(const std::string& name, const std::string& written_path);
  const std::vector<OutputFile>& files() const { return files_; }
  // Writes summary.json, completing the set.
  void commit(const std::string& summary);

 private:
  void release();
  void remove_stale_temporaries();
  OutputFile write_streamed(const std::string& name, const std::function<void(CsvText&)>& fill) const;

  // The file add_streamed_in_background writes.
  struct Background {
    std::thread thread;
    std::function<void(CsvText&)> fill;
    std::string after;
    OutputFile file;
    std::exception_ptr error;
    bool pending = false;
  };

  std::string dir_;
  int lock_fd_ = -1;
  bool begun_ = false;
  std::vector<OutputFile> files_;
  Background background_;
};

}  // namespace wormsim

// Writes a file so that readers see either the old content or the complete new
// one, never a half-written file: write a temporary file in the same folder,
// flush it to disk, then rename it over the target.
#pragma once

#include <string>

namespace wormsim {

// The new file gets `mode` when given (>= 0), else 0644 less the umask.
// Throws std::runtime_error naming the path if any part fails.
void write_file_atomically(const std::string& path, const std::string& content, int mode = -1);

// From now on in this process, files are renamed into place without being
// flushed to disk first (and folders are not synced): the caller makes them
// durable later, many at once (`wormsim batch` runs syncfs(2) before it reports
// its points; docs/reliability.md, "Batches"). Readers still never see a
// half-written file while the machine runs; after a crash, a set whose bytes
// did not reach the disk fails its summary.json manifest check.
void defer_syncs();
bool syncs_deferred();

// Writes a command's output file the way a user means `-o PATH`: "-" is
// standard output; a symlink is written through to its target; a character
// device (/dev/null) or FIFO is written to in place; a regular file, or a path
// that does not exist yet, is replaced atomically (keeping an existing file's
// permissions). Anything else (a folder, a block device, a socket) is refused.
// Throws std::runtime_error naming the path.
void write_output_file(const std::string& path, const std::string& content);

// Writes to standard output and flushes; throws std::runtime_error when the
// bytes cannot be written (a full disk, /dev/full, a closed pipe).
void write_stdout(const std::string& content);

}  // namespace wormsim

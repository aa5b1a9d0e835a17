// SystemC stamps a VCD with the wall-clock time it was written ($date); wormsim
// promises the same bytes for the same config and seed, so the stamp is blanked
// once the file is closed.
#pragma once

#include <string>

namespace wormsim {

// Overwrites the text of the first $date ... $end block of the VCD at `path`
// with spaces, in place (same length: the rest of the file is not rewritten).
// Throws std::system_error if the file cannot be read or written; a file
// without a $date block is left as it is.
void blank_vcd_date(const std::string& path);

}  // namespace wormsim

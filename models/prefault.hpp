// Fresh anonymous memory made resident before it is used, by a second thread.
//
// A big network's pools (models/module_pool.hpp) are gigabytes of fresh pages,
// and the first write to each page costs a fault. In a virtual machine whose
// host has taken back the guest's free memory (free page reporting), that fault
// is the host's too and costs far more than zeroing the page: it is what makes
// the first big run after a pause elaborate several times slower than the next.
// Faults on different pages are served in parallel, so a second thread that
// takes part of the range makes it resident in about half the time, and one
// that starts while the run is still preparing its schedule hides more of it
// (measured: docs/performance.md, "Elaboration on a cold machine").
#pragma once

#include <cstddef>

namespace wormsim {

// 2 MiB: the unit of a transparent huge page, and of the mappings below.
inline constexpr size_t kHugePageBytes = size_t{2} << 20;

// `bytes` (a multiple of kHugePageBytes) of private anonymous memory, zeroed,
// starting on a kHugePageBytes boundary and marked for transparent huge pages.
// Throws std::bad_alloc when the mapping fails. Give it back with munmap.
std::byte* map_huge(size_t bytes);

// Makes the mapped range [p, p + bytes) resident, split between the calling
// thread and one more when the range is big enough to repay a thread and the
// machine has a second CPU. Best effort: what it cannot populate is left to
// fault as it is written.
void prefault(std::byte* p, size_t bytes);

// Maps a block of `bytes` now (as map_huge) and starts making it resident in a
// background thread, for a pool of exactly that size built later in the run
// (take_prefaulted); returns the block, or null when it starts nothing (too
// small a block, no second CPU, no room to map it). A block waiting from an
// earlier call is given back first. A block never taken is given back at
// exit, or by discard_prefaulted, its thread stopped after the chunk it is on.
std::byte* prefault_in_background(size_t bytes);

// The block started by prefault_in_background(bytes), once resident: the caller
// populates what the background thread has not reached yet, alongside it. Null
// when no block is waiting; a waiting block of another size is given back (the
// first big pool built is the one it was started for, or none is). The caller
// owns the block (munmap).
std::byte* take_prefaulted(size_t bytes);

// Gives back the block waiting for take_prefaulted, if any (a run that stops
// before it builds its network).
void discard_prefaulted();

// The bytes of the block waiting for take_prefaulted (0 if none): memory the
// run holds before its estimates count it (models/memory_guard.hpp).
size_t prefaulted_bytes();

}  // namespace wormsim

// The process's global operator new and delete: large blocks go on transparent
// huge pages; everything else is malloc's, as with the default ones.
//
// Every fresh page a process touches costs a page fault, and on a virtual
// machine a fault is dear (docs/performance.md, "Start-up"). SystemC's library
// alone allocates and zeroes a 3 MiB scratch heap when it is loaded
// (sc_core::sc_temp_heap), whether or not anything uses it: 768 faults, a
// third of a small run's CPU time. A block of 1 MiB or more is therefore
// allocated on 2 MiB boundaries, in whole 2 MiB units, and marked for huge
// pages (a hint: where the kernel does not give them, nothing changes but the
// rounding). The same holds for a run's own large containers (message
// records, routes, the express loop's stages), which a big run fills page by
// page: on huge pages a 2M-router run takes half the time. The price is
// resident memory: a partly filled container holds up to 2 MiB more
// (docs/performance.md, "Start-up"); small blocks, the great majority, are
// malloc's as before.
//
// Left out of sanitizer builds, whose runtimes replace these functions themselves.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WORMSIM_SANITIZED_ALLOCATOR 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define WORMSIM_SANITIZED_ALLOCATOR 1
#endif

#ifndef WORMSIM_SANITIZED_ALLOCATOR

#include <cstddef>
#include <cstdlib>
#include <new>

#include <sys/mman.h>

namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::size_t kLarge = std::size_t{1} << 20;

void* allocate_large(std::size_t n) {
  const std::size_t bytes = (n + kHugePage - 1) / kHugePage * kHugePage;
  void* p = nullptr;
  if (posix_memalign(&p, kHugePage, bytes) != 0) return nullptr;
#ifdef MADV_HUGEPAGE
  madvise(p, bytes, MADV_HUGEPAGE);
#endif
  return p;
}

// What the standard asks of operator new: retry through the new-handler, or throw.
void* allocate(std::size_t n) {
  if (n == 0) n = 1;
  for (;;) {
    // Under a tight address-space limit (ulimit -v) the rounding may not fit where the block itself does.
    void* p = n >= kLarge ? allocate_large(n) : nullptr;
    if (!p) p = std::malloc(n);
    if (p) return p;
    const std::new_handler handler = std::get_new_handler();
    if (!handler) throw std::bad_alloc();
    handler();
  }
}

void* allocate_nothrow(std::size_t n) noexcept {
  try {
    return allocate(n);
  } catch (...) {
    return nullptr;
  }
}

}  // namespace

void* operator new(std::size_t n) { return allocate(n); }
void* operator new[](std::size_t n) { return allocate(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return allocate_nothrow(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return allocate_nothrow(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

#endif  // WORMSIM_SANITIZED_ALLOCATOR

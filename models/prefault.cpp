#include "models/prefault.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <new>
#include <thread>

namespace wormsim {

namespace {

// Below this a second thread costs more than the faults it takes over.
constexpr size_t kParallelBytes = size_t{64} << 20;
// The unit the two threads share a range in: small enough that neither waits
// long for the other's last one, large enough that taking it costs nothing.
constexpr size_t kChunkBytes = size_t{32} << 20;
constexpr size_t kPage = 4096;

// A write per page, not madvise(MADV_POPULATE_WRITE): that holds the address
// space's lock for the whole range, and every mmap or munmap of the thread
// preparing the schedule then waited for it (the schedule took three times as
// long). A fault holds it only while it maps one page (a huge page, here).
void populate(std::byte* p, size_t bytes) {
  auto* v = reinterpret_cast<volatile unsigned char*>(p);
  for (size_t at = 0; at < bytes; at += kPage) v[at] = 0;
}

bool second_cpu() { return std::thread::hardware_concurrency() >= 2; }

// A range made resident chunk by chunk by whichever thread takes the next chunk.
class SharedRange {
 public:
  SharedRange(std::byte* p, size_t bytes)
      : p_(p), bytes_(bytes), chunks_((bytes + kChunkBytes - 1) / kChunkBytes) {}
  std::byte* data() const { return p_; }
  size_t bytes() const { return bytes_; }
  // Populates chunks until none is left to take.
  void work() {
    for (size_t c; (c = next_.fetch_add(1)) < chunks_;) {
      const size_t at = c * kChunkBytes;
      populate(p_ + at, std::min(kChunkBytes, bytes_ - at));
    }
  }
  // No chunk is taken from now on.
  void stop() { next_.store(chunks_); }

 private:
  std::byte* const p_;
  const size_t bytes_, chunks_;
  std::atomic<size_t> next_{0};
};

// The block started in the background (one per process: a run's router pool),
// and the thread that populates it.
class Background {
 public:
  ~Background() { discard(); }
  std::byte* start(size_t bytes) {
    discard();
    range_ = std::make_unique<SharedRange>(map_huge(bytes), bytes);
    try {
      worker_ = std::thread([r = range_.get()] { r->work(); });
    } catch (const std::exception&) {
      // No thread to be had: the block waits, unpopulated, for take().
    }
    return range_->data();
  }
  size_t bytes() const { return range_ ? range_->bytes() : 0; }
  std::byte* take(size_t bytes) {
    if (!range_) return nullptr;
    if (range_->bytes() != bytes) {
      // The run's first big pool is not the one foreseen: the block would only hold memory.
      discard();
      return nullptr;
    }
    range_->work();
    if (worker_.joinable()) worker_.join();  // it has no chunk left to take: the one it is on
    std::byte* p = range_->data();
    range_.reset();
    return p;
  }

  void discard() {
    if (range_) range_->stop();
    if (worker_.joinable()) worker_.join();
    if (range_) munmap(range_->data(), range_->bytes());
    range_.reset();
  }

 private:
  std::unique_ptr<SharedRange> range_;
  std::thread worker_;
};

Background& background() {
  static Background b;
  return b;
}

}  // namespace

std::byte* map_huge(size_t bytes) {
  // Cut from a mapping large enough to hold such a range, its ends given back.
  const size_t span = bytes + kHugePageBytes;
  void* p = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<uintptr_t>(p);
  const uintptr_t aligned = (start + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  if (aligned > start) munmap(p, aligned - start);
  if (const size_t tail = start + span - (aligned + bytes)) munmap(reinterpret_cast<void*>(aligned + bytes), tail);
  auto* block = reinterpret_cast<std::byte*>(aligned);
#ifdef MADV_HUGEPAGE
  madvise(block, bytes, MADV_HUGEPAGE);  // a hint: failure only costs speed
#endif
  return block;
}

void prefault(std::byte* p, size_t bytes) {
  if (bytes < kParallelBytes || !second_cpu()) return;
  SharedRange range(p, bytes);
  try {
    std::thread helper([&range] { range.work(); });
    range.work();
    helper.join();
  } catch (const std::exception&) {
    // No thread to be had: this one populates what is left.
    range.work();
  }
}

std::byte* prefault_in_background(size_t bytes) {
  if (bytes < kParallelBytes || !second_cpu()) return nullptr;
  try {
    return background().start(bytes);
  } catch (const std::bad_alloc&) {
    // Not mapped now (an address-space limit): the pool will ask for it, and be refused, itself.
    return nullptr;
  }
}

std::byte* take_prefaulted(size_t bytes) { return background().take(bytes); }

void discard_prefaulted() { background().discard(); }

size_t prefaulted_bytes() { return background().bytes(); }

}  // namespace wormsim

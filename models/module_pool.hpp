// Storage for the many modules of one kind in a network (the routers, or the
// endpoints' network interfaces), in id order in a single allocation.
//
// Each slot holds the module followed by `extra` bytes of zeroed memory that the
// module lays out itself (a router's buffers and VC state). Stepping busy
// routers in id order then walks memory almost sequentially, and a router's
// neighbours along the first dimension are the adjacent slots (what that buys
// is measured in docs/performance.md).
//
// The pool only decides where the objects live; they are plain C++ objects
// (no sc_module: docs/performance.md, "Memory").
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <utility>

#include <sys/mman.h>

#include "models/prefault.hpp"

namespace wormsim {

template <class T>
class ModulePool {
 public:
  ModulePool() = default;
  ModulePool(const ModulePool&) = delete;
  ModulePool& operator=(const ModulePool&) = delete;
  ~ModulePool() { clear(); }

  // Allocates room for `n` modules, each followed by `extra` bytes. Call once, before emplace().
  void reserve(size_t n, size_t extra) {
    clear();
    extra_at_ = round_up(sizeof(T));
    stride_ = extra_at_ + round_up(extra);
    capacity_ = n;
    size_t bytes = stride_ * (n == 0 ? 1 : n);
    // Big pools go on transparent huge pages where the kernel allows it
    // (Debian's default is "madvise"): a busy network touches routers all over
    // the pool every cycle, and 4 KiB pages would make every one a TLB miss.
    // They are mapped fresh, so the kernel hands them over zeroed: no pass of
    // our own over gigabytes (a 2M-router pool is ~3 GB). Every page is written
    // by the constructors, so the pool is made resident first, by two threads
    // (models/prefault.hpp), or taken already resident from a run that
    // started it early (prefault_in_background).
    mapped_ = bytes >= kHugePageBytes;
    if (mapped_) {
      bytes = mapped_bytes(n, extra);
      block_ = take_prefaulted(bytes);
      if (!block_) {
        block_ = map_huge(bytes);
        prefault(block_, bytes);
      }
    } else {
      block_ = static_cast<std::byte*>(std::aligned_alloc(kAlign, bytes));
      if (!block_) throw std::bad_alloc();
      std::memset(block_, 0, bytes);
    }
    bytes_ = bytes;
  }
  // What reserve(n, extra) maps (0 for a pool small enough for the heap).
  static size_t mapped_bytes(size_t n, size_t extra) {
    const size_t bytes = (round_up(sizeof(T)) + round_up(extra)) * (n == 0 ? 1 : n);
    return bytes < kHugePageBytes ? 0 : (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  }

  // Constructs the next module in place; its constructor receives the slot's
  // extra memory as the last argument.
  template <class... Args>
  T* emplace(Args&&... args) {
    if (size_ == capacity_) throw std::logic_error("ModulePool: more modules than reserved");
    std::byte* slot = block_ + stride_ * size_;
    T* t = new (slot) T(std::forward<Args>(args)..., slot + extra_at_);
    ++size_;
    return t;
  }

  T* operator[](size_t i) const { return std::launder(reinterpret_cast<T*>(block_ + stride_ * i)); }
  size_t size() const { return size_; }
  // Starts loading module i's hot fields (T::prefetch) and the first lines of its extra memory.
  void prefetch(size_t i) const {
    const std::byte* extra = block_ + stride_ * i + extra_at_;
    (*this)[i]->prefetch();
    __builtin_prefetch(extra);
    __builtin_prefetch(extra + kAlign);
  }
  size_t stride() const { return stride_; }

 private:
  static constexpr size_t kAlign = 64;                 // cache line
  static size_t round_up(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

  // Destroyed in reverse order of construction, as members of an array would be.
  void clear() {
    while (size_ > 0) (*this)[--size_]->~T();
    if (mapped_) munmap(block_, bytes_);
    else std::free(block_);
    block_ = nullptr;
    capacity_ = 0;
    mapped_ = false;
  }

  std::byte* block_ = nullptr;
  size_t stride_ = 0, extra_at_ = 0, capacity_ = 0, size_ = 0, bytes_ = 0;
  bool mapped_ = false;  // block_ is a mapping of bytes_ (big pools), else from aligned_alloc
};

}  // namespace wormsim

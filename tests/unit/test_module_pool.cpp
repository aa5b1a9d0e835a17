// ModulePool (models/module_pool.hpp): modules in node order in one block, each
// followed by its zeroed extra memory, destroyed in reverse order.
#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <thread>
#include <vector>

#include "models/module_pool.hpp"
#include "models/prefault.hpp"

namespace wormsim {
namespace {

std::vector<int> g_destroyed;

struct Probe {
  Probe(int id, std::byte* extra) : id(id), extra(extra) {}
  ~Probe() { g_destroyed.push_back(id); }
  int id;
  std::byte* extra;
};

TEST(ModulePool, PlacesModulesInOrderWithZeroedExtraMemoryBehindEach) {
  ModulePool<Probe> pool;
  pool.reserve(5, 100);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(pool.emplace(i)->id, i);
  ASSERT_EQ(pool.size(), 5u);
  EXPECT_EQ(pool.stride() % 64, 0u);
  EXPECT_GE(pool.stride(), sizeof(Probe) + 100);
  for (size_t i = 0; i < 5; ++i) {
    const Probe* p = pool[i];
    EXPECT_EQ(p->id, static_cast<int>(i));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
    EXPECT_GT(p->extra, reinterpret_cast<const std::byte*>(p));
    EXPECT_LE(p->extra + 100, reinterpret_cast<const std::byte*>(p) + pool.stride());
    for (int b = 0; b < 100; ++b) EXPECT_EQ(p->extra[b], std::byte{0});
    if (i > 0) {
      EXPECT_EQ(reinterpret_cast<const std::byte*>(p) - reinterpret_cast<const std::byte*>(pool[i - 1]),
                static_cast<ptrdiff_t>(pool.stride()));
    }
  }
}

TEST(ModulePool, DestroysModulesInReverseOrder) {
  g_destroyed.clear();
  {
    ModulePool<Probe> pool;
    pool.reserve(3, 0);
    for (int i = 0; i < 3; ++i) pool.emplace(i);
  }
  EXPECT_EQ(g_destroyed, (std::vector<int>{2, 1, 0}));
}

TEST(ModulePool, RefusesMoreModulesThanReserved) {
  ModulePool<Probe> pool;
  pool.reserve(1, 8);
  pool.emplace(0);
  EXPECT_THROW(pool.emplace(1), std::logic_error);
}

TEST(ModulePool, LargePoolsAreZeroedToo) {
  ModulePool<Probe> pool;
  pool.reserve(2000, 2048);  // over 4 MiB: the huge-page path
  for (int i = 0; i < 2000; ++i) pool.emplace(i);
  const Probe* last = pool[1999];
  for (int b = 0; b < 2048; ++b) ASSERT_EQ(last->extra[b], std::byte{0});
}

// Pages of [p, p + bytes) the kernel holds in memory.
size_t resident_pages(const std::byte* p, size_t bytes) {
  const auto page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> in(bytes / page);
  if (mincore(const_cast<std::byte*>(p), bytes, in.data()) != 0) return 0;
  size_t n = 0;
  for (const unsigned char c : in) n += c & 1;
  return n;
}

bool two_cpus() { return std::thread::hardware_concurrency() >= 2; }

// models/prefault.hpp: a pool of 64 MiB or more is made resident by two
// threads before its modules are built (with one CPU, it faults as it is written).
TEST(ModulePool, BigPoolsAreResidentBeforeTheirModulesAreBuilt) {
  constexpr size_t n = 40000, extra = 2048;  // 84 MB
  const size_t bytes = ModulePool<Probe>::mapped_bytes(n, extra);
  ASSERT_GE(bytes, size_t{64} << 20);
  ASSERT_EQ(bytes % kHugePageBytes, 0u);
  ModulePool<Probe> pool;
  pool.reserve(n, extra);
  const auto* block = reinterpret_cast<const std::byte*>(pool[0]);
  const size_t pages = bytes / static_cast<size_t>(sysconf(_SC_PAGESIZE));
  if (two_cpus()) EXPECT_EQ(resident_pages(block, bytes), pages);
  else EXPECT_LT(resident_pages(block, bytes), pages);
  for (size_t i = 0; i < n; ++i) pool.emplace(static_cast<int>(i));
  EXPECT_EQ(resident_pages(block, bytes), pages);
  for (int b = 0; b < 2048; ++b) ASSERT_EQ(pool[n - 1]->extra[b], std::byte{0});
}

TEST(ModulePool, SmallPoolsMapNothing) {
  EXPECT_EQ(ModulePool<Probe>::mapped_bytes(100, 100), 0u);
  EXPECT_EQ(ModulePool<Probe>::mapped_bytes(2000, 2048), size_t{6} << 20);  // 4.22 MB, rounded up to huge pages
}

// A block started in the background is handed, resident and zeroed, to the
// one pool of exactly its size, once.
TEST(Prefault, ABlockStartedEarlyGoesToThePoolOfItsSize) {
  constexpr size_t n = 50000, extra = 2048;
  const size_t bytes = ModulePool<Probe>::mapped_bytes(n, extra);
  const std::byte* early = prefault_in_background(bytes);
  if (!two_cpus()) {
    EXPECT_EQ(early, nullptr);  // nothing started without a second CPU
    EXPECT_EQ(take_prefaulted(bytes), nullptr);
    return;
  }
  ASSERT_NE(early, nullptr);
  EXPECT_EQ(prefaulted_bytes(), bytes);
  ModulePool<Probe> pool;
  pool.reserve(n, extra);
  EXPECT_EQ(reinterpret_cast<const std::byte*>(pool[0]), early);  // this very block
  EXPECT_EQ(prefaulted_bytes(), 0u);
  EXPECT_EQ(take_prefaulted(bytes), nullptr);  // once
  EXPECT_EQ(resident_pages(early, bytes), bytes / static_cast<size_t>(sysconf(_SC_PAGESIZE)));
  for (size_t i = 0; i < n; ++i) pool.emplace(static_cast<int>(i));
  for (int b = 0; b < 2048; ++b) ASSERT_EQ(pool[n - 1]->extra[b], std::byte{0});
}

TEST(Prefault, ABlockTakenByHandIsResidentAndZeroed) {
  const size_t bytes = size_t{96} << 20;
  const std::byte* early = prefault_in_background(bytes);
  std::byte* p = take_prefaulted(bytes);
  if (!two_cpus()) {
    EXPECT_EQ(p, nullptr);
    return;
  }
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p, early);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % kHugePageBytes, 0u);
  EXPECT_EQ(resident_pages(p, bytes), bytes / static_cast<size_t>(sysconf(_SC_PAGESIZE)));
  for (size_t at = 0; at < bytes; at += 4096) ASSERT_EQ(p[at], std::byte{0});
  EXPECT_EQ(take_prefaulted(bytes), nullptr);  // once
  munmap(p, bytes);
}

// True when no page of [p, p + bytes) is mapped any more.
bool unmapped(const std::byte* p, size_t bytes) {
  std::vector<unsigned char> in(bytes / static_cast<size_t>(sysconf(_SC_PAGESIZE)));
  return mincore(const_cast<std::byte*>(p), bytes, in.data()) != 0 && errno == ENOMEM;
}

// Foreseen for a pool that is not the first one built, or for a run that stops
// before it builds one: given back, not kept resident.
TEST(Prefault, ABlockNotTakenIsGivenBack) {
  const size_t bytes = size_t{96} << 20;
  if (!two_cpus()) {
    EXPECT_EQ(prefault_in_background(bytes), nullptr);  // nothing started, nothing held
    EXPECT_EQ(prefaulted_bytes(), 0u);
    return;
  }
  const std::byte* a = prefault_in_background(bytes);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(take_prefaulted(bytes - kHugePageBytes), nullptr);  // a pool of another size
  EXPECT_TRUE(unmapped(a, bytes));
  EXPECT_EQ(take_prefaulted(bytes), nullptr);
  const std::byte* b = prefault_in_background(bytes);
  ASSERT_NE(b, nullptr);
  discard_prefaulted();  // the run stopped
  EXPECT_TRUE(unmapped(b, bytes));
  EXPECT_EQ(prefaulted_bytes(), 0u);
  const std::byte* c = prefault_in_background(bytes);
  const std::byte* d = prefault_in_background(bytes + kHugePageBytes);  // another run's: the first goes
  ASSERT_NE(c, nullptr);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(prefaulted_bytes(), bytes + kHugePageBytes);  // (d may be mapped where c was)
  discard_prefaulted();
}

TEST(Prefault, SmallBlocksAreNotStarted) {
  prefault_in_background(size_t{8} << 20);
  EXPECT_EQ(take_prefaulted(size_t{8} << 20), nullptr);
}

}  // namespace
}  // namespace wormsim

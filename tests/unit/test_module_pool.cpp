// ModulePool (models/module_pool.hpp): modules in node order in one block, each
// followed by its zeroed extra memory, destroyed in reverse order.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "models/module_pool.hpp"

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

}  // namespace
}  // namespace wormsim

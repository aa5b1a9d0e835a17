// The process's replaced operator new (sim/large_allocations.cpp): large blocks
// on 2 MiB boundaries (where transparent huge pages can back them), small ones
// from malloc, and the standard's failure behaviour kept.
#include <gtest/gtest.h>

#include <sys/resource.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory>
#include <new>
#include <string>

namespace {

constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;

bool on_huge_page_boundary(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % kHugePage == 0; }

// The process's mapped address space now (VmSize), in bytes.
rlim_t mapped_bytes() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "VmSize:") {
      rlim_t kib = 0;
      status >> kib;
      return kib << 10;
    }
    status.ignore(1 << 16, '\n');
  }
  return 0;
}

class AddressSpaceLimit {
 public:
  explicit AddressSpaceLimit(rlim_t bytes) {
    getrlimit(RLIMIT_AS, &saved_);
    const rlimit tight{bytes, saved_.rlim_max};
    ok_ = setrlimit(RLIMIT_AS, &tight) == 0;
  }
  ~AddressSpaceLimit() { setrlimit(RLIMIT_AS, &saved_); }
  bool ok() const { return ok_; }

 private:
  rlimit saved_{};
  bool ok_ = false;
};

TEST(LargeAllocations, AMegabyteOrMoreStartsOnAHugePageBoundary) {
  for (std::size_t bytes : {std::size_t{1} << 20, std::size_t{3} << 20, (std::size_t{5} << 20) + 123}) {
    SCOPED_TRACE(bytes);
    const std::unique_ptr<char[]> block(new char[bytes]);
    EXPECT_TRUE(on_huge_page_boundary(block.get()));
    std::memset(block.get(), 0x5a, bytes);  // all of it is there to write
    EXPECT_EQ(block[bytes - 1], 0x5a);
  }
  void* p = ::operator new(std::size_t{4} << 20);
  EXPECT_TRUE(on_huge_page_boundary(p));
  ::operator delete(p, std::size_t{4} << 20);
}

TEST(LargeAllocations, SmallBlocksAreMallocsAsBefore) {
  // Many small blocks in a row come from malloc's heap: consecutive, not 2 MiB apart.
  const std::unique_ptr<int> a(new int(1)), b(new int(2));
  const auto gap = reinterpret_cast<std::uintptr_t>(b.get()) - reinterpret_cast<std::uintptr_t>(a.get());
  EXPECT_LT(gap < kHugePage ? gap : -gap, kHugePage);
  EXPECT_EQ(*a + *b, 3);
  const std::unique_ptr<char[]> under(new char[(std::size_t{1} << 20) - 1]);
  under[0] = 1;
  EXPECT_EQ(under[0], 1);
}

// Under an address-space limit that has room for the block but not for its
// rounding to 2 MiB units and alignment, the block is still given (malloc's).
TEST(LargeAllocations, ATightAddressSpaceLimitStillGetsTheBlock) {
  const std::size_t bytes = std::size_t{4} << 20;
  const AddressSpaceLimit limit(mapped_bytes() + bytes + (std::size_t{1} << 20));
  ASSERT_TRUE(limit.ok());
  char* block = new char[bytes];
  block[bytes - 1] = 7;
  EXPECT_EQ(block[bytes - 1], 7);
  delete[] block;
}

TEST(LargeAllocations, FailureThrowsOrReturnsNullAsTheStandardSays) {
  const std::size_t impossible = std::size_t{1} << 60;
  EXPECT_THROW(static_cast<void>(::operator new(impossible)), std::bad_alloc);
  EXPECT_THROW(static_cast<void>(::operator new[](impossible)), std::bad_alloc);
  EXPECT_EQ(::operator new(impossible, std::nothrow), nullptr);
  EXPECT_EQ(::operator new[](impossible, std::nothrow), nullptr);
}

// The new-handler is called before giving up, and may free what is needed.
TEST(LargeAllocations, TheNewHandlerIsAskedFirst) {
  static int calls = 0;
  calls = 0;
  const std::new_handler previous = std::set_new_handler([] {
    ++calls;
    std::set_new_handler(nullptr);  // nothing to free here: the next failure throws
  });
  EXPECT_THROW(static_cast<void>(::operator new(std::size_t{1} << 60)), std::bad_alloc);
  std::set_new_handler(previous);
  EXPECT_EQ(calls, 1);
}

}  // namespace

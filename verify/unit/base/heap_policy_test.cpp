// Unit: after keep_freed_heap, a large block freed at the top of the heap stays the process's (for
// the next world) rather than going back to the kernel.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include "base/heap_policy.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace locksim {
namespace {

TEST(HeapPolicy, AFreedBlockStaysMappedForTheNextWorld) {
#if !defined(__GLIBC__)
  GTEST_SKIP() << "the policy is glibc's malloc's";
#elif defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "AddressSanitizer replaces malloc";
#else
  keep_freed_heap();
  constexpr size_t kBlock = 8 << 20;  // far above glibc's default trim threshold, below the mmap one set
  void* volatile block = std::malloc(kBlock);  // volatile: the compiler may not elide the pair
  ASSERT_NE(block, nullptr);
  std::memset(block, 1, kBlock);
  std::free(block);
  // The heap's releasable top: trimmed to under 128 KiB by default, kept whole under the policy.
  EXPECT_GE(mallinfo2().keepcost, kBlock);
#endif
}

}  // namespace
}  // namespace locksim

// Unit: FramePool hands a freed frame to the next frame of its size class, never to another class's,
// and big frames pass straight through to operator new.
#include <gtest/gtest.h>

#include <cstring>

#include "base/frame_pool.hpp"

namespace locksim {
namespace {

TEST(FramePool, AFreedFrameIsReusedByTheNextOfItsSizeClassOnly) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "under AddressSanitizer every frame comes from operator new";
#else
  void* a = FramePool::allocate(200);  // class 192..256
  std::memset(a, 0xab, 200);
  FramePool::deallocate(a, 200);
  void* other_class = FramePool::allocate(100);  // class 64..128: not a's block
  EXPECT_NE(other_class, a);
  void* same_class = FramePool::allocate(250);  // a's class: gets a's block back
  EXPECT_EQ(same_class, a);
  std::memset(same_class, 0xcd, 250);  // the whole class's size is usable
  FramePool::deallocate(same_class, 250);
  FramePool::deallocate(other_class, 100);
  void* big = FramePool::allocate(1 << 20);  // beyond the classes
  std::memset(big, 0, 1 << 20);
  FramePool::deallocate(big, 1 << 20);
#endif
}

}  // namespace
}  // namespace locksim

#pragma once
// FramePool: where lock clients' coroutine frames come from. A simulated minute starts and ends
// hundreds of thousands of short coroutines (a call, its retry loop, the lock step awaiting it), each
// a heap frame of a few hundred bytes; a freed frame is kept for the next of its size class instead
// of going back to malloc. Per thread, so no locking; what a thread keeps is freed when it ends.
// Under AddressSanitizer every frame comes from operator new, so its checks see each one.
#include <cstddef>

namespace locksim {

class FramePool {
 public:
  static void* allocate(size_t size);
  static void deallocate(void* frame, size_t size) noexcept;
};

}  // namespace locksim

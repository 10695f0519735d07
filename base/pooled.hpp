#pragma once
// pooled<T>(args...): std::make_shared's object, its memory from FramePool's size classes. For the
// small shared records a simulated world makes and drops by the hundred thousand (a waiter, a call
// in flight, a request on the link), which would otherwise each be a malloc and a free.
#include <cstddef>
#include <memory>
#include <utility>

#include "base/frame_pool.hpp"

namespace locksim {

template <typename T>
struct PoolAllocator {
  using value_type = T;
  PoolAllocator() = default;
  template <typename U>
  PoolAllocator(const PoolAllocator<U>&) noexcept {}  // NOLINT: rebinding, as allocate_shared does
  T* allocate(size_t n) { return static_cast<T*>(FramePool::allocate(n * sizeof(T))); }
  void deallocate(T* p, size_t n) noexcept { FramePool::deallocate(p, n * sizeof(T)); }
  template <typename U>
  bool operator==(const PoolAllocator<U>&) const noexcept {
    return true;
  }
};

template <typename T, typename... Args>
std::shared_ptr<T> pooled(Args&&... args) {
  return std::allocate_shared<T>(PoolAllocator<T>{}, std::forward<Args>(args)...);
}

}  // namespace locksim

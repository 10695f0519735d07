#include "base/frame_pool.hpp"

#include <array>
#include <new>

namespace locksim {
namespace {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kPooled = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kPooled = false;
#else
constexpr bool kPooled = true;
#endif
#else
constexpr bool kPooled = true;
#endif

// Size classes of 64 bytes, up to 4 KiB; a larger frame is not pooled.
constexpr size_t kGranule = 64;
constexpr size_t kClasses = 64;

struct FreeFrame {
  FreeFrame* next;
};

// Set when this thread's lists are gone: a frame freed after that (by a static's destructor at
// exit, say) goes straight back to operator delete. Trivially destructible, so readable till the end.
thread_local bool lists_gone = false;

struct Lists {
  std::array<FreeFrame*, kClasses> heads{};
  ~Lists() {
    lists_gone = true;
    for (FreeFrame* head : heads)
      while (head != nullptr) {
        FreeFrame* next = head->next;
        ::operator delete(static_cast<void*>(head));
        head = next;
      }
  }
};

thread_local Lists lists;

size_t size_class(size_t size) { return (size + kGranule - 1) / kGranule - 1; }

}  // namespace

void* FramePool::allocate(size_t size) {
  const size_t c = size_class(size);
  if (!kPooled || c >= kClasses) return ::operator new(size);
  // Always the class's whole size, even unpooled: the frame may be freed onto a live list.
  if (lists_gone) return ::operator new((c + 1) * kGranule);
  if (FreeFrame* frame = lists.heads[c]) {
    lists.heads[c] = frame->next;
    return frame;
  }
  return ::operator new((c + 1) * kGranule);
}

void FramePool::deallocate(void* frame, size_t size) noexcept {
  const size_t c = size_class(size);
  if (!kPooled || c >= kClasses || lists_gone) {
    ::operator delete(frame);
    return;
  }
  auto* free = ::new (frame) FreeFrame{lists.heads[c]};
  lists.heads[c] = free;
}

}  // namespace locksim

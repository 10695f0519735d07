#include "bench/counted_new.hpp"

#include <cstdlib>
#include <new>

namespace {
uint64_t count = 0;
}  // namespace

namespace locksim::bench {
uint64_t news_made() { return count; }
}  // namespace locksim::bench

// In a file of their own: the compiler sees no new expression paired with these bodies.
void* operator new(std::size_t size) {
  ++count;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

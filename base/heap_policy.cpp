#include "base/heap_policy.hpp"

#include <cstdlib>  // defines __GLIBC__ on glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace locksim {

void keep_freed_heap() {
#if defined(__GLIBC__)
  // Up to 1 GiB of free heap top stays mapped, and blocks up to 32 MiB (a long history's index,
  // the atom table) come from the heap too, so that freeing one does not unmap it. (Setting them
  // stops glibc from moving these thresholds itself.)
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
#endif
}

}  // namespace locksim

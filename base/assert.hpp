#pragma once
// LS_ASSERT: invariant checks that stay on in every build, in every layer. A failed assert is
// a locksim bug, never a user's mistake (those are error replies or error messages).
#include <cstdio>
#include <cstdlib>

#define LS_ASSERT(cond)                                                                    \
  do {                                                                                     \
    if (!(cond)) {                                                                         \
      std::fprintf(stderr, "locksim: assertion failed: %s (%s:%d)\n", #cond, __FILE__,    \
                   __LINE__);                                                              \
      std::abort();                                                                        \
    }                                                                                      \
  } while (0)

#pragma once
// Counts every operator new of a benchmark binary that links bench/counted_new.cpp (which replaces
// the global operator new and delete). One thread runs the benchmarks, so a plain count does.
#include <cstdint>

namespace locksim::bench {

// operator new calls so far. The Lua engine's own allocations go through its allocator function
// to malloc and are not among them.
uint64_t news_made();

}  // namespace locksim::bench

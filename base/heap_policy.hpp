#pragma once
// How a process that runs worlds one after another treats the heap it frees: it keeps it for the
// next world. glibc returns a freed heap top to the kernel once 128 KiB or so of it is free, and a
// world of some size then faults all its pages in again; on a virtual machine a page fault costs
// microseconds (measured: 11,600 more of them cost the standard contention world 20% of its time).
// Called first thing by locksim's main and by the benchmarks' (bench/bench_main.cpp).
namespace locksim {

void keep_freed_heap();

}  // namespace locksim

// Every benchmark binary's main: the heap policy locksim's own main sets (base/heap_policy.hpp), so
// that what is timed is what a locksim run does, then Google Benchmark's usual main.
#include <benchmark/benchmark.h>

#include "base/heap_policy.hpp"

int main(int argc, char** argv) {
  locksim::keep_freed_heap();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}

#pragma once
// Checks of option values that CLI11 runs as it parses, for what its own would misread: a negative
// number read into an unsigned option as 2^64 - 1, a number past the type clamped, "nan" seconds.
#include <CLI/CLI.hpp>

#include <cstdint>

namespace locksim::app {

// A whole number from `lo` to `hi`, written in digits (a leading '-' only where lo < 0).
CLI::Validator integer_in(int64_t lo, uint64_t hi);

// A finite number of seconds from 0 to `hi`.
CLI::Validator seconds_up_to(double hi);

// Run ms since the epoch a clock may start at: 0 (1970) to the end of the year 9999.
inline constexpr int64_t kLatestStartMs = 253'402'300'799'999;

}  // namespace locksim::app

#pragma once
// Redis's own lrand48 (src/rand.c), which backs math.random inside scripts. Redis 7.0 starts it at
// the classic default state and never reseeds it per script, so the sequence runs on across
// scripts; math.randomseed(n) resets it.
#include <cstdint>

namespace locksim::engine {

class Rand48 {
 public:
  static constexpr int32_t kMax = 2147483647;  // REDIS_LRAND48_MAX
  int32_t next() {
    state_ = (0x5DEECE66DULL * state_ + 0xB) & ((1ULL << 48) - 1);
    return static_cast<int32_t>(state_ >> 17);
  }
  void seed(int32_t seed) {
    state_ = (static_cast<uint64_t>(static_cast<uint32_t>(seed)) << 16) | 0x330E;
  }

  uint64_t state() const { return state_; }

 private:
  uint64_t state_ = 0x1234ABCD330EULL;
};

}  // namespace locksim::engine

#pragma once
// Rng: one seeded generator per world, split per purpose ("network", "faults", "client:A") so that
// adding a draw for one purpose never reshuffles another's. xoshiro256** seeded through splitmix64,
// with its own range function: the same seed gives the same numbers with any standard library.
#include <cstdint>
#include <string_view>

namespace locksim::world {

class Rng {
 public:
  explicit Rng(uint64_t seed) {
    uint64_t x = seed;
    for (uint64_t& s : state_) s = splitmix64(x);
  }

  // An independent stream for `purpose`, derived from this generator's seed material.
  Rng split(std::string_view purpose) const {
    uint64_t h = 1469598103934665603ULL;  // FNV-1a
    for (const char c : purpose) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ULL;
    return Rng(state_[0] ^ (h * 0x9E3779B97F4A7C15ULL) ^ state_[2]);
  }

  uint64_t next() {
    const uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  // Uniform in [lo, hi] (inclusive), by multiply-shift (Lemire), deterministic everywhere.
  int64_t range(int64_t lo, int64_t hi) {
    if (hi <= lo) return lo;
    const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
    const unsigned __int128 product = static_cast<unsigned __int128>(next()) * span;
    return lo + static_cast<int64_t>(product >> 64);
  }

  // True with probability numerator/denominator.
  bool chance(uint64_t numerator, uint64_t denominator) {
    if (numerator == 0 || denominator == 0) return false;
    return static_cast<uint64_t>(range(0, static_cast<int64_t>(denominator) - 1)) < numerator;
  }

 private:
  static uint64_t splitmix64(uint64_t& x) {
    uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

  uint64_t state_[4];
};

}  // namespace locksim::world

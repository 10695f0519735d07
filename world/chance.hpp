#pragma once
// Chance keyed to identity: every random decision of a world is a function of its seed and a stable
// name of what it decides (a message: whose link, which way, what request and its how-manieth like
// it; a token: whose and what for), never the next number of a stream shared with other decisions.
// So a configuration that sends one message more leaves every other message's fate as it was, and
// two configurations run under one seed compare like with like (DESIGN.md, "Determinism").
#include <algorithm>
#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/state_writer.hpp"
#include "world/rng.hpp"

namespace locksim::world {

// A 64-bit name built from parts, in order. Parts are length-delimited, so ("ab", "c") and
// ("a", "bc") name different things.
class Identity {
 public:
  Identity() = default;
  explicit Identity(uint64_t value) : value_(value) {}
  Identity& operator<<(std::string_view part) {
    *this << static_cast<int64_t>(part.size());
    for (const char c : part) value_ = (value_ ^ static_cast<unsigned char>(c)) * kPrime;
    return *this;
  }
  Identity& operator<<(int64_t part) {
    for (int i = 0; i < 8; ++i) value_ = (value_ ^ ((static_cast<uint64_t>(part) >> (8 * i)) & 0xFF)) * kPrime;
    return *this;
  }
  uint64_t value() const { return value_; }

 private:
  static constexpr uint64_t kPrime = 1099511628211ULL;  // FNV-1a
  uint64_t value_ = 1469598103934665603ULL;
};

// The generator for one decision: `what` (the identity) and `aspect` (latency, loss, ...) under `seed`.
inline Rng chance_of(uint64_t seed, uint64_t what, std::string_view aspect) {
  return Rng(seed ^ (Identity(what) << aspect).value());
}

// How many times each name has been used: the n-th request alike (the same client, role, lock,
// thread and server) is a different message from the first, and stays the n-th whatever else the
// client sends. Looked up only, never iterated.
class Occurrences {
 public:
  // `base` made unique by its count so far.
  uint64_t next(const Identity& base) {
    uint32_t& n = counts_[base.value()];
    return (Identity(base) << static_cast<int64_t>(n++)).value();
  }

  // Each name's count, in the order of the names, as state (base/state_writer.hpp).
  void describe(StateWriter& out) const {
    std::vector<std::pair<uint64_t, uint32_t>> sorted(counts_.begin(), counts_.end());
    std::sort(sorted.begin(), sorted.end());
    for (const auto& [name, n] : sorted) out.field("name", static_cast<int64_t>(name)).field("count", n);
  }

 private:
  std::unordered_map<uint64_t, uint32_t> counts_;
};

}  // namespace locksim::world

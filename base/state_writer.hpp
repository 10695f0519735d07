#pragma once
// StateWriter: a world's state written down as data, field by field, in an order the writer fixes,
// and its fingerprint. Two states that write the same text are the same state for a bounded search
// (issue 38, world-as-data.md): what a part leaves out it must not need for its future. The text is
// plain, so that two states that should be one can be told apart by diffing what they wrote.
#include <cstdint>
#include <string>
#include <string_view>

namespace locksim {

struct Fingerprint {
  uint64_t high = 0, low = 0;
  bool operator==(const Fingerprint&) const = default;
  auto operator<=>(const Fingerprint&) const = default;
};

class StateWriter {
 public:
  // A field: its name, then its value. A string is written with its length, so that no two
  // sequences of fields write the same text.
  StateWriter& field(std::string_view name, int64_t value);
  StateWriter& field(std::string_view name, std::string_view value);
  StateWriter& flag(std::string_view name, bool value) { return field(name, int64_t{value}); }
  // A group of fields (a client, a key); groups nest.
  StateWriter& begin(std::string_view name);
  StateWriter& end();

  const std::string& text() const { return text_; }
  // The SHA1 of text(), its first 128 bits.
  Fingerprint fingerprint() const;

 private:
  void indent();
  std::string text_;
  int depth_ = 0;
};

}  // namespace locksim

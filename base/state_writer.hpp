#pragma once
// StateWriter: a world's state written down as data, field by field, in an order the writer fixes,
// and its fingerprint. Two states that write the same text are the same state for a bounded search
// (issue 38, world-as-data.md): what a part leaves out it must not need for its future. The text is
// plain, so that two states that should be one can be told apart by diffing what they wrote.
#include <cstdint>
#include <map>
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
  // An id the world counts up as it runs (an op's, a call's, a spawned task's), written as its place
  // among the ids of `space` met so far in this description: two states alike but for how many
  // came before them are one (a view, as TLC's VIEW). The id's value must act only as a name.
  StateWriter& id(std::string_view name, std::string_view space, int64_t raw);
  // How `space` was renumbered: raw id -> the place written.
  std::map<int64_t, int64_t> ids(std::string_view space) const;
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
  std::map<std::string, std::map<int64_t, int64_t>, std::less<>> spaces_;
};

}  // namespace locksim

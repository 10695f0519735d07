#pragma once
// The value types a key can hold. Each keeps the order Redis 7.0 shows for small objects, so that
// replies match a live server: hashes in insertion order (listpack), sorted sets by (score, member),
// integer sets in numeric order (intset). Each also remembers the encoding Redis would have chosen
// (OBJECT ENCODING shows it, and a few replies depend on it), including Redis's one-way conversions:
// a container that outgrew its compact encoding keeps the big one until the key is deleted.
#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace locksim::engine {

// A hash in insertion order, as Redis's listpack encoding keeps it (up to 512 fields of at most 64
// bytes; beyond that real Redis switches to a hashtable whose order is unspecified; docs/fidelity.md
// says so).
class Hash {
 public:
  // hash-max-listpack-entries and hash-max-listpack-value: Redis 7.0's compiled-in defaults (512, not
  // the 128 of sorted sets), which Debian's redis.conf keeps.
  static constexpr size_t kListpackEntries = 512, kListpackValue = 64;
  using Field = std::pair<std::string, std::string>;
  const std::string* get(std::string_view field) const;
  std::string* get(std::string_view field);
  // Returns true when the field is new.
  bool set(std::string_view field, std::string_view value);
  bool erase(std::string_view field);
  size_t size() const { return fields_.size(); }
  bool empty() const { return fields_.empty(); }
  const std::vector<Field>& fields() const { return fields_; }
  // False once a field or value longer than kListpackValue was set or the hash held more than
  // kListpackEntries fields (Redis's hashTypeSet converts to a hashtable and never back).
  bool is_listpack() const { return listpack_; }
  // Same fields in the same order, and the same encoding.
  bool operator==(const Hash&) const = default;

 private:
  std::vector<Field> fields_;
  bool listpack_ = true;
};

using List = std::deque<std::string>;

// A sorted set: members by score, ties broken by member bytes (memcmp), as Redis's skiplist.
class ZSet {
 public:
  // zset-max-listpack-entries and zset-max-listpack-value, Redis 7.0's defaults.
  static constexpr size_t kListpackEntries = 128, kListpackValue = 64;
  using Item = std::pair<double, std::string>;
  // An empty sorted set that is a skiplist from the start, as Redis's createZsetObject makes it
  // (the set operations build their result in one; ZRANGESTORE too when the range is known to
  // hold more than a listpack's worth). A new key's sorted set starts as a listpack instead.
  static ZSet skiplist() {
    ZSet zset;
    zset.listpack_ = false;
    return zset;
  }
  const double* score(std::string_view member) const;
  // Returns true when the member is new.
  bool set(std::string_view member, double score);
  bool erase(std::string_view member);
  size_t size() const { return scores_.size(); }
  bool empty() const { return scores_.empty(); }
  const std::set<Item>& ordered() const { return ordered_; }
  // 0-based rank in ascending order; the member must exist.
  size_t rank(std::string_view member) const;
  // False once a new member longer than kListpackValue arrived or the set held more than
  // kListpackEntries members (Redis's zsetAdd converts to a skiplist and never back).
  bool is_listpack() const { return listpack_; }
  // Whether adding `member` (not yet present) would make Redis convert a listpack to a skiplist.
  bool add_converts(std::string_view member) const {
    return size() + 1 > kListpackEntries || member.size() > kListpackValue;
  }
  // Same members with bit-identical scores (0 and -0 differ: ZSCORE shows the sign), same encoding.
  bool operator==(const ZSet& other) const;

 private:
  std::map<std::string, double, std::less<>> scores_;
  std::set<Item> ordered_;
  bool listpack_ = true;
};

// A set as Redis 7.0's t_set.c keeps it: an intset (distinct int64s in ascending order) while every
// member is an integer in Redis's canonical form (string2ll: no '+', no leading zeros, no "-0") and
// there are at most 512 of them; a hashtable from then on, even if it shrinks back. An intset's
// order is Redis's own (SMEMBERS is sorted); a hashtable's order is unspecified in Redis, and the
// fake uses byte order (docs/fidelity.md).
class Set {
 public:
  enum class Encoding : uint8_t { IntSet, HashTable };
  // set-max-intset-entries, Redis 7.0's default.
  static constexpr size_t kIntsetEntries = 512;

  // An empty intset: what Redis's set operations start their result from (createIntsetObject).
  Set() = default;
  // An empty set of the encoding Redis creates for a first member (setTypeCreate).
  static Set for_member(std::string_view first);

  // Returns true when the member is new (setTypeAdd).
  bool add(std::string_view member);
  // Returns true when the member was there (setTypeRemove).
  bool remove(std::string_view member);
  bool contains(std::string_view member) const;
  size_t size() const { return encoding_ == Encoding::IntSet ? ints_.size() : strings_.size(); }
  bool empty() const { return size() == 0; }
  Encoding encoding() const { return encoding_; }
  // Every member in iteration order: numeric for an intset, byte order for a hashtable.
  std::vector<std::string> members() const;
  bool operator==(const Set&) const = default;

 private:
  void convert_to_hashtable();

  Encoding encoding_ = Encoding::IntSet;
  std::set<int64_t> ints_;                      // while an intset
  std::set<std::string, std::less<>> strings_;  // once a hashtable
};

using Value = std::variant<std::string, Hash, List, ZSet, Set>;

inline constexpr int64_t kNoExpire = -1;

// How Redis made a string's object, which OBJECT ENCODING shows:
// - Encoded: tryObjectEncoding chose (SET and most writes): int, embstr or raw by content;
// - Created: createStringObject (INCRBYFLOAT's result): embstr up to 44 bytes, else raw, never int;
// - Raw: an sds grown in place (APPEND, SETRANGE; dbUnshareStringValue): raw whatever it holds.
enum class StringForm : uint8_t { Encoded, Created, Raw };

struct Entry {
  Value value;
  int64_t expire_at_ms = kNoExpire;  // absolute, on the engine's clock
  StringForm string_form = StringForm::Encoded;  // a string's (any write that makes one anew resets it)
  bool operator==(const Entry&) const = default;
};

// TYPE's name for a value: string, hash, list, zset, set.
std::string_view type_name(const Value& value);

}  // namespace locksim::engine

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

// The sizes past which Redis gives a container its big encoding: server config, read at every
// write as Redis reads server.*_max_* (CONFIG SET changes what later writes do, not what is
// stored). The defaults are Redis 7.0's compiled-in ones, which Debian's redis.conf keeps.
struct EncodingLimits {
  size_t hash_listpack_entries = 512;  // hash-max-listpack-entries (512, not the 128 of sorted sets)
  size_t hash_listpack_value = 64;     // hash-max-listpack-value
  size_t zset_listpack_entries = 128;  // zset-max-listpack-entries
  size_t zset_listpack_value = 64;     // zset-max-listpack-value
  size_t set_intset_entries = 512;     // set-max-intset-entries
};

// A hash in insertion order, as Redis's listpack encoding keeps it (up to 512 fields of at most 64
// bytes; beyond that real Redis switches to a hashtable whose order is unspecified; docs/fidelity.md
// says so).
class Hash {
 public:
  using Field = std::pair<std::string, std::string>;
  const std::string* get(std::string_view field) const;
  std::string* get(std::string_view field);
  // Returns true when the field is new.
  bool set(std::string_view field, std::string_view value, const EncodingLimits& limits);
  bool erase(std::string_view field);
  size_t size() const { return fields_.size(); }
  bool empty() const { return fields_.empty(); }
  const std::vector<Field>& fields() const { return fields_; }
  // False once a field or value longer than hash-max-listpack-value was set or the hash held more
  // than hash-max-listpack-entries fields (Redis's hashTypeSet converts to a hashtable and never back).
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
  bool set(std::string_view member, double score, const EncodingLimits& limits);
  bool erase(std::string_view member);
  size_t size() const { return scores_.size(); }
  bool empty() const { return scores_.empty(); }
  const std::set<Item>& ordered() const { return ordered_; }
  // 0-based rank in ascending order; the member must exist.
  size_t rank(std::string_view member) const;
  // False once a new member longer than zset-max-listpack-value arrived or the set held more than
  // zset-max-listpack-entries members (Redis's zsetAdd converts to a skiplist and never back).
  bool is_listpack() const { return listpack_; }
  // Whether adding `member` (not yet present) would make Redis convert a listpack to a skiplist.
  bool add_converts(std::string_view member, const EncodingLimits& limits) const {
    return size() + 1 > limits.zset_listpack_entries || member.size() > limits.zset_listpack_value;
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

  // An empty intset: what Redis's set operations start their result from (createIntsetObject).
  Set() = default;
  // An empty set of the encoding Redis creates for a first member (setTypeCreate).
  static Set for_member(std::string_view first);

  // Returns true when the member is new (setTypeAdd).
  bool add(std::string_view member, const EncodingLimits& limits);
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

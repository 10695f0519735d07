#pragma once
// The value types a key can hold. Each keeps the order Redis 7.0 shows for small objects, so that
// replies match a live server: hashes in insertion order (listpack), sorted sets by (score, member).
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

// A hash in insertion order, as Redis's listpack encoding keeps it (up to 128 fields; beyond that
// real Redis switches to a hashtable whose order is unspecified; docs/fidelity.md says so).
class Hash {
 public:
  using Field = std::pair<std::string, std::string>;
  const std::string* get(std::string_view field) const;
  std::string* get(std::string_view field);
  // Returns true when the field is new.
  bool set(std::string_view field, std::string_view value);
  bool erase(std::string_view field);
  size_t size() const { return fields_.size(); }
  bool empty() const { return fields_.empty(); }
  const std::vector<Field>& fields() const { return fields_; }

 private:
  std::vector<Field> fields_;
};

using List = std::deque<std::string>;

// A sorted set: members by score, ties broken by member bytes (memcmp), as Redis's skiplist.
class ZSet {
 public:
  using Item = std::pair<double, std::string>;
  const double* score(std::string_view member) const;
  // Returns true when the member is new.
  bool set(std::string_view member, double score);
  bool erase(std::string_view member);
  size_t size() const { return scores_.size(); }
  bool empty() const { return scores_.empty(); }
  const std::set<Item>& ordered() const { return ordered_; }
  // 0-based rank in ascending order; the member must exist.
  size_t rank(std::string_view member) const;

 private:
  std::map<std::string, double, std::less<>> scores_;
  std::set<Item> ordered_;
};

using Value = std::variant<std::string, Hash, List, ZSet>;

inline constexpr int64_t kNoExpire = -1;

struct Entry {
  Value value;
  int64_t expire_at_ms = kNoExpire;  // absolute, on the engine's clock
};

// TYPE's name for a value: string, hash, list, zset.
std::string_view type_name(const Value& value);

}  // namespace locksim::engine

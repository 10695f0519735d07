#include "engine/types.hpp"

#include <bit>

#include "base/assert.hpp"
#include "engine/numbers.hpp"

namespace locksim::engine {

const std::string* Hash::get(std::string_view field) const {
  for (const auto& f : fields_)
    if (f.first == field) return &f.second;
  return nullptr;
}

std::string* Hash::get(std::string_view field) {
  for (auto& f : fields_)
    if (f.first == field) return &f.second;
  return nullptr;
}

bool Hash::set(std::string_view field, std::string_view value, const EncodingLimits& limits) {
  if (field.size() > limits.hash_listpack_value || value.size() > limits.hash_listpack_value) listpack_ = false;
  if (std::string* existing = get(field)) {
    existing->assign(value);
    return false;
  }
  fields_.emplace_back(std::string(field), std::string(value));
  if (fields_.size() > limits.hash_listpack_entries) listpack_ = false;
  return true;
}

bool Hash::erase(std::string_view field) {
  for (auto it = fields_.begin(); it != fields_.end(); ++it) {
    if (it->first == field) {
      fields_.erase(it);
      return true;
    }
  }
  return false;
}

const double* ZSet::score(std::string_view member) const {
  auto it = scores_.find(member);
  return it == scores_.end() ? nullptr : &it->second;
}

bool ZSet::set(std::string_view member, double score, const EncodingLimits& limits) {
  auto it = scores_.find(member);
  if (it != scores_.end()) {
    if (it->second == score) return false;
    const size_t removed = ordered_.erase(Item{it->second, it->first});
    LS_ASSERT(removed == 1);
    it->second = score;
    ordered_.emplace(score, it->first);
    return false;
  }
  if (add_converts(member, limits)) listpack_ = false;
  auto [inserted, ok] = scores_.emplace(std::string(member), score);
  LS_ASSERT(ok);
  ordered_.emplace(score, inserted->first);
  LS_ASSERT(ordered_.size() == scores_.size());
  return true;
}

bool ZSet::erase(std::string_view member) {
  auto it = scores_.find(member);
  if (it == scores_.end()) return false;
  const size_t removed = ordered_.erase(Item{it->second, it->first});
  LS_ASSERT(removed == 1);
  scores_.erase(it);
  return true;
}

bool ZSet::operator==(const ZSet& other) const {
  if (listpack_ != other.listpack_ || scores_.size() != other.scores_.size()) return false;
  for (auto a = scores_.begin(), b = other.scores_.begin(); a != scores_.end(); ++a, ++b)
    if (a->first != b->first || std::bit_cast<uint64_t>(a->second) != std::bit_cast<uint64_t>(b->second)) return false;
  return true;
}

size_t ZSet::rank(std::string_view member) const {
  const double* s = score(member);
  LS_ASSERT(s != nullptr);
  auto it = ordered_.find(Item{*s, std::string(member)});
  LS_ASSERT(it != ordered_.end());
  return static_cast<size_t>(std::distance(ordered_.begin(), it));
}

Set Set::for_member(std::string_view first) {
  Set set;
  if (!parse_int64(first)) set.encoding_ = Encoding::HashTable;
  return set;
}

bool Set::add(std::string_view member, const EncodingLimits& limits) {
  if (encoding_ == Encoding::IntSet) {
    if (auto value = parse_int64(member)) {
      if (!ints_.insert(*value).second) return false;
      if (ints_.size() > limits.set_intset_entries) convert_to_hashtable();
      return true;
    }
    // A member that is not an integer: the intset cannot hold it, so it becomes a hashtable.
    convert_to_hashtable();
  }
  return strings_.emplace(member).second;
}

bool Set::remove(std::string_view member) {
  if (encoding_ == Encoding::IntSet) {
    auto value = parse_int64(member);
    return value && ints_.erase(*value) == 1;
  }
  auto it = strings_.find(member);
  if (it == strings_.end()) return false;
  strings_.erase(it);
  return true;
}

bool Set::contains(std::string_view member) const {
  if (encoding_ == Encoding::IntSet) {
    auto value = parse_int64(member);
    return value && ints_.contains(*value);
  }
  return strings_.find(member) != strings_.end();
}

std::vector<std::string> Set::members() const {
  std::vector<std::string> out;
  out.reserve(size());
  if (encoding_ == Encoding::IntSet) {
    for (int64_t v : ints_) out.push_back(format_int64(v));
  } else {
    out.assign(strings_.begin(), strings_.end());
  }
  return out;
}

void Set::convert_to_hashtable() {
  LS_ASSERT(encoding_ == Encoding::IntSet);
  for (int64_t v : ints_) strings_.insert(format_int64(v));
  ints_.clear();
  encoding_ = Encoding::HashTable;
}

std::string_view type_name(const Value& value) {
  switch (value.index()) {
    case 0: return "string";
    case 1: return "hash";
    case 2: return "list";
    case 3: return "zset";
    case 4: return "set";
  }
  return "none";
}

}  // namespace locksim::engine

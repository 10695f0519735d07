#include "engine/types.hpp"

#include "base/assert.hpp"

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

bool Hash::set(std::string_view field, std::string_view value) {
  if (std::string* existing = get(field)) {
    existing->assign(value);
    return false;
  }
  fields_.emplace_back(std::string(field), std::string(value));
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

bool ZSet::set(std::string_view member, double score) {
  auto it = scores_.find(member);
  if (it != scores_.end()) {
    if (it->second == score) return false;
    const size_t removed = ordered_.erase(Item{it->second, it->first});
    LS_ASSERT(removed == 1);
    it->second = score;
    ordered_.emplace(score, it->first);
    return false;
  }
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

size_t ZSet::rank(std::string_view member) const {
  const double* s = score(member);
  LS_ASSERT(s != nullptr);
  auto it = ordered_.find(Item{*s, std::string(member)});
  LS_ASSERT(it != ordered_.end());
  return static_cast<size_t>(std::distance(ordered_.begin(), it));
}

std::string_view type_name(const Value& value) {
  switch (value.index()) {
    case 0: return "string";
    case 1: return "hash";
    case 2: return "list";
    case 3: return "zset";
  }
  return "none";
}

}  // namespace locksim::engine

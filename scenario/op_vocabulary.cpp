#include "scenario/op_vocabulary.hpp"

#include <algorithm>

namespace locksim::scenario {
namespace {

std::string join_words(const std::vector<std::string_view>& words, const char* last) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) {
    if (i) out += i + 1 == words.size() ? last : ", ";
    out += words[i];
  }
  return out;
}

}  // namespace

bool OpInfo::takes(std::string_view key) const { return std::find(keys.begin(), keys.end(), key) != keys.end(); }

const std::vector<OpInfo>& op_kinds() {
  using K = world::OpSpec::Kind;
  static const std::vector<OpInfo> table = {
      {K::Lock, {"lease_ms", "lease_s"}},
      {K::TryLock, {"wait_ms", "lease_ms", "lease_s"}},
      {K::Unlock, {}},
      {K::ForceUnlock, {}},
      {K::Work, {"for_ms"}, false},
      {K::Write, {}},
      {K::IsLocked, {}},
      {K::IsHeld, {}},
  };
  return table;
}

const OpInfo* find_op(std::string_view name) {
  for (const OpInfo& info : op_kinds())
    if (info.name() == name) return &info;
  return nullptr;
}

std::string op_list() {
  std::vector<std::string_view> names;
  for (const OpInfo& info : op_kinds()) names.push_back(info.name());
  return join_words(names, " or ");
}

std::string ops_taking(std::string_view key) {
  std::vector<std::string_view> names;
  for (const OpInfo& info : op_kinds())
    if (key == "side" ? info.names_side : info.takes(key)) names.push_back(info.name());
  return join_words(names, " and ");
}

}  // namespace locksim::scenario

#include "sim/rendered_key.hpp"

#include <utility>
#include <vector>

#include "model/rendered.hpp"

namespace locksim::sim {

std::string render_key(const engine::Keyspace& keyspace, const std::string& key, int64_t now_ms) {
  const auto& entries = keyspace.entries();
  auto it = entries.find(key);
  if (it == entries.end()) return "";
  const engine::Entry& entry = it->second;
  if (entry.expire_at_ms != engine::kNoExpire && now_ms > entry.expire_at_ms) return "";
  if (const auto* s = std::get_if<std::string>(&entry.value)) return *s;
  if (const auto* h = std::get_if<engine::Hash>(&entry.value)) {
    std::vector<std::string> fields;
    for (const auto& [f, v] : h->fields()) fields.push_back(f + "=" + v);
    return model::render_hash(std::move(fields));
  }
  if (const auto* l = std::get_if<engine::List>(&entry.value)) return model::render_list({l->begin(), l->end()});
  if (const auto* z = std::get_if<engine::ZSet>(&entry.value)) {
    std::vector<std::pair<std::string, int64_t>> members;
    for (const auto& [score, member] : z->ordered()) members.emplace_back(member, static_cast<int64_t>(score));
    return model::render_zset(members);
  }
  // A set renders as the list of its members in the fake's order (numeric for an intset).
  if (const auto* set = std::get_if<engine::Set>(&entry.value)) return model::render_list(set->members());
  return "?";
}

int64_t key_ttl(const engine::Keyspace& keyspace, const std::string& key, int64_t now_ms) {
  const auto& entries = keyspace.entries();
  const auto it = entries.find(key);
  if (it == entries.end()) return -2;
  const int64_t expire_at = it->second.expire_at_ms;
  if (expire_at == engine::kNoExpire) return -1;
  const int64_t left = expire_at - now_ms;
  return left < 0 ? -2 : left;
}

}  // namespace locksim::sim

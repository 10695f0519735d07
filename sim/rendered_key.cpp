#include "sim/rendered_key.hpp"

#include <utility>
#include <vector>

#include "model/rendered.hpp"

namespace locksim::sim {

void render_key_to(std::string& out, const engine::Keyspace& keyspace, const std::string& key, int64_t now_ms) {
  out.clear();
  const auto& entries = keyspace.entries();
  auto it = entries.find(key);
  if (it == entries.end()) return;
  const engine::Entry& entry = it->second;
  if (entry.expire_at_ms != engine::kNoExpire && now_ms > entry.expire_at_ms) return;
  if (const auto* s = std::get_if<std::string>(&entry.value)) {
    out = *s;
  } else if (const auto* h = std::get_if<engine::Hash>(&entry.value)) {
    // A lock's hash has one field (its holder) nearly always: nothing to sort or join.
    if (h->size() == 1) {
      const auto& [f, v] = h->fields().front();
      out.append(f).append(1, '=').append(v);
      return;
    }
    std::vector<std::string> fields;
    fields.reserve(h->size());
    for (const auto& [f, v] : h->fields()) fields.push_back(f + "=" + v);
    out = model::render_hash(std::move(fields));
  } else if (const auto* l = std::get_if<engine::List>(&entry.value)) {
    out = model::render_list({l->begin(), l->end()});
  } else if (const auto* z = std::get_if<engine::ZSet>(&entry.value)) {
    std::vector<std::pair<std::string, int64_t>> members;
    for (const auto& [score, member] : z->ordered()) members.emplace_back(member, static_cast<int64_t>(score));
    out = model::render_zset(members);
  } else if (const auto* set = std::get_if<engine::Set>(&entry.value)) {
    // A set renders as the list of its members in the fake's order (numeric for an intset).
    out = model::render_list(set->members());
  } else {
    out = "?";
  }
}

std::string render_key(const engine::Keyspace& keyspace, const std::string& key, int64_t now_ms) {
  std::string out;
  render_key_to(out, keyspace, key, now_ms);
  return out;
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

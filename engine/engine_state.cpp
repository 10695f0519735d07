// The engine's state written as data (base/state_writer.hpp), for a bounded search's fingerprint of
// the world (issue 38). What a command or script can tell apart is written: keys with their values,
// encodings and expiries, the scripts cached, the libraries, the scripts' random generator, each
// session's db, transaction, WATCHes and subscriptions. The pooled Lua states are not: a script
// cannot see what an earlier one left there (lua_state_pool.hpp).
#include <bit>
#include <variant>

#include "engine/engine.hpp"
#include "engine/functions.hpp"
#include "engine/scripting.hpp"
#include "engine/snapshot.hpp"

namespace locksim::engine {
namespace {

void describe_value(StateWriter& out, const Value& value) {
  out.field("type", type_name(value));
  if (const auto* s = std::get_if<std::string>(&value)) {
    out.field("string", *s);
  } else if (const auto* h = std::get_if<Hash>(&value)) {
    // Insertion order: HGETALL and HSCAN show it.
    out.flag("listpack", h->is_listpack());
    for (const auto& [field, v] : h->fields()) out.field("field", field).field("value", v);
  } else if (const auto* l = std::get_if<List>(&value)) {
    for (const std::string& item : *l) out.field("item", item);
  } else if (const auto* z = std::get_if<ZSet>(&value)) {
    out.flag("listpack", z->is_listpack());
    for (const auto& [score, member] : z->ordered()) {
      out.field("member", member);
      // The score's bits: two doubles that print alike may still differ.
      out.field("score", std::bit_cast<int64_t>(score));
    }
  } else if (const auto* set = std::get_if<Set>(&value)) {
    out.flag("intset", set->encoding() == Set::Encoding::IntSet);
    for (const std::string& member : set->members()) out.field("member", member);
  }
}

}  // namespace

void describe(StateWriter& out, const Snapshot& keys, int64_t now_ms) {
  for (const auto& [key, entry] : keys) {
    out.begin("key").field("name", key);
    // An expired key not yet removed is still stored (DBSIZE counts it): its time, relative.
    out.field("expires_in", entry.expire_at_ms == kNoExpire ? -1 : entry.expire_at_ms - now_ms);
    out.flag("raw", entry.string_form == StringForm::Raw);
    if (entry.string_form == StringForm::Created) out.flag("created", true);
    describe_value(out, entry.value);
    out.end();
  }
}

void ReplicaLog::describe(StateWriter& out, int64_t now_ms, int64_t keys_now_ms) const {
  out.field("lag", lag_ms_).flag("synced", synced_);
  for (const auto& [at_ms, keys] : log_) {
    out.begin("applied").field("ago", now_ms - at_ms);
    engine::describe(out, keys, keys_now_ms);
    out.end();
  }
}

void Functions::describe(StateWriter& out) const {
  for (const auto& [name, library] : current_.libraries) out.field("library", name).field("code", library.code);
}

void Scripting::describe(StateWriter& out) const {
  for (const auto& [sha, script] : cache_) out.field("script", sha);
  out.field("random", static_cast<int64_t>(run_.rand.state()));
  functions_.describe(out);
}

void Engine::describe(StateWriter& out, int64_t now_ms) const {
  for (int id = 0; id < kDatabases; ++id) {
    const Keyspace& db = dbs_.db(id);
    if (db.size() == 0) continue;
    out.begin("db").field("id", id);
    engine::describe(out, db.entries(), now_ms);
    out.end();
  }
  scripting_->describe(out);
}

void Engine::describe_session(StateWriter& out, SessionId session) const {
  const auto it = clients_.find(session);
  if (it == clients_.end()) {
    out.field("session", "closed");
    return;
  }
  const Client& c = it->second;
  out.field("db", c.db).flag("multi", c.multi.open).flag("dirty_exec", c.multi.dirty_exec);
  for (const QueuedCommand& q : c.multi.queued) {
    out.begin("queued");
    for (const std::string& word : q.argv) out.field("word", word);
    out.end();
  }
  const Watches& watches = dbs_.watches();
  out.flag("watch_broken", watches.dirty(session));
  for (const auto& [db, key] : watches.watched_by(session)) out.field("watch_db", db).field("watch", key);
  for (const std::string& channel : pubsub_.channels_of(session)) out.field("channel", channel);
  for (const std::string& pattern : pubsub_.patterns_of(session)) out.field("pattern", pattern);
  if (const BlockedPop* pop = dbs_.blocked().find(session)) {
    out.field("blocked", pop->command).field("blocked_db", pop->db).field("block_deadline", pop->deadline_ms);
    for (const std::string& key : pop->keys) out.field("blocked_on", key);
  }
}

std::vector<std::pair<std::string, std::vector<SessionId>>> Engine::subscribers() const {
  std::vector<std::pair<std::string, std::vector<SessionId>>> out;
  for (std::string& channel : pubsub_.active_channels(std::nullopt)) {
    std::vector<SessionId> sessions = pubsub_.subscribers_in_order(channel);
    out.emplace_back(std::move(channel), std::move(sessions));
  }
  return out;
}

}  // namespace locksim::engine

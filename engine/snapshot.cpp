#include "engine/snapshot.hpp"

namespace locksim::engine {

void restore(Keyspace& keyspace, const Snapshot& snapshot) {
  for (const auto& [key, entry] : snapshot) {
    Entry& restored = keyspace.insert(key, entry.value);
    // As an AOF replay would leave it: APPENDs grow a raw string again; INCRBYFLOAT is replicated as
    // a SET of its result, which tryObjectEncoding encodes.
    restored.string_form = entry.string_form == StringForm::Raw ? StringForm::Raw : StringForm::Encoded;
    if (entry.expire_at_ms != kNoExpire) keyspace.set_expire(key, restored, entry.expire_at_ms);
  }
}

bool ReplicaLog::remember(int64_t now_ms, const Snapshot& keyspace) {
  if (!log_.empty() && log_.back().second == keyspace) return false;
  if (!log_.empty() && log_.back().first == now_ms) log_.back().second = keyspace;
  else log_.emplace_back(now_ms, keyspace);
  const int64_t cutoff = now_ms - lag_ms_;
  // Keep the newest snapshot the replica has surely applied, and everything after it.
  while (log_.size() > 1 && log_[1].first <= cutoff) log_.pop_front();
  return true;
}

Snapshot ReplicaLog::promoted(int64_t now_ms, int64_t lag_ms) const {
  const int64_t cutoff = now_ms - lag_ms;
  const Snapshot* newest = nullptr;
  for (const auto& [at, snapshot] : log_)
    if (at <= cutoff) newest = &snapshot;
  // Older than the log: a replica that synced when the log began has at least what it had then.
  if (!newest && synced_ && !log_.empty()) newest = &log_.front().second;
  return newest ? *newest : Snapshot{};
}

void ReplicaLog::sync(int64_t now_ms, const Snapshot& keyspace) {
  log_.clear();
  log_.emplace_back(now_ms, keyspace);
  synced_ = true;
}

}  // namespace locksim::engine

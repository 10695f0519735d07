#include "engine/blocked.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "base/assert.hpp"
#include "engine/errors.hpp"
#include "engine/numbers.hpp"

namespace locksim::engine {

BlockTimeout parse_block_timeout(std::string_view seconds, int64_t now_ms) {
  const std::optional<long double> value = parse_long_double(seconds);
  if (!value) return {0, errors::kTimeoutNotFloat};
  const long double ms = std::ceil(*value * 1000.0L);
  // Redis's (long long) cast: out of range (infinity too) it is x87's "integer indefinite", the most
  // negative long long, so a huge timeout is a negative one.
  const int64_t tval = (ms >= 0x1p63L || ms < -0x1p63L) ? INT64_MIN : static_cast<int64_t>(ms);
  if (tval < 0) return {0, errors::kTimeoutNegative};
  if (tval == 0) return {0, {}};
  // tval + mstime() wraps in Redis's build when it passes 2^63: a deadline long past, which its
  // next timeout check answers. Unsigned arithmetic wraps the same way without undefined behaviour.
  return {static_cast<int64_t>(static_cast<uint64_t>(tval) + static_cast<uint64_t>(now_ms)), {}};
}

BlockedPop BlockedPop::on_keys(BlockedType type, int db, std::span<const std::string_view> keys, int64_t deadline_ms,
                               std::string_view command) {
  BlockedPop pop;
  pop.type = type;
  pop.db = db;
  std::set<std::string_view> seen;
  for (const std::string_view key : keys)
    if (seen.insert(key).second) pop.keys.emplace_back(key);
  pop.deadline_ms = deadline_ms;
  pop.command = command;
  return pop;
}

void BlockedKeys::block(SessionId session, BlockedPop pop) {
  LS_ASSERT(!pops_.contains(session));
  LS_ASSERT(!pop.keys.empty());
  for (const std::string& key : pop.keys) waiting_[Where{pop.db, key}].push_back(session);
  pops_.emplace(session, std::move(pop));
}

void BlockedKeys::unblock(SessionId session) {
  const auto it = pops_.find(session);
  if (it == pops_.end()) return;
  for (const std::string& key : it->second.keys) {
    const auto w = waiting_.find(Where{it->second.db, key});
    LS_ASSERT(w != waiting_.end());
    std::erase(w->second, session);
    if (w->second.empty()) waiting_.erase(w);
  }
  pops_.erase(it);
}

const BlockedPop* BlockedKeys::find(SessionId session) const {
  const auto it = pops_.find(session);
  return it == pops_.end() ? nullptr : &it->second;
}

void BlockedKeys::signal_ready(int db, std::string_view key) {
  if (pops_.empty()) return;  // the common case: nobody blocks
  Where where{db, std::string(key)};
  if (!waiting_.contains(where) || ready_set_.contains(where)) return;
  ready_set_.insert(where);
  ready_.push_back(std::move(where));
}

std::vector<std::pair<int, std::string>> BlockedKeys::take_ready() {
  ready_set_.clear();
  return std::exchange(ready_, {});
}

std::vector<SessionId> BlockedKeys::waiting_on(int db, std::string_view key) const {
  const auto it = waiting_.find(Where{db, std::string(key)});
  return it == waiting_.end() ? std::vector<SessionId>{} : it->second;
}

std::vector<SessionId> BlockedKeys::timed_out(int64_t now_ms) const {
  std::vector<std::pair<int64_t, SessionId>> due;
  for (const auto& [session, pop] : pops_)
    if (pop.deadline_ms != 0 && pop.deadline_ms < now_ms) due.emplace_back(pop.deadline_ms, session);
  std::sort(due.begin(), due.end());
  std::vector<SessionId> out;
  out.reserve(due.size());
  for (const auto& [deadline, session] : due) out.push_back(session);
  return out;
}

std::vector<SessionId> BlockedKeys::sessions() const {
  std::vector<SessionId> out;
  for (const auto& [session, pop] : pops_) out.push_back(session);
  return out;
}

}  // namespace locksim::engine

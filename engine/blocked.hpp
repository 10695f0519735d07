#pragma once
// Clients blocked on keys (Redis's blocked.c): who waits on which key of which db, in the order they
// began to wait, and the keys made ready since the last command (server.ready_keys). A key is
// signalled ready when it comes into existence (dbAdd) or, after SWAPDB, when a waited-on key is
// there; the engine serves the waiters once the command that made it ready has finished
// (Engine::handle_blocked_on_keys), so a push inside MULTI or a script wakes nobody before EXEC or
// the script ends.
#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/host.hpp"

namespace locksim::engine {

// What a blocked client waits for (Redis's c->btype): an element of a list or of a sorted set.
enum class BlockedType : uint8_t { List, ZSet };

// A blocked command's own state (Redis's c->bpop), enough to serve it when a key is ready.
struct BlockedPop {
  BlockedType type = BlockedType::List;
  int db = 0;
  std::vector<std::string> keys;  // distinct, in the command's order
  int64_t deadline_ms = 0;        // on the host's clock; 0: waits until served or unblocked
  std::string command;            // lower case: blpop, brpop, blmove, brpoplpush, blmpop, bzpopmin, ...
  bool from_head = true;          // LEFT / ZPOPMIN
  bool to_head = true;            // BLMOVE's destination end
  std::string target;             // BLMOVE's destination ("" for the pops)
  int64_t count = -1;             // BLMPOP / BZMPOP's COUNT; -1 for the single pops

  // A wait of `command` on `keys` of db `db`, each key once (blockForKeys skips a repeated one).
  static BlockedPop on_keys(BlockedType type, int db, std::span<const std::string_view> keys, int64_t deadline_ms,
                            std::string_view command);
};

// getTimeoutFromObjectOrReply in seconds: the deadline on a clock that reads `now_ms` (0: none), or
// the error Redis answers (`error` non-empty).
struct BlockTimeout {
  int64_t deadline_ms = 0;
  std::string_view error;
};
BlockTimeout parse_block_timeout(std::string_view seconds, int64_t now_ms);

// db->blocking_keys and server.ready_keys over every database.
class BlockedKeys {
 public:
  // blockForKeys: `session` waits on `pop.keys` (none of them ready). It must not be blocked yet.
  void block(SessionId session, BlockedPop pop);
  // unblockClient: `session` no longer waits (a no-op when it does not).
  void unblock(SessionId session);
  const BlockedPop* find(SessionId session) const;
  size_t count() const { return pops_.size(); }

  // signalKeyAsReady: queued once until served, and only when someone waits on it.
  void signal_ready(int db, std::string_view key);
  // scanDatabaseForReadyKeys: every waited-on key of `db` that `exists` says is there.
  template <class Exists>
  void signal_existing(int db, Exists exists) {
    for (const auto& [where, waiters] : waiting_)
      if (where.first == db && exists(where.second)) signal_ready(db, where.second);
  }
  bool has_ready() const { return !ready_.empty(); }
  // The ready keys in the order they were signalled; the queue starts afresh, as Redis swaps
  // server.ready_keys for a new list before serving (a BLMOVE served may signal its destination).
  std::vector<std::pair<int, std::string>> take_ready();

  // The sessions waiting on `key` of `db`, first blocked first.
  std::vector<SessionId> waiting_on(int db, std::string_view key) const;
  // The blocked sessions whose deadline is before `now_ms`, by deadline then session (Redis's
  // timeout radix tree orders by time, then client id).
  std::vector<SessionId> timed_out(int64_t now_ms) const;
  // Every blocked session, ascending.
  std::vector<SessionId> sessions() const;

 private:
  using Where = std::pair<int, std::string>;
  std::map<SessionId, BlockedPop> pops_;
  std::map<Where, std::vector<SessionId>> waiting_;
  std::vector<Where> ready_;
  std::set<Where> ready_set_;
};

}  // namespace locksim::engine

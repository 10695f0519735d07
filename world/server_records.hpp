#pragma once
// What a Redis server writes into the history, the same for a simulated node and a live server:
// its name, the Exec record of a request (command text, reply, the lock key before and after) and
// the rendering of a key, so checkers read both backends' histories alike.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "client/backend.hpp"
#include "base/reply.hpp"
#include "model/history.hpp"

namespace locksim::world {

// "redis0", "redis1", ...
std::string server_name(int server);

// A request in one line, for messages about it ("EVALSHA rlock_unlock orders ...").
std::string command_summary(const client::Command& command);

// The Exec event of `command` from `client`, run on `server`; `ttl_ms` is the lock key's PTTL after it
// and `queue` its FairLock queue after it, rendered ("" when the command names none).
model::Event exec_event(int server, const std::string& client, const client::Command& command, const Reply& reply,
                        std::string before, std::string after, int64_t ttl_ms, std::string queue = {});

// A key's value as Exec events show it: a string as is, a hash as sorted "field=value" joined by
// commas, a list as "[a,b]", a sorted set as "{member=score,...}" in its order (scores truncated).
std::string render_hash(std::vector<std::string> field_equals_value);
std::string render_list(const std::vector<std::string>& items);
std::string render_zset(const std::vector<std::pair<std::string, int64_t>>& members);

}  // namespace locksim::world

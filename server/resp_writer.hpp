#pragma once
// The bytes Redis 7.0 sends for a reply, in RESP2 or, after HELLO 3, RESP3. A Reply carries no map
// or set kind, so under RESP3 replies keep their RESP2 shapes (arrays) except nil, pushes and the
// replies the server builds itself (HELLO's map); docs/fidelity.md says so.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/reply.hpp"

namespace locksim::server {

enum class Protocol { Resp2 = 2, Resp3 = 3 };

// Appends `reply` to `out` (a Sequence as its replies one after another).
void append_reply(std::string& out, const Reply& reply, Protocol protocol);

// A pub/sub message as the connection's protocol sends it: a RESP2 array or a RESP3 push.
void append_push(std::string& out, const std::vector<std::string_view>& items, Protocol protocol);

// A map of field names to replies: RESP3 '%', RESP2 a flat array of field, value, ...
void append_map(std::string& out, const std::vector<std::pair<std::string, Reply>>& fields, Protocol protocol);

}  // namespace locksim::server

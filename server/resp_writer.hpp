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

// How RESP3 types a command's reply where RESP2 cannot: Redis 7.0 answers HGETALL and CONFIG GET
// with a map, scores with doubles, and ZRANGE ... WITHSCORES with [member, score] pairs.
enum class Resp3Shape {
  Plain,
  Map,
  Double,          // ZSCORE: one double
  Doubles,         // ZMSCORE: an array of doubles (nil stays nil)
  Pairs,           // [f, v, f, v] becomes [[f, v], [f, v]] (HRANDFIELD WITHVALUES)
  ScorePairs,      // [m, s, m, s] becomes [[m, s], [m, s]] (WITHSCORES, ZPOPMIN with a count)
  FlatScores,      // [m, s]: the score a double (ZPOPMIN without a count)
  KeyFlatScores,   // [key, m, s]: the score a double (BZPOPMIN)
  KeyNestedScores  // [key, [[m, s], ...]]: each score a double (ZMPOP, BZMPOP)
};
// The shape of `argv`'s reply under RESP3.
Resp3Shape resp3_shape(const std::vector<std::string>& argv);
// Appends `reply` in the shape (RESP3), or as append_reply does (RESP2, or a reply that is an error).
void append_shaped(std::string& out, const Reply& reply, Protocol protocol, Resp3Shape shape);

// A pub/sub message as the connection's protocol sends it: a RESP2 array or a RESP3 push.
void append_push(std::string& out, const std::vector<std::string_view>& items, Protocol protocol);


}  // namespace locksim::server

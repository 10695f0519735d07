#pragma once
// The sorted-set pop every popping command shares (Redis's genericZpopCommand, t_zset.c): ZPOPMIN
// and ZPOPMAX, ZMPOP, and the blocking forms (BZPOPMIN, BZPOPMAX, BZMPOP) once they have a key to
// serve. Implemented in cmd_zset.cpp.
#include <cstdint>
#include <span>
#include <string_view>

#include "base/reply.hpp"
#include "engine/keyspace.hpp"

namespace locksim::engine {

// Which end a pop takes from: the lowest (score, member) first, or the highest.
enum class ZSetEnd : uint8_t { Min, Max };

// The RESP2 reply shapes genericZpopCommand writes (its emitkey, use_nested_array and
// reply_nil_when_empty), by the commands that use them.
enum class ZPopReply : uint8_t {
  // ZPOPMIN, ZPOPMAX: [member, score, member, score, ...]; nothing to pop: an empty array.
  Flat,
  // BZPOPMIN, BZPOPMAX: [key, member, score]; nothing to pop: an empty array (a blocking caller
  // only calls with a key that holds members).
  KeyThenFlat,
  // ZMPOP, BZMPOP: [key, [[member, score], ...]]; nothing to pop: the null array (Reply::nil_array()).
  KeyThenPairs,
};

// Pops up to `count` members (-1: a plain single pop, as 1; 0: none, an empty array) from the
// first of `keys` that exists, at `end`, and answers as Redis does. Keys are looked up in order
// (an expired one is deleted on the way); the first existing key that is not a sorted set answers
// WRONGTYPE and nothing is popped. A sorted set left empty is deleted (KeyEvent::Deleted). Scores
// print as Redis 7.0 prints doubles. The key is signalled modified (signal_modified) as
// genericZpopCommand's signalModifiedKey does, so a caller outside a command's run (a blocked
// client served later) breaks WATCHes too.
Reply zset_pop(Keyspace& db, std::span<const std::string_view> keys, ZSetEnd end, int64_t count, ZPopReply shape);

}  // namespace locksim::engine

// Databases: SELECT, SWAPDB, MOVE, COPY, FLUSHDB, FLUSHALL, DBSIZE (Redis db.c). A session works in one
// of 16 databases (db 0 until it SELECTs); a script starts in its caller's.
#include <climits>
#include <optional>
#include <string_view>
#include <utility>

#include "engine/commands.hpp"
#include "engine/engine.hpp"
#include "engine/errors.hpp"
#include "engine/numbers.hpp"

namespace locksim::engine {
namespace {

// getIntFromObjectOrReply: an int, or the error Redis sends. A command that names its own
// `message` (SWAPDB) gets it for every refusal, as Redis's `msg` argument works.
std::optional<int> int_arg(std::string_view text, Reply& error, std::string_view message = {}) {
  const std::optional<int64_t> value = parse_int64(text);
  if (!value) {
    error = Reply::error(message.empty() ? errors::kNotInteger : message);
    return std::nullopt;
  }
  if (*value < INT_MIN || *value > INT_MAX) {
    error = Reply::error(message.empty() ? errors::kIntOutOfRange : message);
    return std::nullopt;
  }
  return static_cast<int>(*value);
}

// getFlushCommandFlags: [SYNC | ASYNC], read as a C string (strcasecmp stops at a NUL byte). Both
// flush at once here: an asynchronous flush's freeing is invisible to clients.
bool flush_arguments_ok(CommandContext& ctx) {
  if (ctx.argc() == 1) return true;
  if (ctx.argc() != 2) return false;
  const std::string_view mode = ctx.arg(1).substr(0, ctx.arg(1).find('\0'));
  return equals_ignore_case(mode, "sync") || equals_ignore_case(mode, "async");
}

}  // namespace

// SELECT index
Reply select_command(CommandContext& ctx) {
  Reply error;
  const std::optional<int> id = int_arg(ctx.arg(1), error);
  if (!id) return error;
  if (!Databases::valid(*id)) return Reply::error(errors::kDbIndexOutOfRange);
  ctx.engine.select(ctx.session, *id);
  return Reply::ok();
}

// SWAPDB index1 index2: every session sees the other db's keys at once, in the db it had selected.
Reply swapdb_command(CommandContext& ctx) {
  Reply error;
  const std::optional<int> first = int_arg(ctx.arg(1), error, errors::kInvalidFirstDbIndex);
  if (!first) return error;
  const std::optional<int> second = int_arg(ctx.arg(2), error, errors::kInvalidSecondDbIndex);
  if (!second) return error;
  if (!Databases::valid(*first) || !Databases::valid(*second)) return Reply::error(errors::kDbIndexOutOfRange);
  ctx.engine.databases().swap(*first, *second);
  return Reply::ok();
}

// MOVE key db: 1 when moved, 0 when the key is missing here or present there. The expiry moves
// with the key.
Reply move_command(CommandContext& ctx) {
  Reply error;
  const std::optional<int> id = int_arg(ctx.arg(2), error);
  if (!id) return error;
  if (!Databases::valid(*id)) return Reply::error(errors::kDbIndexOutOfRange);
  Keyspace& src = ctx.db;
  Keyspace& dst = ctx.engine.databases().db(*id);
  if (&src == &dst) return Reply::error(errors::kSameObject);
  Entry* entry = src.find(ctx.arg(1));
  if (entry == nullptr) return Reply::integer_of(0);
  if (dst.find(ctx.arg(1)) != nullptr) return Reply::integer_of(0);
  const int64_t expire_at = entry->expire_at_ms;
  Entry& moved = dst.insert(ctx.arg(1), std::move(entry->value));
  if (expire_at != kNoExpire) dst.set_expire(ctx.arg(1), moved, expire_at);
  src.remove(ctx.arg(1));
  src.notify(kNotifyGeneric, "move_from", ctx.arg(1));
  dst.notify(kNotifyGeneric, "move_to", ctx.arg(1));
  return Reply::integer_of(1);
}

// COPY source destination [DB destination-db] [REPLACE]: a copy of the value (its encoding too) and
// its expiry; 0 when the source is missing or the destination taken without REPLACE.
Reply copy_command(CommandContext& ctx) {
  Keyspace* dst = &ctx.db;
  bool replace = false;
  for (size_t j = 3; j < ctx.argc(); ++j) {
    if (equals_ignore_case(ctx.arg(j), "replace")) {
      replace = true;
    } else if (equals_ignore_case(ctx.arg(j), "db") && j + 1 < ctx.argc()) {
      Reply error;
      const std::optional<int> id = int_arg(ctx.arg(++j), error);
      if (!id) return error;
      if (!Databases::valid(*id)) return Reply::error(errors::kDbIndexOutOfRange);
      dst = &ctx.engine.databases().db(*id);
    } else {
      return Reply::error(errors::kSyntax);
    }
  }
  const std::string_view key = ctx.arg(1), newkey = ctx.arg(2);
  if (dst == &ctx.db && key == newkey) return Reply::error(errors::kSameObject);
  const Entry* source = ctx.db.find(key);
  if (source == nullptr) return Reply::integer_of(0);
  if (dst->find(newkey) != nullptr) {
    if (!replace) return Reply::integer_of(0);
    dst->remove(newkey);
  }
  Entry copy = *source;  // taken before the insert, which may move the source's entry
  Entry& added = dst->insert(newkey, std::move(copy.value));
  added.string_form = copy.string_form;  // dupStringObject keeps the object's encoding
  if (copy.expire_at_ms != kNoExpire) dst->set_expire(newkey, added, copy.expire_at_ms);
  dst->notify(kNotifyGeneric, "copy_to", newkey);
  return Reply::integer_of(1);
}

// FLUSHDB [ASYNC | SYNC]: the session's db only.
Reply flushdb_command(CommandContext& ctx) {
  if (!flush_arguments_ok(ctx)) return Reply::error(errors::kSyntax);
  ctx.db.clear();
  return Reply::ok();
}

// FLUSHALL [ASYNC | SYNC]: every db.
Reply flushall_command(CommandContext& ctx) {
  if (!flush_arguments_ok(ctx)) return Reply::error(errors::kSyntax);
  ctx.engine.databases().clear_all();
  return Reply::ok();
}

// DBSIZE: the session's db.
Reply dbsize_command(CommandContext& ctx) { return Reply::integer_of(static_cast<int64_t>(ctx.db.size())); }

}  // namespace locksim::engine

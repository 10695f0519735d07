// Keys and expiry: DEL, UNLINK, EXISTS, TOUCH, (P)EXPIRE(AT), (P)TTL, (P)EXPIRETIME, PERSIST, TYPE,
// KEYS, SCAN, RANDOMKEY, RENAME, RENAMENX (Redis db.c, expire.c).
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "engine/commands.hpp"
#include "engine/errors.hpp"
#include "engine/glob.hpp"
#include "engine/numbers.hpp"
#include "engine/scan.hpp"

namespace locksim::engine {
namespace {

enum ExpireFlag : unsigned { kExpireNx = 1, kExpireXx = 2, kExpireGt = 4, kExpireLt = 8 };

// The NX | XX | GT | LT options of EXPIRE and friends, or an error reply. Redis reads them as C
// strings, so an option (and the one the error quotes) ends at a NUL byte.
bool parse_expire_flags(CommandContext& ctx, unsigned& flags, Reply& error) {
  for (size_t j = 3; j < ctx.argc(); ++j) {
    const std::string_view opt = ctx.arg(j).substr(0, ctx.arg(j).find('\0'));
    if (equals_ignore_case(opt, "nx")) flags |= kExpireNx;
    else if (equals_ignore_case(opt, "xx")) flags |= kExpireXx;
    else if (equals_ignore_case(opt, "gt")) flags |= kExpireGt;
    else if (equals_ignore_case(opt, "lt")) flags |= kExpireLt;
    else {
      error = Reply::error(errors::unsupported_option(opt));
      return false;
    }
  }
  if ((flags & kExpireNx) && (flags & (kExpireXx | kExpireGt | kExpireLt))) {
    error = Reply::error(errors::kExpireNxAndOthers);
    return false;
  }
  if ((flags & kExpireGt) && (flags & kExpireLt)) {
    error = Reply::error(errors::kExpireGtAndLt);
    return false;
  }
  return true;
}

// Redis's expireGenericCommand: `base_ms` is now for relative forms, 0 for absolute ones.
Reply expire_generic(CommandContext& ctx, int64_t base_ms, bool seconds, std::string_view name) {
  unsigned flags = 0;
  Reply error;
  if (!parse_expire_flags(ctx, flags, error)) return error;
  auto parsed = parse_int64(ctx.arg(2));
  if (!parsed) return Reply::error(errors::kNotInteger);
  int64_t when = *parsed;
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  if (seconds) {
    if (when > kMax / 1000 || when < kMin / 1000) return Reply::error(errors::invalid_expire(name));
    when *= 1000;
  }
  if (when > kMax - base_ms) return Reply::error(errors::invalid_expire(name));
  when += base_ms;

  Entry* entry = ctx.db.find(ctx.arg(1));
  if (entry == nullptr) return Reply::integer_of(0);
  const int64_t current = entry->expire_at_ms;
  if ((flags & kExpireNx) && current != kNoExpire) return Reply::integer_of(0);
  if ((flags & kExpireXx) && current == kNoExpire) return Reply::integer_of(0);
  if ((flags & kExpireGt) && (current == kNoExpire || when <= current)) return Reply::integer_of(0);
  if ((flags & kExpireLt) && current != kNoExpire && when >= current) return Reply::integer_of(0);

  // A time already passed deletes the key at once (checkAlreadyExpired).
  if (when <= ctx.db.now()) {
    ctx.db.remove(ctx.arg(1));
    ctx.notify(kNotifyGeneric, "del", ctx.arg(1));
    return Reply::integer_of(1);
  }
  ctx.db.set_expire(ctx.arg(1), *entry, when);
  ctx.notify(kNotifyGeneric, "expire", ctx.arg(1));
  return Reply::integer_of(1);
}

// Redis's ttlGenericCommand: -2 missing, -1 no expiry, else the time left (`absolute`: the expiry
// itself), never negative. Seconds are rounded to the nearest, for EXPIRETIME too; the rounding is
// done unsigned so that PEXPIREAT's largest times round as the live server's do.
Reply ttl_generic(CommandContext& ctx, bool in_ms, bool absolute) {
  Entry* entry = ctx.db.find(ctx.arg(1));
  if (entry == nullptr) return Reply::integer_of(-2);
  if (entry->expire_at_ms == kNoExpire) return Reply::integer_of(-1);
  int64_t ttl = absolute ? entry->expire_at_ms : entry->expire_at_ms - ctx.db.now();
  if (ttl < 0) ttl = 0;
  if (in_ms) return Reply::integer_of(ttl);
  return Reply::integer_of(static_cast<int64_t>((static_cast<uint64_t>(ttl) + 500) / 1000));
}

// Whether a key's time has passed, as Keyspace decides it, without deleting it: KEYS only hides
// expired keys (keyIsExpired), where every other read deletes them.
bool logically_expired(const Keyspace& db, const Entry& entry) {
  return entry.expire_at_ms != kNoExpire && db.now() > entry.expire_at_ms;
}

Reply rename_generic(CommandContext& ctx, bool nx) {
  const std::string_view from = ctx.arg(1), to = ctx.arg(2);
  Entry* source = ctx.db.find(from);
  if (source == nullptr) return Reply::error(errors::kNoSuchKey);
  if (from == to) return nx ? Reply::integer_of(0) : Reply::ok();
  if (ctx.db.find(to) != nullptr) {
    if (nx) return Reply::integer_of(0);
    ctx.db.remove(to);
  }
  // The value moves with its expiry (and how Redis encodes it); the old name goes last, as in
  // renameGenericCommand. Map nodes stay put, so `source` is still valid after the insert.
  const int64_t expire_at = source->expire_at_ms;
  Entry& target = ctx.db.insert(to, std::move(source->value));
  target.string_form = source->string_form;
  if (expire_at != kNoExpire) ctx.db.set_expire(to, target, expire_at);
  ctx.db.remove(from);
  ctx.notify(kNotifyGeneric, "rename_from", from);
  ctx.notify(kNotifyGeneric, "rename_to", to);
  return nx ? Reply::integer_of(1) : Reply::ok();
}

}  // namespace

// DEL key [key ...]
Reply del_command(CommandContext& ctx) {
  int64_t deleted = 0;
  for (size_t j = 1; j < ctx.argc(); ++j) {
    if (ctx.db.find(ctx.arg(j)) != nullptr && ctx.db.remove(ctx.arg(j))) {
      ctx.notify(kNotifyGeneric, "del", ctx.arg(j));
      ++deleted;
    }
  }
  return Reply::integer_of(deleted);
}

// EXISTS key [key ...]: a key named twice counts twice.
Reply exists_command(CommandContext& ctx) {
  int64_t count = 0;
  for (size_t j = 1; j < ctx.argc(); ++j)
    if (ctx.db.find(ctx.arg(j)) != nullptr) ++count;
  return Reply::integer_of(count);
}

// EXPIRE key seconds [NX | XX | GT | LT]
Reply expire_command(CommandContext& ctx) { return expire_generic(ctx, ctx.db.now(), true, "expire"); }
// PEXPIRE key milliseconds [NX | XX | GT | LT]
Reply pexpire_command(CommandContext& ctx) { return expire_generic(ctx, ctx.db.now(), false, "pexpire"); }
// EXPIREAT key unix-time-seconds [NX | XX | GT | LT]
Reply expireat_command(CommandContext& ctx) { return expire_generic(ctx, 0, true, "expireat"); }
// PEXPIREAT key unix-time-milliseconds [NX | XX | GT | LT]
Reply pexpireat_command(CommandContext& ctx) { return expire_generic(ctx, 0, false, "pexpireat"); }

// TTL key
Reply ttl_command(CommandContext& ctx) { return ttl_generic(ctx, false, false); }
// PTTL key
Reply pttl_command(CommandContext& ctx) { return ttl_generic(ctx, true, false); }
// EXPIRETIME key
Reply expiretime_command(CommandContext& ctx) { return ttl_generic(ctx, false, true); }
// PEXPIRETIME key
Reply pexpiretime_command(CommandContext& ctx) { return ttl_generic(ctx, true, true); }

// PERSIST key
Reply persist_command(CommandContext& ctx) {
  Entry* entry = ctx.db.find(ctx.arg(1));
  if (entry == nullptr || entry->expire_at_ms == kNoExpire) return Reply::integer_of(0);
  ctx.db.persist(ctx.arg(1), *entry);
  ctx.notify(kNotifyGeneric, "persist", ctx.arg(1));
  return Reply::integer_of(1);
}

// TYPE key
Reply type_command(CommandContext& ctx) {
  Entry* entry = ctx.db.find(ctx.arg(1));
  return Reply::status(entry ? type_name(entry->value) : "none");
}

// UNLINK key [key ...]: DEL whose memory Redis frees in the background; the same to a client.
Reply unlink_command(CommandContext& ctx) { return del_command(ctx); }

// TOUCH key [key ...]: how many exist (Redis also refreshes their access time, which the fake does
// not keep).
Reply touch_command(CommandContext& ctx) { return exists_command(ctx); }

// KEYS pattern: the live keys that match, in the fake's byte order (Redis: its dict's order).
// Expired keys are left out but not deleted.
Reply keys_command(CommandContext& ctx) {
  const std::string_view pattern = ctx.arg(1);
  const bool all = pattern == "*";
  Reply reply = Reply::array();
  for (const auto& [key, entry] : ctx.db.entries()) {
    if ((all || glob_match(pattern, key)) && !logically_expired(ctx.db, entry))
      reply.elements.push_back(Reply::bulk(key));
  }
  return reply;
}

// SCAN cursor [MATCH pattern] [COUNT count] [TYPE type]
//
// Redis walks its dict's buckets in reverse-binary order; the fake walks keys in byte order from the
// cursor (scan_cursor_of), COUNT keys per call (expired ones included, as Redis's buckets hold them),
// and then any more that share the last one's 8-byte cursor, so that the next cursor is always past
// what was returned. The cursor numbers therefore differ from Redis's, what a full iteration
// returns does not. Filters apply after the walk, in Redis's order: MATCH, TYPE, expiry.
Reply scan_command(CommandContext& ctx) {
  auto cursor = parse_scan_cursor(ctx.arg(1));
  if (!cursor) return Reply::error(errors::kInvalidCursor);
  ScanOptions options;
  Reply error;
  if (!parse_scan_options(ctx, 2, true, options, error)) return error;

  const auto& entries = ctx.db.entries();
  using It = std::decay_t<decltype(entries)>::const_iterator;
  std::vector<It> visited;
  const uint64_t next = scan_visit(entries.lower_bound(first_name_at(*cursor)), entries.end(), options.count,
                                   [](const auto& kv) -> std::string_view { return kv.first; }, visited);

  Reply keys = Reply::array();
  for (const It& it : visited) {
    const std::string key = it->first;  // a copy: the lookups below may delete the entry
    if (options.pattern && !glob_match(*options.pattern, key)) continue;
    if (options.type) {
      // Redis reads the type through a lookup that deletes an expired key and calls it "none", so
      // TYPE none returns expired keys' names; its expiry check that follows finds nothing left.
      Entry* entry = ctx.db.find(key);
      if (!equals_ignore_case(*options.type, entry ? type_name(entry->value) : "none")) continue;
    } else if (ctx.db.find(key) == nullptr) {
      continue;
    }
    keys.elements.push_back(Reply::bulk(key));
  }
  return scan_reply(next, std::move(keys));
}

// RANDOMKEY: Redis draws a key at random, deleting expired ones it draws; the fake takes the first
// key in byte order that is still live (docs/fidelity.md), deleting the expired ones before it.
Reply randomkey_command(CommandContext& ctx) {
  while (!ctx.db.entries().empty()) {
    const std::string key = ctx.db.entries().begin()->first;
    if (ctx.db.find(key) != nullptr) return Reply::bulk(key);
  }
  return Reply::nil();
}

// RENAME key newkey
Reply rename_command(CommandContext& ctx) { return rename_generic(ctx, false); }
// RENAMENX key newkey
Reply renamenx_command(CommandContext& ctx) { return rename_generic(ctx, true); }

}  // namespace locksim::engine

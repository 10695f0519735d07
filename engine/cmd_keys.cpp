// Keys and expiry: DEL, EXISTS, (P)EXPIRE(AT), (P)TTL, (P)EXPIRETIME, PERSIST, TYPE (Redis db.c,
// expire.c).
#include <limits>

#include "engine/commands.hpp"
#include "engine/errors.hpp"
#include "engine/numbers.hpp"

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
    return Reply::integer_of(1);
  }
  ctx.db.set_expire(ctx.arg(1), *entry, when);
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

}  // namespace

// DEL key [key ...]
Reply del_command(CommandContext& ctx) {
  int64_t deleted = 0;
  for (size_t j = 1; j < ctx.argc(); ++j) {
    if (ctx.db.find(ctx.arg(j)) != nullptr && ctx.db.remove(ctx.arg(j))) ++deleted;
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
  return Reply::integer_of(1);
}

// TYPE key
Reply type_command(CommandContext& ctx) {
  Entry* entry = ctx.db.find(ctx.arg(1));
  return Reply::status(entry ? type_name(entry->value) : "none");
}

}  // namespace locksim::engine

// Strings: GET, SET, SETNX, APPEND, INCR/INCRBY/DECR/DECRBY (Redis t_string.c).
#include <limits>

#include "engine/commands.hpp"
#include "engine/errors.hpp"
#include "engine/numbers.hpp"
#include "engine/set_key.hpp"

namespace locksim::engine {
namespace {

enum SetFlag : unsigned {
  kSetNx = 1, kSetXx = 2, kSetGet = 4, kSetKeepTtl = 8, kSetEx = 16, kSetPx = 32, kSetExAt = 64, kSetPxAt = 128,
};
constexpr unsigned kAnyExpire = kSetEx | kSetPx | kSetExAt | kSetPxAt;

// Redis reads SET's options as C strings: "NX\0junk" is NX.
std::string_view c_string(std::string_view arg) { return arg.substr(0, arg.find('\0')); }


Reply incr_generic(CommandContext& ctx, int64_t by) {
  Found<std::string> found = find_as<std::string>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  int64_t value = 0;
  if (found.value != nullptr) {
    auto parsed = parse_int64(*found.value);
    if (!parsed) return Reply::error(errors::kNotInteger);
    value = *parsed;
  }
  if ((by < 0 && value < 0 && by < std::numeric_limits<int64_t>::min() - value) ||
      (by > 0 && value > 0 && by > std::numeric_limits<int64_t>::max() - value))
    return Reply::error(errors::kOverflow);
  value += by;
  if (found.value != nullptr)
    *found.value = format_int64(value);
  else
    ctx.db.insert(ctx.arg(1), Value{format_int64(value)});
  return Reply::integer_of(value);
}

}  // namespace

// GET key
Reply get_command(CommandContext& ctx) {
  Found<std::string> found = find_as<std::string>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  return found.value ? Reply::bulk(*found.value) : Reply::nil();
}

// SET key value [NX | XX] [GET] [EX seconds | PX milliseconds | EXAT unix-s | PXAT unix-ms | KEEPTTL]
Reply set_command(CommandContext& ctx) {
  unsigned flags = 0;
  std::string_view expire_arg;
  for (size_t j = 3; j < ctx.argc(); ++j) {
    const std::string_view opt = c_string(ctx.arg(j));
    const bool has_next = j + 1 < ctx.argc();
    if (equals_ignore_case(opt, "nx") && !(flags & kSetXx)) {
      flags |= kSetNx;
    } else if (equals_ignore_case(opt, "xx") && !(flags & kSetNx)) {
      flags |= kSetXx;
    } else if (equals_ignore_case(opt, "get")) {
      flags |= kSetGet;
    } else if (equals_ignore_case(opt, "keepttl") && !(flags & kAnyExpire)) {
      flags |= kSetKeepTtl;
    } else if (has_next && !(flags & kSetKeepTtl) &&
               ((equals_ignore_case(opt, "ex") && !(flags & (kSetExAt | kSetPx | kSetPxAt))) ||
                (equals_ignore_case(opt, "px") && !(flags & (kSetEx | kSetExAt | kSetPxAt))) ||
                (equals_ignore_case(opt, "exat") && !(flags & (kSetEx | kSetPx | kSetPxAt))) ||
                (equals_ignore_case(opt, "pxat") && !(flags & (kSetEx | kSetExAt | kSetPx))))) {
      flags |= equals_ignore_case(opt, "ex")     ? kSetEx
               : equals_ignore_case(opt, "px")   ? kSetPx
               : equals_ignore_case(opt, "exat") ? kSetExAt
                                                 : kSetPxAt;
      expire_arg = ctx.arg(++j);
    } else {
      return Reply::error(errors::kSyntax);
    }
  }

  int64_t expire_at = kNoExpire;
  if (flags & kAnyExpire) {
    auto parsed = parse_int64(expire_arg);
    if (!parsed) return Reply::error(errors::kNotInteger);
    int64_t ms = *parsed;
    const bool seconds = flags & (kSetEx | kSetExAt);
    if (ms <= 0 || (seconds && ms > std::numeric_limits<int64_t>::max() / 1000))
      return Reply::error(errors::invalid_expire("set"));
    if (seconds) ms *= 1000;
    if (flags & (kSetEx | kSetPx)) {
      // Redis adds the time and rejects a result that wrapped negative.
      if (ms > std::numeric_limits<int64_t>::max() - ctx.db.now()) return Reply::error(errors::invalid_expire("set"));
      ms += ctx.db.now();
    }
    expire_at = ms;
  }

  Reply old = Reply::nil();
  if (flags & kSetGet) {
    old = get_command(ctx);
    if (old.is_error()) return old;
  }
  const bool found = ctx.db.find(ctx.arg(1)) != nullptr;
  if (((flags & kSetNx) && found) || ((flags & kSetXx) && !found))
    return (flags & kSetGet) ? old : Reply::nil();
  set_key(ctx.db, ctx.arg(1), Value{std::string(ctx.arg(2))}, flags & kSetKeepTtl);
  if (expire_at != kNoExpire) ctx.db.set_expire(ctx.arg(1), *ctx.db.find(ctx.arg(1)), expire_at);
  return (flags & kSetGet) ? old : Reply::ok();
}

// SETNX key value
Reply setnx_command(CommandContext& ctx) {
  if (ctx.db.find(ctx.arg(1)) != nullptr) return Reply::integer_of(0);
  ctx.db.insert(ctx.arg(1), Value{std::string(ctx.arg(2))});
  return Reply::integer_of(1);
}

// APPEND key value
Reply append_command(CommandContext& ctx) {
  Found<std::string> found = find_as<std::string>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr) {
    ctx.db.insert(ctx.arg(1), Value{std::string(ctx.arg(2))});
    return Reply::integer_of(static_cast<int64_t>(ctx.arg(2).size()));
  }
  found.value->append(ctx.arg(2));
  return Reply::integer_of(static_cast<int64_t>(found.value->size()));
}

// INCR key
Reply incr_command(CommandContext& ctx) { return incr_generic(ctx, 1); }

// DECR key
Reply decr_command(CommandContext& ctx) { return incr_generic(ctx, -1); }

// INCRBY key increment
Reply incrby_command(CommandContext& ctx) {
  auto by = parse_int64(ctx.arg(2));
  if (!by) return Reply::error(errors::kNotInteger);
  return incr_generic(ctx, *by);
}

// DECRBY key decrement
Reply decrby_command(CommandContext& ctx) {
  auto by = parse_int64(ctx.arg(2));
  if (!by) return Reply::error(errors::kNotInteger);
  if (*by == std::numeric_limits<int64_t>::min()) return Reply::error(errors::kDecrementOverflow);
  return incr_generic(ctx, -*by);
}

}  // namespace locksim::engine

// Strings: GET, SET, SETNX, SETEX, PSETEX, GETSET, GETDEL, GETEX, MGET, MSET, MSETNX, STRLEN,
// APPEND, GETRANGE/SUBSTR, SETRANGE, INCR/INCRBY/DECR/DECRBY, INCRBYFLOAT, LCS (Redis t_string.c).
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "engine/commands.hpp"
#include "engine/errors.hpp"
#include "engine/numbers.hpp"
#include "engine/set_key.hpp"

namespace locksim::engine {
namespace {

enum SetFlag : unsigned {
  kSetNx = 1, kSetXx = 2, kSetGet = 4, kSetKeepTtl = 8, kSetEx = 16, kSetPx = 32, kSetExAt = 64, kSetPxAt = 128,
  kSetPersist = 256,
};
constexpr unsigned kAnyExpire = kSetEx | kSetPx | kSetExAt | kSetPxAt;

// The largest string a command may make (checkStringLength): Redis's default proto-max-bulk-len. A
// serve started with another --proto-max-bulk-len bounds its requests by that, and this by this.
constexpr int64_t kProtoMaxBulkLen = 512LL * 1024 * 1024;

// Redis reads SET's options as C strings: "NX\0junk" is NX.
std::string_view c_string(std::string_view arg) { return arg.substr(0, arg.find('\0')); }

// Which command's options parse_extended_string_args reads: SET's or GETEX's.
enum class StringCommand { Set, Get };

// Redis's parseExtendedStringArgumentsOrReply: SET takes NX, XX, GET, KEEPTTL and one expiry; GETEX
// takes one expiry or PERSIST. An option repeated is fine, two that conflict are a syntax error.
// False on a syntax error.
bool parse_extended_string_args(CommandContext& ctx, StringCommand command, unsigned& flags,
                                std::string_view& expire_arg) {
  const bool set = command == StringCommand::Set;
  for (size_t j = set ? 3 : 2; j < ctx.argc(); ++j) {
    const std::string_view opt = c_string(ctx.arg(j));
    const bool has_next = j + 1 < ctx.argc();
    if (set && equals_ignore_case(opt, "nx") && !(flags & kSetXx)) {
      flags |= kSetNx;
    } else if (set && equals_ignore_case(opt, "xx") && !(flags & kSetNx)) {
      flags |= kSetXx;
    } else if (set && equals_ignore_case(opt, "get")) {
      flags |= kSetGet;
    } else if (set && equals_ignore_case(opt, "keepttl") && !(flags & kAnyExpire)) {
      flags |= kSetKeepTtl;
    } else if (!set && equals_ignore_case(opt, "persist") && !(flags & kAnyExpire)) {
      flags |= kSetPersist;
    } else if (has_next && !(flags & (kSetKeepTtl | kSetPersist)) &&
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
      return false;
    }
  }
  return true;
}

// Redis's getExpireMillisecondsOrReply: the absolute expiry an EX/PX/EXAT/PXAT argument names, or
// the error `command` answers (a time that is not positive, or that overflows once in ms).
bool expire_at_or_error(CommandContext& ctx, unsigned flags, std::string_view arg, std::string_view command,
                        int64_t& expire_at, Reply& error) {
  auto parsed = parse_int64(arg);
  if (!parsed) {
    error = Reply::error(errors::kNotInteger);
    return false;
  }
  int64_t ms = *parsed;
  const bool seconds = flags & (kSetEx | kSetExAt);
  if (ms <= 0 || (seconds && ms > std::numeric_limits<int64_t>::max() / 1000)) {
    error = Reply::error(errors::invalid_expire(command));
    return false;
  }
  if (seconds) ms *= 1000;
  if (flags & (kSetEx | kSetPx)) {
    // Redis adds the time and rejects a result that wrapped negative.
    if (ms > std::numeric_limits<int64_t>::max() - ctx.db.now()) {
      error = Reply::error(errors::invalid_expire(command));
      return false;
    }
    ms += ctx.db.now();
  }
  expire_at = ms;
  return true;
}

// Redis's setGenericCommand for SETEX and PSETEX: the expiry is checked before anything is written.
Reply setex_generic(CommandContext& ctx, unsigned unit_flag, std::string_view command) {
  int64_t expire_at = 0;
  Reply error;
  if (!expire_at_or_error(ctx, unit_flag, ctx.arg(2), command, expire_at, error)) return error;
  Entry& entry = set_key(ctx.db, ctx.arg(1), Value{std::string(ctx.arg(3))});
  ctx.notify(kNotifyString, "set", ctx.arg(1));
  ctx.db.set_expire(ctx.arg(1), entry, expire_at);
  ctx.notify(kNotifyGeneric, "expire", ctx.arg(1));
  return Reply::ok();
}

// MSET and MSETNX (msetGenericCommand): with `nx`, nothing is written if any key exists.
Reply mset_generic(CommandContext& ctx, bool nx, std::string_view command) {
  if (ctx.argc() % 2 == 0) return Reply::error(errors::wrong_arity(command));
  if (nx) {
    for (size_t j = 1; j < ctx.argc(); j += 2)
      if (ctx.db.find(ctx.arg(j)) != nullptr) return Reply::integer_of(0);
  }
  for (size_t j = 1; j < ctx.argc(); j += 2) {
    set_key(ctx.db, ctx.arg(j), Value{std::string(ctx.arg(j + 1))});
    ctx.notify(kNotifyString, "set", ctx.arg(j));
  }
  return nx ? Reply::integer_of(1) : Reply::ok();
}

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
  if (found.value != nullptr) {
    *found.value = format_int64(value);
    found.entry->string_form = StringForm::Encoded;  // Redis stores the result as a new integer object
    ctx.db.signal_modified(ctx.arg(1));  // INCRBY k 0 breaks a WATCH too (keyspace.hpp)
  } else {
    ctx.db.insert(ctx.arg(1), Value{format_int64(value)});
  }
  ctx.notify(kNotifyString, "incrby", ctx.arg(1));
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
  if (!parse_extended_string_args(ctx, StringCommand::Set, flags, expire_arg)) return Reply::error(errors::kSyntax);
  int64_t expire_at = kNoExpire;
  Reply error;
  if ((flags & kAnyExpire) && !expire_at_or_error(ctx, flags, expire_arg, "set", expire_at, error)) return error;

  Reply old = Reply::nil();
  if (flags & kSetGet) {
    old = get_command(ctx);
    if (old.is_error()) return old;
  }
  const bool found = ctx.db.find(ctx.arg(1)) != nullptr;
  if (((flags & kSetNx) && found) || ((flags & kSetXx) && !found))
    return (flags & kSetGet) ? old : Reply::nil();
  set_key(ctx.db, ctx.arg(1), Value{std::string(ctx.arg(2))}, flags & kSetKeepTtl);
  ctx.notify(kNotifyString, "set", ctx.arg(1));
  if (expire_at != kNoExpire) {
    ctx.db.set_expire(ctx.arg(1), *ctx.db.find(ctx.arg(1)), expire_at);
    ctx.notify(kNotifyGeneric, "expire", ctx.arg(1));
  }
  return (flags & kSetGet) ? old : Reply::ok();
}

// SETNX key value
Reply setnx_command(CommandContext& ctx) {
  if (ctx.db.find(ctx.arg(1)) != nullptr) return Reply::integer_of(0);
  ctx.db.insert(ctx.arg(1), Value{std::string(ctx.arg(2))});
  ctx.notify(kNotifyString, "set", ctx.arg(1));  // setGenericCommand's, as SET NX
  return Reply::integer_of(1);
}

// SETEX key seconds value
Reply setex_command(CommandContext& ctx) { return setex_generic(ctx, kSetEx, "setex"); }
// PSETEX key milliseconds value
Reply psetex_command(CommandContext& ctx) { return setex_generic(ctx, kSetPx, "psetex"); }

// GETSET key value: the old value (or nil), and the key is a plain string again (no expiry).
Reply getset_command(CommandContext& ctx) {
  Reply old = get_command(ctx);
  if (old.is_error()) return old;
  set_key(ctx.db, ctx.arg(1), Value{std::string(ctx.arg(2))});
  ctx.notify(kNotifyString, "set", ctx.arg(1));
  return old;
}

// GETDEL key
Reply getdel_command(CommandContext& ctx) {
  Reply value = get_command(ctx);
  if (value.kind == Reply::Kind::Bulk) {
    ctx.db.remove(ctx.arg(1));
    ctx.notify(kNotifyGeneric, "del", ctx.arg(1));
  }
  return value;
}

// GETEX key [EX seconds | PX milliseconds | EXAT unix-s | PXAT unix-ms | PERSIST]: options are
// checked before the key is read, the expiry's value only once it is known to be a string.
Reply getex_command(CommandContext& ctx) {
  unsigned flags = 0;
  std::string_view expire_arg;
  if (!parse_extended_string_args(ctx, StringCommand::Get, flags, expire_arg)) return Reply::error(errors::kSyntax);
  Found<std::string> found = find_as<std::string>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr) return Reply::nil();
  int64_t expire_at = kNoExpire;
  Reply error;
  if ((flags & kAnyExpire) && !expire_at_or_error(ctx, flags, expire_arg, "getex", expire_at, error)) return error;
  Reply reply = Reply::bulk(*found.value);
  // An absolute time already passed deletes the key at once (checkAlreadyExpired).
  if ((flags & (kSetExAt | kSetPxAt)) && expire_at <= ctx.db.now()) {
    ctx.db.remove(ctx.arg(1));
    ctx.notify(kNotifyGeneric, "del", ctx.arg(1));
  } else if (flags & kAnyExpire) {
    ctx.db.set_expire(ctx.arg(1), *found.entry, expire_at);
    ctx.notify(kNotifyGeneric, "expire", ctx.arg(1));
  } else if ((flags & kSetPersist) && found.entry->expire_at_ms != kNoExpire) {
    ctx.db.persist(ctx.arg(1), *found.entry);
    ctx.notify(kNotifyGeneric, "persist", ctx.arg(1));
  }
  return reply;
}

// MGET key [key ...]: nil for a key that is missing or holds another type.
Reply mget_command(CommandContext& ctx) {
  Reply reply = Reply::array();
  for (size_t j = 1; j < ctx.argc(); ++j) {
    Found<std::string> found = find_as<std::string>(ctx.db, ctx.arg(j));
    reply.elements.push_back(found.value ? Reply::bulk(*found.value) : Reply::nil());
  }
  return reply;
}

// MSET key value [key value ...]
Reply mset_command(CommandContext& ctx) { return mset_generic(ctx, false, "mset"); }
// MSETNX key value [key value ...]
Reply msetnx_command(CommandContext& ctx) { return mset_generic(ctx, true, "msetnx"); }

// STRLEN key
Reply strlen_command(CommandContext& ctx) {
  Found<std::string> found = find_as<std::string>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  return Reply::integer_of(found.value ? static_cast<int64_t>(found.value->size()) : 0);
}

// APPEND key value
Reply append_command(CommandContext& ctx) {
  Found<std::string> found = find_as<std::string>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr) {
    ctx.db.insert(ctx.arg(1), Value{std::string(ctx.arg(2))});
    ctx.notify(kNotifyString, "append", ctx.arg(1));
    return Reply::integer_of(static_cast<int64_t>(ctx.arg(2).size()));
  }
  found.value->append(ctx.arg(2));
  ctx.db.signal_modified(ctx.arg(1));  // APPEND k "" breaks a WATCH too (keyspace.hpp)
  ctx.notify(kNotifyString, "append", ctx.arg(1));
  found.entry->string_form = StringForm::Raw;
  return Reply::integer_of(static_cast<int64_t>(found.value->size()));
}

// INCRBYFLOAT key increment: the sum in long double, written as a human reads it; its TTL kept.
Reply incrbyfloat_command(CommandContext& ctx) {
  Found<std::string> found = find_as<std::string>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  long double value = 0;
  if (found.value != nullptr) {
    const std::optional<long double> current = parse_long_double(*found.value);
    if (!current) return Reply::error(errors::kNotFloat);
    value = *current;
  }
  const std::optional<long double> increment = parse_long_double(ctx.arg(2));
  if (!increment) return Reply::error(errors::kNotFloat);
  value += *increment;
  if (std::isnan(value) || std::isinf(value)) return Reply::error(errors::kIncrNanOrInfinity);
  std::string text = format_long_double_human(value);
  if (found.value != nullptr) {
    *found.value = text;
    found.entry->string_form = StringForm::Created;  // createStringObjectFromLongDouble, then dbOverwrite
    ctx.db.signal_modified(ctx.arg(1));               // the same bytes still break a WATCH
  } else {
    ctx.db.insert(ctx.arg(1), Value{text}).string_form = StringForm::Created;
  }
  ctx.notify(kNotifyString, "incrbyfloat", ctx.arg(1));
  return Reply::bulk(std::move(text));
}

// GETRANGE key start end (and SUBSTR, its old name): the bytes from start to end, both included,
// negative counting from the end; "" for a missing key.
Reply getrange_command(CommandContext& ctx) {
  const auto start_arg = parse_int64(ctx.arg(2));
  if (!start_arg) return Reply::error(errors::kNotInteger);
  const auto end_arg = parse_int64(ctx.arg(3));
  if (!end_arg) return Reply::error(errors::kNotInteger);
  Found<std::string> found = find_as<std::string>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr) return Reply::bulk("");
  const std::string& value = *found.value;
  const auto size = static_cast<int64_t>(value.size());
  int64_t start = *start_arg, end = *end_arg;
  if (start < 0 && end < 0 && start > end) return Reply::bulk("");
  if (start < 0) start += size;
  if (end < 0) end += size;
  if (start < 0) start = 0;
  if (end < 0) end = 0;
  if (end >= size) end = size - 1;
  if (size == 0 || start > end) return Reply::bulk("");
  return Reply::bulk(value.substr(static_cast<size_t>(start), static_cast<size_t>(end - start + 1)));
}

// SETRANGE key offset value: the value written at offset (the gap zero-filled); the new length.
Reply setrange_command(CommandContext& ctx) {
  const auto offset = parse_int64(ctx.arg(2));
  if (!offset) return Reply::error(errors::kNotInteger);
  if (*offset < 0) return Reply::error(errors::kOffsetOutOfRange);
  const std::string_view value = ctx.arg(3);
  Found<std::string> found = find_as<std::string>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  const int64_t old_size = found.value ? static_cast<int64_t>(found.value->size()) : 0;
  // Nothing to write: nothing created, nothing changed (not even a WATCH broken).
  if (value.empty()) return Reply::integer_of(old_size);
  // checkStringLength: proto-max-bulk-len, 512 MB.
  if (*offset > kProtoMaxBulkLen - static_cast<int64_t>(value.size())) return Reply::error(errors::kStringTooLong);
  const auto end = static_cast<size_t>(*offset) + value.size();
  if (found.value == nullptr) {
    std::string fresh(end, '\0');
    fresh.replace(static_cast<size_t>(*offset), value.size(), value);
    Entry& entry = ctx.db.insert(ctx.arg(1), Value{std::move(fresh)});
    entry.string_form = StringForm::Raw;  // createObject(OBJ_STRING, sds): raw
    ctx.notify(kNotifyString, "setrange", ctx.arg(1));
    return Reply::integer_of(static_cast<int64_t>(end));
  }
  std::string& current = *found.value;
  if (current.size() < end) current.resize(end, '\0');
  current.replace(static_cast<size_t>(*offset), value.size(), value);
  found.entry->string_form = StringForm::Raw;  // dbUnshareStringValue: raw
  ctx.db.signal_modified(ctx.arg(1));
  ctx.notify(kNotifyString, "setrange", ctx.arg(1));
  return Reply::integer_of(static_cast<int64_t>(current.size()));
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

// LCS key1 key2 [LEN] [IDX] [MINMATCHLEN len] [WITHMATCHLEN] (Redis 7.0's lcsCommand): the longest
// common subsequence by the textbook table, walked back from its end; IDX lists the matching ranges
// from the last to the first, as Redis emits them.
Reply lcs_command(CommandContext& ctx) {
  Found<std::string> first = find_as<std::string>(ctx.db, ctx.arg(1));
  Found<std::string> second = find_as<std::string>(ctx.db, ctx.arg(2));
  if (first.wrong_type || second.wrong_type) return Reply::error(errors::kLcsNotStrings);
  const std::string a = first.value ? *first.value : std::string();
  const std::string b = second.value ? *second.value : std::string();
  bool get_len = false, get_idx = false, with_match_len = false;
  int64_t min_match_len = 0;
  for (size_t j = 3; j < ctx.argc(); ++j) {
    const std::string_view opt = c_string(ctx.arg(j));
    const bool more = j + 1 < ctx.argc();
    if (equals_ignore_case(opt, "idx")) {
      get_idx = true;
    } else if (equals_ignore_case(opt, "len")) {
      get_len = true;
    } else if (equals_ignore_case(opt, "withmatchlen")) {
      with_match_len = true;
    } else if (equals_ignore_case(opt, "minmatchlen") && more) {
      const auto parsed = parse_int64(ctx.arg(++j));
      if (!parsed) return Reply::error(errors::kNotInteger);
      min_match_len = *parsed < 0 ? 0 : *parsed;
    } else {
      return Reply::error(errors::kSyntax);
    }
  }
  if (get_len && get_idx) return Reply::error(errors::kLcsLenAndIdx);
  const uint64_t alen = a.size(), blen = b.size();
  // The table's transient memory is bounded by proto-max-bulk-len.
  if ((alen + 1) * (blen + 1) * sizeof(uint32_t) > static_cast<uint64_t>(kProtoMaxBulkLen))
    return Reply::error(errors::kLcsTooBig);

  std::vector<uint32_t> table((alen + 1) * (blen + 1), 0);
  auto lcs = [&](uint64_t i, uint64_t j) -> uint32_t& { return table[j + i * (blen + 1)]; };
  for (uint64_t i = 1; i <= alen; ++i)
    for (uint64_t j = 1; j <= blen; ++j)
      lcs(i, j) = a[i - 1] == b[j - 1] ? lcs(i - 1, j - 1) + 1 : std::max(lcs(i - 1, j), lcs(i, j - 1));

  const uint32_t total = lcs(alen, blen);
  if (get_len) return Reply::integer_of(total);
  std::string result(total, '\0');
  Reply matches = Reply::array();
  uint64_t idx = total, i = alen, j = blen;
  // alen in arange_start means no range is open.
  uint64_t arange_start = alen, arange_end = 0, brange_start = 0, brange_end = 0;
  while (i > 0 && j > 0) {
    bool emit = false;
    if (a[i - 1] == b[j - 1]) {
      result[idx - 1] = a[i - 1];
      if (arange_start == alen) {
        arange_start = arange_end = i - 1;
        brange_start = brange_end = j - 1;
      } else if (arange_start == i && brange_start == j) {
        --arange_start;  // the range extends backward: it is contiguous in both strings
        --brange_start;
      } else {
        emit = true;
      }
      if (arange_start == 0 || brange_start == 0) emit = true;
      --idx, --i, --j;
    } else {
      if (lcs(i - 1, j) > lcs(i, j - 1)) --i;
      else --j;
      if (arange_start != alen) emit = true;
    }
    // The range computed as Redis's uint32_t arithmetic computes it, also where it is stale.
    const uint32_t match_len = static_cast<uint32_t>(arange_end - arange_start + 1);
    if (emit) {
      if (get_idx && (min_match_len == 0 || match_len >= min_match_len)) {
        Reply range = Reply::array({Reply::array({Reply::integer_of(static_cast<int64_t>(arange_start)),
                                                  Reply::integer_of(static_cast<int64_t>(arange_end))}),
                                    Reply::array({Reply::integer_of(static_cast<int64_t>(brange_start)),
                                                  Reply::integer_of(static_cast<int64_t>(brange_end))})});
        if (with_match_len) range.elements.push_back(Reply::integer_of(match_len));
        matches.elements.push_back(std::move(range));
      }
      arange_start = alen;
    }
  }
  // RESP2's form of IDX's map: "matches", the ranges, "len", the length.
  if (get_idx)
    return Reply::array({Reply::bulk("matches"), std::move(matches), Reply::bulk("len"), Reply::integer_of(total)});
  return Reply::bulk(std::move(result));
}

}  // namespace locksim::engine

// Hashes: HSET, HSETNX, HGET, HMGET, HEXISTS, HINCRBY, HINCRBYFLOAT, HDEL, HLEN, HSTRLEN, HGETALL,
// HKEYS, HVALS, HRANDFIELD (Redis t_hash.c). HSCAN is with the other scans in cmd_scan.cpp.
//
// Where Redis picks at random (HRANDFIELD) the fake takes fields from the front of the hash's order,
// as SRANDMEMBER does for sets, so a run is a function of its commands (docs/fidelity.md).
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "engine/commands.hpp"
#include "engine/errors.hpp"
#include "engine/numbers.hpp"

namespace locksim::engine {
namespace {

enum class HashPart { Keys, Values, Both };

Reply hash_listing(CommandContext& ctx, HashPart part) {
  Found<Hash> found = find_as<Hash>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  Reply reply = Reply::array();
  if (found.value == nullptr) return reply;
  for (const auto& [field, value] : found.value->fields()) {
    if (part != HashPart::Values) reply.elements.push_back(Reply::bulk(field));
    if (part != HashPart::Keys) reply.elements.push_back(Reply::bulk(value));
  }
  return reply;
}

// HRANDFIELD key count [WITHVALUES] (Redis's hrandfieldWithCountCommand). Where Redis draws, the
// fake takes fields in order: the first `count` for a positive count (Redis's cases 3 and 4 pick a
// random subset), and for a negative one the fields in order, again and again, until there are
// |count| (Redis draws each independently). A count that covers the hash is the whole hash in order,
// as in Redis's case 2.
Reply hrandfield_with_count(CommandContext& ctx) {
  // getRangeLongFromObjectOrReply(-LONG_MAX, LONG_MAX), then the options, then the key.
  const auto parsed = parse_int64(ctx.arg(2));
  if (!parsed) return Reply::error(errors::kNotInteger);
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  if (*parsed == std::numeric_limits<int64_t>::min()) return Reply::error(errors::value_out_of_range(-kMax, kMax));
  if (ctx.argc() > 4 || (ctx.argc() == 4 && !equals_ignore_case(ctx.arg(3), "withvalues")))
    return Reply::error(errors::kSyntax);
  const bool with_values = ctx.argc() == 4;
  // Twice as many replies: a count past LONG_MAX/2 either way would overflow them.
  if (with_values && (*parsed < -kMax / 2 || *parsed > kMax / 2)) return Reply::error(errors::kValueOutOfRange);
  Found<Hash> found = find_as<Hash>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr || *parsed == 0) return Reply::array();
  const auto& fields = found.value->fields();
  const bool unique = *parsed > 0;
  const uint64_t count = unique ? static_cast<uint64_t>(*parsed) : static_cast<uint64_t>(-*parsed);
  Reply reply = Reply::array();
  const uint64_t n = unique ? std::min<uint64_t>(count, fields.size()) : count;
  for (uint64_t i = 0; i < n; ++i) {
    const auto& [field, value] = fields[i % fields.size()];
    reply.elements.push_back(Reply::bulk(field));
    if (with_values) reply.elements.push_back(Reply::bulk(value));
  }
  return reply;
}

}  // namespace

namespace {

// hsetCommand, which serves HMSET too: HSET answers how many fields it created, HMSET OK.
Reply hset_generic(CommandContext& ctx, std::string_view name, bool answer_ok) {
  if (ctx.argc() % 2 == 1) return Reply::error(errors::wrong_arity(name));
  Found<Hash> found = find_or_create<Hash>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  int64_t created = 0;
  for (size_t j = 2; j < ctx.argc(); j += 2) created += found.value->set(ctx.arg(j), ctx.arg(j + 1), ctx.db.limits());
  ctx.db.signal_modified(ctx.arg(1));  // even with the values it held: a WATCH breaks (keyspace.hpp)
  ctx.notify(kNotifyHash, "hset", ctx.arg(1));  // HMSET's too
  return answer_ok ? Reply::ok() : Reply::integer_of(created);
}

}  // namespace

// HSET key field value [field value ...]
Reply hset_command(CommandContext& ctx) { return hset_generic(ctx, "hset", false); }
// HMSET key field value [field value ...] (deprecated since Redis 4.0, still answered)
Reply hmset_command(CommandContext& ctx) { return hset_generic(ctx, "hmset", true); }

// HSETNX key field value
Reply hsetnx_command(CommandContext& ctx) {
  Found<Hash> found = find_or_create<Hash>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value->get(ctx.arg(2)) != nullptr) return Reply::integer_of(0);
  found.value->set(ctx.arg(2), ctx.arg(3), ctx.db.limits());
  ctx.notify(kNotifyHash, "hset", ctx.arg(1));
  return Reply::integer_of(1);
}

// HGET key field
Reply hget_command(CommandContext& ctx) {
  Found<Hash> found = find_as<Hash>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  const std::string* value = found.value ? found.value->get(ctx.arg(2)) : nullptr;
  return value ? Reply::bulk(*value) : Reply::nil();
}

// HMGET key field [field ...]: each field's value or nil (a missing key is an empty hash).
Reply hmget_command(CommandContext& ctx) {
  Found<Hash> found = find_as<Hash>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  Reply reply = Reply::array();
  for (size_t j = 2; j < ctx.argc(); ++j) {
    const std::string* value = found.value ? found.value->get(ctx.arg(j)) : nullptr;
    reply.elements.push_back(value ? Reply::bulk(*value) : Reply::nil());
  }
  return reply;
}

// HEXISTS key field
Reply hexists_command(CommandContext& ctx) {
  Found<Hash> found = find_as<Hash>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  return Reply::integer_of(found.value && found.value->get(ctx.arg(2)) ? 1 : 0);
}

// HINCRBY key field increment
Reply hincrby_command(CommandContext& ctx) {
  auto by = parse_int64(ctx.arg(3));
  if (!by) return Reply::error(errors::kNotInteger);
  Found<Hash> found = find_or_create<Hash>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  int64_t value = 0;
  if (const std::string* current = found.value->get(ctx.arg(2))) {
    auto parsed = parse_int64(*current);
    if (!parsed) return Reply::error(errors::kHashValueNotInteger);
    value = *parsed;
  }
  if ((*by < 0 && value < 0 && *by < std::numeric_limits<int64_t>::min() - value) ||
      (*by > 0 && value > 0 && *by > std::numeric_limits<int64_t>::max() - value))
    return Reply::error(errors::kOverflow);
  value += *by;
  found.value->set(ctx.arg(2), format_int64(value), ctx.db.limits());
  ctx.db.signal_modified(ctx.arg(1));  // HINCRBY h f 0 breaks a WATCH too (keyspace.hpp)
  ctx.notify(kNotifyHash, "hincrby", ctx.arg(1));
  return Reply::integer_of(value);
}

// HINCRBYFLOAT key field increment: the sum in long double, written as INCRBYFLOAT writes it
// (ld2string's human form).
Reply hincrbyfloat_command(CommandContext& ctx) {
  const std::optional<long double> increment = parse_long_double(ctx.arg(3));
  if (!increment) return Reply::error(errors::kNotFloat);
  if (std::isnan(*increment) || std::isinf(*increment)) return Reply::error(errors::kValueNanOrInfinity);
  Found<Hash> found = find_or_create<Hash>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  long double value = 0;
  if (const std::string* current = found.value->get(ctx.arg(2))) {
    const std::optional<long double> parsed = parse_long_double(*current);
    if (!parsed) return Reply::error(errors::kHashValueNotFloat);
    value = *parsed;
  }
  value += *increment;
  // Only an existing value can take a finite increment to infinity, so no empty hash is left behind.
  if (std::isnan(value) || std::isinf(value)) return Reply::error(errors::kIncrNanOrInfinity);
  std::string text = format_long_double_human(value);
  found.value->set(ctx.arg(2), text, ctx.db.limits());
  ctx.db.signal_modified(ctx.arg(1));
  ctx.notify(kNotifyHash, "hincrbyfloat", ctx.arg(1));
  return Reply::bulk(std::move(text));
}

// HDEL key field [field ...]
Reply hdel_command(CommandContext& ctx) {
  Found<Hash> found = find_as<Hash>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr) return Reply::integer_of(0);
  int64_t deleted = 0;
  for (size_t j = 2; j < ctx.argc(); ++j) {
    if (found.value->erase(ctx.arg(j))) ++deleted;
    if (found.value->empty()) break;
  }
  const bool emptied = found.value->empty();
  if (emptied) ctx.db.remove(ctx.arg(1));
  if (deleted) {
    ctx.notify(kNotifyHash, "hdel", ctx.arg(1));
    if (emptied) ctx.notify(kNotifyGeneric, "del", ctx.arg(1));
  }
  return Reply::integer_of(deleted);
}

// HLEN key
Reply hlen_command(CommandContext& ctx) {
  Found<Hash> found = find_as<Hash>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  return Reply::integer_of(found.value ? static_cast<int64_t>(found.value->size()) : 0);
}

// HSTRLEN key field: the length of the field's value, 0 when there is none.
Reply hstrlen_command(CommandContext& ctx) {
  Found<Hash> found = find_as<Hash>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  const std::string* value = found.value ? found.value->get(ctx.arg(2)) : nullptr;
  return Reply::integer_of(value ? static_cast<int64_t>(value->size()) : 0);
}

// HRANDFIELD key [count [WITHVALUES]]: without a count, one field (the first: see above) or nil.
Reply hrandfield_command(CommandContext& ctx) {
  if (ctx.argc() >= 3) return hrandfield_with_count(ctx);
  Found<Hash> found = find_as<Hash>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr) return Reply::nil();
  return Reply::bulk(found.value->fields().front().first);
}

// HGETALL key
Reply hgetall_command(CommandContext& ctx) { return hash_listing(ctx, HashPart::Both); }
// HKEYS key
Reply hkeys_command(CommandContext& ctx) { return hash_listing(ctx, HashPart::Keys); }
// HVALS key
Reply hvals_command(CommandContext& ctx) { return hash_listing(ctx, HashPart::Values); }

}  // namespace locksim::engine

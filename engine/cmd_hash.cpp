// Hashes: HSET, HSETNX, HGET, HMGET, HEXISTS, HINCRBY, HDEL, HLEN, HGETALL, HKEYS, HVALS (Redis t_hash.c).
#include <limits>

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

}  // namespace

// HSET key field value [field value ...]
Reply hset_command(CommandContext& ctx) {
  if (ctx.argc() % 2 == 1) return Reply::error(errors::wrong_arity("hset"));
  Found<Hash> found = find_or_create<Hash>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  int64_t created = 0;
  for (size_t j = 2; j < ctx.argc(); j += 2) created += found.value->set(ctx.arg(j), ctx.arg(j + 1));
  ctx.db.signal_modified(ctx.arg(1));  // even with the values it held: a WATCH breaks (keyspace.hpp)
  return Reply::integer_of(created);
}

// HSETNX key field value
Reply hsetnx_command(CommandContext& ctx) {
  Found<Hash> found = find_or_create<Hash>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value->get(ctx.arg(2)) != nullptr) return Reply::integer_of(0);
  found.value->set(ctx.arg(2), ctx.arg(3));
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
  found.value->set(ctx.arg(2), format_int64(value));
  ctx.db.signal_modified(ctx.arg(1));  // HINCRBY h f 0 breaks a WATCH too (keyspace.hpp)
  return Reply::integer_of(value);
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
  delete_if_empty(ctx.db, ctx.arg(1), *found.value);
  return Reply::integer_of(deleted);
}

// HLEN key
Reply hlen_command(CommandContext& ctx) {
  Found<Hash> found = find_as<Hash>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  return Reply::integer_of(found.value ? static_cast<int64_t>(found.value->size()) : 0);
}

// HGETALL key
Reply hgetall_command(CommandContext& ctx) { return hash_listing(ctx, HashPart::Both); }
// HKEYS key
Reply hkeys_command(CommandContext& ctx) { return hash_listing(ctx, HashPart::Keys); }
// HVALS key
Reply hvals_command(CommandContext& ctx) { return hash_listing(ctx, HashPart::Values); }

}  // namespace locksim::engine

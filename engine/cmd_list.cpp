// Lists: LPUSH, RPUSH, LPUSHX, RPUSHX, LPOP, RPOP, LMPOP, LINDEX, LLEN, LPOS, LRANGE, LREM, LSET,
// LTRIM, LINSERT, LMOVE, RPOPLPUSH, and the blocking BLPOP, BRPOP, BLMPOP, BLMOVE, BRPOPLPUSH
// (Redis t_list.c; blocked.hpp keeps who waits).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/assert.hpp"
#include "engine/blocked.hpp"
#include "engine/commands.hpp"
#include "engine/engine.hpp"
#include "engine/errors.hpp"
#include "engine/numbers.hpp"

namespace locksim::engine {
namespace {

// listElementsRemoved: the pop is announced, then an emptied list goes, and that is announced too.
void elements_removed(CommandContext& ctx, std::string_view key, bool head, const List& list) {
  ctx.notify(kNotifyList, head ? "lpop" : "rpop", key);
  if (list.empty()) {
    ctx.db.remove(key);
    ctx.notify(kNotifyGeneric, "del", key);
  }
}

// pushGenericCommand: `xx` (LPUSHX, RPUSHX) pushes only onto a list that exists.
Reply push_generic(CommandContext& ctx, bool head, bool xx = false) {
  Found<List> found = xx ? find_as<List>(ctx.db, ctx.arg(1)) : find_or_create<List>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr) return Reply::integer_of(0);
  for (size_t j = 2; j < ctx.argc(); ++j) {
    if (head) found.value->emplace_front(ctx.arg(j));
    else found.value->emplace_back(ctx.arg(j));
  }
  ctx.notify(kNotifyList, head ? "lpush" : "rpush", ctx.arg(1));
  return Reply::integer_of(static_cast<int64_t>(found.value->size()));
}

// LPOP/RPOP key [count]: a bulk without count, an array with it (the tail first for RPOP).
Reply pop_generic(CommandContext& ctx, std::string_view name, bool head) {
  if (ctx.argc() > 3) return Reply::error(errors::wrong_arity(name));
  const bool has_count = ctx.argc() == 3;
  int64_t count = 0;
  if (has_count) {
    auto parsed = parse_int64(ctx.arg(2));
    if (!parsed || *parsed < 0) return Reply::error(errors::kCountNotPositive);
    count = *parsed;
  }
  Found<List> found = find_as<List>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr) return has_count ? Reply::nil_array() : Reply::nil();
  List& list = *found.value;
  if (has_count && count == 0) return Reply::array();
  Reply reply;
  if (!has_count) {
    reply = Reply::bulk(head ? list.front() : list.back());
    if (head) list.pop_front(); else list.pop_back();
  } else {
    reply = Reply::array();
    for (int64_t i = 0; i < count && !list.empty(); ++i) {
      reply.elements.push_back(Reply::bulk(head ? list.front() : list.back()));
      if (head) list.pop_front(); else list.pop_back();
    }
  }
  elements_removed(ctx, ctx.arg(1), head, list);
  return reply;
}

}  // namespace

// LPUSH key element [element ...]
Reply lpush_command(CommandContext& ctx) { return push_generic(ctx, true); }
// RPUSH key element [element ...]
Reply rpush_command(CommandContext& ctx) { return push_generic(ctx, false); }
// LPUSHX key element [element ...]
Reply lpushx_command(CommandContext& ctx) { return push_generic(ctx, true, true); }
// RPUSHX key element [element ...]
Reply rpushx_command(CommandContext& ctx) { return push_generic(ctx, false, true); }
// LPOP key [count]
Reply lpop_command(CommandContext& ctx) { return pop_generic(ctx, "lpop", true); }
// RPOP key [count]
Reply rpop_command(CommandContext& ctx) { return pop_generic(ctx, "rpop", false); }

// LINDEX key index: nil when missing or out of range.
Reply lindex_command(CommandContext& ctx) {
  Found<List> found = find_as<List>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr) return Reply::nil();
  auto index = parse_int64(ctx.arg(2));
  if (!index) return Reply::error(errors::kNotInteger);
  const auto size = static_cast<int64_t>(found.value->size());
  const int64_t at = *index < 0 ? size + *index : *index;
  if (at < 0 || at >= size) return Reply::nil();
  return Reply::bulk((*found.value)[static_cast<size_t>(at)]);
}

// LLEN key
Reply llen_command(CommandContext& ctx) {
  Found<List> found = find_as<List>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  return Reply::integer_of(found.value ? static_cast<int64_t>(found.value->size()) : 0);
}

// LPOS key element [RANK rank] [COUNT num-matches] [MAXLEN len]: the index of the rank-th match
// (negative: counting from the tail), or with COUNT an array of up to that many (0: all).
Reply lpos_command(CommandContext& ctx) {
  int64_t rank = 1, count = -1, maxlen = 0;  // count -1: no COUNT given
  for (size_t j = 3; j < ctx.argc(); ++j) {
    const std::string_view opt = ctx.arg(j);
    const bool more = j + 1 < ctx.argc();
    if (equals_ignore_case(opt, "rank") && more) {
      const auto parsed = parse_int64(ctx.arg(++j));
      if (!parsed) return Reply::error(errors::kNotInteger);
      rank = *parsed;
      if (rank == 0) return Reply::error(errors::kLposRankZero);
    } else if (equals_ignore_case(opt, "count") && more) {
      // getPositiveLongFromObjectOrReply with a message: not a number says it too.
      const auto parsed = parse_int64(ctx.arg(++j));
      if (!parsed || *parsed < 0) return Reply::error(errors::kLposCountNegative);
      count = *parsed;
    } else if (equals_ignore_case(opt, "maxlen") && more) {
      const auto parsed = parse_int64(ctx.arg(++j));
      if (!parsed || *parsed < 0) return Reply::error(errors::kLposMaxlenNegative);
      maxlen = *parsed;
    } else {
      return Reply::error(errors::kSyntax);
    }
  }
  // A negative rank scans from the tail. 7.0 negates it in a long: RANK -2^63 stays negative, so
  // every match is past it and the first one from the tail answers (7.2 refuses it).
  const bool from_tail = rank < 0;
  if (from_tail) rank = rank == INT64_MIN ? INT64_MIN : -rank;
  Found<List> found = find_as<List>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr) return count != -1 ? Reply::array() : Reply::nil();
  const List& list = *found.value;
  const std::string_view element = ctx.arg(2);
  const auto size = static_cast<int64_t>(list.size());
  Reply positions = Reply::array();
  int64_t matches = 0;
  for (int64_t scanned = 0; scanned < size && (maxlen == 0 || scanned < maxlen); ++scanned) {
    const int64_t at = from_tail ? size - scanned - 1 : scanned;
    if (list[static_cast<size_t>(at)] != element || ++matches < rank) continue;
    if (count == -1) return Reply::integer_of(at);
    positions.elements.push_back(Reply::integer_of(at));
    // matches - rank + 1 as 7.0's long arithmetic has it (with RANK -2^63 it wraps below zero: every
    // match is collected).
    const auto taken = static_cast<int64_t>(static_cast<uint64_t>(matches) - static_cast<uint64_t>(rank) + 1);
    if (count != 0 && taken >= count) break;
  }
  return count == -1 ? Reply::nil() : positions;
}

// LTRIM key start stop: keeps the range (LRANGE's), deleting the list when it is empty.
Reply ltrim_command(CommandContext& ctx) {
  const auto start_arg = parse_int64(ctx.arg(2));
  const auto end_arg = parse_int64(ctx.arg(3));
  if (!start_arg || !end_arg) return Reply::error(errors::kNotInteger);
  Found<List> found = find_as<List>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr) return Reply::ok();
  List& list = *found.value;
  const auto size = static_cast<int64_t>(list.size());
  int64_t start = *start_arg, end = *end_arg;
  if (start < 0) start += size;
  if (end < 0) end += size;
  if (start < 0) start = 0;
  int64_t left = size, right = 0;  // how many to drop from each end
  if (start <= end && start < size) {
    if (end >= size) end = size - 1;
    left = start;
    right = size - end - 1;
  }
  list.erase(list.begin(), list.begin() + static_cast<std::ptrdiff_t>(left));
  list.erase(list.end() - static_cast<std::ptrdiff_t>(right), list.end());
  ctx.db.signal_modified(ctx.arg(1));  // even when nothing was trimmed
  ctx.notify(kNotifyList, "ltrim", ctx.arg(1));
  if (list.empty()) {
    ctx.db.remove(ctx.arg(1));
    ctx.notify(kNotifyGeneric, "del", ctx.arg(1));
  }
  return Reply::ok();
}

namespace {

// LEFT or RIGHT (getListPositionFromObjectOrReply); nullopt for anything else.
std::optional<bool> head_of(std::string_view where) {
  if (equals_ignore_case(where, "left")) return true;
  if (equals_ignore_case(where, "right")) return false;
  return std::nullopt;
}

// lmoveGenericCommand: pops from one end of `source`, pushes onto one end of `destination` (the
// same list: a rotation); the element, or nil for a missing source.
Reply move_generic(CommandContext& ctx, std::string_view source, std::string_view destination, bool from_head,
                   bool to_head) {
  Found<List> from = find_as<List>(ctx.db, source);
  if (from.wrong_type) return Reply::error(errors::kWrongType);
  if (from.value == nullptr) return Reply::nil();
  Found<List> to = find_as<List>(ctx.db, destination);
  if (to.wrong_type) return Reply::error(errors::kWrongType);
  std::string value = from_head ? std::move(from.value->front()) : std::move(from.value->back());
  if (from_head) from.value->pop_front();
  else from.value->pop_back();
  // Pushed before the source may go: a rotation of a one-element list keeps it.
  List& into = to.value ? *to.value : *find_or_create<List>(ctx.db, destination).value;
  if (to_head) into.push_front(value);
  else into.push_back(value);
  ctx.db.signal_modified(destination);
  ctx.notify(kNotifyList, to_head ? "lpush" : "rpush", destination);  // lmoveHandlePush's, before the pop's
  if (Found<List> left = find_as<List>(ctx.db, source); left.value) elements_removed(ctx, source, from_head, *left.value);
  ctx.db.signal_modified(source);
  return Reply::bulk(std::move(value));
}

// listPopRangeAndReplyWithKey: up to `count` elements from one end of a non-empty list, as
// [key, [element, ...]] (the tail first from the right); an emptied list goes.
Reply pop_range_with_key(CommandContext& ctx, std::string_view key, List& list, bool head, int64_t count) {
  Reply popped = Reply::array();
  for (int64_t i = 0; i < count && !list.empty(); ++i) {
    popped.elements.push_back(Reply::bulk(head ? list.front() : list.back()));
    if (head) list.pop_front();
    else list.pop_back();
  }
  elements_removed(ctx, key, head, list);
  return Reply::array({Reply::bulk(key), std::move(popped)});
}

// blockingPopGenericCommand (and mpopGenericCommand when it may not block): the first of `keys`
// that holds a list is popped, one element as [key, element] (count -1) or up to `count` as
// [key, [elements]]; a key of another type is an error when reached. With nothing to pop it blocks,
// or, where it may not, answers nil at once (Redis's null array).
Reply pop_or_block(CommandContext& ctx, std::string_view command, std::span<const std::string_view> keys, bool head,
                   int64_t count, std::optional<int64_t> deadline_ms) {
  for (const std::string_view key : keys) {
    Found<List> found = find_as<List>(ctx.db, key);
    if (found.wrong_type) return Reply::error(errors::kWrongType);
    if (found.value == nullptr) continue;
    List& list = *found.value;
    if (count != -1) return pop_range_with_key(ctx, key, list, head, count);
    Reply value = Reply::bulk(head ? list.front() : list.back());
    if (head) list.pop_front();
    else list.pop_back();
    elements_removed(ctx, key, head, list);
    return Reply::array({Reply::bulk(key), std::move(value)});
  }
  if (!deadline_ms || !ctx.engine.may_block(ctx.session)) return Reply::nil_array();
  BlockedPop pop = BlockedPop::on_keys(BlockedType::List, ctx.db.id(), keys, *deadline_ms, command);
  pop.from_head = head;
  pop.count = count;
  ctx.engine.block(ctx.session, std::move(pop));
  return Reply::sequence({});
}

// blmoveGenericCommand: LMOVE when the source has elements, else a wait on the source alone.
Reply move_or_block(CommandContext& ctx, std::string_view command, bool from_head, bool to_head,
                    std::string_view timeout) {
  const BlockTimeout parsed = parse_block_timeout(timeout, ctx.db.now());
  if (!parsed.error.empty()) return Reply::error(parsed.error);
  Found<List> from = find_as<List>(ctx.db, ctx.arg(1));
  if (from.wrong_type) return Reply::error(errors::kWrongType);
  if (from.value != nullptr) return move_generic(ctx, ctx.arg(1), ctx.arg(2), from_head, to_head);
  if (!ctx.engine.may_block(ctx.session)) return Reply::nil();
  BlockedPop pop = BlockedPop::on_keys(BlockedType::List, ctx.db.id(), ctx.argv.subspan(1, 1), parsed.deadline_ms, command);
  pop.from_head = from_head;
  pop.to_head = to_head;
  pop.target = ctx.arg(2);
  ctx.engine.block(ctx.session, std::move(pop));
  return Reply::sequence({});
}

// lmpopGenericCommand: numkeys key [key ...] LEFT|RIGHT [COUNT count], from `numkeys_index`; with
// `timeout` (BLMPOP) a wait when no key holds a list.
Reply mpop_generic(CommandContext& ctx, std::string_view command, size_t numkeys_index,
                   std::optional<std::string_view> timeout) {
  const std::optional<int64_t> numkeys = parse_int64(ctx.arg(numkeys_index));
  if (!numkeys || *numkeys <= 0) return Reply::error(errors::kNumkeysNotPositive);
  if (static_cast<uint64_t>(*numkeys) >= ctx.argc() - numkeys_index - 1) return Reply::error(errors::kSyntax);
  const size_t where_index = numkeys_index + static_cast<size_t>(*numkeys) + 1;
  const std::optional<bool> head = head_of(ctx.arg(where_index));
  if (!head) return Reply::error(errors::kSyntax);
  int64_t count = -1;
  for (size_t j = where_index + 1; j < ctx.argc(); ++j) {
    const bool more = j + 1 < ctx.argc();
    if (count == -1 && equals_ignore_case(ctx.arg(j), "count") && more) {
      const std::optional<int64_t> parsed = parse_int64(ctx.arg(++j));
      if (!parsed || *parsed <= 0) return Reply::error(errors::kCountNotGreaterThanZero);
      count = *parsed;
    } else {
      return Reply::error(errors::kSyntax);
    }
  }
  if (count == -1) count = 1;
  std::optional<int64_t> deadline_ms;
  if (timeout) {
    const BlockTimeout parsed = parse_block_timeout(*timeout, ctx.db.now());
    if (!parsed.error.empty()) return Reply::error(parsed.error);
    deadline_ms = parsed.deadline_ms;
  }
  return pop_or_block(ctx, command, ctx.argv.subspan(numkeys_index + 1, static_cast<size_t>(*numkeys)), *head, count,
                      deadline_ms);
}

// BLPOP / BRPOP key [key ...] timeout
Reply blocking_pop(CommandContext& ctx, std::string_view command, bool head) {
  const BlockTimeout parsed = parse_block_timeout(ctx.arg(ctx.argc() - 1), ctx.db.now());
  if (!parsed.error.empty()) return Reply::error(parsed.error);
  return pop_or_block(ctx, command, ctx.argv.subspan(1, ctx.argc() - 2), head, -1, parsed.deadline_ms);
}

}  // namespace

// LMOVE source destination LEFT|RIGHT LEFT|RIGHT
Reply lmove_command(CommandContext& ctx) {
  const std::optional<bool> from_head = head_of(ctx.arg(3));
  if (!from_head) return Reply::error(errors::kSyntax);
  const std::optional<bool> to_head = head_of(ctx.arg(4));
  if (!to_head) return Reply::error(errors::kSyntax);
  return move_generic(ctx, ctx.arg(1), ctx.arg(2), *from_head, *to_head);
}

// RPOPLPUSH source destination
Reply rpoplpush_command(CommandContext& ctx) { return move_generic(ctx, ctx.arg(1), ctx.arg(2), false, true); }

// BLMOVE source destination LEFT|RIGHT LEFT|RIGHT timeout
Reply blmove_command(CommandContext& ctx) {
  const std::optional<bool> from_head = head_of(ctx.arg(3));
  if (!from_head) return Reply::error(errors::kSyntax);
  const std::optional<bool> to_head = head_of(ctx.arg(4));
  if (!to_head) return Reply::error(errors::kSyntax);
  return move_or_block(ctx, "blmove", *from_head, *to_head, ctx.arg(5));
}

// BRPOPLPUSH source destination timeout
Reply brpoplpush_command(CommandContext& ctx) { return move_or_block(ctx, "brpoplpush", false, true, ctx.arg(3)); }

// BLPOP key [key ...] timeout
Reply blpop_command(CommandContext& ctx) { return blocking_pop(ctx, "blpop", true); }
// BRPOP key [key ...] timeout
Reply brpop_command(CommandContext& ctx) { return blocking_pop(ctx, "brpop", false); }
// LMPOP numkeys key [key ...] LEFT|RIGHT [COUNT count]
Reply lmpop_command(CommandContext& ctx) { return mpop_generic(ctx, "lmpop", 1, std::nullopt); }
// BLMPOP timeout numkeys key [key ...] LEFT|RIGHT [COUNT count]
Reply blmpop_command(CommandContext& ctx) { return mpop_generic(ctx, "blmpop", 2, ctx.arg(1)); }

// serveClientBlockedOnList: `key` holds a non-empty list that `pop` waited for.
Reply serve_blocked_list(CommandContext& ctx, std::string_view key, const BlockedPop& pop) {
  Found<List> found = find_as<List>(ctx.db, key);
  LS_ASSERT(found.value != nullptr && !found.value->empty());
  // BLMOVE: a destination of another type is the error, and the element stays.
  if (!pop.target.empty()) return move_generic(ctx, key, pop.target, pop.from_head, pop.to_head);
  const std::string_view keys[] = {key};
  return pop_or_block(ctx, pop.command, keys, pop.from_head, pop.count, std::nullopt);
}

// LINSERT key BEFORE|AFTER pivot element: the new length, -1 without the pivot, 0 without the key.
Reply linsert_command(CommandContext& ctx) {
  bool after;
  if (equals_ignore_case(ctx.arg(2), "after")) after = true;
  else if (equals_ignore_case(ctx.arg(2), "before")) after = false;
  else return Reply::error(errors::kSyntax);
  Found<List> found = find_as<List>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr) return Reply::integer_of(0);
  List& list = *found.value;
  for (auto it = list.begin(); it != list.end(); ++it) {
    if (*it != ctx.arg(3)) continue;
    list.emplace(after ? std::next(it) : it, ctx.arg(4));
    ctx.notify(kNotifyList, "linsert", ctx.arg(1));
    return Reply::integer_of(static_cast<int64_t>(list.size()));
  }
  return Reply::integer_of(-1);
}

// LRANGE key start stop
Reply lrange_command(CommandContext& ctx) {
  auto start = parse_int64(ctx.arg(2));
  auto stop = parse_int64(ctx.arg(3));
  if (!start || !stop) return Reply::error(errors::kNotInteger);
  Found<List> found = find_as<List>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  Reply reply = Reply::array();
  if (found.value == nullptr) return reply;
  const auto size = static_cast<int64_t>(found.value->size());
  int64_t from = *start < 0 ? size + *start : *start;
  int64_t to = *stop < 0 ? size + *stop : *stop;
  if (from < 0) from = 0;
  if (from > to || from >= size) return reply;
  if (to >= size) to = size - 1;
  for (int64_t i = from; i <= to; ++i) reply.elements.push_back(Reply::bulk((*found.value)[static_cast<size_t>(i)]));
  return reply;
}

// LREM key count element: count > 0 from the head, < 0 from the tail, 0 all.
Reply lrem_command(CommandContext& ctx) {
  auto count = parse_int64(ctx.arg(2));
  if (!count) return Reply::error(errors::kNotInteger);
  Found<List> found = find_as<List>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr) return Reply::integer_of(0);
  List& list = *found.value;
  const std::string_view element = ctx.arg(3);
  const uint64_t limit = *count == 0 ? UINT64_MAX
                         : *count > 0 ? static_cast<uint64_t>(*count)
                                      : 0 - static_cast<uint64_t>(*count);
  int64_t removed = 0;
  if (*count >= 0) {
    for (auto it = list.begin(); it != list.end() && static_cast<uint64_t>(removed) < limit;) {
      if (*it == element) { it = list.erase(it); ++removed; } else { ++it; }
    }
  } else {
    for (size_t i = list.size(); i > 0 && static_cast<uint64_t>(removed) < limit; --i) {
      if (list[i - 1] == element) { list.erase(list.begin() + static_cast<std::ptrdiff_t>(i - 1)); ++removed; }
    }
  }
  if (removed) ctx.notify(kNotifyList, "lrem", ctx.arg(1));
  if (list.empty()) {
    ctx.db.remove(ctx.arg(1));
    ctx.notify(kNotifyGeneric, "del", ctx.arg(1));
  }
  return Reply::integer_of(removed);
}

// LSET key index element
Reply lset_command(CommandContext& ctx) {
  Found<List> found = find_as<List>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr) return Reply::error(errors::kNoSuchKey);
  auto index = parse_int64(ctx.arg(2));
  if (!index) return Reply::error(errors::kNotInteger);
  const auto size = static_cast<int64_t>(found.value->size());
  const int64_t at = *index < 0 ? size + *index : *index;
  if (at < 0 || at >= size) return Reply::error(errors::kIndexOutOfRange);
  (*found.value)[static_cast<size_t>(at)] = std::string(ctx.arg(3));
  ctx.db.signal_modified(ctx.arg(1));  // even with the element it held: a WATCH breaks (keyspace.hpp)
  ctx.notify(kNotifyList, "lset", ctx.arg(1));
  return Reply::ok();
}

}  // namespace locksim::engine

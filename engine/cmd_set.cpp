// Sets: SADD, SREM, SMOVE, SISMEMBER, SMISMEMBER, SCARD, SMEMBERS, SPOP, SRANDMEMBER, SINTER,
// SINTERCARD, SINTERSTORE, SUNION, SUNIONSTORE, SDIFF, SDIFFSTORE (Redis t_set.c).
//
// Where Redis picks at random (SPOP, SRANDMEMBER) the fake takes members from the front of the set's
// order, so a run is a function of its commands (docs/fidelity.md). Everything else follows
// t_set.c step by step, including which encoding a result set ends up in, since that decides the
// order an intset replies in and what OBJECT ENCODING says.
#include <algorithm>
#include <limits>
#include <vector>

#include "engine/commands.hpp"
#include "engine/errors.hpp"
#include "engine/numbers.hpp"
#include "engine/set_key.hpp"

namespace locksim::engine {
namespace {

Reply bulks(const std::vector<std::string>& items) {
  Reply reply = Reply::array();
  reply.elements.reserve(items.size());
  for (const auto& item : items) reply.elements.push_back(Reply::bulk(item));
  return reply;
}

// The sets named by argv[first..]: a missing key is a null set, another type stops with WRONGTYPE
// (every key is looked up, and so lazily expired, before anything else happens, as in Redis).
bool lookup_sets(CommandContext& ctx, size_t first, size_t count, std::vector<const Set*>& sets, Reply& error) {
  sets.clear();
  for (size_t j = first; j < first + count; ++j) {
    Found<Set> found = find_as<Set>(ctx.db, ctx.arg(j));
    if (found.wrong_type) {
      error = Reply::error(errors::kWrongType);
      return false;
    }
    sets.push_back(found.value);
  }
  return true;
}

// The *STORE variants' empty result: the destination goes, if it was there.
Reply store_nothing(CommandContext& ctx, std::string_view dstkey) {
  if (ctx.db.remove(dstkey)) ctx.notify(kNotifyGeneric, "del", dstkey);
  return Reply::integer_of(0);
}

// What the *STORE variants do with their result: an empty result deletes the destination,
// anything else replaces it whatever it held (setKey: the expiry goes too), announced as `event`.
Reply store_result(CommandContext& ctx, std::string_view dstkey, Set result, std::string_view event) {
  if (result.empty()) return store_nothing(ctx, dstkey);
  const auto size = static_cast<int64_t>(result.size());
  set_key(ctx.db, dstkey, Value{std::move(result)});
  ctx.notify(kNotifySet, event, dstkey);
  return Reply::integer_of(size);
}

// Redis's sinterGenericCommand. The smallest set is walked (ties keep the keys' order, where
// Redis's qsort leaves it unspecified) and each member is checked against the others.
enum class InterMode { Reply, Store, Cardinality };

Reply sinter_generic(CommandContext& ctx, size_t first, size_t count, std::string_view dstkey, InterMode mode,
                     uint64_t limit = 0) {
  std::vector<const Set*> sets;
  Reply error;
  if (!lookup_sets(ctx, first, count, sets, error)) return error;
  if (std::find(sets.begin(), sets.end(), nullptr) != sets.end()) {
    switch (mode) {
      case InterMode::Store:
        return store_nothing(ctx, dstkey);
      case InterMode::Cardinality:
        return Reply::integer_of(0);
      case InterMode::Reply:
        return Reply::array();
    }
  }
  std::stable_sort(sets.begin(), sets.end(), [](const Set* a, const Set* b) { return a->size() < b->size(); });

  std::vector<std::string> common;
  uint64_t cardinality = 0;
  for (const std::string& member : sets[0]->members()) {
    bool everywhere = true;
    for (size_t j = 1; j < sets.size() && everywhere; ++j)
      if (sets[j] != sets[0] && !sets[j]->contains(member)) everywhere = false;
    if (!everywhere) continue;
    ++cardinality;
    if (mode == InterMode::Cardinality) {
      if (limit != 0 && cardinality >= limit) break;
      continue;
    }
    common.push_back(member);
  }
  if (mode == InterMode::Cardinality) return Reply::integer_of(static_cast<int64_t>(cardinality));
  if (mode == InterMode::Reply) return bulks(common);
  Set result;
  for (const auto& member : common) result.add(member, ctx.db.limits());
  return store_result(ctx, dstkey, std::move(result), "sinterstore");
}

// Redis's sunionDiffGenericCommand: the result is built in a new set that starts as an intset, and
// SDIFF chooses between its two algorithms by the same estimate of work, because the algorithm
// decides the result's encoding (algorithm 2 adds the whole first set before removing).
enum class SetOp { Union, Diff };

Set sunion_diff(const std::vector<const Set*>& sets, SetOp op, const EncodingLimits& limits) {
  Set result;
  if (op == SetOp::Union) {
    for (const Set* set : sets)
      if (set != nullptr)
        for (const auto& member : set->members()) result.add(member, limits);
    return result;
  }
  const Set* head = sets[0];
  if (head == nullptr) return result;
  for (size_t j = 1; j < sets.size(); ++j)
    if (sets[j] == head) return result;  // the first set minus itself
  uint64_t algo_one_work = 0, algo_two_work = 0;
  for (const Set* set : sets) {
    if (set == nullptr) continue;
    algo_one_work += head->size();
    algo_two_work += set->size();
  }
  algo_one_work /= 2;
  if (algo_one_work <= algo_two_work) {
    for (const auto& member : head->members()) {
      bool elsewhere = false;
      for (size_t j = 1; j < sets.size() && !elsewhere; ++j)
        elsewhere = sets[j] != nullptr && sets[j]->contains(member);
      if (!elsewhere) result.add(member, limits);
    }
    return result;
  }
  for (const auto& member : head->members()) result.add(member, limits);
  for (size_t j = 1; j < sets.size() && !result.empty(); ++j)
    if (sets[j] != nullptr)
      for (const auto& member : sets[j]->members()) result.remove(member);
  return result;
}

Reply sunion_diff_generic(CommandContext& ctx, size_t first, std::string_view dstkey, bool store, SetOp op) {
  std::vector<const Set*> sets;
  Reply error;
  if (!lookup_sets(ctx, first, ctx.argc() - first, sets, error)) return error;
  Set result = sunion_diff(sets, op, ctx.db.limits());
  if (store) return store_result(ctx, dstkey, std::move(result), op == SetOp::Union ? "sunionstore" : "sdiffstore");
  return bulks(result.members());
}

// The n members SPOP and SRANDMEMBER take where Redis draws at random: the first ones in order.
std::vector<std::string> first_members(const Set& set, size_t n) {
  std::vector<std::string> members = set.members();
  members.resize(std::min(n, members.size()));
  return members;
}

// SPOP key count (spopWithCountCommand).
Reply spop_with_count(CommandContext& ctx) {
  auto parsed = parse_int64(ctx.arg(2));
  if (!parsed || *parsed < 0) return Reply::error(errors::kCountNotPositive);
  const auto count = static_cast<uint64_t>(*parsed);
  Found<Set> found = find_as<Set>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr || count == 0) return Reply::array();
  Set& set = *found.value;
  const size_t size = set.size();
  ctx.notify(kNotifySet, "spop", ctx.arg(1));
  if (count >= size) {
    // The whole set, as SUNION of it replies, then the key goes.
    Reply reply = bulks(sunion_diff({&set}, SetOp::Union, ctx.db.limits()).members());
    ctx.db.remove(ctx.arg(1));
    ctx.notify(kNotifyGeneric, "del", ctx.arg(1));
    return reply;
  }
  const std::vector<std::string> popped = first_members(set, count);
  for (const auto& member : popped) set.remove(member);
  // When few members remain Redis moves them into a new set (setTypeCreate from the first one), so
  // a hashtable of integers becomes an intset again. The key keeps its expiry (dbOverwrite).
  const size_t remaining = size - count;
  if (remaining * 5 <= count) {
    const std::vector<std::string> rest = set.members();
    Set rebuilt = Set::for_member(rest.front());
    for (const auto& member : rest) rebuilt.add(member, ctx.db.limits());
    set = std::move(rebuilt);
  }
  return bulks(popped);
}

// SRANDMEMBER key count (srandmemberWithCountCommand): a negative count may repeat members.
Reply srandmember_with_count(CommandContext& ctx) {
  auto parsed = parse_int64(ctx.arg(2));
  if (!parsed) return Reply::error(errors::kNotInteger);
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min(), kMax = std::numeric_limits<int64_t>::max();
  if (*parsed == kMin) return Reply::error(errors::value_out_of_range(-kMax, kMax));
  const bool unique = *parsed >= 0;
  const uint64_t count = unique ? static_cast<uint64_t>(*parsed) : static_cast<uint64_t>(-*parsed);
  Found<Set> found = find_as<Set>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr || count == 0) return Reply::array();
  const std::vector<std::string> members = found.value->members();
  if (!unique) {
    // With repetitions: the members in order, again and again, until there are `count`. (No
    // reserve: like Redis, which writes the reply as it goes, a huge count costs memory as it grows.)
    std::vector<std::string> picked;
    for (uint64_t i = 0; i < count; ++i) picked.push_back(members[i % members.size()]);
    return bulks(picked);
  }
  return bulks(first_members(*found.value, count));
}

}  // namespace

// SADD key member [member ...]
Reply sadd_command(CommandContext& ctx) {
  Found<Set> found = find_as<Set>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr) {
    found.entry = &ctx.db.insert(ctx.arg(1), Value{Set::for_member(ctx.arg(2))});
    found.value = std::get_if<Set>(&found.entry->value);
  }
  int64_t added = 0;
  for (size_t j = 2; j < ctx.argc(); ++j) added += found.value->add(ctx.arg(j), ctx.db.limits());
  if (added) ctx.notify(kNotifySet, "sadd", ctx.arg(1));
  return Reply::integer_of(added);
}

// SREM key member [member ...]
Reply srem_command(CommandContext& ctx) {
  Found<Set> found = find_as<Set>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr) return Reply::integer_of(0);
  int64_t removed = 0;
  for (size_t j = 2; j < ctx.argc() && !found.value->empty(); ++j) removed += found.value->remove(ctx.arg(j));
  const bool emptied = found.value->empty();
  if (emptied) ctx.db.remove(ctx.arg(1));
  if (removed) {
    ctx.notify(kNotifySet, "srem", ctx.arg(1));
    if (emptied) ctx.notify(kNotifyGeneric, "del", ctx.arg(1));
  }
  return Reply::integer_of(removed);
}

// SMOVE source destination member
Reply smove_command(CommandContext& ctx) {
  const std::string_view src_key = ctx.arg(1), dst_key = ctx.arg(2), member = ctx.arg(3);
  Found<Set> src = find_as<Set>(ctx.db, src_key);
  Found<Set> dst = find_as<Set>(ctx.db, dst_key);
  // A missing source answers 0 before any type is checked.
  if (src.value == nullptr && !src.wrong_type) return Reply::integer_of(0);
  if (src.wrong_type || dst.wrong_type) return Reply::error(errors::kWrongType);
  if (src_key == dst_key) return Reply::integer_of(src.value->contains(member) ? 1 : 0);
  if (!src.value->remove(member)) return Reply::integer_of(0);
  ctx.notify(kNotifySet, "srem", src_key);
  if (src.value->empty()) {
    ctx.db.remove(src_key);
    ctx.notify(kNotifyGeneric, "del", src_key);
  }
  if (dst.value == nullptr) {
    dst.entry = &ctx.db.insert(dst_key, Value{Set::for_member(member)});
    dst.value = std::get_if<Set>(&dst.entry->value);
  }
  if (dst.value->add(member, ctx.db.limits())) ctx.notify(kNotifySet, "sadd", dst_key);
  return Reply::integer_of(1);
}

// SISMEMBER key member
Reply sismember_command(CommandContext& ctx) {
  Found<Set> found = find_as<Set>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  return Reply::integer_of(found.value && found.value->contains(ctx.arg(2)) ? 1 : 0);
}

// SMISMEMBER key member [member ...]
Reply smismember_command(CommandContext& ctx) {
  Found<Set> found = find_as<Set>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  Reply reply = Reply::array();
  for (size_t j = 2; j < ctx.argc(); ++j)
    reply.elements.push_back(Reply::integer_of(found.value && found.value->contains(ctx.arg(j)) ? 1 : 0));
  return reply;
}

// SCARD key
Reply scard_command(CommandContext& ctx) {
  Found<Set> found = find_as<Set>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  return Reply::integer_of(found.value ? static_cast<int64_t>(found.value->size()) : 0);
}

// SMEMBERS key: Redis runs it as SINTER of one key.
Reply smembers_command(CommandContext& ctx) { return sinter_generic(ctx, 1, 1, {}, InterMode::Reply); }

// SPOP key [count]
Reply spop_command(CommandContext& ctx) {
  if (ctx.argc() == 3) return spop_with_count(ctx);
  if (ctx.argc() > 3) return Reply::error(errors::kSyntax);
  Found<Set> found = find_as<Set>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr) return Reply::nil();
  const std::string member = first_members(*found.value, 1).front();
  found.value->remove(member);
  ctx.notify(kNotifySet, "spop", ctx.arg(1));
  if (found.value->empty()) {
    ctx.db.remove(ctx.arg(1));
    ctx.notify(kNotifyGeneric, "del", ctx.arg(1));
  }
  return Reply::bulk(member);
}

// SRANDMEMBER key [count]
Reply srandmember_command(CommandContext& ctx) {
  if (ctx.argc() == 3) return srandmember_with_count(ctx);
  if (ctx.argc() > 3) return Reply::error(errors::kSyntax);
  Found<Set> found = find_as<Set>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr) return Reply::nil();
  return Reply::bulk(first_members(*found.value, 1).front());
}

// SINTER key [key ...]
Reply sinter_command(CommandContext& ctx) { return sinter_generic(ctx, 1, ctx.argc() - 1, {}, InterMode::Reply); }

// SINTERSTORE destination key [key ...]
Reply sinterstore_command(CommandContext& ctx) {
  return sinter_generic(ctx, 2, ctx.argc() - 2, ctx.arg(1), InterMode::Store);
}

// SINTERCARD numkeys key [key ...] [LIMIT limit]
Reply sintercard_command(CommandContext& ctx) {
  auto numkeys = parse_int64(ctx.arg(1));
  if (!numkeys || *numkeys < 1) return Reply::error(errors::kNumkeysNotPositive);
  if (*numkeys > static_cast<int64_t>(ctx.argc()) - 2) return Reply::error(errors::kTooManyKeys);
  const auto count = static_cast<size_t>(*numkeys);
  uint64_t limit = 0;
  for (size_t j = 2 + count; j < ctx.argc(); ++j) {
    if (equals_ignore_case(ctx.arg(j).substr(0, ctx.arg(j).find('\0')), "limit") && j + 1 < ctx.argc()) {
      auto parsed = parse_int64(ctx.arg(++j));
      if (!parsed || *parsed < 0) return Reply::error(errors::kLimitNegative);
      limit = static_cast<uint64_t>(*parsed);
    } else {
      return Reply::error(errors::kSyntax);
    }
  }
  return sinter_generic(ctx, 2, count, {}, InterMode::Cardinality, limit);
}

// SUNION key [key ...]
Reply sunion_command(CommandContext& ctx) { return sunion_diff_generic(ctx, 1, {}, false, SetOp::Union); }
// SUNIONSTORE destination key [key ...]
Reply sunionstore_command(CommandContext& ctx) { return sunion_diff_generic(ctx, 2, ctx.arg(1), true, SetOp::Union); }
// SDIFF key [key ...]
Reply sdiff_command(CommandContext& ctx) { return sunion_diff_generic(ctx, 1, {}, false, SetOp::Diff); }
// SDIFFSTORE destination key [key ...]
Reply sdiffstore_command(CommandContext& ctx) { return sunion_diff_generic(ctx, 2, ctx.arg(1), true, SetOp::Diff); }

}  // namespace locksim::engine

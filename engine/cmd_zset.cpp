// Sorted sets (Redis t_zset.c): ZADD, ZINCRBY, ZSCORE, ZMSCORE, ZREM, ZCARD, ZRANK, ZREVRANK; the
// range family on one path, as Redis's zrangeGenericCommand: ZRANGE (rank, BYSCORE, BYLEX, REV,
// LIMIT, WITHSCORES), ZRANGESTORE, ZREVRANGE, ZRANGEBYSCORE, ZREVRANGEBYSCORE, ZRANGEBYLEX,
// ZREVRANGEBYLEX; ZCOUNT, ZLEXCOUNT; ZREMRANGEBYRANK, ZREMRANGEBYSCORE, ZREMRANGEBYLEX; the pops
// (ZPOPMIN, ZPOPMAX, ZMPOP, through zset_pop.hpp's zset_pop) and ZRANDMEMBER. The set algebra
// (ZUNION, ZINTER, ZDIFF, their STORE forms, ZINTERCARD) is in cmd_zset_algebra.cpp. Scores print
// as Redis 7.0 prints doubles.
//
// Where Redis draws at random (ZRANDMEMBER) the fake takes members in the order Redis lists a whole
// sorted set there (highest first), so a run is a function of its commands (docs/fidelity.md).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <vector>

#include "engine/commands.hpp"
#include "engine/engine.hpp"
#include "engine/blocked.hpp"
#include "engine/errors.hpp"
#include "engine/numbers.hpp"
#include "engine/set_key.hpp"
#include "engine/zset_pop.hpp"

namespace locksim::engine {
namespace {

enum ZaddFlag : unsigned { kZNx = 1, kZXx = 2, kZGt = 4, kZLt = 8, kZIncr = 16, kZCh = 32 };

// The score Redis keeps. A small sorted set lives in a listpack, which stores scores as text and
// loses the sign of zero; a skiplist keeps it. A set that grew past the listpack's limits stays a
// skiplist when it shrinks again (ZSet::is_listpack), and adding a member can convert it first.
double stored_score(const ZSet& zset, std::string_view member, double score, bool is_new, const EncodingLimits& limits) {
  if (score != 0 || !std::signbit(score)) return score;
  if (!zset.is_listpack() || (is_new && zset.add_converts(member, limits))) return score;
  return 0.0;
}

// Redis's zaddGenericCommand; ZINCRBY is ZADD with INCR.
Reply zadd_generic(CommandContext& ctx, unsigned flags) {
  size_t score_index = 2;
  for (; score_index < ctx.argc(); ++score_index) {
    const std::string_view opt = ctx.arg(score_index);
    if (equals_ignore_case(opt, "nx")) flags |= kZNx;
    else if (equals_ignore_case(opt, "xx")) flags |= kZXx;
    else if (equals_ignore_case(opt, "ch")) flags |= kZCh;
    else if (equals_ignore_case(opt, "incr")) flags |= kZIncr;
    else if (equals_ignore_case(opt, "gt")) flags |= kZGt;
    else if (equals_ignore_case(opt, "lt")) flags |= kZLt;
    else break;
  }
  const size_t rest = ctx.argc() - score_index;
  if (rest == 0 || rest % 2 == 1) return Reply::error(errors::kSyntax);
  const size_t pairs = rest / 2;
  if ((flags & kZNx) && (flags & kZXx))
    return Reply::error(errors::kZaddXxAndNx);
  if (((flags & kZGt) && (flags & kZNx)) || ((flags & kZLt) && (flags & kZNx)) || ((flags & kZGt) && (flags & kZLt)))
    return Reply::error(errors::kZaddGtLtNx);
  if ((flags & kZIncr) && pairs > 1)
    return Reply::error(errors::kZaddIncrPair);

  std::vector<double> scores(pairs);
  for (size_t j = 0; j < pairs; ++j) {
    auto score = parse_double(ctx.arg(score_index + 2 * j));
    if (!score) return Reply::error(errors::kNotFloat);
    scores[j] = *score;
  }
  Found<ZSet> found = find_as<ZSet>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  const bool incr = flags & kZIncr;
  if (found.value == nullptr) {
    if (flags & kZXx) return incr ? Reply::nil() : Reply::integer_of(0);
    found = find_or_create<ZSet>(ctx.db, ctx.arg(1));
  }
  ZSet& zset = *found.value;
  int64_t added = 0, updated = 0, processed = 0;
  double last_score = 0;
  for (size_t j = 0; j < pairs; ++j) {
    const std::string_view member = ctx.arg(score_index + 2 * j + 1);
    double score = scores[j];
    if (const double* current = zset.score(member)) {
      if (flags & kZNx) continue;
      if (incr) {
        score += *current;
        if (std::isnan(score)) return Reply::error(errors::kScoreNaN);
      }
      if (((flags & kZLt) && score >= *current) || ((flags & kZGt) && score <= *current)) continue;
      if (score != *current) {
        zset.set(member, stored_score(zset, member, score, false, ctx.db.limits()), ctx.db.limits());
        ++updated;
      }
    } else {
      if (flags & kZXx) continue;
      zset.set(member, stored_score(zset, member, score, true, ctx.db.limits()), ctx.db.limits());
      ++added;
    }
    ++processed;
    last_score = score;
  }
  if (added || updated) ctx.notify(kNotifyZset, incr ? "zincr" : "zadd", ctx.arg(1));
  if (incr) return processed ? Reply::bulk(format_double(last_score)) : Reply::nil();
  return Reply::integer_of((flags & kZCh) ? added + updated : added);
}

struct ScoreRange {
  double min = 0, max = 0;
  bool min_exclusive = false, max_exclusive = false;
  bool above_min(double s) const { return min_exclusive ? s > min : s >= min; }
  bool below_max(double s) const { return max_exclusive ? s < max : s <= max; }
};

// zslParseRange: plain strtod (so "" reads as 0), "(" for exclusive, NaN refused.
bool parse_score_bound(std::string_view text, double& value, bool& exclusive) {
  exclusive = !text.empty() && text[0] == '(';
  if (exclusive) text.remove_prefix(1);
  const std::string s(text);
  char* end = nullptr;
  value = std::strtod(s.c_str(), &end);
  return *end == '\0' && !std::isnan(value);
}

struct LexBound {
  enum class Kind { Min, Max, Value } kind = Kind::Value;
  std::string value;
  bool exclusive = false;
};

// zslParseLexRangeItem: "-" and "+" are the ends of all strings (and count as exclusive), "[" and
// "(" open an inclusive and an exclusive bound.
bool parse_lex_bound(std::string_view text, LexBound& bound) {
  if (text == "+" || text == "-") {
    bound.kind = text == "+" ? LexBound::Kind::Max : LexBound::Kind::Min;
    bound.exclusive = true;
    return true;
  }
  if (text.empty() || (text[0] != '(' && text[0] != '[')) return false;
  bound.exclusive = text[0] == '(';
  bound.value = std::string(text.substr(1));
  return true;
}

// sdscmplex: memcmp order, with "-" below and "+" above every string.
int compare_lex(const LexBound& a, const LexBound& b) {
  using Kind = LexBound::Kind;
  if (a.kind == b.kind && a.kind != Kind::Value) return 0;
  if (a.kind == Kind::Min || b.kind == Kind::Max) return -1;
  if (a.kind == Kind::Max || b.kind == Kind::Min) return 1;
  const int cmp = a.value.compare(b.value);
  return cmp < 0 ? -1 : cmp > 0 ? 1 : 0;
}

bool lex_above_min(const LexBound& min, const std::string& m) {
  if (min.kind == LexBound::Kind::Min) return true;
  if (min.kind == LexBound::Kind::Max) return false;
  return min.exclusive ? m > min.value : m >= min.value;
}

bool lex_below_max(const LexBound& max, const std::string& m) {
  if (max.kind == LexBound::Kind::Max) return true;
  if (max.kind == LexBound::Kind::Min) return false;
  return max.exclusive ? m < max.value : m <= max.value;
}

enum class RangeType { Auto, Rank, Score, Lex };
enum class Direction { Auto, Forward, Reverse };

// A BYSCORE or BYLEX range (Redis's zrangespec, zlexrangespec).
struct Range {
  RangeType type = RangeType::Score;
  ScoreRange scores;
  LexBound lex_min, lex_max;

  bool gte_min(const ZSet::Item& item) const {
    return type == RangeType::Score ? scores.above_min(item.first) : lex_above_min(lex_min, item.second);
  }
  bool lte_max(const ZSet::Item& item) const {
    return type == RangeType::Score ? scores.below_max(item.first) : lex_below_max(lex_max, item.second);
  }
  // The first test of zzlIsInRange and zzlIsInLexRange: a range that can hold nothing.
  bool always_empty() const {
    if (type == RangeType::Score)
      return scores.min > scores.max ||
             (scores.min == scores.max && (scores.min_exclusive || scores.max_exclusive));
    const int cmp = compare_lex(lex_min, lex_max);
    return cmp > 0 || (cmp == 0 && (lex_min.exclusive || lex_max.exclusive));
  }
};

// zslParseRange or zslParseLexRange (by range.type), with the error each command answers.
bool parse_range(std::string_view min, std::string_view max, Range& range, Reply& error) {
  if (range.type == RangeType::Score) {
    if (parse_score_bound(min, range.scores.min, range.scores.min_exclusive) &&
        parse_score_bound(max, range.scores.max, range.scores.max_exclusive))
      return true;
    error = Reply::error(errors::kMinMaxNotFloat);
    return false;
  }
  if (parse_lex_bound(min, range.lex_min) && parse_lex_bound(max, range.lex_max)) return true;
  error = Reply::error(errors::kLexRange);
  return false;
}

using View = std::vector<const ZSet::Item*>;

// The members in the order a command walks them: ascending, or descending for REV.
View walk_order(const ZSet& zset, bool reverse) {
  View view;
  view.reserve(zset.size());
  if (reverse) {
    for (auto it = zset.ordered().rbegin(); it != zset.ordered().rend(); ++it) view.push_back(&*it);
  } else {
    for (const auto& item : zset.ordered()) view.push_back(&item);
  }
  return view;
}

// Whether `item` is still on the near side of the range's far end: below max going up, above min
// going down.
bool before_far_end(const Range& range, const ZSet::Item& item, bool reverse) {
  return reverse ? range.gte_min(item) : range.lte_max(item);
}

// Where a range's walk starts in `view` (walk order), as Redis's listpack finds it
// (zzlFirstInRange, zzlLastInRange and their lex forms): none when zzlIsInRange rules the range out
// (always empty, the highest member below min or the lowest above max); else the first member past
// the near end, if it is not already past the far end. The walk then goes on while members stay
// before the far end. Scores are in order, so this is plain filtering for BYSCORE; for BYLEX it is
// also what Redis answers for members of different scores.
std::optional<size_t> range_start(const View& view, const Range& range, bool reverse) {
  if (view.empty() || range.always_empty()) return std::nullopt;
  const ZSet::Item& lowest = reverse ? *view.back() : *view.front();
  const ZSet::Item& highest = reverse ? *view.front() : *view.back();
  if (!range.gte_min(highest) || !range.lte_max(lowest)) return std::nullopt;
  for (size_t i = 0; i < view.size(); ++i) {
    const bool past_near_end = reverse ? range.lte_max(*view[i]) : range.gte_min(*view[i]);
    if (!past_near_end) continue;
    if (before_far_end(range, *view[i], reverse)) return i;
    return std::nullopt;
  }
  return std::nullopt;
}

// The members a range holds, walking up from its start (ZCOUNT, ZLEXCOUNT, ZREMRANGEBYSCORE,
// ZREMRANGEBYLEX; Redis's zzlDeleteRangeByScore and friends walk the same way).
View range_members(const ZSet& zset, const Range& range) {
  const View view = walk_order(zset, false);
  View members;
  const std::optional<size_t> start = range_start(view, range, false);
  for (size_t i = start.value_or(view.size()); i < view.size() && range.lte_max(*view[i]); ++i)
    members.push_back(view[i]);
  return members;
}

// genericZrangebyrankCommand's index sanitizing: the [start, stop] a rank range covers in a set of
// `size`, or none.
std::optional<std::pair<size_t, size_t>> rank_range(int64_t start, int64_t stop, size_t size) {
  const auto len = static_cast<int64_t>(size);
  if (start < 0) start += len;
  if (stop < 0) stop += len;
  if (start < 0) start = 0;
  if (start > stop || start >= len) return std::nullopt;
  if (stop >= len) stop = len - 1;
  return std::pair{static_cast<size_t>(start), static_cast<size_t>(stop)};
}

void emit(Reply& reply, const ZSet::Item& item, bool with_scores) {
  reply.elements.push_back(Reply::bulk(item.second));
  if (with_scores) reply.elements.push_back(Reply::bulk(format_double(item.first)));
}

// ZRANGESTORE's destination (zrangeResultBeginStore, zsetAdd per member, zrangeResultFinalizeStore):
// a new sorted set, a skiplist from the start when a rank range is known to hold more than a
// listpack's worth, else a listpack converting as members arrive; it replaces the destination
// whatever that held (setKey), and an empty range deletes it.
Reply store_range(CommandContext& ctx, const View& picked, bool known_big) {
  const std::string_view dst = ctx.arg(1);
  if (picked.empty()) {
    if (ctx.db.remove(dst)) ctx.notify(kNotifyGeneric, "del", dst);
    return Reply::integer_of(0);
  }
  ZSet zset = known_big ? ZSet::skiplist() : ZSet{};
  for (const ZSet::Item* item : picked)
    zset.set(item->second, stored_score(zset, item->second, item->first, true, ctx.db.limits()), ctx.db.limits());
  const auto size = static_cast<int64_t>(zset.size());
  set_key(ctx.db, dst, Value{std::move(zset)});
  ctx.notify(kNotifyZset, "zrangestore", dst);
  return Reply::integer_of(size);
}

// Redis's zrangeGenericCommand. `src` is the index of the source key (ZRANGESTORE's is 2, after its
// destination); `type` and `direction` are Auto for ZRANGE and ZRANGESTORE, whose options choose
// them, and fixed for the older commands (ZREVRANGE, Z[REV]RANGEBYSCORE, Z[REV]RANGEBYLEX), which
// then refuse those options as syntax errors.
Reply zrange_generic(CommandContext& ctx, size_t src, bool store, RangeType type, Direction direction) {
  bool with_scores = false;
  int64_t offset = 0, limit = -1;
  for (size_t j = src + 3; j < ctx.argc(); ++j) {
    const std::string_view opt = ctx.arg(j);
    const size_t left = ctx.argc() - j - 1;
    if (!store && equals_ignore_case(opt, "withscores")) {
      with_scores = true;
    } else if (equals_ignore_case(opt, "limit") && left >= 2) {
      auto o = parse_int64(ctx.arg(j + 1));
      auto l = parse_int64(ctx.arg(j + 2));
      if (!o || !l) return Reply::error(errors::kNotInteger);
      offset = *o;
      limit = *l;
      j += 2;
    } else if (direction == Direction::Auto && equals_ignore_case(opt, "rev")) {
      direction = Direction::Reverse;
    } else if (type == RangeType::Auto && equals_ignore_case(opt, "bylex")) {
      type = RangeType::Lex;
    } else if (type == RangeType::Auto && equals_ignore_case(opt, "byscore")) {
      type = RangeType::Score;
    } else {
      return Reply::error(errors::kSyntax);
    }
  }
  if (type == RangeType::Auto) type = RangeType::Rank;
  const bool reverse = direction == Direction::Reverse;
  if (limit != -1 && type == RangeType::Rank) return Reply::error(errors::kZrangeLimit);
  if (with_scores && type == RangeType::Lex) return Reply::error(errors::kZrangeWithScoresByLex);

  // With REV, a score or lex range is written max first.
  std::string_view min_arg = ctx.arg(src + 1), max_arg = ctx.arg(src + 2);
  if (reverse && type != RangeType::Rank) std::swap(min_arg, max_arg);
  int64_t start = 0, stop = 0;
  Range range;
  range.type = type;
  if (type == RangeType::Rank) {
    auto a = parse_int64(min_arg), b = parse_int64(max_arg);
    if (!a || !b) return Reply::error(errors::kNotInteger);
    start = *a;
    stop = *b;
  } else if (Reply error; !parse_range(min_arg, max_arg, range, error)) {
    return error;
  }

  Found<ZSet> found = find_as<ZSet>(ctx.db, ctx.arg(src));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr) return store ? store_range(ctx, {}, false) : Reply::array();
  const View view = walk_order(*found.value, reverse);

  View picked;
  if (type == RangeType::Rank) {
    if (auto covered = rank_range(start, stop, view.size()))
      picked.assign(view.begin() + static_cast<std::ptrdiff_t>(covered->first),
                    view.begin() + static_cast<std::ptrdiff_t>(covered->second) + 1);
  } else if (type == RangeType::Score && offset > 0 && static_cast<uint64_t>(offset) >= view.size()) {
    // genericZrangebyscoreCommand answers an offset past the end at once (the lex form walks).
  } else if (std::optional<size_t> first = range_start(view, range, reverse)) {
    // The offset skips members without looking at the range (a negative one skips them all); the
    // limit counts down from there, a negative one never reaching 0 (Redis's offset--, limit--).
    size_t i = *first;
    const size_t remaining = view.size() - i;
    i = (offset < 0 || static_cast<uint64_t>(offset) >= remaining) ? view.size() : i + static_cast<size_t>(offset);
    for (; i < view.size() && limit != 0 && before_far_end(range, *view[i], reverse); ++i) {
      if (limit > 0) --limit;
      picked.push_back(view[i]);
    }
  }

  if (store) return store_range(ctx, picked, type == RangeType::Rank && picked.size() > ctx.db.limits().zset_listpack_entries);
  Reply reply = Reply::array();
  for (const ZSet::Item* item : picked) emit(reply, *item, with_scores);
  return reply;
}

// Redis's zremrangeGenericCommand: ZREMRANGEBYRANK, ZREMRANGEBYSCORE, ZREMRANGEBYLEX.
Reply zremrange_generic(CommandContext& ctx, RangeType type) {
  int64_t start = 0, stop = 0;
  Range range;
  range.type = type;
  if (type == RangeType::Rank) {
    auto a = parse_int64(ctx.arg(2)), b = parse_int64(ctx.arg(3));
    if (!a || !b) return Reply::error(errors::kNotInteger);
    start = *a;
    stop = *b;
  } else if (Reply error; !parse_range(ctx.arg(2), ctx.arg(3), range, error)) {
    return error;
  }
  Found<ZSet> found = find_as<ZSet>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr) return Reply::integer_of(0);
  ZSet& zset = *found.value;
  View doomed;
  if (type == RangeType::Rank) {
    const View view = walk_order(zset, false);
    if (auto covered = rank_range(start, stop, view.size()))
      doomed.assign(view.begin() + static_cast<std::ptrdiff_t>(covered->first),
                    view.begin() + static_cast<std::ptrdiff_t>(covered->second) + 1);
  } else {
    doomed = range_members(zset, range);
  }
  // Copied out first: erasing a member frees the item a pointer in `doomed` points at.
  std::vector<std::string> members;
  members.reserve(doomed.size());
  for (const ZSet::Item* item : doomed) members.push_back(item->second);
  for (const std::string& member : members) zset.erase(member);
  const bool emptied = zset.empty();
  if (emptied) ctx.db.remove(ctx.arg(1));
  if (!members.empty()) {
    ctx.notify(kNotifyZset,
               type == RangeType::Rank    ? "zremrangebyrank"
               : type == RangeType::Score ? "zremrangebyscore"
                                          : "zremrangebylex",
               ctx.arg(1));
    if (emptied) ctx.notify(kNotifyGeneric, "del", ctx.arg(1));
  }
  return Reply::integer_of(static_cast<int64_t>(members.size()));
}

// ZCOUNT and ZLEXCOUNT.
Reply zcount_generic(CommandContext& ctx, RangeType type) {
  Range range;
  range.type = type;
  if (Reply error; !parse_range(ctx.arg(2), ctx.arg(3), range, error)) return error;
  Found<ZSet> found = find_as<ZSet>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr) return Reply::integer_of(0);
  return Reply::integer_of(static_cast<int64_t>(range_members(*found.value, range).size()));
}

// zrankGenericCommand.
Reply zrank_generic(CommandContext& ctx, bool reverse) {
  Found<ZSet> found = find_as<ZSet>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr || found.value->score(ctx.arg(2)) == nullptr) return Reply::nil();
  const size_t rank = found.value->rank(ctx.arg(2));
  return Reply::integer_of(static_cast<int64_t>(reverse ? found.value->size() - 1 - rank : rank));
}

// ZRANDMEMBER key count [WITHSCORES] (zrandmemberWithCountCommand). Redis draws; the fake takes
// members in the order Redis lists a whole sorted set here (its iterator starts at the highest), so
// a count that covers the set answers exactly as Redis does. A negative count repeats them in that
// order (`c b a c b ...`).
Reply zrandmember_with_count(CommandContext& ctx, int64_t requested, bool with_scores) {
  Found<ZSet> found = find_as<ZSet>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  Reply reply = Reply::array();
  if (found.value == nullptr || requested == 0) return reply;
  const View members = walk_order(*found.value, true);
  const bool unique = requested > 0;
  const uint64_t count = unique ? static_cast<uint64_t>(requested) : static_cast<uint64_t>(-requested);
  const uint64_t picks = unique ? std::min<uint64_t>(count, members.size()) : count;
  // No reserve: like Redis, which writes the reply as it goes, a huge count costs memory as it grows.
  for (uint64_t i = 0; i < picks; ++i) emit(reply, *members[i % members.size()], with_scores);
  return reply;
}

}  // namespace

Reply zset_pop(Keyspace& db, std::span<const std::string_view> keys, ZSetEnd end, int64_t count, ZPopReply shape) {
  std::string_view key;
  ZSet* zset = nullptr;
  for (const std::string_view candidate : keys) {
    Found<ZSet> found = find_as<ZSet>(db, candidate);
    if (found.wrong_type) return Reply::error(errors::kWrongType);
    if (found.value != nullptr) {
      key = candidate;
      zset = found.value;
      break;
    }
  }
  if (zset == nullptr) return shape == ZPopReply::KeyThenPairs ? Reply::nil_array() : Reply::array();
  if (count == 0) return Reply::array();
  if (count < 0) count = 1;  // a plain single pop
  Reply popped = Reply::array();
  for (int64_t n = 0; n < count && !zset->empty(); ++n) {
    const ZSet::Item item = end == ZSetEnd::Max ? *zset->ordered().rbegin() : *zset->ordered().begin();
    zset->erase(item.second);
    Reply member = Reply::bulk(item.second), score = Reply::bulk(format_double(item.first));
    if (shape == ZPopReply::KeyThenPairs) {
      popped.elements.push_back(Reply::array({std::move(member), std::move(score)}));
    } else {
      popped.elements.push_back(std::move(member));
      popped.elements.push_back(std::move(score));
    }
  }
  db.signal_modified(key);
  db.notify(kNotifyZset, end == ZSetEnd::Max ? "zpopmax" : "zpopmin", key);
  if (zset->empty()) {
    db.remove(key);
    db.notify(kNotifyGeneric, "del", key);
  }
  switch (shape) {
    case ZPopReply::Flat:
      return popped;
    case ZPopReply::KeyThenFlat:
      popped.elements.insert(popped.elements.begin(), Reply::bulk(key));
      return popped;
    case ZPopReply::KeyThenPairs:
      break;
  }
  return Reply::array({Reply::bulk(key), std::move(popped)});
}

// ZADD key [NX | XX] [GT | LT] [CH] [INCR] score member [score member ...]
Reply zadd_command(CommandContext& ctx) { return zadd_generic(ctx, 0); }

// ZINCRBY key increment member
Reply zincrby_command(CommandContext& ctx) { return zadd_generic(ctx, kZIncr); }

// ZSCORE key member
Reply zscore_command(CommandContext& ctx) {
  Found<ZSet> found = find_as<ZSet>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  const double* score = found.value ? found.value->score(ctx.arg(2)) : nullptr;
  return score ? Reply::bulk(format_double(*score)) : Reply::nil();
}

// ZMSCORE key member [member ...]: a missing key is an empty set.
Reply zmscore_command(CommandContext& ctx) {
  Found<ZSet> found = find_as<ZSet>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  Reply reply = Reply::array();
  for (size_t j = 2; j < ctx.argc(); ++j) {
    const double* score = found.value ? found.value->score(ctx.arg(j)) : nullptr;
    reply.elements.push_back(score ? Reply::bulk(format_double(*score)) : Reply::nil());
  }
  return reply;
}

namespace {

// zpopMinMaxCommand: ZPOPMIN and ZPOPMAX, RESP2: member and score flat, lowest (or highest) first.
Reply zpop_generic(CommandContext& ctx, ZSetEnd end) {
  if (ctx.argc() > 3) return Reply::error(errors::kSyntax);
  int64_t count = -1;  // a plain single pop
  if (ctx.argc() == 3) {
    // getPositiveLongFromObjectOrReply: one message for a negative count and for no number.
    const auto parsed = parse_int64(ctx.arg(2));
    if (!parsed || *parsed < 0) return Reply::error(errors::kCountNotPositive);
    count = *parsed;
  }
  return zset_pop(ctx.db, ctx.argv.subspan(1, 1), end, count, ZPopReply::Flat);
}

}  // namespace

// ZPOPMIN key [count]
Reply zpopmin_command(CommandContext& ctx) { return zpop_generic(ctx, ZSetEnd::Min); }
// ZPOPMAX key [count]
Reply zpopmax_command(CommandContext& ctx) { return zpop_generic(ctx, ZSetEnd::Max); }

namespace {

// blockingGenericZpopCommand: the first of `keys` that holds a sorted set is popped, as ZPOPMIN /
// ZPOPMAX with the key first (count -1) or ZMPOP (a count); a key of another type is an error when
// reached. With nothing to pop it blocks, or, where it may not, answers nil at once.
Reply zpop_or_block(CommandContext& ctx, std::string_view command, std::span<const std::string_view> keys, ZSetEnd end,
                    int64_t count, int64_t deadline_ms) {
  for (const std::string_view key : keys) {
    Found<ZSet> found = find_as<ZSet>(ctx.db, key);
    if (found.wrong_type) return Reply::error(errors::kWrongType);
    if (found.value == nullptr) continue;
    const std::string_view one[] = {key};
    return zset_pop(ctx.db, one, end, count, count == -1 ? ZPopReply::KeyThenFlat : ZPopReply::KeyThenPairs);
  }
  if (!ctx.engine.may_block(ctx.session)) return Reply::nil_array();
  BlockedPop pop = BlockedPop::on_keys(BlockedType::ZSet, ctx.db.id(), keys, deadline_ms, command);
  pop.from_head = end == ZSetEnd::Min;
  pop.count = count;
  ctx.engine.block(ctx.session, std::move(pop));
  return Reply::sequence({});
}

// zmpopGenericCommand: numkeys key [key ...] MIN | MAX [COUNT count] from `numkeys_index`; with
// `timeout` (BZMPOP) a wait when no key holds a sorted set.
Reply zmpop_generic(CommandContext& ctx, std::string_view command, size_t numkeys_index,
                    std::optional<std::string_view> timeout) {
  // getRangeLongFromObjectOrReply with Redis's message: no number and below 1 read alike.
  const auto numkeys = parse_int64(ctx.arg(numkeys_index));
  if (!numkeys || *numkeys < 1) return Reply::error(errors::kNumkeysNotPositive);
  // MIN or MAX must follow the keys. (Written so that a huge numkeys cannot overflow; Redis's
  // `numkeys_idx + numkeys + 1` can.)
  if (*numkeys > static_cast<int64_t>(ctx.argc() - numkeys_index) - 2) return Reply::error(errors::kSyntax);
  const size_t where_index = numkeys_index + 1 + static_cast<size_t>(*numkeys);
  ZSetEnd end;
  if (equals_ignore_case(ctx.arg(where_index), "min")) end = ZSetEnd::Min;
  else if (equals_ignore_case(ctx.arg(where_index), "max")) end = ZSetEnd::Max;
  else return Reply::error(errors::kSyntax);
  int64_t count = -1;
  for (size_t j = where_index + 1; j < ctx.argc(); ++j) {
    if (count == -1 && equals_ignore_case(ctx.arg(j), "count") && j + 1 < ctx.argc()) {
      const auto parsed = parse_int64(ctx.arg(++j));
      if (!parsed || *parsed < 1) return Reply::error(errors::kCountNotGreaterThanZero);
      count = *parsed;
    } else {
      return Reply::error(errors::kSyntax);
    }
  }
  if (count == -1) count = 1;
  const std::span<const std::string_view> keys = ctx.argv.subspan(numkeys_index + 1, static_cast<size_t>(*numkeys));
  if (!timeout) return zset_pop(ctx.db, keys, end, count, ZPopReply::KeyThenPairs);
  const BlockTimeout parsed = parse_block_timeout(*timeout, ctx.db.now());
  if (!parsed.error.empty()) return Reply::error(parsed.error);
  return zpop_or_block(ctx, command, keys, end, count, parsed.deadline_ms);
}

// BZPOPMIN / BZPOPMAX key [key ...] timeout
Reply blocking_zpop(CommandContext& ctx, std::string_view command, ZSetEnd end) {
  const BlockTimeout parsed = parse_block_timeout(ctx.arg(ctx.argc() - 1), ctx.db.now());
  if (!parsed.error.empty()) return Reply::error(parsed.error);
  return zpop_or_block(ctx, command, ctx.argv.subspan(1, ctx.argc() - 2), end, -1, parsed.deadline_ms);
}

}  // namespace

// ZMPOP numkeys key [key ...] MIN | MAX [COUNT count]
Reply zmpop_command(CommandContext& ctx) { return zmpop_generic(ctx, "zmpop", 1, std::nullopt); }
// BZMPOP timeout numkeys key [key ...] MIN | MAX [COUNT count]
Reply bzmpop_command(CommandContext& ctx) { return zmpop_generic(ctx, "bzmpop", 2, ctx.arg(1)); }
// BZPOPMIN key [key ...] timeout
Reply bzpopmin_command(CommandContext& ctx) { return blocking_zpop(ctx, "bzpopmin", ZSetEnd::Min); }
// BZPOPMAX key [key ...] timeout
Reply bzpopmax_command(CommandContext& ctx) { return blocking_zpop(ctx, "bzpopmax", ZSetEnd::Max); }

// serveClientsBlockedOnSortedSetKey for one client: `key` (a non-empty sorted set) serves `pop`.
Reply serve_blocked_zset(CommandContext& ctx, std::string_view key, const BlockedPop& pop) {
  const std::string_view one[] = {key};
  return zset_pop(ctx.db, one, pop.from_head ? ZSetEnd::Min : ZSetEnd::Max, pop.count,
                  pop.count == -1 ? ZPopReply::KeyThenFlat : ZPopReply::KeyThenPairs);
}

// ZREM key member [member ...]
Reply zrem_command(CommandContext& ctx) {
  Found<ZSet> found = find_as<ZSet>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr) return Reply::integer_of(0);
  int64_t removed = 0;
  for (size_t j = 2; j < ctx.argc(); ++j) {
    if (found.value->erase(ctx.arg(j))) ++removed;
    if (found.value->empty()) break;
  }
  const bool emptied = found.value->empty();
  if (emptied) ctx.db.remove(ctx.arg(1));
  if (removed) {
    ctx.notify(kNotifyZset, "zrem", ctx.arg(1));
    if (emptied) ctx.notify(kNotifyGeneric, "del", ctx.arg(1));
  }
  return Reply::integer_of(removed);
}

// ZCARD key
Reply zcard_command(CommandContext& ctx) {
  Found<ZSet> found = find_as<ZSet>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  return Reply::integer_of(found.value ? static_cast<int64_t>(found.value->size()) : 0);
}

// ZRANK key member
Reply zrank_command(CommandContext& ctx) { return zrank_generic(ctx, false); }
// ZREVRANK key member
Reply zrevrank_command(CommandContext& ctx) { return zrank_generic(ctx, true); }

// ZRANGE key start stop [BYSCORE | BYLEX] [REV] [LIMIT offset count] [WITHSCORES]
Reply zrange_command(CommandContext& ctx) {
  return zrange_generic(ctx, 1, false, RangeType::Auto, Direction::Auto);
}
// ZRANGESTORE dst src min max [BYSCORE | BYLEX] [REV] [LIMIT offset count]
Reply zrangestore_command(CommandContext& ctx) {
  return zrange_generic(ctx, 2, true, RangeType::Auto, Direction::Auto);
}
// ZREVRANGE key start stop [WITHSCORES]
Reply zrevrange_command(CommandContext& ctx) {
  return zrange_generic(ctx, 1, false, RangeType::Rank, Direction::Reverse);
}
// ZRANGEBYSCORE key min max [WITHSCORES] [LIMIT offset count]
Reply zrangebyscore_command(CommandContext& ctx) {
  return zrange_generic(ctx, 1, false, RangeType::Score, Direction::Forward);
}
// ZREVRANGEBYSCORE key max min [WITHSCORES] [LIMIT offset count]
Reply zrevrangebyscore_command(CommandContext& ctx) {
  return zrange_generic(ctx, 1, false, RangeType::Score, Direction::Reverse);
}
// ZRANGEBYLEX key min max [LIMIT offset count]
Reply zrangebylex_command(CommandContext& ctx) {
  return zrange_generic(ctx, 1, false, RangeType::Lex, Direction::Forward);
}
// ZREVRANGEBYLEX key max min [LIMIT offset count]
Reply zrevrangebylex_command(CommandContext& ctx) {
  return zrange_generic(ctx, 1, false, RangeType::Lex, Direction::Reverse);
}

// ZCOUNT key min max
Reply zcount_command(CommandContext& ctx) { return zcount_generic(ctx, RangeType::Score); }
// ZLEXCOUNT key min max
Reply zlexcount_command(CommandContext& ctx) { return zcount_generic(ctx, RangeType::Lex); }

// ZREMRANGEBYRANK key start stop
Reply zremrangebyrank_command(CommandContext& ctx) { return zremrange_generic(ctx, RangeType::Rank); }
// ZREMRANGEBYSCORE key min max
Reply zremrangebyscore_command(CommandContext& ctx) { return zremrange_generic(ctx, RangeType::Score); }
// ZREMRANGEBYLEX key min max
Reply zremrangebylex_command(CommandContext& ctx) { return zremrange_generic(ctx, RangeType::Lex); }

// ZRANDMEMBER key [count [WITHSCORES]] (zrandmemberCommand): the count and the option are checked
// before the key is looked up.
Reply zrandmember_command(CommandContext& ctx) {
  if (ctx.argc() >= 3) {
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    const auto parsed = parse_int64(ctx.arg(2));
    if (!parsed) return Reply::error(errors::kNotInteger);
    if (*parsed < -kMax) return Reply::error(errors::value_out_of_range(-kMax, kMax));
    if (ctx.argc() > 4 || (ctx.argc() == 4 && !equals_ignore_case(ctx.arg(3), "withscores")))
      return Reply::error(errors::kSyntax);
    const bool with_scores = ctx.argc() == 4;
    // Twice the count must fit the reply's length.
    if (with_scores && (*parsed < -kMax / 2 || *parsed > kMax / 2)) return Reply::error(errors::kValueOutOfRange);
    return zrandmember_with_count(ctx, *parsed, with_scores);
  }
  Found<ZSet> found = find_as<ZSet>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr) return Reply::nil();
  return Reply::bulk(found.value->ordered().rbegin()->second);
}

}  // namespace locksim::engine

// Sorted sets: ZADD, ZINCRBY, ZSCORE, ZREM, ZCARD, ZRANK, ZRANGE (rank, BYSCORE, BYLEX, REV, LIMIT,
// WITHSCORES), ZRANGEBYSCORE, ZPOPMIN and ZPOPMAX (Redis t_zset.c). Scores print as Redis 7.0 prints doubles.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "engine/commands.hpp"
#include "engine/errors.hpp"
#include "engine/numbers.hpp"

namespace locksim::engine {
namespace {

enum ZaddFlag : unsigned { kZNx = 1, kZXx = 2, kZGt = 4, kZLt = 8, kZIncr = 16, kZCh = 32 };

// The score Redis keeps. A small sorted set lives in a listpack, which stores scores as text and
// loses the sign of zero; a skiplist keeps it. A set that grew past the listpack's limits stays a
// skiplist when it shrinks again (ZSet::is_listpack), and adding a member can convert it first.
double stored_score(const ZSet& zset, std::string_view member, double score, bool is_new) {
  if (score != 0 || !std::signbit(score)) return score;
  if (!zset.is_listpack() || (is_new && zset.add_converts(member))) return score;
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
        zset.set(member, stored_score(zset, member, score, false));
        ++updated;
      }
    } else {
      if (flags & kZXx) continue;
      zset.set(member, stored_score(zset, member, score, true));
      ++added;
    }
    ++processed;
    last_score = score;
  }
  if (incr) return processed ? Reply::bulk(format_double(last_score)) : Reply::nil();
  return Reply::integer_of((flags & kZCh) ? added + updated : added);
}

struct ScoreRange {
  double min = 0, max = 0;
  bool min_exclusive = false, max_exclusive = false;
  bool contains(double s) const {
    return (min_exclusive ? s > min : s >= min) && (max_exclusive ? s < max : s <= max);
  }
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

bool parse_lex_bound(std::string_view text, LexBound& bound) {
  if (text == "+") { bound.kind = LexBound::Kind::Max; return true; }
  if (text == "-") { bound.kind = LexBound::Kind::Min; return true; }
  if (text.empty() || (text[0] != '(' && text[0] != '[')) return false;
  bound.exclusive = text[0] == '(';
  bound.value = std::string(text.substr(1));
  return true;
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

void emit(Reply& reply, const ZSet::Item& item, bool with_scores) {
  reply.elements.push_back(Reply::bulk(item.second));
  if (with_scores) reply.elements.push_back(Reply::bulk(format_double(item.first)));
}

// Redis's zrangeGenericCommand, for ZRANGE and ZRANGEBYSCORE.
Reply zrange_generic(CommandContext& ctx, RangeType type, bool allow_rev) {
  bool with_scores = false, reverse = false;
  int64_t offset = 0, limit = -1;
  bool has_limit = false;
  for (size_t j = 4; j < ctx.argc(); ++j) {
    const std::string_view opt = ctx.arg(j);
    const size_t left = ctx.argc() - j - 1;
    if (equals_ignore_case(opt, "withscores")) {
      with_scores = true;
    } else if (equals_ignore_case(opt, "limit") && left >= 2) {
      auto o = parse_int64(ctx.arg(j + 1));
      auto l = parse_int64(ctx.arg(j + 2));
      if (!o || !l) return Reply::error(errors::kNotInteger);
      offset = *o;
      limit = *l;
      has_limit = true;
      j += 2;
    } else if (allow_rev && !reverse && equals_ignore_case(opt, "rev")) {
      reverse = true;
    } else if (type == RangeType::Auto && equals_ignore_case(opt, "bylex")) {
      type = RangeType::Lex;
    } else if (type == RangeType::Auto && equals_ignore_case(opt, "byscore")) {
      type = RangeType::Score;
    } else {
      return Reply::error(errors::kSyntax);
    }
  }
  if (type == RangeType::Auto) type = RangeType::Rank;
  if (has_limit && limit != -1 && type == RangeType::Rank)
    return Reply::error(errors::kZrangeLimit);
  if (with_scores && type == RangeType::Lex)
    return Reply::error(errors::kZrangeWithScoresByLex);

  // With REV, a score or lex range is written max first.
  std::string_view min_arg = ctx.arg(2), max_arg = ctx.arg(3);
  if (reverse && type != RangeType::Rank) std::swap(min_arg, max_arg);
  int64_t start = 0, stop = 0;
  ScoreRange scores;
  LexBound lex_min, lex_max;
  if (type == RangeType::Rank) {
    auto a = parse_int64(min_arg), b = parse_int64(max_arg);
    if (!a || !b) return Reply::error(errors::kNotInteger);
    start = *a;
    stop = *b;
  } else if (type == RangeType::Score) {
    if (!parse_score_bound(min_arg, scores.min, scores.min_exclusive) ||
        !parse_score_bound(max_arg, scores.max, scores.max_exclusive))
      return Reply::error(errors::kMinMaxNotFloat);
  } else if (!parse_lex_bound(min_arg, lex_min) || !parse_lex_bound(max_arg, lex_max)) {
    return Reply::error(errors::kLexRange);
  }

  Found<ZSet> found = find_as<ZSet>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  Reply reply = Reply::array();
  if (found.value == nullptr) return reply;
  const auto& items = found.value->ordered();
  const auto size = static_cast<int64_t>(items.size());
  std::vector<const ZSet::Item*> view;
  view.reserve(items.size());
  if (reverse) {
    for (auto it = items.rbegin(); it != items.rend(); ++it) view.push_back(&*it);
  } else {
    for (const auto& item : items) view.push_back(&item);
  }

  if (type == RangeType::Rank) {
    if (start < 0) start += size;
    if (stop < 0) stop += size;
    if (start < 0) start = 0;
    if (start > stop || start >= size) return reply;
    if (stop >= size) stop = size - 1;
    for (int64_t i = start; i <= stop; ++i) emit(reply, *view[static_cast<size_t>(i)], with_scores);
    return reply;
  }
  if (offset > 0 && offset >= size) return reply;
  for (const ZSet::Item* item : view) {
    const bool in_range = type == RangeType::Score
                              ? scores.contains(item->first)
                              : lex_above_min(lex_min, item->second) && lex_below_max(lex_max, item->second);
    if (!in_range) continue;
    // A negative offset skips everything, a negative limit takes everything (Redis's offset--/limit--).
    if (offset != 0) {
      if (offset > 0) --offset;
      continue;
    }
    if (limit == 0) break;
    if (limit > 0) --limit;
    emit(reply, *item, with_scores);
  }
  return reply;
}

}  // namespace

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

namespace {

// zpopMinMaxCommand and genericZpopCommand, RESP2: member and score flat, lowest (or highest) first.
Reply zpop_generic(CommandContext& ctx, bool highest) {
  if (ctx.argc() > 3) return Reply::error(errors::kSyntax);
  int64_t count = -1;  // a plain single pop
  if (ctx.argc() == 3) {
    // getPositiveLongFromObjectOrReply: one message for a negative count and for no number.
    const auto parsed = parse_int64(ctx.arg(2));
    if (!parsed || *parsed < 0) return Reply::error(errors::kCountNotPositive);
    count = *parsed;
  }
  Found<ZSet> found = find_as<ZSet>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  Reply reply = Reply::array();
  if (found.value == nullptr || count == 0) return reply;
  ZSet& zset = *found.value;
  for (int64_t popped = 0; popped < std::max<int64_t>(count, 1) && !zset.empty(); ++popped) {
    const ZSet::Item item = highest ? *zset.ordered().rbegin() : *zset.ordered().begin();
    zset.erase(item.second);
    reply.elements.push_back(Reply::bulk(item.second));
    reply.elements.push_back(Reply::bulk(format_double(item.first)));
  }
  delete_if_empty(ctx.db, ctx.arg(1), zset);
  return reply;
}

}  // namespace

// ZPOPMIN key [count]
Reply zpopmin_command(CommandContext& ctx) { return zpop_generic(ctx, false); }
// ZPOPMAX key [count]
Reply zpopmax_command(CommandContext& ctx) { return zpop_generic(ctx, true); }

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
  delete_if_empty(ctx.db, ctx.arg(1), *found.value);
  return Reply::integer_of(removed);
}

// ZCARD key
Reply zcard_command(CommandContext& ctx) {
  Found<ZSet> found = find_as<ZSet>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  return Reply::integer_of(found.value ? static_cast<int64_t>(found.value->size()) : 0);
}

// ZRANK key member
Reply zrank_command(CommandContext& ctx) {
  Found<ZSet> found = find_as<ZSet>(ctx.db, ctx.arg(1));
  if (found.wrong_type) return Reply::error(errors::kWrongType);
  if (found.value == nullptr || found.value->score(ctx.arg(2)) == nullptr) return Reply::nil();
  return Reply::integer_of(static_cast<int64_t>(found.value->rank(ctx.arg(2))));
}

// ZRANGE key start stop [BYSCORE | BYLEX] [REV] [LIMIT offset count] [WITHSCORES]
Reply zrange_command(CommandContext& ctx) { return zrange_generic(ctx, RangeType::Auto, true); }

// ZRANGEBYSCORE key min max [WITHSCORES] [LIMIT offset count]
Reply zrangebyscore_command(CommandContext& ctx) { return zrange_generic(ctx, RangeType::Score, false); }

}  // namespace locksim::engine

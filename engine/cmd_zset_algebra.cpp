// The sorted-set algebra: ZUNION, ZINTER, ZDIFF, ZUNIONSTORE, ZINTERSTORE, ZDIFFSTORE and ZINTERCARD,
// all one path as Redis's zunionInterDiffGenericCommand (t_zset.c). Inputs may be sorted sets or
// sets (a set's members score 1), with WEIGHTS and AGGREGATE SUM | MIN | MAX where Redis takes them.
//
// The result is a set of (member, score): the order Redis visits inputs and members in reaches it
// only through the order of a SUM's additions, which follows Redis's (inputs by size, smallest
// first, ties in the keys' order where Redis's qsort may pick either; docs/fidelity.md).
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "engine/commands.hpp"
#include "engine/errors.hpp"
#include "engine/numbers.hpp"
#include "engine/set_key.hpp"

namespace locksim::engine {
namespace {

enum class SetOp { Union, Inter, Diff };
enum class Aggregate { Sum, Min, Max };

// One input (Redis's zsetopsrc): a sorted set, a set, or nothing (a missing key, empty), weighted.
struct Source {
  const ZSet* zset = nullptr;
  const Set* set = nullptr;
  double weight = 1.0;

  // The object itself: Redis compares inputs by object to spot a key named twice.
  const void* subject() const { return zset != nullptr ? static_cast<const void*>(zset) : set; }
  size_t size() const { return zset != nullptr ? zset->size() : set != nullptr ? set->size() : 0; }
  // zuiFind: the member's score here, 1 in a set.
  bool find(const std::string& member, double& score) const {
    if (zset != nullptr) {
      const double* found = zset->score(member);
      if (found != nullptr) score = *found;
      return found != nullptr;
    }
    score = 1.0;
    return set != nullptr && set->contains(member);
  }
  // zuiNext over every member and its score, until `visit` answers false.
  template <class Visit>
  void for_each(Visit&& visit) const {
    if (zset != nullptr) {
      for (const auto& [score, member] : zset->ordered())
        if (!visit(member, score)) return;
    } else if (set != nullptr) {
      for (const std::string& member : set->members())
        if (!visit(member, 1.0)) return;
    }
  }
};

// zunionInterAggregate. A SUM of inf and -inf is NaN in C; Redis makes it 0.
void aggregate(double& target, double value, Aggregate how) {
  switch (how) {
    case Aggregate::Sum:
      target += value;
      if (std::isnan(target)) target = 0.0;
      break;
    case Aggregate::Min:
      target = value < target ? value : target;
      break;
    case Aggregate::Max:
      target = value > target ? value : target;
      break;
  }
}

// A weighted score as Redis starts an aggregate from it: weight * score, NaN (0 * inf) made 0.
double weighted(const Source& source, double score) {
  const double value = source.weight * score;
  return std::isnan(value) ? 0.0 : value;
}

using Result = std::map<std::string, double, std::less<>>;

// The sorted set Redis builds a result in: a skiplist, which the STORE forms convert to a listpack
// when it is small enough (zsetConvertToListpackIfNeeded: at most zset-max-listpack-entries members,
// none over zset-max-listpack-value bytes).
// A listpack writes scores as text and a zero loses its sign there.
ZSet result_zset(const Result& result, bool for_storing, const EncodingLimits& limits) {
  size_t longest = 0;
  for (const auto& entry : result) longest = std::max(longest, entry.first.size());
  const bool listpack =
      for_storing && result.size() <= limits.zset_listpack_entries && longest <= limits.zset_listpack_value;
  ZSet zset = listpack ? ZSet{} : ZSet::skiplist();
  for (const auto& [member, score] : result) zset.set(member, listpack && score == 0 ? 0.0 : score, limits);
  return zset;
}

// The inputs combined as `op` says (zunionInterDiffGenericCommand's middle): the members and their
// scores, or with `cardinality_only` just their count (stopping at `limit`, 0 for none).
Result combine(std::vector<Source>& sources, SetOp op, Aggregate how, bool cardinality_only, uint64_t limit,
               uint64_t& cardinality) {
  // Smallest input first (Redis's qsort by cardinality; ZDIFF keeps its first input first).
  if (op != SetOp::Diff)
    std::stable_sort(sources.begin(), sources.end(),
                     [](const Source& a, const Source& b) { return a.size() < b.size(); });

  Result result;
  const Source& first = sources[0];
  if (op == SetOp::Inter) {
    // A member of the smallest input, in every other one, its score aggregated across them.
    first.for_each([&](const std::string& member, double score) {
      double total = weighted(first, score);
      for (size_t k = 1; k < sources.size(); ++k) {
        double value;
        if (sources[k].subject() == first.subject()) {
          value = score;
        } else if (!sources[k].find(member, value)) {
          return true;
        }
        aggregate(total, value * sources[k].weight, how);
      }
      if (!cardinality_only) {
        result.emplace(member, total);
        return true;
      }
      ++cardinality;
      return limit == 0 || cardinality < limit;
    });
  } else if (op == SetOp::Union) {
    for (const Source& source : sources) {
      source.for_each([&](const std::string& member, double score) {
        const double value = weighted(source, score);
        if (auto [it, added] = result.try_emplace(member, value); !added) aggregate(it->second, value, how);
        return true;
      });
    }
  } else {
    // zdiff: the first input's members that no other input holds, with their scores (weights do
    // not apply). The first input named again leaves nothing.
    const bool repeated = std::any_of(sources.begin() + 1, sources.end(),
                                      [&](const Source& s) { return s.subject() == first.subject(); });
    if (!repeated) {
      first.for_each([&](const std::string& member, double score) {
        double ignored;
        if (std::none_of(sources.begin() + 1, sources.end(),
                         [&](const Source& s) { return s.find(member, ignored); }))
          result.emplace(member, score);
        return true;
      });
    }
  }
  return result;
}

// Redis's zunionInterDiffGenericCommand. `command` is the name Redis's errors print (its lower-case
// fullname); `numkeys_index` is where numkeys sits (2 after a STORE form's destination, else 1).
Reply zset_algebra(CommandContext& ctx, std::string_view command, size_t numkeys_index, bool store, SetOp op,
                   bool cardinality_only = false) {
  const auto setnum = parse_int64(ctx.arg(numkeys_index));
  if (!setnum) return Reply::error(errors::kNotInteger);
  if (*setnum < 1) return Reply::error(errors::needs_input_key(command));
  if (*setnum > static_cast<int64_t>(ctx.argc() - (numkeys_index + 1))) return Reply::error(errors::kSyntax);
  const auto count = static_cast<size_t>(*setnum);

  // Every input is looked up (and so lazily expired) before the options are read: a key of another
  // type answers WRONGTYPE even when an option is wrong too.
  std::vector<Source> sources(count);
  size_t j = numkeys_index + 1;
  for (Source& source : sources) {
    const std::string_view key = ctx.arg(j++);
    Found<ZSet> zset = find_as<ZSet>(ctx.db, key);
    if (zset.wrong_type) {
      Found<Set> set = find_as<Set>(ctx.db, key);
      if (set.wrong_type) return Reply::error(errors::kWrongType);
      source.set = set.value;
    } else {
      source.zset = zset.value;
    }
  }

  Aggregate how = Aggregate::Sum;
  bool with_scores = false;
  uint64_t limit = 0;  // ZINTERCARD's: 0 counts everything
  const bool weighs = op != SetOp::Diff && !cardinality_only;
  while (j < ctx.argc()) {
    const size_t remaining = ctx.argc() - j;
    const std::string_view opt = ctx.arg(j);
    if (weighs && remaining >= count + 1 && equals_ignore_case(opt, "weights")) {
      ++j;
      for (Source& source : sources) {
        const auto weight = parse_double(ctx.arg(j++));
        if (!weight) return Reply::error(errors::kWeightNotFloat);
        source.weight = *weight;
      }
    } else if (weighs && remaining >= 2 && equals_ignore_case(opt, "aggregate")) {
      const std::string_view name = ctx.arg(j + 1);
      if (equals_ignore_case(name, "sum")) how = Aggregate::Sum;
      else if (equals_ignore_case(name, "min")) how = Aggregate::Min;
      else if (equals_ignore_case(name, "max")) how = Aggregate::Max;
      else return Reply::error(errors::kSyntax);
      j += 2;
    } else if (!store && !cardinality_only && equals_ignore_case(opt, "withscores")) {
      ++j;
      with_scores = true;
    } else if (cardinality_only && remaining >= 2 && equals_ignore_case(opt, "limit")) {
      // getPositiveLongFromObjectOrReply with Redis's message: no number and below 0 read alike.
      const auto parsed = parse_int64(ctx.arg(j + 1));
      if (!parsed || *parsed < 0) return Reply::error(errors::kLimitNegative);
      limit = static_cast<uint64_t>(*parsed);
      j += 2;
    } else {
      return Reply::error(errors::kSyntax);
    }
  }

  uint64_t cardinality = 0;
  const Result result = combine(sources, op, how, cardinality_only, limit, cardinality);

  if (cardinality_only) return Reply::integer_of(static_cast<int64_t>(cardinality));
  if (store) {
    // The result replaces the destination whatever it held (setKey: its expiry goes too); an empty
    // one deletes it.
    const std::string_view dst = ctx.arg(1);
    if (result.empty()) {
      if (ctx.db.remove(dst)) ctx.notify(kNotifyGeneric, "del", dst);
      return Reply::integer_of(0);
    }
    const auto size = static_cast<int64_t>(result.size());
    set_key(ctx.db, dst, Value{result_zset(result, true, ctx.db.limits())});
    ctx.notify(kNotifyZset, command, dst);  // "zunionstore", "zinterstore" or "zdiffstore"
    return Reply::integer_of(size);
  }
  Reply reply = Reply::array();
  const ZSet ordered = result_zset(result, false, ctx.db.limits());
  for (const auto& [score, member] : ordered.ordered()) {
    reply.elements.push_back(Reply::bulk(member));
    if (with_scores) reply.elements.push_back(Reply::bulk(format_double(score)));
  }
  return reply;
}

}  // namespace

// ZUNIONSTORE destination numkeys key [key ...] [WEIGHTS weight ...] [AGGREGATE SUM | MIN | MAX]
Reply zunionstore_command(CommandContext& ctx) { return zset_algebra(ctx, "zunionstore", 2, true, SetOp::Union); }
// ZINTERSTORE destination numkeys key [key ...] [WEIGHTS weight ...] [AGGREGATE SUM | MIN | MAX]
Reply zinterstore_command(CommandContext& ctx) { return zset_algebra(ctx, "zinterstore", 2, true, SetOp::Inter); }
// ZDIFFSTORE destination numkeys key [key ...]
Reply zdiffstore_command(CommandContext& ctx) { return zset_algebra(ctx, "zdiffstore", 2, true, SetOp::Diff); }
// ZUNION numkeys key [key ...] [WEIGHTS weight ...] [AGGREGATE SUM | MIN | MAX] [WITHSCORES]
Reply zunion_command(CommandContext& ctx) { return zset_algebra(ctx, "zunion", 1, false, SetOp::Union); }
// ZINTER numkeys key [key ...] [WEIGHTS weight ...] [AGGREGATE SUM | MIN | MAX] [WITHSCORES]
Reply zinter_command(CommandContext& ctx) { return zset_algebra(ctx, "zinter", 1, false, SetOp::Inter); }
// ZDIFF numkeys key [key ...] [WITHSCORES]
Reply zdiff_command(CommandContext& ctx) { return zset_algebra(ctx, "zdiff", 1, false, SetOp::Diff); }
// ZINTERCARD numkeys key [key ...] [LIMIT limit]
Reply zintercard_command(CommandContext& ctx) {
  return zset_algebra(ctx, "zintercard", 1, false, SetOp::Inter, true);
}

}  // namespace locksim::engine

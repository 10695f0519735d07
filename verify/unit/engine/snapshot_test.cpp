// ReplicaLog keeps only the snapshots a failover could promote. Whatever it drops, promoted() must
// answer as a log that kept a copy after every command would.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "engine/snapshot.hpp"

namespace locksim::engine {
namespace {

Snapshot with(std::initializer_list<std::pair<std::string, std::string>> keys, int64_t expire = kNoExpire) {
  Snapshot s;
  for (const auto& [key, value] : keys) s[key] = Entry{Value{value}, expire};
  return s;
}

// Every command's keyspace, kept whole: the newest at or before the cutoff.
struct EveryCopy {
  std::vector<std::pair<int64_t, Snapshot>> log;
  Snapshot promoted(int64_t now_ms, int64_t lag_ms) const {
    Snapshot newest;
    for (const auto& [at, s] : log)
      if (at <= now_ms - lag_ms) newest = s;
    return newest;
  }
};

TEST(ReplicaLog, PromotesWhatAReplicaThatCopiedEveryCommandWouldHave) {
  // Commands at these ms, some leaving the keyspace as it was, several in one ms.
  const std::vector<std::pair<int64_t, Snapshot>> commands = {
      {0, with({{"a", "1"}})},  {0, with({{"a", "1"}})},           {0, with({{"a", "2"}})},
      {3, with({{"a", "2"}})},  {5, with({{"a", "2"}, {"b", "x"}})}, {5, with({{"a", "2"}})},
      {5, with({{"a", "3"}})},  {9, with({{"a", "3"}})},           {9, with({{"a", "3"}}, 100)},
      {12, with({})},           {12, with({})},                     {20, with({{"a", "4"}})},
  };
  for (int64_t lag : {0, 1, 4, 7, 30}) {
    ReplicaLog log;
    log.keep_lag(lag);
    EveryCopy every;
    for (const auto& [at, keyspace] : commands) {
      log.remember(at, keyspace);
      every.log.emplace_back(at, keyspace);
      // A failover now, with any lag up to the one kept for.
      for (int64_t l = 0; l <= lag; ++l)
        EXPECT_EQ(log.promoted(at, l), every.promoted(at, l)) << "at " << at << " lag " << l << " keeping " << lag;
    }
    for (int64_t now = 20; now <= 60; ++now)
      EXPECT_EQ(log.promoted(now, lag), every.promoted(now, lag)) << "now " << now << " lag " << lag;
  }
}

TEST(ReplicaLog, EmptyBeforeAnyCommandTheReplicaApplied) {
  ReplicaLog log;
  log.keep_lag(10);
  log.remember(5, with({{"a", "1"}}));
  EXPECT_EQ(log.promoted(14, 10), Snapshot{});
  EXPECT_EQ(log.promoted(15, 10), with({{"a", "1"}}));
}

// A replica that synced from its master (at start, after a restart or a failover) never has less
// than what it synced, however far back a lag reaches: a second failover soon after a first promotes
// what the first left, not an empty keyspace.
TEST(ReplicaLog, AReplicaHasAtLeastWhatItSynced) {
  ReplicaLog log;
  log.keep_lag(1000);
  log.sync(100, with({{"a", "1"}}));
  EXPECT_EQ(log.promoted(150, 1000), with({{"a", "1"}}));
  EXPECT_FALSE(log.remember(110, with({{"a", "1"}})));  // the same keyspace: no write
  EXPECT_TRUE(log.remember(120, with({{"a", "2"}})));
  EXPECT_EQ(log.promoted(121, 10), with({{"a", "1"}}));
  EXPECT_EQ(log.promoted(130, 10), with({{"a", "2"}}));
  log.clear();
  EXPECT_EQ(log.promoted(130, 10), Snapshot{});
}

TEST(KeyspaceEquality, ASortedSetScoreOfMinusZeroIsNotZero) {
  // ZSCORE shows "-0": a keyspace that differs only there must be kept as a different snapshot.
  ZSet zero, minus_zero;
  zero.set("m", 0.0, EncodingLimits{});
  minus_zero.set("m", -0.0, EncodingLimits{});
  EXPECT_FALSE(zero == minus_zero);
  ZSet again;
  again.set("m", 0.0, EncodingLimits{});
  EXPECT_TRUE(zero == again);
}

TEST(KeyspaceEquality, AnEntryDiffersByItsExpiryAndEncoding) {
  EXPECT_FALSE(with({{"a", "1"}}) == with({{"a", "1"}}, 5));
  Snapshot raw = with({{"a", "1"}});
  raw["a"].string_form = StringForm::Raw;
  EXPECT_FALSE(raw == with({{"a", "1"}}));
  Hash h1, h2;
  h1.set("f", "1", EncodingLimits{});
  h1.set("g", "2", EncodingLimits{});
  h2.set("g", "2", EncodingLimits{});
  h2.set("f", "1", EncodingLimits{});
  EXPECT_FALSE(h1 == h2);  // HGETALL's order differs
}

}  // namespace
}  // namespace locksim::engine

// Keys and expiry (cmd_keys.cpp) on a manual clock: exact expiry times, rounding, and the GT/LT
// comparisons that a live server's running clock makes racy.
#include <functional>
#include <set>

#include "verify/unit/engine/engine_harness.hpp"

namespace locksim::engine {
namespace {

class Keys : public EngineTest {};

TEST_F(Keys, ExpireFormsStoreExactAbsoluteTimes) {
  ASSERT_EQ(run({"SET", "k", "v"}), Reply::ok());
  EXPECT_EQ(run({"EXPIRE", "k", "10"}), integer(1));
  EXPECT_EQ(run({"PEXPIRETIME", "k"}), integer(kStartMs + 10'000));
  EXPECT_EQ(run({"PEXPIRE", "k", "1234"}), integer(1));
  EXPECT_EQ(run({"PEXPIRETIME", "k"}), integer(kStartMs + 1234));
  EXPECT_EQ(run({"EXPIREAT", "k", "1800000000"}), integer(1));
  EXPECT_EQ(run({"PEXPIRETIME", "k"}), integer(1800000000000));
  EXPECT_EQ(run({"PEXPIREAT", "k", "1800000000123"}), integer(1));
  EXPECT_EQ(run({"PEXPIRETIME", "k"}), integer(1800000000123));
}

TEST_F(Keys, ExpiretimeRoundsToTheNearestSecond) {
  ASSERT_EQ(run({"SET", "k", "v"}), Reply::ok());
  ASSERT_EQ(run({"PEXPIREAT", "k", "1800000000499"}), integer(1));
  EXPECT_EQ(run({"EXPIRETIME", "k"}), integer(1800000000));
  ASSERT_EQ(run({"PEXPIREAT", "k", "1800000000500"}), integer(1));
  EXPECT_EQ(run({"EXPIRETIME", "k"}), integer(1800000001));
  ASSERT_EQ(run({"PEXPIREAT", "k", "9223372036854775807"}), integer(1));
  EXPECT_EQ(run({"EXPIRETIME", "k"}), integer(9223372036854776));
}

TEST_F(Keys, TtlRoundsTheRemainingTimeToTheNearestSecond) {
  ASSERT_EQ(run({"SET", "k", "v", "PX", "1500"}), Reply::ok());
  EXPECT_EQ(run({"TTL", "k"}), integer(2));
  host_.advance_ms(1);
  EXPECT_EQ(run({"TTL", "k"}), integer(1));
  EXPECT_EQ(run({"PTTL", "k"}), integer(1499));
  host_.advance_ms(999);
  EXPECT_EQ(run({"TTL", "k"}), integer(1));
  host_.advance_ms(1);
  EXPECT_EQ(run({"TTL", "k"}), integer(0));
  EXPECT_EQ(run({"PTTL", "k"}), integer(499));
}

TEST_F(Keys, TtlOfMissingAndPersistentKeys) {
  EXPECT_EQ(run({"TTL", "k"}), integer(-2));
  EXPECT_EQ(run({"PEXPIRETIME", "k"}), integer(-2));
  ASSERT_EQ(run({"SET", "k", "v"}), Reply::ok());
  EXPECT_EQ(run({"PTTL", "k"}), integer(-1));
  EXPECT_EQ(run({"EXPIRETIME", "k"}), integer(-1));
}

TEST_F(Keys, ExpireGtWithTheSameRelativeTimeFailsWithinOneMillisecond) {
  ASSERT_EQ(run({"SET", "k", "v"}), Reply::ok());
  ASSERT_EQ(run({"EXPIRE", "k", "100"}), integer(1));
  EXPECT_EQ(run({"EXPIRE", "k", "100", "GT"}), integer(0));
  host_.advance_ms(1);
  EXPECT_EQ(run({"EXPIRE", "k", "100", "GT"}), integer(1));
  EXPECT_EQ(run({"PEXPIRETIME", "k"}), integer(kStartMs + 100'001));
}

TEST_F(Keys, ExpireLtWithTheSameRelativeTimeFailsOnceTimeHasPassed) {
  ASSERT_EQ(run({"SET", "k", "v"}), Reply::ok());
  ASSERT_EQ(run({"PEXPIRE", "k", "5000"}), integer(1));
  host_.advance_ms(1);
  EXPECT_EQ(run({"PEXPIRE", "k", "5000", "LT"}), integer(0));
  EXPECT_EQ(run({"PEXPIRE", "k", "4998", "LT"}), integer(1));
  EXPECT_EQ(run({"PEXPIRETIME", "k"}), integer(kStartMs + 4999));
}

TEST_F(Keys, ExpireNxAndXxLookOnlyAtWhetherThereIsAnExpiry) {
  ASSERT_EQ(run({"SET", "k", "v"}), Reply::ok());
  EXPECT_EQ(run({"EXPIRE", "k", "10", "XX"}), integer(0));
  EXPECT_EQ(run({"EXPIRE", "k", "10", "NX"}), integer(1));
  EXPECT_EQ(run({"EXPIRE", "k", "20", "NX"}), integer(0));
  EXPECT_EQ(run({"EXPIRE", "k", "20", "XX"}), integer(1));
  EXPECT_EQ(run({"PEXPIRETIME", "k"}), integer(kStartMs + 20'000));
}

TEST_F(Keys, AnExpiryAtExactlyNowDeletesTheKey) {
  ASSERT_EQ(run({"SET", "k", "v"}), Reply::ok());
  EXPECT_EQ(run({"PEXPIREAT", "k", std::to_string(kStartMs)}), integer(1));
  EXPECT_EQ(run({"EXISTS", "k"}), integer(0));
  ASSERT_EQ(run({"SET", "k", "v"}), Reply::ok());
  EXPECT_EQ(run({"PEXPIREAT", "k", std::to_string(kStartMs + 1)}), integer(1));
  EXPECT_EQ(run({"EXISTS", "k"}), integer(1));
}

TEST_F(Keys, ExpireErrorsLeaveTheKeyAlone) {
  ASSERT_EQ(run({"SET", "k", "v", "PX", "500"}), Reply::ok());
  EXPECT_EQ(run({"EXPIRE", "k", "x"}), error("ERR value is not an integer or out of range"));
  EXPECT_EQ(run({"EXPIRE", "k", "9223372036854776"}), error("ERR invalid expire time in 'expire' command"));
  EXPECT_EQ(run({"PEXPIRE", "k", "9223372036854775807"}), error("ERR invalid expire time in 'pexpire' command"));
  EXPECT_EQ(run({"EXPIRE", "k", "1", "NX", "XX"}),
            error("ERR NX and XX, GT or LT options at the same time are not compatible"));
  EXPECT_EQ(run({"EXPIRE", "k", "1", "GT", "LT"}),
            error("ERR GT and LT options at the same time are not compatible"));
  EXPECT_EQ(run({"EXPIRE", "k", "1", "SOON"}), error("ERR Unsupported option SOON"));
  EXPECT_EQ(run({"PTTL", "k"}), integer(500));
}

TEST_F(Keys, PersistKeepsTheValue) {
  ASSERT_EQ(run({"RPUSH", "l", "a", "b"}), integer(2));
  ASSERT_EQ(run({"PEXPIRE", "l", "10"}), integer(1));
  EXPECT_EQ(run({"PERSIST", "l"}), integer(1));
  host_.advance_ms(100);
  EXPECT_EQ(run({"LRANGE", "l", "0", "-1"}), bulks({"a", "b"}));
  EXPECT_EQ(run({"TTL", "l"}), integer(-1));
}

TEST_F(Keys, DelAndExistsCountKeysNotArguments) {
  ASSERT_EQ(run({"SET", "a", "1"}), Reply::ok());
  ASSERT_EQ(run({"HSET", "b", "f", "v"}), integer(1));
  EXPECT_EQ(run({"EXISTS", "a", "a", "b", "c"}), integer(3));
  EXPECT_EQ(run({"DEL", "a", "a", "c"}), integer(1));
  EXPECT_EQ(run({"EXISTS", "a", "b"}), integer(1));
}

TEST_F(Keys, TypeNamesEachKind) {
  ASSERT_EQ(run({"SET", "s", "v"}), Reply::ok());
  ASSERT_EQ(run({"HSET", "h", "f", "v"}), integer(1));
  ASSERT_EQ(run({"LPUSH", "l", "x"}), integer(1));
  ASSERT_EQ(run({"ZADD", "z", "1", "m"}), integer(1));
  EXPECT_EQ(run({"TYPE", "s"}), Reply::status("string"));
  EXPECT_EQ(run({"TYPE", "h"}), Reply::status("hash"));
  EXPECT_EQ(run({"TYPE", "l"}), Reply::status("list"));
  EXPECT_EQ(run({"TYPE", "z"}), Reply::status("zset"));
  EXPECT_EQ(run({"TYPE", "none"}), Reply::status("none"));
}

TEST_F(Keys, UnknownCommandsAndWrongArityAreRefusedAtDispatch) {
  EXPECT_EQ(run({"NOPE", "a", "b"}), error("ERR unknown command 'NOPE', with args beginning with: 'a' 'b' "));
  EXPECT_EQ(run({"TTL"}), error("ERR wrong number of arguments for 'ttl' command"));
  EXPECT_EQ(run({"eXpIrE", "k"}), error("ERR wrong number of arguments for 'expire' command"));
  EXPECT_EQ(engine_.keyspace().size(), 0u);
}

class Scan : public EngineTest {
 protected:
  // Runs SCAN from cursor 0 to the end and returns every key it returned; `between` runs after each
  // call that has more to come (to change the keyspace mid-iteration).
  std::vector<std::string> scan(const std::vector<std::string>& options, const std::function<void()>& between = {}) {
    std::vector<std::string> seen;
    std::string cursor = "0";
    for (int calls = 0; calls < 1000; ++calls) {
      std::vector<std::string> argv = {"SCAN", cursor};
      argv.insert(argv.end(), options.begin(), options.end());
      const Reply reply = engine_.execute(session_, argv);
      EXPECT_EQ(reply.kind, Reply::Kind::Array) << describe(reply);
      if (reply.kind != Reply::Kind::Array) break;
      for (const auto& key : reply.elements[1].elements) seen.push_back(key.str);
      cursor = reply.elements[0].str;
      if (cursor == "0") break;
      if (between) between();
    }
    return seen;
  }
};

TEST_F(Scan, VisitsCountKeysPerCallInByteOrder) {
  for (const char* key : {"d", "a", "c", "b", "e"}) ASSERT_EQ(run({"SET", key, "v"}), Reply::ok());
  const Reply first = run({"SCAN", "0", "COUNT", "2"});
  ASSERT_EQ(first.elements.size(), 2u);
  EXPECT_EQ(first.elements[1], bulks({"a", "b"}));
  EXPECT_EQ(first.elements[0], bulk(std::to_string(uint64_t{'c'} << 56)));
  EXPECT_EQ(scan({"COUNT", "2"}), (std::vector<std::string>{"a", "b", "c", "d", "e"}));
  EXPECT_EQ(run({"SCAN", "0"}), Reply::array({bulk("0"), bulks({"a", "b", "c", "d", "e"})}));
}

TEST_F(Scan, KeysSharingTheirFirstEightBytesComeTogether) {
  for (const char* key : {"prefix00a", "prefix00b", "prefix00c", "prefix01"})
    ASSERT_EQ(run({"SET", key, "v"}), Reply::ok());
  const Reply first = run({"SCAN", "0", "COUNT", "1"});
  EXPECT_EQ(first.elements[1], bulks({"prefix00a", "prefix00b", "prefix00c"}));
  EXPECT_EQ(scan({"COUNT", "1"}), (std::vector<std::string>{"prefix00a", "prefix00b", "prefix00c", "prefix01"}));
}

TEST_F(Scan, KeysPresentThroughoutAreReturnedWhateverChangesInBetween) {
  for (int i = 0; i < 50; ++i) ASSERT_EQ(run({"SET", "k" + std::to_string(100 + i), "v"}), Reply::ok());
  int step = 0;
  const std::vector<std::string> seen = scan({"COUNT", "3"}, [&] {
    // Delete keys already returned and keys not yet reached, add some on both sides.
    engine_.execute(session_, {"DEL", "k" + std::to_string(100 + step), "k" + std::to_string(149 - step)});
    engine_.execute(session_, {"SET", "a" + std::to_string(step), "v"});
    engine_.execute(session_, {"SET", "z" + std::to_string(step), "v"});
    ++step;
  });
  const std::set<std::string> unique(seen.begin(), seen.end());
  EXPECT_EQ(unique.size(), seen.size()) << "nothing twice when keys differ in their first 8 bytes";
  for (int i = 0; i < 50; ++i) {
    const std::string key = "k" + std::to_string(100 + i);
    if (engine_.keyspace().entries().contains(key)) {
      EXPECT_TRUE(unique.contains(key)) << key;
    }
  }
}

TEST_F(Scan, AnyCursorResumesFromItsKeyPosition) {
  for (const char* key : {"a", "b", "\xff"}) ASSERT_EQ(run({"SET", key, "v"}), Reply::ok());
  EXPECT_EQ(run({"SCAN", std::to_string(uint64_t{'b'} << 56)}), Reply::array({bulk("0"), bulks({"b", "\xff"})}));
  // Past 2^63 the cursor is sent as a negative long long, as Redis's addReplyBulkLongLong does.
  const Reply reply = run({"SCAN", "0", "COUNT", "2"});
  EXPECT_EQ(reply.elements[0], bulk(std::to_string(static_cast<int64_t>(uint64_t{0xff} << 56))));
  EXPECT_EQ(run({"SCAN", reply.elements[0].str}), Reply::array({bulk("0"), bulks({"\xff"})}));
  EXPECT_EQ(run({"SCAN", "18446744073709551615"}), Reply::array({bulk("0"), Reply::array()}));
}

TEST_F(Scan, ExpiredKeysAreDeletedWhenVisitedExceptUnderTypeNone) {
  ASSERT_EQ(run({"SET", "a", "v", "PX", "5"}), Reply::ok());
  ASSERT_EQ(run({"SET", "b", "v", "PX", "5"}), Reply::ok());
  ASSERT_EQ(run({"SET", "c", "v"}), Reply::ok());
  host_.advance_ms(10);
  take_events();
  EXPECT_EQ(run({"SCAN", "0", "COUNT", "1"}),
            Reply::array({bulk(std::to_string(uint64_t{'b'} << 56)), Reply::array()}));
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Expired, "a", kStartMs + 5}}));
  EXPECT_EQ(run({"SCAN", "0", "TYPE", "none"}), Reply::array({bulk("0"), bulks({"b"})}));
  EXPECT_FALSE(stored("b"));
}

TEST_F(Keys, KeysHidesExpiredKeysWithoutDeletingThem) {
  ASSERT_EQ(run({"SET", "a1", "v", "PX", "5"}), Reply::ok());
  ASSERT_EQ(run({"SET", "a2", "v"}), Reply::ok());
  ASSERT_EQ(run({"SET", "b", "v"}), Reply::ok());
  host_.advance_ms(10);
  take_events();
  EXPECT_EQ(run({"KEYS", "a*"}), bulks({"a2"}));
  EXPECT_EQ(run({"KEYS", "*"}), bulks({"a2", "b"}));
  EXPECT_TRUE(take_events().empty());
  EXPECT_TRUE(stored("a1"));
}

TEST_F(Keys, RenameMovesTheValueAndTheExactExpiry) {
  ASSERT_EQ(run({"SET", "a", "v", "PX", "5000"}), Reply::ok());
  ASSERT_EQ(run({"SET", "b", "old"}), Reply::ok());
  take_events();
  EXPECT_EQ(run({"RENAME", "a", "b"}), Reply::ok());
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Deleted, "b", kNoExpire},
                                                       {KeyEvent::Created, "b", kNoExpire},
                                                       {KeyEvent::ExpireSet, "b", kStartMs + 5000},
                                                       {KeyEvent::Deleted, "a", kStartMs + 5000}}));
  EXPECT_EQ(run({"GET", "b"}), bulk("v"));
  EXPECT_EQ(run({"PEXPIRETIME", "b"}), integer(kStartMs + 5000));
  EXPECT_EQ(run({"RENAME", "a", "c"}), error("ERR no such key"));
  EXPECT_EQ(run({"RENAME", "b", "b"}), Reply::ok());
  EXPECT_EQ(run({"RENAMENX", "b", "b"}), integer(0));
  ASSERT_EQ(run({"SADD", "s", "m"}), integer(1));
  EXPECT_EQ(run({"RENAMENX", "b", "s"}), integer(0));
  EXPECT_EQ(run({"RENAMENX", "s", "t"}), integer(1));
  EXPECT_EQ(run({"SMEMBERS", "t"}), bulks({"m"}));
}

TEST_F(Keys, RandomkeyIsTheFirstLiveKeyInByteOrder) {
  EXPECT_EQ(run({"RANDOMKEY"}), Reply::nil());
  ASSERT_EQ(run({"SET", "b", "v"}), Reply::ok());
  ASSERT_EQ(run({"SET", "a", "v", "PX", "5"}), Reply::ok());
  EXPECT_EQ(run({"RANDOMKEY"}), bulk("a"));
  host_.advance_ms(10);
  take_events();
  EXPECT_EQ(run({"RANDOMKEY"}), bulk("b"));
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Expired, "a", kStartMs + 5}}));
}

TEST_F(Keys, UnlinkAndTouch) {
  ASSERT_EQ(run({"SET", "a", "v"}), Reply::ok());
  ASSERT_EQ(run({"SADD", "s", "m"}), integer(1));
  EXPECT_EQ(run({"TOUCH", "a", "s", "missing", "a"}), integer(3));
  EXPECT_EQ(run({"UNLINK", "a", "s", "missing"}), integer(2));
  EXPECT_EQ(engine_.keyspace().size(), 0u);
}

}  // namespace
}  // namespace locksim::engine

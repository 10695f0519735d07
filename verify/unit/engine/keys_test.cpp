// Keys and expiry (cmd_keys.cpp) on a manual clock: exact expiry times, rounding, and the GT/LT
// comparisons that a live server's running clock makes racy.
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

}  // namespace
}  // namespace locksim::engine

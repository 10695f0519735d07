// Keyspace: lazy and active expiry on the host's clock, and the KeyEvents hosts see.
// Redis expires a key when now > expire_at: at now == expire_at it still exists, with PTTL 0.
#include "verify/unit/engine/engine_harness.hpp"

namespace locksim::engine {
namespace {

class KeyspaceExpiry : public EngineTest {};

TEST_F(KeyspaceExpiry, AKeyStillExistsAtItsExactExpiryMillisecond) {
  ASSERT_EQ(run({"SET", "k", "v", "PX", "100"}), Reply::ok());
  host_.advance_ms(100);
  EXPECT_EQ(run({"PTTL", "k"}), integer(0));
  EXPECT_EQ(run({"TTL", "k"}), integer(0));
  EXPECT_EQ(run({"GET", "k"}), bulk("v"));
  EXPECT_EQ(run({"EXISTS", "k"}), integer(1));
}

TEST_F(KeyspaceExpiry, AKeyIsGoneOneMillisecondAfterItsExpiry) {
  ASSERT_EQ(run({"SET", "k", "v", "PX", "100"}), Reply::ok());
  host_.advance_ms(101);
  EXPECT_EQ(run({"GET", "k"}), Reply::nil());
  EXPECT_EQ(run({"PTTL", "k"}), integer(-2));
  EXPECT_FALSE(stored("k"));
}

TEST_F(KeyspaceExpiry, LazyExpiryReportsExpiredWithTheOriginalTime) {
  ASSERT_EQ(run({"SET", "k", "v", "PX", "100"}), Reply::ok());
  take_events();
  host_.advance_ms(500);
  EXPECT_TRUE(stored("k"));  // nobody looked yet
  EXPECT_EQ(run({"EXISTS", "k"}), integer(0));
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Expired, "k", kStartMs + 100}}));
  EXPECT_FALSE(stored("k"));
}

TEST_F(KeyspaceExpiry, EveryCommandSeesAnExpiredKeyAsMissing) {
  ASSERT_EQ(run({"HSET", "h", "f", "1"}), integer(1));
  ASSERT_EQ(run({"PEXPIRE", "h", "10"}), integer(1));
  host_.advance_ms(11);
  EXPECT_EQ(run({"HINCRBY", "h", "f", "1"}), integer(1));
  EXPECT_EQ(run({"PTTL", "h"}), integer(-1));
  ASSERT_EQ(run({"RPUSH", "l", "a"}), integer(1));
  ASSERT_EQ(run({"PEXPIRE", "l", "10"}), integer(1));
  host_.advance_ms(11);
  EXPECT_EQ(run({"SET", "l", "v", "XX"}), Reply::nil());
  EXPECT_EQ(run({"TYPE", "l"}), Reply::status("none"));
}

TEST_F(KeyspaceExpiry, ActiveExpireDeletesPastKeysInKeyOrder) {
  ASSERT_EQ(run({"SET", "c", "v", "PX", "10"}), Reply::ok());
  ASSERT_EQ(run({"SET", "a", "v", "PX", "30"}), Reply::ok());
  ASSERT_EQ(run({"RPUSH", "b", "x"}), integer(1));
  ASSERT_EQ(run({"PEXPIRE", "b", "20"}), integer(1));
  ASSERT_EQ(run({"SET", "d", "v", "PX", "40"}), Reply::ok());
  ASSERT_EQ(run({"SET", "e", "v"}), Reply::ok());
  take_events();
  host_.advance_ms(40);  // d is exactly at its expiry: it stays
  EXPECT_EQ(engine_.active_expire(), 3u);
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Expired, "a", kStartMs + 30},
                                                      {KeyEvent::Expired, "b", kStartMs + 20},
                                                      {KeyEvent::Expired, "c", kStartMs + 10}}));
  EXPECT_TRUE(stored("d"));
  EXPECT_TRUE(stored("e"));
  EXPECT_EQ(engine_.active_expire(), 0u);
  host_.advance_ms(1);
  EXPECT_EQ(engine_.active_expire(), 1u);
  EXPECT_FALSE(stored("d"));
  EXPECT_EQ(engine_.keyspace().size(), 1u);
}

TEST_F(KeyspaceExpiry, ActiveExpireNeverTouchesKeysWithoutExpiry) {
  ASSERT_EQ(run({"SET", "k", "v"}), Reply::ok());
  host_.advance_ms(1'000'000'000);
  EXPECT_EQ(engine_.active_expire(), 0u);
  EXPECT_EQ(run({"GET", "k"}), bulk("v"));
}

TEST_F(KeyspaceExpiry, CreatingAndSettingAnExpiryAreReported) {
  ASSERT_EQ(run({"SET", "k", "v", "EX", "5"}), Reply::ok());
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Created, "k", kNoExpire},
                                                      {KeyEvent::ExpireSet, "k", kStartMs + 5000}}));
  ASSERT_EQ(run({"PEXPIREAT", "k", "1800000000000"}), integer(1));
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::ExpireSet, "k", 1800000000000}}));
}

TEST_F(KeyspaceExpiry, PersistIsReported) {
  ASSERT_EQ(run({"SET", "k", "v", "EX", "5"}), Reply::ok());
  take_events();
  ASSERT_EQ(run({"PERSIST", "k"}), integer(1));
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Persisted, "k", kNoExpire}}));
  ASSERT_EQ(run({"PERSIST", "k"}), integer(0));
  EXPECT_TRUE(take_events().empty());
}

TEST_F(KeyspaceExpiry, DelIsReportedAsDeletedWithTheExpiryItHad) {
  ASSERT_EQ(run({"SET", "k", "v", "EX", "5"}), Reply::ok());
  ASSERT_EQ(run({"SET", "j", "v"}), Reply::ok());
  take_events();
  ASSERT_EQ(run({"DEL", "k", "j", "missing"}), integer(2));
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Deleted, "k", kStartMs + 5000},
                                                      {KeyEvent::Deleted, "j", kNoExpire}}));
}

TEST_F(KeyspaceExpiry, AnExpiryInThePastIsADeletionNotAnExpiration) {
  ASSERT_EQ(run({"SET", "k", "v"}), Reply::ok());
  take_events();
  ASSERT_EQ(run({"PEXPIRE", "k", "0"}), integer(1));
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Deleted, "k", kNoExpire}}));
  EXPECT_FALSE(stored("k"));
}

TEST_F(KeyspaceExpiry, DelOfAKeyPastItsTimeReportsExpiredAndCountsNothing) {
  ASSERT_EQ(run({"SET", "k", "v", "PX", "1"}), Reply::ok());
  take_events();
  host_.advance_ms(2);
  EXPECT_EQ(run({"DEL", "k"}), integer(0));
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Expired, "k", kStartMs + 1}}));
}

TEST_F(KeyspaceExpiry, EmptiedContainersAreDeletedAndReported) {
  ASSERT_EQ(run({"HSET", "h", "f", "v"}), integer(1));
  ASSERT_EQ(run({"RPUSH", "l", "a"}), integer(1));
  ASSERT_EQ(run({"ZADD", "z", "1", "m"}), integer(1));
  take_events();
  ASSERT_EQ(run({"HDEL", "h", "f"}), integer(1));
  ASSERT_EQ(run({"LPOP", "l"}), bulk("a"));
  ASSERT_EQ(run({"ZREM", "z", "m"}), integer(1));
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Deleted, "h", kNoExpire},
                                                      {KeyEvent::Deleted, "l", kNoExpire},
                                                      {KeyEvent::Deleted, "z", kNoExpire}}));
  EXPECT_EQ(engine_.keyspace().size(), 0u);
}

TEST_F(KeyspaceExpiry, ReadsOfMissingKeysCreateNothing) {
  EXPECT_EQ(run({"GET", "k"}), Reply::nil());
  EXPECT_EQ(run({"HGET", "h", "f"}), Reply::nil());
  EXPECT_EQ(run({"LRANGE", "l", "0", "-1"}), Reply::array());
  EXPECT_EQ(run({"LPOP", "l", "0"}), Reply::nil_array());
  EXPECT_EQ(run({"HDEL", "h", "f"}), integer(0));
  EXPECT_EQ(run({"LREM", "l", "0", "x"}), integer(0));
  EXPECT_EQ(run({"EXPIRE", "k", "10"}), integer(0));
  EXPECT_EQ(run({"PERSIST", "k"}), integer(0));
  EXPECT_TRUE(take_events().empty());
  EXPECT_EQ(engine_.keyspace().size(), 0u);
}

}  // namespace
}  // namespace locksim::engine

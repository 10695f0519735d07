// Unit: keyspace notifications (notify.cpp): the class letters as CONFIG reads and writes them, and
// the notifications the differential tests cannot compare with a live server (the active expiry
// cycle, which they switch off on it). Expectations are Redis 7.0.15's: notify.c, and its replies
// to CONFIG SET/GET checked on redis-server.
#include "verify/unit/engine/engine_harness.hpp"

#include "engine/notify.hpp"

namespace locksim::engine {
namespace {

std::string round_trip(std::string_view classes) {
  const std::optional<int> flags = keyspace_events_from_string(classes);
  return flags ? keyspace_events_to_string(*flags) : "(invalid)";
}

// unit/pubsub.tcl's "test CONFIG GET/SET of event flags", and what redis-server answers otherwise.
TEST(KeyspaceEvents, ReadBackAsRedisSpellsThem) {
  EXPECT_EQ(round_trip("gKE"), "gKE");
  EXPECT_EQ(round_trip("$lshzxeKE"), "$lshzxeKE");
  EXPECT_EQ(round_trip("KA"), "AK");
  EXPECT_EQ(round_trip("EA"), "AE");
  EXPECT_EQ(round_trip("An"), "A");  // n is outside A, but written only when A is not
  EXPECT_EQ(round_trip("nEK"), "nKE");
  EXPECT_EQ(round_trip("mKE"), "KEm");
  EXPECT_EQ(round_trip("Am"), "Am");
  EXPECT_EQ(round_trip("g$lshzxetd"), "A");
  EXPECT_EQ(round_trip(""), "");
  EXPECT_EQ(round_trip("KKgg"), "gK");
}

TEST(KeyspaceEvents, AnyOtherCharacterIsInvalid) {
  EXPECT_EQ(round_trip("KAq"), "(invalid)");
  EXPECT_EQ(round_trip("k"), "(invalid)");
  EXPECT_EQ(round_trip(" "), "(invalid)");
  EXPECT_EQ(round_trip(std::string_view("K\0", 2)), "(invalid)");
}

TEST(KeyspaceEvents, AllIsEveryClassButKeyMissAndNew) {
  EXPECT_EQ(kNotifyAll & (kNotifyKeyMiss | kNotifyNew | kNotifyKeyspace | kNotifyKeyevent), 0);
  EXPECT_EQ(*keyspace_events_from_string("A"), *keyspace_events_from_string("g$lshzxetd"));
}

struct Published {
  std::string channel;
  std::string message;
  bool operator==(const Published&) const = default;
};

class PublishedHost : public ManualHost {
 public:
  void deliver(SessionId, std::string_view channel, std::string_view message, std::string_view) override {
    published.push_back({std::string(channel), std::string(message)});
  }
  std::vector<Published> published;
};

class NotifyTest : public ::testing::Test {
 protected:
  void SetUp() override { engine_.execute(subscriber_, {"PSUBSCRIBE", "*"}); }
  PublishedHost host_;
  Engine engine_{host_};
  SessionId client_ = engine_.open_session();
  SessionId subscriber_ = engine_.open_session();
};

TEST_F(NotifyTest, OffUntilSet) {
  EXPECT_EQ(engine_.keyspace_events(), 0);
  engine_.execute(client_, {"SET", "k", "v", "PX", "10"});
  host_.advance_ms(20);
  engine_.active_expire();
  EXPECT_TRUE(host_.published.empty());
}

// expire.c's activeExpireCycle deletes through deleteExpiredKeyAndPropagate, as a lookup does.
TEST_F(NotifyTest, ActiveExpiryAnnouncesExpiredInEachDb) {
  engine_.set_keyspace_events(*keyspace_events_from_string("KEx"));
  engine_.execute(client_, {"SET", "b", "v", "PX", "10"});
  engine_.execute(client_, {"SET", "a", "v", "PX", "10"});
  engine_.execute(client_, {"SELECT", "3"});
  engine_.execute(client_, {"SET", "c", "v", "PX", "10"});
  engine_.execute(client_, {"SET", "d", "v"});
  EXPECT_TRUE(host_.published.empty());  // x only: SET's events are class $ and g
  host_.advance_ms(20);
  EXPECT_EQ(engine_.active_expire(), 3u);
  const std::vector<Published> expected{
      {"__keyspace@0__:a", "expired"}, {"__keyevent@0__:expired", "a"}, {"__keyspace@0__:b", "expired"},
      {"__keyevent@0__:expired", "b"}, {"__keyspace@3__:c", "expired"}, {"__keyevent@3__:expired", "c"}};
  EXPECT_EQ(host_.published, expected);
}

// dbRandomKey deletes the expired keys it draws through expireIfNeeded: each is announced.
TEST_F(NotifyTest, RandomkeyAnnouncesTheExpiredKeysItDraws) {
  engine_.set_keyspace_events(*keyspace_events_from_string("Ex"));
  engine_.execute(client_, {"SET", "a-rather-long-key-name-beyond-small-string-storage", "v", "PX", "10"});
  host_.advance_ms(20);
  engine_.execute(client_, {"RANDOMKEY"});
  EXPECT_EQ(host_.published, (std::vector<Published>{
                                 {"__keyevent@0__:expired", "a-rather-long-key-name-beyond-small-string-storage"}}));
}

// MOVE announces each side in its own db (db.c's moveCommand).
TEST_F(NotifyTest, MoveAnnouncesBothDatabases) {
  engine_.set_keyspace_events(*keyspace_events_from_string("Eg"));
  engine_.execute(client_, {"SET", "k", "v"});
  engine_.execute(client_, {"MOVE", "k", "4"});
  EXPECT_EQ(host_.published,
            (std::vector<Published>{{"__keyevent@0__:move_from", "k"}, {"__keyevent@4__:move_to", "k"}}));
}

}  // namespace
}  // namespace locksim::engine

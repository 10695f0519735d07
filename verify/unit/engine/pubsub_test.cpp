// Unit: pub/sub (cmd_pubsub.cpp, pubsub.cpp): replies, subscriber mode and delivery through the host.
#include "verify/unit/engine/engine_harness.hpp"

namespace locksim::engine {
namespace {

struct Delivery {
  SessionId session;
  std::string channel;
  std::string message;
  bool operator==(const Delivery&) const = default;
};

class DeliveringHost : public ManualHost {
 public:
  void deliver(SessionId session, std::string_view channel, std::string_view message, std::string_view) override {
    delivered.push_back({session, std::string(channel), std::string(message)});
  }
  std::vector<Delivery> delivered;
};

class PubSubTest : public ::testing::Test {
 protected:
  static Reply sub(const char* kind, const char* channel, int64_t count) {
    return Reply::array({Reply::bulk(kind), channel ? Reply::bulk(channel) : Reply::nil(), Reply::integer_of(count)});
  }
  DeliveringHost host_;
  Engine engine_{host_};
  SessionId a_ = engine_.open_session();
  SessionId b_ = engine_.open_session();
  SessionId publisher_ = engine_.open_session();
};

TEST_F(PubSubTest, SubscribeAnswersOncePerChannel) {
  EXPECT_EQ(engine_.execute(a_, {"SUBSCRIBE", "x", "y", "x"}),
            Reply::sequence({sub("subscribe", "x", 1), sub("subscribe", "y", 2), sub("subscribe", "x", 2)}));
  EXPECT_EQ(engine_.execute(a_, {"UNSUBSCRIBE", "y", "nope"}),
            Reply::sequence({sub("unsubscribe", "y", 1), sub("unsubscribe", "nope", 1)}));
  EXPECT_EQ(engine_.execute(a_, {"UNSUBSCRIBE"}), Reply::sequence({sub("unsubscribe", "x", 0)}));
  EXPECT_EQ(engine_.execute(a_, {"UNSUBSCRIBE"}), Reply::sequence({sub("unsubscribe", nullptr, 0)}));
}

TEST_F(PubSubTest, SubscriberModeRefusesOtherCommands) {
  engine_.execute(a_, {"SUBSCRIBE", "x"});
  EXPECT_EQ(engine_.execute(a_, {"GET", "k"}),
            Reply::error("ERR Can't execute 'get': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET "
                         "are allowed in this context"));
  EXPECT_EQ(engine_.execute(a_, {"PING"}), Reply::array({Reply::bulk("pong"), Reply::bulk("")}));
  EXPECT_EQ(engine_.execute(a_, {"PING", "m"}), Reply::array({Reply::bulk("pong"), Reply::bulk("m")}));
  EXPECT_EQ(engine_.execute(b_, {"PING"}), Reply::status("PONG"));  // another session is unaffected
  engine_.execute(a_, {"UNSUBSCRIBE"});
  EXPECT_EQ(engine_.execute(a_, {"GET", "k"}), Reply::nil());
}

TEST_F(PubSubTest, PublishDeliversInSubscriptionOrderAndCounts) {
  engine_.execute(b_, {"SUBSCRIBE", "ch"});
  engine_.execute(a_, {"SUBSCRIBE", "ch", "other"});
  EXPECT_EQ(engine_.execute(publisher_, {"PUBLISH", "ch", "hello"}), Reply::integer_of(2));
  EXPECT_EQ(engine_.execute(publisher_, {"PUBLISH", "nobody", "x"}), Reply::integer_of(0));
  EXPECT_EQ(host_.delivered, (std::vector<Delivery>{{b_, "ch", "hello"}, {a_, "ch", "hello"}}));
}

TEST_F(PubSubTest, ClosingASessionEndsItsSubscriptions) {
  engine_.execute(a_, {"SUBSCRIBE", "ch"});
  engine_.execute(b_, {"SUBSCRIBE", "ch"});
  engine_.close_session(a_);
  EXPECT_EQ(engine_.execute(publisher_, {"PUBLISH", "ch", "m"}), Reply::integer_of(1));
  EXPECT_EQ(host_.delivered, (std::vector<Delivery>{{b_, "ch", "m"}}));
}

TEST_F(PubSubTest, PublishFromAScriptDelivers) {
  engine_.execute(a_, {"SUBSCRIBE", "ch"});
  EXPECT_EQ(engine_.execute(publisher_, {"EVAL", "return redis.call('publish', 'ch', 'm')", "0"}), Reply::integer_of(1));
  EXPECT_EQ(engine_.execute(publisher_, {"EVAL", "return redis.pcall('subscribe', 'ch')", "0"}),
            Reply::error("ERR This Redis command is not allowed from script"));
  EXPECT_EQ(host_.delivered, (std::vector<Delivery>{{a_, "ch", "m"}}));
}

}  // namespace
}  // namespace locksim::engine

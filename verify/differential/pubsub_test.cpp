// Differential: pub/sub (cmd_pubsub.cpp). SUBSCRIBE with several channels answers several times: the
// fake returns one Reply::Kind::Sequence, the live side is read reply by reply.
#include "verify/support/differential.hpp"

namespace locksim::test {
namespace {


class PubSubDifferential : public Differential {
 protected:
  void SetUp() override {
    Differential::SetUp();
    fake_ = std::make_unique<engine::Engine>(recording_);
    session_ = fake_->open_session();
  }
  void TearDown() override { fake_.reset(); }

  // The live replies to a command that answers `count` times.
  static std::vector<Reply> live_replies(RedisClient& client, const std::vector<std::string>& argv, size_t count) {
    std::vector<Reply> replies{client.command(argv)};
    while (replies.size() < count) replies.push_back(client.read_reply());
    return replies;
  }

  // Runs argv on a fake session and a live connection; the replies must match one for one.
  void expect_same_replies(engine::SessionId session, RedisClient& client, const std::vector<std::string>& argv,
                           size_t count) {
    const Reply fake = fake_->execute(session, argv);
    const std::vector<Reply> live = live_replies(client, argv, count);
    std::vector<Reply> fake_replies;
    if (fake.kind == Reply::Kind::Sequence) fake_replies = fake.elements;
    else fake_replies.push_back(fake);
    ASSERT_EQ(fake_replies.size(), live.size()) << "fake: " << locksim::describe(fake);
    for (size_t i = 0; i < live.size(); ++i)
      EXPECT_EQ(locksim::describe(fake_replies[i]), locksim::describe(live[i])) << "reply " << i;
  }

  static Reply subscription(const char* kind, const char* channel, int64_t count) {
    return Reply::array({Reply::bulk(kind), channel ? Reply::bulk(channel) : Reply::nil(), Reply::integer_of(count)});
  }

  RecordingHost recording_;
};

TEST_F(PubSubDifferential, PublishWithoutSubscribersReachesNobody) {
  expect_same({"PUBLISH", "ch", "hello"});
  expect_same({"PUBLISH", "ch"});
  expect_same({"PUBLISH", "ch", "a", "b"});
  EXPECT_TRUE(recording_.delivered.empty());
}

TEST_F(PubSubDifferential, SubscribeToSeveralChannelsAnswersOncePerChannel) {
  expect_same_replies(session_, *live_, {"SUBSCRIBE", "a", "b", "a"}, 3);
  // Pin the exact replies too, so a symmetric mistake cannot pass.
  const Reply again = fake_->execute(session_, {"SUBSCRIBE", "c"});
  EXPECT_EQ(again, Reply::sequence({subscription("subscribe", "c", 3)}));
  EXPECT_EQ(live_->command({"SUBSCRIBE", "c"}), subscription("subscribe", "c", 3));
  expect_same_replies(session_, *live_, {"UNSUBSCRIBE", "a", "nope"}, 2);
  expect_same_replies(session_, *live_, {"UNSUBSCRIBE", "b"}, 1);
  expect_same_replies(session_, *live_, {"UNSUBSCRIBE"}, 1);  // only "c" is left: order is not in question
  expect_same_replies(session_, *live_, {"UNSUBSCRIBE"}, 1);  // none left: [unsubscribe, nil, 0]
  expect_same_replies(session_, *live_, {"UNSUBSCRIBE", "x", "y"}, 2);
  expect_same({"GET", "k"});  // back out of subscriber mode
}

TEST_F(PubSubDifferential, SubscriberModeAllowsOnlySubscriptionCommandsAndPing) {
  expect_same({"SUBSCRIBE"});
  expect_same_replies(session_, *live_, {"SUBSCRIBE", "ch"}, 1);
  expect_same({"GET", "k"});
  expect_same({"SET", "k", "v"});
  expect_same({"PUBLISH", "ch", "x"});
  expect_same({"EVAL", "return 1", "0"});
  expect_same({"PING"});
  expect_same({"PING", "hi"});
  expect_same({"PING", "a", "b"});
  expect_same({"NOSUCH", "x"});
  expect_same({"GET"});
  expect_same_replies(session_, *live_, {"SUBSCRIBE", "ch2"}, 1);
  expect_same_replies(session_, *live_, {"UNSUBSCRIBE", "ch", "ch2"}, 2);
  expect_same({"PING"});
  expect_same({"GET", "k"});
}

TEST_F(PubSubDifferential, PublishReachesEverySubscriberOnce) {
  RedisClient live_a(shared_redis_server().port());
  RedisClient live_b(shared_redis_server().port());
  const engine::SessionId fake_a = fake_->open_session();
  const engine::SessionId fake_b = fake_->open_session();
  expect_same_replies(fake_a, live_a, {"SUBSCRIBE", "ch", "other"}, 2);
  expect_same_replies(fake_b, live_b, {"SUBSCRIBE", "ch"}, 1);
  expect_same_replies(fake_b, live_b, {"SUBSCRIBE", "ch"}, 1);  // twice: still one subscription

  expect_same({"PUBLISH", "ch", "hello"});
  expect_same({"PUBLISH", "other", std::string("bin\0ary", 7)});
  expect_same({"PUBLISH", "nobody", "x"});

  const Reply message_a = live_a.read_reply();
  const Reply message_b = live_b.read_reply();
  const Reply expected = Reply::array({Reply::bulk("message"), Reply::bulk("ch"), Reply::bulk("hello")});
  EXPECT_EQ(message_a, expected);
  EXPECT_EQ(message_b, expected);
  EXPECT_EQ(live_a.read_reply(),
            Reply::array({Reply::bulk("message"), Reply::bulk("other"), Reply::bulk(std::string("bin\0ary", 7))}));
  const std::vector<Delivery> delivered{
      {fake_a, "ch", "hello"}, {fake_b, "ch", "hello"}, {fake_a, "other", std::string("bin\0ary", 7)}};
  EXPECT_EQ(recording_.delivered, delivered);

  expect_same_replies(fake_a, live_a, {"UNSUBSCRIBE", "ch"}, 1);
  expect_same({"PUBLISH", "ch", "again"});
  EXPECT_EQ(live_b.read_reply(), Reply::array({Reply::bulk("message"), Reply::bulk("ch"), Reply::bulk("again")}));
  ASSERT_EQ(recording_.delivered.size(), 4u);
  EXPECT_EQ(recording_.delivered.back(), (Delivery{fake_b, "ch", "again"}));
}

TEST_F(PubSubDifferential, PublishFromAScriptCountsAndDelivers) {
  RedisClient live_sub(shared_redis_server().port());
  const engine::SessionId fake_sub = fake_->open_session();
  expect_same_replies(fake_sub, live_sub, {"SUBSCRIBE", "ch"}, 1);
  expect_same({"EVAL", "return redis.call('publish', KEYS[1], ARGV[1])", "1", "ch", "from-script"});
  EXPECT_EQ(live_sub.read_reply(),
            Reply::array({Reply::bulk("message"), Reply::bulk("ch"), Reply::bulk("from-script")}));
  EXPECT_EQ(recording_.delivered, (std::vector<Delivery>{{fake_sub, "ch", "from-script"}}));
}

// A pattern subscription counts with the channels, answers pmessage with its pattern, and PUBLISH
// counts one delivery per subscription that matches (a session subscribed both ways gets two).
TEST_F(PubSubDifferential, PatternSubscriptionsDeliverPmessages) {
  RedisClient live_a(shared_redis_server().port());
  RedisClient live_b(shared_redis_server().port());
  const engine::SessionId fake_a = fake_->open_session();
  const engine::SessionId fake_b = fake_->open_session();
  expect_same({"PSUBSCRIBE"});
  expect_same_replies(session_, *live_, {"PUNSUBSCRIBE"}, 1);
  expect_same_replies(fake_a, live_a, {"PSUBSCRIBE", "news.*", "h?llo", "news.*"}, 3);
  expect_same_replies(fake_a, live_a, {"SUBSCRIBE", "news.sport"}, 1);
  expect_same_replies(fake_b, live_b, {"PSUBSCRIBE", "[nm]ews.s*"}, 1);
  expect_same({"PUBSUB", "NUMPAT"});
  expect_same({"PUBSUB", "NUMSUB", "news.sport", "news.*", "nothing"});
  expect_same({"PUBSUB", "NUMSUB"});
  expect_same({"PUBSUB", "CHANNELS"});
  expect_same({"PUBSUB", "CHANNELS", "news.s*"});
  expect_same({"PUBSUB", "CHANNELS", "x*"});
  expect_same({"PUBSUB", "SHARDCHANNELS"});
  expect_same({"PUBSUB", "SHARDNUMSUB", "a"});
  expect_same({"PUBSUB", "HELP"});
  expect_same({"PUBSUB", "CHANNELS", "a", "b"});
  expect_same({"PUBSUB", "NUMPAT", "x"});
  expect_same({"PUBSUB", "HELP", "x"});
  expect_same({"PUBSUB", "NOSUCH"});
  expect_same({"PUBSUB"});

  // One pattern matches per delivery below, so Redis's order among patterns is not in question.
  expect_same({"PUBLISH", "hello", "one"});
  EXPECT_EQ(live_a.read_reply(),
            Reply::array({Reply::bulk("pmessage"), Reply::bulk("h?llo"), Reply::bulk("hello"), Reply::bulk("one")}));
  expect_same({"PUBLISH", "news.weather", "two"});
  EXPECT_EQ(live_a.read_reply(), Reply::array({Reply::bulk("pmessage"), Reply::bulk("news.*"),
                                               Reply::bulk("news.weather"), Reply::bulk("two")}));
  expect_same({"PUBLISH", "mews.sx", "three"});
  EXPECT_EQ(live_b.read_reply(), Reply::array({Reply::bulk("pmessage"), Reply::bulk("[nm]ews.s*"),
                                               Reply::bulk("mews.sx"), Reply::bulk("three")}));
  expect_same({"PUBLISH", "nothing", "x"});
  const std::vector<Delivery> delivered{{fake_a, "hello", "one", "h?llo"},
                                        {fake_a, "news.weather", "two", "news.*"},
                                        {fake_b, "mews.sx", "three", "[nm]ews.s*"}};
  EXPECT_EQ(recording_.delivered, delivered);

  // The channel, then its patterns: news.sport reaches a through the channel and news.*, b through its pattern.
  expect_same({"PUBLISH", "news.sport", "four"});
  EXPECT_EQ(live_a.read_reply(),
            Reply::array({Reply::bulk("message"), Reply::bulk("news.sport"), Reply::bulk("four")}));
  EXPECT_EQ(live_a.read_reply(), Reply::array({Reply::bulk("pmessage"), Reply::bulk("news.*"),
                                               Reply::bulk("news.sport"), Reply::bulk("four")}));
  EXPECT_EQ(live_b.read_reply(), Reply::array({Reply::bulk("pmessage"), Reply::bulk("[nm]ews.s*"),
                                               Reply::bulk("news.sport"), Reply::bulk("four")}));
  ASSERT_EQ(recording_.delivered.size(), 6u);

  expect_same_replies(fake_a, live_a, {"PUNSUBSCRIBE", "news.*", "never"}, 2);
  expect_same_replies(fake_a, live_a, {"UNSUBSCRIBE"}, 1);
  expect_same_replies(fake_a, live_a, {"UNSUBSCRIBE"}, 1);  // none left, one pattern: [unsubscribe, nil, 1]
  expect_same_replies(fake_a, live_a, {"PSUBSCRIBE", "z*"}, 1);
  expect_same_replies(fake_a, live_a, {"PUNSUBSCRIBE"}, 2);  // in the order subscribed: h?llo, z*
  expect_same_replies(fake_a, live_a, {"PUNSUBSCRIBE"}, 1);  // none left: [punsubscribe, nil, 0]
  expect_same({"PUBSUB", "NUMPAT"});
  expect_same({"EVAL", "return redis.call('pubsub', 'numpat')", "0"});
  expect_same({"EVAL", "return redis.call('psubscribe', 'x')", "0"});
}

}  // namespace
}  // namespace locksim::test

// Differential: keyspace notifications (engine/notify.hpp). The same commands run on the fake and on
// the live server with the same notify-keyspace-events; a `PSUBSCRIBE *` connection on each side
// sees every notification, and the two streams must match message for message, in order. A PUBLISH
// of a marker ends each stretch, so that the live side is read exactly as far as the fake has sent.
#include "engine/notify.hpp"
#include "verify/support/differential.hpp"

#include <chrono>
#include <thread>

namespace locksim::test {
namespace {

constexpr std::string_view kMarker = "notify-test-marker";

struct Message {
  std::string channel;
  std::string message;
  bool operator==(const Message&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Message& m) { return out << m.channel << " " << m.message; }

class NotifyDifferential : public Differential {
 protected:
  void SetUp() override {
    Differential::SetUp();
    fake_ = std::make_unique<engine::Engine>(recording_);
    session_ = fake_->open_session();
    const engine::SessionId subscriber = fake_->open_session();
    ASSERT_EQ(fake_->execute(subscriber, {"PSUBSCRIBE", "*"}).kind, Reply::Kind::Sequence);
    live_subscriber_ = std::make_unique<RedisClient>(shared_redis_server().port());
    ASSERT_EQ(live_subscriber_->command({"PSUBSCRIBE", "*"}),
              Reply::array({Reply::bulk("psubscribe"), Reply::bulk("*"), Reply::integer_of(1)}));
  }
  void TearDown() override {
    // The live server is shared with every other differential test: leave it silent.
    live_->command({"CONFIG", "SET", "notify-keyspace-events", ""});
    fake_.reset();
  }

  // notify-keyspace-events on both sides.
  void events(const std::string& classes) {
    const std::optional<int> flags = engine::keyspace_events_from_string(classes);
    ASSERT_TRUE(flags.has_value()) << classes;
    fake_->set_keyspace_events(*flags);
    ASSERT_EQ(live_->command({"CONFIG", "SET", "notify-keyspace-events", classes}), Reply::ok());
  }

  // The notifications since the last call, which must be the same on both sides; returned for the
  // tests that also pin them.
  std::vector<Message> expect_same_notifications() {
    expect_same({"PUBLISH", std::string(kMarker), "."});
    std::vector<Message> live;
    for (;;) {
      const Reply r = live_subscriber_->read_reply();
      if (r.kind != Reply::Kind::Array || r.elements.size() != 4) {
        ADD_FAILURE() << "live subscriber read " << locksim::describe(r);
        break;
      }
      if (r.elements[2].str == kMarker) break;
      live.push_back({r.elements[2].str, r.elements[3].str});
    }
    std::vector<Message> fake;
    for (; consumed_ < recording_.delivered.size(); ++consumed_) {
      const Delivery& d = recording_.delivered[consumed_];
      if (d.pattern != "*") continue;  // only the pattern subscriber's, as on the live side
      if (d.channel == kMarker) {
        ++consumed_;
        break;
      }
      fake.push_back({d.channel, d.message});
    }
    EXPECT_EQ(fake, live);
    return live;
  }

  // Runs every command on both sides (replies compared), then compares the notifications.
  std::vector<Message> run(const std::vector<std::vector<std::string>>& commands) {
    for (const auto& argv : commands) expect_same(argv);
    return expect_same_notifications();
  }

  RecordingHost recording_;
  std::unique_ptr<RedisClient> live_subscriber_;
  size_t consumed_ = 0;
};

TEST_F(NotifyDifferential, NothingIsSentByDefault) {
  run({{"SET", "k", "v"}, {"LPUSH", "l", "a"}, {"DEL", "k", "l"}});
  const std::vector<Message> none = expect_same_notifications();
  EXPECT_TRUE(none.empty());
}

// Pinned from t_string.c's setGenericCommand: the "set", then the "expire"; the keyspace channel
// before the keyevent channel.
TEST_F(NotifyDifferential, SetWithAnExpiryAnnouncesSetThenExpire) {
  events("KEA");
  const std::vector<Message> seen = run({{"SET", "k", "v", "EX", "100"}});
  const std::vector<Message> expected{{"__keyspace@0__:k", "set"},
                                      {"__keyevent@0__:set", "k"},
                                      {"__keyspace@0__:k", "expire"},
                                      {"__keyevent@0__:expire", "k"}};
  EXPECT_EQ(seen, expected);
}

TEST_F(NotifyDifferential, StringCommands) {
  events("KEA");
  run({{"SET", "k", "v"},
       {"SET", "k", "w", "NX"},
       {"SET", "k", "w", "XX", "GET"},
       {"SET", "k", "w", "PX", "100000", "KEEPTTL"},
       {"SET", "k", "w", "KEEPTTL"},
       {"SETNX", "k", "x"},
       {"SETNX", "n", "x"},
       {"SETEX", "e", "100", "v"},
       {"PSETEX", "e", "100000", "v"},
       {"SETEX", "e", "-1", "v"},
       {"GETSET", "k", "z"},
       {"GETDEL", "k"},
       {"GETDEL", "k"},
       {"SET", "g", "v"},
       {"GETEX", "g"},
       {"GETEX", "g", "EX", "100"},
       {"GETEX", "g", "PERSIST"},
       {"GETEX", "g", "PERSIST"},
       {"GETEX", "g", "PXAT", "1"},
       {"MSET", "a", "1", "b", "2", "a", "3"},
       {"MSETNX", "c", "1", "a", "2"},
       {"MSETNX", "c", "1", "d", "2"},
       {"APPEND", "a", "x"},
       {"APPEND", "new", "x"},
       {"APPEND", "new", ""},
       {"INCR", "i"},
       {"INCRBY", "i", "5"},
       {"DECR", "i"},
       {"DECRBY", "i", "2"},
       {"INCR", "a"},
       {"INCRBYFLOAT", "f", "1.5"},
       {"INCRBYFLOAT", "f", "1e400"},
       {"SETRANGE", "r", "3", "ab"},
       {"SETRANGE", "r", "0", "x"},
       {"SETRANGE", "r", "1", ""},
       {"SETRANGE", "missing", "1", ""},
       {"SETBIT", "bits", "9", "1"},
       {"SETBIT", "bits", "9", "1"},
       {"SETBIT", "bits", "1", "0"},
       {"SETBIT", "bits", "1", "1"},
       {"SETBIT", "bits", "100", "0"},
       {"BITOP", "OR", "dest", "bits", "r"},
       {"BITOP", "AND", "dest", "nothing", "nope"},
       {"BITOP", "AND", "dest", "nothing", "nope"},
       {"LPUSH", "list", "x"},
       {"SET", "list", "v"}});
}

TEST_F(NotifyDifferential, GenericCommands) {
  events("KEA");
  run({{"SET", "a", "1"},
       {"SET", "b", "2"},
       {"DEL", "a", "missing", "b", "a"},
       {"SET", "a", "1"},
       {"UNLINK", "a", "missing"},
       {"SET", "k", "v"},
       {"EXPIRE", "k", "100"},
       {"EXPIRE", "k", "200", "NX"},
       {"PEXPIRE", "k", "200000", "GT"},
       {"EXPIREAT", "k", "99999999999"},
       {"PEXPIREAT", "k", "99999999999000", "XX"},
       {"EXPIRE", "missing", "100"},
       {"PERSIST", "k"},
       {"PERSIST", "k"},
       {"EXPIRE", "k", "-1"},
       {"SET", "k", "v"},
       {"PEXPIREAT", "k", "1"},
       {"SET", "from", "v", "EX", "100"},
       {"RENAME", "from", "to"},
       {"SET", "other", "x"},
       {"RENAME", "to", "other"},
       {"RENAME", "other", "other"},
       {"RENAMENX", "other", "to"},
       {"SET", "x", "1"},
       {"RENAMENX", "to", "x"},
       {"COPY", "x", "y"},
       {"COPY", "x", "y"},
       {"COPY", "x", "y", "REPLACE"},
       {"COPY", "x", "y", "DB", "3"},
       {"MOVE", "x", "5"},
       {"MOVE", "x", "5"},
       {"SELECT", "5"},
       {"SET", "x", "2"},
       {"DEL", "x"},
       {"SELECT", "0"},
       {"SWAPDB", "0", "3"},
       {"FLUSHDB"},
       {"TOUCH", "y"},
       {"FLUSHALL"}});
}

TEST_F(NotifyDifferential, ListCommands) {
  events("KEA");
  run({{"LPUSH", "l", "a", "b"},
       {"RPUSH", "l", "c"},
       {"LPUSHX", "missing", "a"},
       {"RPUSHX", "l", "d"},
       {"LPOP", "l"},
       {"RPOP", "l", "2"},
       {"LPOP", "l", "0"},
       {"LPOP", "missing"},
       {"RPUSH", "l", "p", "q", "r"},
       {"LINSERT", "l", "BEFORE", "q", "x"},
       {"LINSERT", "l", "BEFORE", "nope", "x"},
       {"LSET", "l", "0", "first"},
       {"LSET", "l", "100", "first"},
       {"LREM", "l", "0", "nope"},
       {"LREM", "l", "1", "x"},
       {"LTRIM", "l", "0", "-1"},
       {"LTRIM", "l", "0", "1"},
       {"LMOVE", "l", "l", "LEFT", "RIGHT"},
       {"LMOVE", "l", "dest", "LEFT", "LEFT"},
       {"RPOPLPUSH", "l", "dest"},
       {"RPOPLPUSH", "l", "dest"},
       {"LMPOP", "2", "missing", "dest", "LEFT", "COUNT", "10"},
       {"RPUSH", "l", "a", "b", "c"},
       {"BLPOP", "missing", "l", "0"},
       {"BRPOP", "l", "0"},
       {"BLMOVE", "l", "d2", "RIGHT", "LEFT", "0"},
       {"BRPOPLPUSH", "d2", "d3", "0"},
       {"RPUSH", "l", "a", "b"},
       {"BLMPOP", "0", "1", "l", "RIGHT", "COUNT", "1"},
       {"LREM", "l", "0", "a"},
       {"RPUSH", "l", "a"},
       {"LTRIM", "l", "5", "10"}});
}

TEST_F(NotifyDifferential, SetCommands) {
  events("KEA");
  run({{"SADD", "s", "a", "b", "c", "1"},
       {"SADD", "s", "a"},
       {"SREM", "s", "nope"},
       {"SREM", "s", "a", "nope"},
       {"SMOVE", "s", "t", "b"},
       {"SMOVE", "s", "t", "nope"},
       {"SADD", "t", "c"},
       {"SMOVE", "s", "t", "c"},
       {"SMOVE", "s", "t", "1"},
       {"SPOP", "missing"},
       {"SADD", "one", "a"},  // one member each: SPOP draws at random, the fake does not
       {"SPOP", "one"},
       {"SADD", "one", "a", "b"},
       {"SPOP", "one", "0"},
       {"SREM", "one", "a"},
       {"SPOP", "one", "1"},
       {"SADD", "u", "1", "2", "3"},
       {"SPOP", "u", "10"},
       {"SADD", "a", "1", "2", "3"},
       {"SADD", "b", "2", "3", "4"},
       {"SINTERSTORE", "dst", "a", "b"},
       {"SINTERSTORE", "dst", "a", "missing"},
       {"SINTERSTORE", "dst", "a", "missing"},
       {"SUNIONSTORE", "dst", "a", "b"},
       {"SDIFFSTORE", "dst", "a", "b"},
       {"SDIFFSTORE", "dst", "a", "a"},
       {"SREM", "a", "1", "2", "3"}});
}

TEST_F(NotifyDifferential, SortedSetCommands) {
  events("KEA");
  run({{"ZADD", "z", "1", "a", "2", "b", "3", "c"},
       {"ZADD", "z", "1", "a"},
       {"ZADD", "z", "NX", "5", "a"},
       {"ZADD", "z", "XX", "CH", "5", "a"},
       {"ZADD", "missing", "XX", "1", "a"},
       {"ZADD", "z", "INCR", "1", "a"},
       {"ZINCRBY", "z", "2", "d"},
       {"ZREM", "z", "nope"},
       {"ZREM", "z", "d"},
       {"ZADD", "z", "4", "e", "5", "f", "6", "g"},
       {"ZREMRANGEBYRANK", "z", "0", "0"},
       {"ZREMRANGEBYRANK", "z", "100", "200"},
       {"ZREMRANGEBYSCORE", "z", "-inf", "3"},
       {"ZADD", "lex", "0", "a", "0", "b", "0", "c"},
       {"ZREMRANGEBYLEX", "lex", "[a", "[b"},
       {"ZREMRANGEBYLEX", "lex", "-", "+"},
       {"ZPOPMIN", "z"},
       {"ZPOPMAX", "z", "2"},
       {"ZPOPMIN", "z", "0"},
       {"ZADD", "z", "1", "a", "2", "b", "3", "c"},
       {"ZMPOP", "2", "missing", "z", "MAX", "COUNT", "2"},
       {"BZPOPMIN", "z", "0"},
       {"ZADD", "z", "1", "a", "2", "b", "3", "c"},
       {"BZMPOP", "0", "1", "z", "MIN"},
       {"BZPOPMAX", "missing", "z", "0"},
       {"ZRANGESTORE", "dst", "z", "0", "-1"},
       {"ZRANGESTORE", "dst", "z", "5", "10"},
       {"ZRANGESTORE", "dst", "z", "5", "10"},
       {"ZADD", "y", "1", "a", "5", "q"},
       {"ZUNIONSTORE", "dst", "2", "z", "y"},
       {"ZINTERSTORE", "dst", "2", "z", "y"},
       {"ZDIFFSTORE", "dst", "2", "z", "y"},
       {"ZDIFFSTORE", "dst", "2", "y", "y"},
       {"ZREM", "y", "a", "q"}});
}

TEST_F(NotifyDifferential, HashCommands) {
  events("KEA");
  run({{"HSET", "h", "a", "1", "b", "2"},
       {"HSET", "h", "a", "1"},
       {"HMSET", "h", "c", "3"},
       {"HSETNX", "h", "a", "9"},
       {"HSETNX", "h", "z", "9"},
       {"HSETNX", "new", "z", "9"},
       {"HINCRBY", "h", "a", "10"},
       {"HINCRBY", "h", "a", "x"},
       {"HINCRBYFLOAT", "h", "f", "1.5"},
       {"HDEL", "h", "nope"},
       {"HDEL", "h", "a", "nope"},
       {"HDEL", "new", "z"},
       {"HDEL", "h", "b", "c", "z", "f"}});
}

TEST_F(NotifyDifferential, SortStore) {
  events("KEA");
  run({{"RPUSH", "l", "3", "1", "2"},
       {"SORT", "l"},
       {"SORT", "l", "STORE", "dst"},
       {"SORT", "missing", "STORE", "dst"},
       {"SORT", "missing", "STORE", "dst"}});
}

// Class n: dbAdd's "new", for a key that did not exist only, ahead of what the command did to it.
TEST_F(NotifyDifferential, NewKeys) {
  events("KEAn");
  run({{"SET", "foo", "bar"},
       {"SET", "foo", "baz"},
       {"RPUSH", "l", "a"},
       {"RPUSH", "l", "b"},
       {"LMOVE", "l", "m", "LEFT", "LEFT"},
       {"RENAME", "m", "n"},
       {"COPY", "n", "o"},
       {"SADD", "s", "x"},
       {"SMOVE", "s", "t", "x"},
       {"ZADD", "z", "1", "a"},
       {"HSET", "h", "f", "v"},
       {"SETBIT", "b", "1", "1"},
       {"INCR", "i"},
       {"INCRBYFLOAT", "fl", "1"},
       {"SUNIONSTORE", "u", "t"},
       {"SUNIONSTORE", "u", "t"}});
  events("En");
  const std::vector<Message> seen = run({{"SET", "p", "1"}, {"SET", "p", "2"}, {"SET", "q", "1"}});
  EXPECT_EQ(seen, (std::vector<Message>{{"__keyevent@0__:new", "p"}, {"__keyevent@0__:new", "q"}}));
}

// Only the classes asked for, on only the channels asked for.
TEST_F(NotifyDifferential, ClassesMaskEvents) {
  const std::vector<std::vector<std::string>> commands{
      {"SET", "k", "v", "PX", "100000"}, {"LPUSH", "l", "a"}, {"RPOP", "l"},       {"SADD", "s", "a"},
      {"ZADD", "z", "1", "a"},           {"HSET", "h", "f", "v"}, {"DEL", "s", "z"}, {"EXPIRE", "h", "-1"}};
  for (const char* classes : {"KEl", "Kg", "E$", "Ks", "Ez", "Kh", "A", "KEx", "KEgn", "K", "E", "Kzl$"}) {
    SCOPED_TRACE(classes);
    events(classes);
    run(commands);
    expect_same({"FLUSHALL"});
    expect_same_notifications();
  }
}

// An expired key deleted by the command that looked it up: "expired" (class x), then the command's own.
TEST_F(NotifyDifferential, LazyExpiryAnnouncesExpired) {
  events("KEA");
  run({{"SET", "k", "v", "PX", "1"}, {"RPUSH", "l", "a"}, {"PEXPIRE", "l", "1"}});
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const std::vector<Message> seen = run({{"GET", "k"}, {"LPUSH", "l", "b"}, {"GET", "k"}});
  const std::vector<Message> expected{{"__keyspace@0__:k", "expired"},  {"__keyevent@0__:expired", "k"},
                                      {"__keyspace@0__:l", "expired"},  {"__keyevent@0__:expired", "l"},
                                      {"__keyspace@0__:l", "lpush"},    {"__keyevent@0__:lpush", "l"}};
  EXPECT_EQ(seen, expected);
}

// Commands run by scripts and transactions notify as they run, in the script's or client's db.
TEST_F(NotifyDifferential, ScriptsAndTransactions) {
  events("KEA");
  run({{"EVAL", "redis.call('set', KEYS[1], 'v'); redis.call('select', 2); return redis.call('del', KEYS[1])", "1",
        "k"},
       {"MULTI"},
       {"SET", "a", "1"},
       {"RPUSH", "b", "x"},
       {"EXEC"},
       {"SELECT", "7"},
       {"SET", "in7", "v"},
       {"SELECT", "0"}});
}

}  // namespace
}  // namespace locksim::test

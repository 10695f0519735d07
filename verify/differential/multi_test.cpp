// Differential: MULTI / EXEC / DISCARD / WATCH / UNWATCH (cmd_multi.cpp and the dispatcher's
// queuing), with a second client where a WATCH needs someone else to touch a key.
#include <chrono>
#include <thread>

#include "verify/support/differential.hpp"

namespace locksim::test {
namespace {

using Argv = std::vector<std::string>;

class MultiDifferential : public Differential {
 protected:
  // WATCH `key` here, `touch` from `other`, then a transaction reading the key: both sides must
  // agree on whether it ran (an array) or the WATCH broke (nil).
  void expect_same_watch(Connection& other, const std::string& key, const Argv& touch) {
    SCOPED_TRACE("WATCH " + key + ", then " + touch[0]);
    expect_same({"WATCH", key});
    expect_same(other, touch);
    expect_same({"MULTI"});
    expect_same({"EXISTS", key});
    expect_same({"EXEC"});
  }

  static void sleep_ms(int ms) { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); }
};

TEST_F(MultiDifferential, QueueAndExec) {
  expect_same({"MULTI"});
  expect_same({"SET", "k", "1"});
  expect_same({"INCR", "k"});
  expect_same({"GET", "k"});
  expect_same({"HSET", "h", "f", "v"});
  expect_same({"HGETALL", "h"});
  expect_same({"EXEC"});
  expect_same({"GET", "k"});
  expect_same({"MULTI"});
  expect_same({"EXEC"});
  expect_same({"multi"});
  expect_same({"ping"});
  expect_same({"echo", "x"});
  expect_same({"exec"});
}

TEST_F(MultiDifferential, Misuse) {
  expect_same({"EXEC"});
  expect_same({"DISCARD"});
  expect_same({"UNWATCH"});
  expect_same({"MULTI", "x"});
  expect_same({"DISCARD", "x"});
  expect_same({"UNWATCH", "x"});
  expect_same({"WATCH"});
  expect_same({"EXEC", "x"});
  expect_same({"MULTI"});
  expect_same({"MULTI"});
  expect_same({"WATCH", "k"});
  expect_same({"SET", "k", "v"});
  expect_same({"EXEC"});  // neither refusal spoiled it
  expect_same({"MULTI"});
  expect_same({"SET", "k", "v2"});
  expect_same({"DISCARD"});
  expect_same({"GET", "k"});
  expect_same({"DISCARD"});
}

TEST_F(MultiDifferential, RefusedWhileQueuing) {
  const std::vector<Argv> refused = {
      {"NOSUCH", "x"},
      {"GET"},
      {"ZADD", "z"},
      {"SCRIPT", "BOGUS"},
      {"SCRIPT", "LOAD"},
      {"SCRIPT", "EXISTS"},
      {"script", "kill", "x"},
      {"DISCARD", "x"},
      {"MULTI", "x"},
      {"EVAL", "return 1"},
      {"SELECT"},
  };
  for (const Argv& command : refused) {
    SCOPED_TRACE(command[0]);
    expect_same({"MULTI"});
    expect_same({"SET", "k", "v"});
    expect_same(command);
    expect_same({"SET", "k2", "v"});
    expect_same({"EXEC"});
    expect_same({"EXISTS", "k", "k2"});
  }
  expect_same({"MULTI"});
  expect_same({"SET", "k", "v"});
  expect_same({"EXEC", "x"});  // EXEC refused aborts, saying why
  expect_same({"EXEC"});
  expect_same({"EXISTS", "k"});
}

TEST_F(MultiDifferential, RuntimeErrorsAreRepliesOfTheirOwn) {
  expect_same({"SET", "s", "text"});
  expect_same({"MULTI"});
  expect_same({"INCR", "s"});
  expect_same({"LPUSH", "s", "x"});
  expect_same({"SET", "n", "1"});
  expect_same({"INCR", "n"});
  expect_same({"SET", "k", "v", "EX", "0"});
  expect_same({"EXPIRE", "n", "10", "NX", "XX"});
  expect_same({"SCRIPT", "FLUSH", "x", "y"});
  expect_same({"SELECT", "16"});
  expect_same({"EVALSHA", std::string(40, 'a'), "0"});
  expect_same({"EXEC"});
  expect_same({"GET", "n"});
}

TEST_F(MultiDifferential, ScriptsInsideATransaction) {
  expect_same({"MULTI"});
  expect_same({"EVAL", "redis.call('set', KEYS[1], ARGV[1]); return redis.call('get', KEYS[1])", "1", "k", "v"});
  expect_same({"EVAL", "return redis.call('nosuch')", "0"});
  expect_same({"EVAL", "return 1", "x"});
  expect_same({"EVAL", "return redis.pcall('multi')", "0"});
  expect_same({"SCRIPT", "LOAD", "return 'loaded'"});
  expect_same({"EVALSHA", "b4e1b5ad40ee7a4f2197abcd1a3e0c4b1def6b72", "0"});
  expect_same({"EXEC"});
  for (const char* command : {"multi", "exec", "discard", "unwatch"})
    expect_same({"EVAL", std::string("return redis.pcall('") + command + "')", "0"});
  expect_same({"EVAL", "return redis.pcall('watch', 'k')", "0"});
  expect_same({"EVAL", "return redis.pcall('script', 'bogus')", "0"});
  expect_same({"EVAL", "return redis.pcall('script', 'load')", "0"});
  expect_same({"EVAL", "return redis.pcall('script')", "0"});
}

TEST_F(MultiDifferential, SubscribeInsideATransaction) {
  expect_same({"MULTI"});
  expect_same({"SUBSCRIBE", "a", "b"});
  expect_same({"PING"});
  // Two commands, three replies: the array holds two, the third is read after it.
  const Reply fake = as_hiredis_reads(fake_->execute(session_, {"EXEC"}));
  std::vector<Reply> live{live_->command({"EXEC"})};
  live.push_back(live_->read_reply());
  ASSERT_EQ(fake.kind, Reply::Kind::Sequence) << locksim::describe(fake);
  ASSERT_EQ(fake.elements.size(), live.size()) << locksim::describe(fake);
  for (size_t i = 0; i < live.size(); ++i)
    EXPECT_EQ(locksim::describe(fake.elements[i]), locksim::describe(live[i])) << "reply " << i;
  expect_same({"GET", "k"});
  expect_same({"EXEC"});
  expect_same({"MULTI"});
}

TEST_F(MultiDifferential, WatchAcrossClients) {
  Connection other = connect();
  expect_same({"SET", "k", "1"});
  expect_same_watch(other, "k", {"SET", "k", "2"});
  expect_same_watch(other, "k", {"GET", "k"});
  expect_same_watch(other, "missing", {"SET", "k", "3"});
  expect_same_watch(other, "missing", {"SET", "missing", "now"});
  // The session's own write, and a WATCH taken after the touch.
  expect_same({"WATCH", "k"});
  expect_same({"SET", "k", "mine"});
  expect_same({"MULTI"});
  expect_same({"EXEC"});
  expect_same({"WATCH", "k"});
  expect_same(other, {"SET", "k", "theirs"});
  expect_same({"WATCH", "k2"});
  expect_same({"MULTI"});
  expect_same({"EXEC"});
  // UNWATCH forgets a touch; queued inside MULTI it comes too late.
  expect_same({"WATCH", "k"});
  expect_same(other, {"SET", "k", "again"});
  expect_same({"UNWATCH"});
  expect_same({"MULTI"});
  expect_same({"EXEC"});
  expect_same({"WATCH", "k"});
  expect_same(other, {"SET", "k", "again"});
  expect_same({"MULTI"});
  expect_same({"UNWATCH"});
  expect_same({"EXEC"});
  // EXEC refused for its arity takes the WATCH with it.
  expect_same({"WATCH", "k"});
  expect_same({"EXEC", "x"});
  expect_same(other, {"SET", "k", "after"});
  expect_same({"MULTI"});
  expect_same({"GET", "k"});
  expect_same({"EXEC"});
}

TEST_F(MultiDifferential, EveryWatcherOfAKeyIsTouched) {
  Connection second = connect();
  Connection third = connect();
  expect_same({"WATCH", "k", "k"});
  expect_same(second, {"WATCH", "x", "k"});
  expect_same(third, {"SET", "k", "1"});
  expect_same(second, {"MULTI"});
  expect_same(second, {"EXEC"});
  expect_same({"MULTI"});
  expect_same({"EXEC"});
}

TEST_F(MultiDifferential, WritesThatChangeNothing) {
  Connection other = connect();
  expect_same({"SET", "s", "v"});
  expect_same({"HSET", "h", "f", "v"});
  expect_same({"RPUSH", "l", "a", "b"});
  expect_same({"ZADD", "z", "1", "m"});
  const std::vector<std::pair<std::string, Argv>> cases = {
      {"s", {"SET", "s", "x", "NX"}},
      {"s", {"SET", "s", "x", "NX", "GET"}},
      {"missing", {"SET", "missing", "x", "XX"}},
      {"s", {"SETNX", "s", "x"}},
      {"s", {"INCR", "s"}},
      {"s", {"HSET", "s", "f", "v"}},
      {"h", {"HSETNX", "h", "f", "other"}},
      {"h", {"HDEL", "h", "nofield"}},
      {"h", {"HINCRBY", "h", "f", "1"}},
      {"l", {"LREM", "l", "0", "nothere"}},
      {"l", {"LPOP", "l", "0"}},
      {"l", {"LSET", "l", "5", "x"}},
      {"z", {"ZADD", "z", "1", "m"}},
      {"z", {"ZADD", "z", "GT", "0", "m"}},
      {"z", {"ZADD", "z", "XX", "1", "n"}},
      {"z", {"ZINCRBY", "z", "0", "m"}},
      {"z", {"ZREM", "z", "nomember"}},
      {"missing", {"DEL", "missing"}},
      {"s", {"EXPIRE", "s", "100", "XX"}},
      {"s", {"PERSIST", "s"}},
      {"s", {"GET", "s"}},
      {"missing", {"ZADD", "missing", "XX", "1", "m"}},
      {"missing", {"FLUSHALL"}},  // last: it empties the others' keys
  };
  for (const auto& [key, touch] : cases) expect_same_watch(other, key, touch);
}

TEST_F(MultiDifferential, WritesThatStoreTheSameBytes) {
  Connection other = connect();
  expect_same({"SET", "s", "v"});
  expect_same({"SET", "n", "5"});
  expect_same({"HSET", "h", "f", "1"});
  expect_same({"RPUSH", "l", "a"});
  const std::vector<std::pair<std::string, Argv>> cases = {
      {"s", {"SET", "s", "v"}},
      {"s", {"SET", "s", "v", "XX", "KEEPTTL"}},
      {"s", {"APPEND", "s", ""}},
      {"n", {"INCRBY", "n", "0"}},
      {"n", {"DECRBY", "n", "0"}},
      {"h", {"HSET", "h", "f", "1"}},
      {"h", {"HINCRBY", "h", "f", "0"}},
      {"l", {"LSET", "l", "0", "a"}},
      {"s", {"PEXPIREAT", "s", "9999999999999"}},
      {"s", {"PEXPIREAT", "s", "9999999999999"}},
      {"s", {"PERSIST", "s"}},
  };
  for (const auto& [key, touch] : cases) expect_same_watch(other, key, touch);
}

TEST_F(MultiDifferential, EditsInPlace) {
  Connection other = connect();
  expect_same({"HSET", "h", "f", "v"});
  expect_same({"RPUSH", "l", "a", "b", "c"});
  expect_same({"ZADD", "z", "1", "m", "2", "n"});
  const std::vector<std::pair<std::string, Argv>> cases = {
      {"h", {"HSETNX", "h", "g", "v"}},
      {"h", {"HDEL", "h", "g"}},
      {"l", {"RPUSH", "l", "d"}},
      {"l", {"LPOP", "l"}},
      {"l", {"RPOP", "l", "2"}},
      {"l", {"LREM", "l", "1", "b"}},
      {"z", {"ZADD", "z", "3", "m"}},
      {"z", {"ZADD", "z", "CH", "INCR", "1", "m"}},
      {"z", {"ZINCRBY", "z", "1", "n"}},
      {"z", {"ZREM", "z", "n"}},
      {"z", {"EVAL", "return redis.call('zadd', KEYS[1], 9, 'm')", "1", "z"}},
      {"z", {"EVAL", "return redis.call('zadd', KEYS[1], 9, 'm')", "1", "z"}},
      {"h", {"HDEL", "h", "f"}},
      {"z", {"DEL", "z"}},
      {"l", {"EXPIRE", "l", "-1"}},
  };
  for (const auto& [key, touch] : cases) expect_same_watch(other, key, touch);
}

TEST_F(MultiDifferential, WatchedKeysThatExpire) {
  // Expired keys stay stored until someone looks, on both sides: Differential stops the live
  // server's active cycle for every suite.
  Connection other = connect();
  // Alive when watched, expired (still stored) at EXEC.
  expect_same({"SET", "k", "v", "PX", "100"});
  expect_same({"WATCH", "k"});
  expect_same({"MULTI"});
  expect_same({"GET", "k"});
  sleep_ms(200);
  expect_same({"EXEC"});
  // Already expired when watched: staying expired, or being deleted, is no change.
  expect_same({"SET", "k", "v", "PX", "50"});
  sleep_ms(100);
  expect_same_watch(other, "k", {"PING"});
  expect_same({"SET", "k", "v", "PX", "50"});
  sleep_ms(100);
  expect_same_watch(other, "k", {"GET", "k"});
  expect_same({"SET", "k", "v", "PX", "50"});
  sleep_ms(100);
  expect_same_watch(other, "k", {"FLUSHALL"});
  expect_same({"SET", "k", "v", "PX", "50"});
  sleep_ms(100);
  expect_same_watch(other, "k", {"FLUSHDB", "SYNC"});
  // Stored again, it changed.
  expect_same({"SET", "k", "v", "PX", "50"});
  sleep_ms(100);
  expect_same_watch(other, "k", {"SET", "k", "new"});
  expect_same({"SET", "k", "v", "PX", "50"});
  sleep_ms(100);
  expect_same({"WATCH", "k"});
  expect_same(other, {"EXISTS", "k"});
  expect_same(other, {"SET", "k", "again"});
  expect_same({"MULTI"});
  expect_same({"EXEC"});
}

TEST_F(MultiDifferential, FlushesSwapsAndMoves) {
  Connection other = connect();
  expect_same({"SET", "k", "1"});
  expect_same_watch(other, "k", {"FLUSHALL"});
  expect_same({"SET", "k", "1"});
  expect_same_watch(other, "k", {"FLUSHDB"});
  expect_same({"SET", "k", "1"});
  expect_same_watch(other, "missing", {"FLUSHDB", "ASYNC"});
  expect_same({"SET", "k", "1"});
  expect_same_watch(other, "k", {"SWAPDB", "0", "1"});
  expect_same_watch(other, "k", {"SWAPDB", "1", "0"});
  expect_same_watch(other, "nokey", {"SWAPDB", "0", "1"});
  expect_same_watch(other, "k", {"SWAPDB", "0", "0"});
  expect_same({"SWAPDB", "0", "1"});
  expect_same_watch(other, "k", {"MOVE", "k", "2"});
  expect_same({"SELECT", "2"});
  expect_same(other, {"SET", "k", "0"});
  expect_same_watch(other, "k", {"MOVE", "k", "2"});
  // The other client flushes another db: this one's WATCH holds.
  expect_same({"SELECT", "0"});
  expect_same({"SET", "k", "1"});
  expect_same(other, {"SELECT", "5"});
  expect_same(other, {"SET", "k", "5"});
  expect_same_watch(other, "k", {"FLUSHDB"});
  expect_same_watch(other, "k", {"SET", "k", "5"});
}

TEST_F(MultiDifferential, WatchesBelongToADb) {
  Connection other = connect();
  expect_same({"SELECT", "1"});
  expect_same({"WATCH", "k"});
  expect_same({"SELECT", "0"});
  expect_same(other, {"SELECT", "1"});
  expect_same(other, {"SET", "k", "x"});
  expect_same({"MULTI"});
  expect_same({"GET", "k"});
  expect_same({"EXEC"});
}

TEST_F(MultiDifferential, ClosingAConnectionEndsItsTransaction) {
  {
    Connection leaving = connect();
    expect_same(leaving, {"WATCH", "k"});
    expect_same(leaving, {"MULTI"});
    expect_same(leaving, {"SET", "k", "never"});
    fake_->close_session(leaving.fake);
  }
  Connection other = connect();
  expect_same_watch(other, "k", {"SET", "k", "1"});
  expect_same({"GET", "k"});
}

}  // namespace
}  // namespace locksim::test

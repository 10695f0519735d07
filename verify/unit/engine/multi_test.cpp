// Unit: MULTI / EXEC / DISCARD / WATCH / UNWATCH (cmd_multi.cpp, the dispatcher's queuing in
// engine.cpp, the keyspace's WATCH registry) on a manual clock. Every expectation here was seen on
// redis-server 7.0.15 (but ExecRunsAtOneInstant's PTTL: see there); verify/differential/multi_test.cpp
// checks the same against a live server.
#include "verify/unit/engine/engine_harness.hpp"

namespace locksim::engine {
namespace {

class MultiTest : public EngineTest {
 protected:
  Reply other(std::initializer_list<std::string_view> argv) { return engine_.execute(other_, argv); }
  static Reply queued() { return Reply::status("QUEUED"); }
  static Reply array(std::vector<Reply> items) { return Reply::array(std::move(items)); }

  // WATCH key on this session, `touch` on the other one, then an empty transaction: true when the
  // EXEC ran (the WATCH held), false when it answered nil.
  bool watch_survives(std::string_view key, std::initializer_list<std::string_view> touch) {
    EXPECT_EQ(run({"WATCH", key}), Reply::ok());
    other(touch);
    EXPECT_EQ(run({"MULTI"}), Reply::ok());
    const Reply exec = run({"EXEC"});
    EXPECT_TRUE(exec == Reply::nil_array() || exec == Reply::array()) << describe(exec);
    return exec == Reply::array();
  }

  SessionId other_ = engine_.open_session();
};

constexpr std::string_view kExecAbort = "EXECABORT Transaction discarded because of previous errors.";

TEST_F(MultiTest, QueuedCommandsRunAtExecInOrder) {
  EXPECT_EQ(run({"MULTI"}), Reply::ok());
  EXPECT_EQ(run({"SET", "k", "1"}), queued());
  EXPECT_EQ(run({"INCR", "k"}), queued());
  EXPECT_EQ(run({"GET", "k"}), queued());
  EXPECT_EQ(other({"GET", "k"}), Reply::nil());  // nothing ran yet
  EXPECT_EQ(run({"EXEC"}), array({Reply::ok(), integer(2), bulk("2")}));
  EXPECT_EQ(run({"GET", "k"}), bulk("2"));
  EXPECT_EQ(run({"EXEC"}), error("ERR EXEC without MULTI"));
}

TEST_F(MultiTest, AnEmptyTransactionAnswersAnEmptyArray) {
  EXPECT_EQ(run({"MULTI"}), Reply::ok());
  EXPECT_EQ(run({"EXEC"}), Reply::array());
}

TEST_F(MultiTest, MisuseIsAnsweredWithRedisTexts) {
  EXPECT_EQ(run({"EXEC"}), error("ERR EXEC without MULTI"));
  EXPECT_EQ(run({"DISCARD"}), error("ERR DISCARD without MULTI"));
  EXPECT_EQ(run({"MULTI", "x"}), error("ERR wrong number of arguments for 'multi' command"));
  EXPECT_EQ(run({"UNWATCH", "x"}), error("ERR wrong number of arguments for 'unwatch' command"));
  EXPECT_EQ(run({"WATCH"}), error("ERR wrong number of arguments for 'watch' command"));
  // EXEC refused for its arity is an aborted transaction, even with none open.
  EXPECT_EQ(run({"EXEC", "x"}),
            error("EXECABORT Transaction discarded because of: wrong number of arguments for 'exec' command"));
}

TEST_F(MultiTest, NestedMultiAndWatchInsideMultiAreRefusedWithoutSpoilingTheTransaction) {
  EXPECT_EQ(run({"MULTI"}), Reply::ok());
  EXPECT_EQ(run({"MULTI"}), error("ERR MULTI calls can not be nested"));
  EXPECT_EQ(run({"WATCH", "k"}), error("ERR WATCH inside MULTI is not allowed"));
  EXPECT_EQ(run({"SET", "k", "v"}), queued());
  EXPECT_EQ(run({"EXEC"}), array({Reply::ok()}));
}

TEST_F(MultiTest, DiscardDropsTheQueue) {
  EXPECT_EQ(run({"MULTI"}), Reply::ok());
  EXPECT_EQ(run({"SET", "k", "v"}), queued());
  EXPECT_EQ(run({"DISCARD"}), Reply::ok());
  EXPECT_EQ(run({"GET", "k"}), Reply::nil());
  EXPECT_EQ(run({"EXEC"}), error("ERR EXEC without MULTI"));
}

TEST_F(MultiTest, ACommandRefusedWhileQueuingAbortsTheExec) {
  const std::vector<std::vector<std::string>> refused = {
      {"NOSUCH", "x"}, {"GET"}, {"SCRIPT", "BOGUS"}, {"SCRIPT", "LOAD"}, {"DISCARD", "x"}, {"MULTI", "x"},
  };
  const std::vector<std::string> errors = {
      "ERR unknown command 'NOSUCH', with args beginning with: 'x' ",
      "ERR wrong number of arguments for 'get' command",
      "ERR unknown subcommand 'BOGUS'. Try SCRIPT HELP.",
      "ERR wrong number of arguments for 'script|load' command",
      "ERR wrong number of arguments for 'discard' command",
      "ERR wrong number of arguments for 'multi' command",
  };
  for (size_t i = 0; i < refused.size(); ++i) {
    SCOPED_TRACE(refused[i][0]);
    EXPECT_EQ(run({"MULTI"}), Reply::ok());
    EXPECT_EQ(run({"SET", "k", "v"}), queued());
    EXPECT_EQ(engine_.execute(session_, refused[i]), error(errors[i]));
    EXPECT_EQ(run({"SET", "k2", "v"}), queued());
    EXPECT_EQ(run({"EXEC"}), error(kExecAbort));
    EXPECT_EQ(run({"EXISTS", "k", "k2"}), integer(0));
  }
}

TEST_F(MultiTest, ExecRefusedForItsArityEndsTheTransaction) {
  EXPECT_EQ(run({"MULTI"}), Reply::ok());
  EXPECT_EQ(run({"SET", "k", "v"}), queued());
  EXPECT_EQ(run({"EXEC", "x"}),
            error("EXECABORT Transaction discarded because of: wrong number of arguments for 'exec' command"));
  EXPECT_EQ(run({"GET", "k"}), Reply::nil());
  EXPECT_EQ(run({"EXEC"}), error("ERR EXEC without MULTI"));
}

TEST_F(MultiTest, RuntimeErrorsAreRepliesOfTheirOwnAndTheRestRuns) {
  run({"SET", "s", "text"});
  EXPECT_EQ(run({"MULTI"}), Reply::ok());
  EXPECT_EQ(run({"INCR", "s"}), queued());
  EXPECT_EQ(run({"LPUSH", "s", "x"}), queued());
  EXPECT_EQ(run({"SET", "n", "1"}), queued());
  EXPECT_EQ(run({"INCR", "n"}), queued());
  EXPECT_EQ(run({"SCRIPT", "FLUSH", "x", "y"}), queued());  // its option check is a runtime one
  EXPECT_EQ(run({"EXEC"}), array({error("ERR value is not an integer or out of range"), error(kWrongType), Reply::ok(),
                                  integer(2), error("ERR SCRIPT FLUSH only support SYNC|ASYNC option")}));
}

TEST_F(MultiTest, EvalRunsInsideATransaction) {
  EXPECT_EQ(run({"MULTI"}), Reply::ok());
  EXPECT_EQ(run({"EVAL", "redis.call('set', KEYS[1], ARGV[1]); return redis.call('get', KEYS[1])", "1", "k", "v"}),
            queued());
  EXPECT_EQ(run({"EVAL", "return 1", "x"}), queued());  // numkeys is checked when it runs
  EXPECT_EQ(run({"EXEC"}), array({bulk("v"), error("ERR value is not an integer or out of range")}));
}

TEST_F(MultiTest, SubscribeInsideATransactionAnswersPastTheArray) {
  EXPECT_EQ(run({"MULTI"}), Reply::ok());
  EXPECT_EQ(run({"SUBSCRIBE", "a", "b"}), queued());
  EXPECT_EQ(run({"PING"}), queued());
  // Two commands: the array holds two replies, and the third is read after it.
  const auto subscribed = [](const char* channel, int64_t n) {
    return Reply::array({Reply::bulk("subscribe"), Reply::bulk(channel), Reply::integer_of(n)});
  };
  EXPECT_EQ(run({"EXEC"}),
            Reply::sequence({array({subscribed("a", 1), subscribed("b", 2)}), Reply::array({bulk("pong"), bulk("")})}));
  EXPECT_EQ(run({"GET", "k"}), error("ERR Can't execute 'get': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / "
                                     "QUIT / RESET are allowed in this context"));
  // EXEC refused in subscriber mode aborts, naming why.
  EXPECT_EQ(run({"EXEC"}), error("EXECABORT Transaction discarded because of: Can't execute 'exec': only "
                                 "(P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this "
                                 "context"));
}

TEST_F(MultiTest, ATouchedWatchMakesExecAnswerNil) {
  run({"SET", "k", "1"});
  EXPECT_EQ(run({"WATCH", "k"}), Reply::ok());
  EXPECT_EQ(other({"SET", "k", "2"}), Reply::ok());
  EXPECT_EQ(run({"MULTI"}), Reply::ok());
  EXPECT_EQ(run({"SET", "k", "3"}), queued());
  EXPECT_EQ(run({"EXEC"}), Reply::nil_array());
  EXPECT_EQ(run({"GET", "k"}), bulk("2"));
  // The EXEC ended the transaction and the WATCH: the next one runs.
  EXPECT_EQ(run({"MULTI"}), Reply::ok());
  EXPECT_EQ(run({"SET", "k", "3"}), queued());
  EXPECT_EQ(run({"EXEC"}), array({Reply::ok()}));
}

TEST_F(MultiTest, AnUntouchedWatchLetsExecRun) {
  run({"SET", "k", "1"});
  EXPECT_EQ(run({"WATCH", "k", "missing"}), Reply::ok());
  EXPECT_EQ(other({"SET", "k2", "2"}), Reply::ok());
  EXPECT_EQ(other({"GET", "k"}), bulk("1"));
  EXPECT_EQ(run({"MULTI"}), Reply::ok());
  EXPECT_EQ(run({"INCR", "k"}), queued());
  EXPECT_EQ(run({"EXEC"}), array({integer(2)}));
}

TEST_F(MultiTest, TheSessionsOwnWriteBreaksItsWatch) {
  EXPECT_EQ(run({"WATCH", "k"}), Reply::ok());
  EXPECT_EQ(run({"SET", "k", "2"}), Reply::ok());
  EXPECT_EQ(run({"MULTI"}), Reply::ok());
  EXPECT_EQ(run({"EXEC"}), Reply::nil_array());
}

TEST_F(MultiTest, WritesThatChangeNothingLeaveAWatchAlone) {
  run({"SET", "s", "v"});
  run({"HSET", "h", "f", "v"});
  run({"RPUSH", "l", "a", "b"});
  run({"ZADD", "z", "1", "m"});
  EXPECT_TRUE(watch_survives("s", {"SET", "s", "x", "NX"}));
  EXPECT_TRUE(watch_survives("s", {"SET", "s", "x", "NX", "GET"}));
  EXPECT_TRUE(watch_survives("missing", {"SET", "missing", "x", "XX"}));
  EXPECT_TRUE(watch_survives("s", {"SETNX", "s", "x"}));
  EXPECT_TRUE(watch_survives("s", {"INCR", "s"}));            // an error
  EXPECT_TRUE(watch_survives("s", {"HSET", "s", "f", "v"}));  // WRONGTYPE
  EXPECT_TRUE(watch_survives("h", {"HSETNX", "h", "f", "other"}));
  EXPECT_TRUE(watch_survives("h", {"HDEL", "h", "nofield"}));
  EXPECT_TRUE(watch_survives("l", {"LREM", "l", "0", "nothere"}));
  EXPECT_TRUE(watch_survives("l", {"LPOP", "l", "0"}));
  EXPECT_TRUE(watch_survives("l", {"LSET", "l", "5", "x"}));  // out of range
  EXPECT_TRUE(watch_survives("z", {"ZADD", "z", "1", "m"}));
  EXPECT_TRUE(watch_survives("z", {"ZADD", "z", "GT", "0", "m"}));
  EXPECT_TRUE(watch_survives("z", {"ZINCRBY", "z", "0", "m"}));
  EXPECT_TRUE(watch_survives("z", {"ZREM", "z", "nomember"}));
  EXPECT_TRUE(watch_survives("missing", {"DEL", "missing"}));
  EXPECT_TRUE(watch_survives("s", {"EXPIRE", "s", "100", "XX"}));
  EXPECT_TRUE(watch_survives("s", {"PERSIST", "s"}));
  EXPECT_TRUE(watch_survives("missing", {"FLUSHALL"}));
  EXPECT_TRUE(watch_survives("s", {"GET", "s"}));
}

TEST_F(MultiTest, WritesThatStoreTheSameBytesStillBreakAWatch) {
  run({"SET", "s", "v"});
  run({"SET", "n", "5"});
  run({"HSET", "h", "f", "1"});
  run({"RPUSH", "l", "a"});
  EXPECT_FALSE(watch_survives("s", {"SET", "s", "v"}));
  EXPECT_FALSE(watch_survives("s", {"SET", "s", "v", "XX", "KEEPTTL"}));
  EXPECT_FALSE(watch_survives("s", {"APPEND", "s", ""}));
  EXPECT_FALSE(watch_survives("n", {"INCRBY", "n", "0"}));
  EXPECT_FALSE(watch_survives("n", {"DECRBY", "n", "0"}));
  EXPECT_FALSE(watch_survives("h", {"HSET", "h", "f", "1"}));
  EXPECT_FALSE(watch_survives("h", {"HINCRBY", "h", "f", "0"}));
  EXPECT_FALSE(watch_survives("l", {"LSET", "l", "0", "a"}));
  EXPECT_FALSE(watch_survives("s", {"PEXPIREAT", "s", "9999999999999"}));
  EXPECT_FALSE(watch_survives("s", {"PEXPIREAT", "s", "9999999999999"}));  // the same time again
  EXPECT_FALSE(watch_survives("s", {"PERSIST", "s"}));
}

TEST_F(MultiTest, EditsInPlaceBreakAWatch) {
  run({"HSET", "h", "f", "v"});
  run({"RPUSH", "l", "a", "b", "c"});
  run({"ZADD", "z", "1", "m", "2", "n"});
  EXPECT_FALSE(watch_survives("h", {"HSETNX", "h", "g", "v"}));
  EXPECT_FALSE(watch_survives("h", {"HDEL", "h", "g"}));
  EXPECT_FALSE(watch_survives("l", {"RPUSH", "l", "d"}));
  EXPECT_FALSE(watch_survives("l", {"LPOP", "l"}));
  EXPECT_FALSE(watch_survives("l", {"LREM", "l", "1", "d"}));
  EXPECT_FALSE(watch_survives("z", {"ZADD", "z", "3", "m"}));
  EXPECT_FALSE(watch_survives("z", {"ZINCRBY", "z", "1", "n"}));
  EXPECT_FALSE(watch_survives("z", {"ZREM", "z", "n"}));
  EXPECT_FALSE(watch_survives("z", {"EVAL", "return redis.call('zadd', KEYS[1], 9, 'm')", "1", "z"}));
  EXPECT_FALSE(watch_survives("l", {"DEL", "l"}));
  EXPECT_FALSE(watch_survives("h", {"HDEL", "h", "f"}));  // the last field: the key goes
}

TEST_F(MultiTest, AWatchedKeyThatExpiresBeforeExecBreaksTheWatch) {
  run({"SET", "k", "v", "PX", "100"});
  EXPECT_EQ(run({"WATCH", "k"}), Reply::ok());
  EXPECT_EQ(run({"MULTI"}), Reply::ok());
  EXPECT_EQ(run({"GET", "k"}), queued());
  host_.advance_ms(101);  // nobody deletes it: EXEC sees it expired
  EXPECT_TRUE(stored("k"));
  EXPECT_EQ(run({"EXEC"}), Reply::nil_array());
}

TEST_F(MultiTest, AWatchedKeyThatTheActiveCycleExpiresBreaksTheWatch) {
  run({"SET", "k", "v", "PX", "100"});
  EXPECT_EQ(run({"WATCH", "k"}), Reply::ok());
  host_.advance_ms(101);
  EXPECT_EQ(engine_.active_expire(), 1u);
  EXPECT_EQ(run({"MULTI"}), Reply::ok());
  EXPECT_EQ(run({"EXEC"}), Reply::nil_array());
}

TEST_F(MultiTest, AKeyAlreadyExpiredWhenWatchedIsAMissingKey) {
  run({"SET", "k", "v", "PX", "50"});
  host_.advance_ms(100);
  EXPECT_TRUE(stored("k"));
  // Still stored, never looked at: the WATCH remembers it was expired, and its staying so is no change.
  EXPECT_EQ(run({"WATCH", "k"}), Reply::ok());
  EXPECT_EQ(run({"MULTI"}), Reply::ok());
  EXPECT_EQ(run({"GET", "k"}), queued());
  EXPECT_EQ(run({"EXEC"}), array({Reply::nil()}));
}

TEST_F(MultiTest, AnExpiredWatchedKeyDeletedLaterIsNoChangeButStoredAgainIsOne) {
  const auto expired_key = [this] {
    run({"SET", "k", "v", "PX", "50"});
    host_.advance_ms(100);
  };
  expired_key();
  EXPECT_TRUE(watch_survives("k", {"GET", "k"}));  // lazily deleted
  expired_key();
  EXPECT_TRUE(watch_survives("k", {"FLUSHALL"}));
  expired_key();
  EXPECT_TRUE(watch_survives("k", {"FLUSHDB"}));
  expired_key();
  EXPECT_FALSE(watch_survives("k", {"SET", "k", "new"}));  // deleted, then stored
  expired_key();
  EXPECT_EQ(run({"WATCH", "k"}), Reply::ok());
  EXPECT_EQ(other({"EXISTS", "k"}), integer(0));
  EXPECT_EQ(other({"SET", "k", "again"}), Reply::ok());
  EXPECT_EQ(run({"MULTI"}), Reply::ok());
  EXPECT_EQ(run({"EXEC"}), Reply::nil_array());
}

// The host's clock is read once for the whole EXEC, as for a script. Redis 7.0 freezes the time its
// expiry checks use for the EXEC too, but reads the real clock for PTTL (and TTL, TIME, EXPIRE's base),
// which answers 0 here after the sleep: docs/fidelity.md, Known differences.
TEST_F(MultiTest, ExecRunsAtOneInstant) {
  run({"SET", "k", "v", "PX", "500"});
  EXPECT_EQ(run({"MULTI"}), Reply::ok());
  EXPECT_EQ(run({"DEBUG", "SLEEP", "1"}), queued());
  EXPECT_EQ(run({"GET", "k"}), queued());
  EXPECT_EQ(run({"PTTL", "k"}), queued());
  EXPECT_EQ(run({"EXEC"}), array({Reply::ok(), bulk("v"), integer(500)}));
  EXPECT_EQ(run({"GET", "k"}), Reply::nil());  // the host's clock did move
}

TEST_F(MultiTest, FlushesBreakTheWatchesOfStoredKeysOnly) {
  run({"SET", "k", "1"});
  EXPECT_FALSE(watch_survives("k", {"FLUSHALL"}));
  run({"SET", "k", "1"});
  EXPECT_FALSE(watch_survives("k", {"FLUSHDB"}));
  run({"SET", "k", "1"});
  EXPECT_TRUE(watch_survives("missing", {"FLUSHDB"}));
}

TEST_F(MultiTest, WatchesBelongToADb) {
  run({"SET", "k", "1"});
  EXPECT_EQ(run({"WATCH", "k"}), Reply::ok());
  EXPECT_EQ(other({"SELECT", "1"}), Reply::ok());
  EXPECT_EQ(other({"SET", "k", "2"}), Reply::ok());  // another db's k
  EXPECT_EQ(other({"FLUSHDB"}), Reply::ok());
  EXPECT_EQ(run({"MULTI"}), Reply::ok());
  EXPECT_EQ(run({"GET", "k"}), queued());
  EXPECT_EQ(run({"EXEC"}), array({bulk("1")}));

  // Watched in db 1, then the session moves on: the WATCH stays with db 1.
  EXPECT_EQ(run({"SELECT", "1"}), Reply::ok());
  EXPECT_EQ(run({"WATCH", "k"}), Reply::ok());
  EXPECT_EQ(run({"SELECT", "0"}), Reply::ok());
  EXPECT_EQ(other({"SET", "k", "3"}), Reply::ok());
  EXPECT_EQ(run({"MULTI"}), Reply::ok());
  EXPECT_EQ(run({"EXEC"}), Reply::nil_array());
}

TEST_F(MultiTest, SwapdbAndMoveBreakTheWatchesTheyReach) {
  run({"SET", "k", "1"});
  EXPECT_FALSE(watch_survives("k", {"SWAPDB", "0", "1"}));  // k went to db 1
  EXPECT_FALSE(watch_survives("k", {"SWAPDB", "0", "1"}));  // and came back
  EXPECT_TRUE(watch_survives("nokey", {"SWAPDB", "0", "1"}));
  EXPECT_TRUE(watch_survives("k", {"SWAPDB", "0", "0"}));
  run({"SWAPDB", "0", "1"});
  EXPECT_EQ(run({"GET", "k"}), bulk("1"));
  EXPECT_FALSE(watch_survives("k", {"MOVE", "k", "2"}));
  EXPECT_EQ(run({"SELECT", "2"}), Reply::ok());
  EXPECT_EQ(other({"SET", "k", "0"}), Reply::ok());
  EXPECT_TRUE(watch_survives("k", {"MOVE", "k", "2"}));  // present there: nothing moves
}

TEST_F(MultiTest, UnwatchForgetsATouchedWatch) {
  EXPECT_EQ(run({"WATCH", "k"}), Reply::ok());
  EXPECT_EQ(other({"SET", "k", "1"}), Reply::ok());
  EXPECT_EQ(run({"UNWATCH"}), Reply::ok());
  EXPECT_EQ(run({"MULTI"}), Reply::ok());
  EXPECT_EQ(run({"EXEC"}), Reply::array());
}

TEST_F(MultiTest, UnwatchInsideMultiIsQueuedAndTooLate) {
  EXPECT_EQ(run({"WATCH", "k"}), Reply::ok());
  EXPECT_EQ(other({"SET", "k", "1"}), Reply::ok());
  EXPECT_EQ(run({"MULTI"}), Reply::ok());
  EXPECT_EQ(run({"UNWATCH"}), queued());
  EXPECT_EQ(run({"EXEC"}), Reply::nil_array());
}

TEST_F(MultiTest, WatchingMoreAfterATouchChangesNothing) {
  EXPECT_EQ(run({"WATCH", "k"}), Reply::ok());
  EXPECT_EQ(other({"SET", "k", "1"}), Reply::ok());
  EXPECT_EQ(run({"WATCH", "k2"}), Reply::ok());
  EXPECT_EQ(run({"MULTI"}), Reply::ok());
  EXPECT_EQ(run({"EXEC"}), Reply::nil_array());
}

TEST_F(MultiTest, EveryWatcherOfAKeyIsTouched) {
  const SessionId third = engine_.open_session();
  EXPECT_EQ(run({"WATCH", "k", "k"}), Reply::ok());
  EXPECT_EQ(engine_.execute(third, {"WATCH", "x", "k"}), Reply::ok());
  EXPECT_EQ(other({"SET", "k", "1"}), Reply::ok());
  for (SessionId s : {session_, third}) {
    EXPECT_EQ(engine_.execute(s, {"MULTI"}), Reply::ok());
    EXPECT_EQ(engine_.execute(s, {"EXEC"}), Reply::nil_array());
  }
}

TEST_F(MultiTest, ClosingASessionEndsItsTransactionAndWatches) {
  const SessionId third = engine_.open_session();
  EXPECT_EQ(engine_.execute(third, {"WATCH", "k"}), Reply::ok());
  EXPECT_EQ(engine_.execute(third, {"MULTI"}), Reply::ok());
  EXPECT_EQ(engine_.execute(third, {"SET", "k", "from-third"}), queued());
  engine_.close_session(third);
  EXPECT_EQ(run({"WATCH", "k"}), Reply::ok());
  EXPECT_EQ(other({"SET", "k", "1"}), Reply::ok());  // touches only what is still watched
  EXPECT_EQ(run({"MULTI"}), Reply::ok());
  EXPECT_EQ(run({"EXEC"}), Reply::nil_array());
  EXPECT_EQ(run({"GET", "k"}), bulk("1"));
}

TEST_F(MultiTest, TransactionCommandsAreRefusedInScripts) {
  for (const char* command : {"multi", "exec", "discard", "unwatch"}) {
    EXPECT_EQ(run({"EVAL", std::string("return redis.pcall('") + command + "')", "0"}),
              error("ERR This Redis command is not allowed from script"))
        << command;
  }
  EXPECT_EQ(run({"EVAL", "return redis.pcall('watch', 'k')", "0"}),
            error("ERR This Redis command is not allowed from script"));
  EXPECT_EQ(run({"EVAL", "return redis.pcall('script', 'bogus')", "0"}),
            error("ERR Unknown Redis command called from script"));
  EXPECT_EQ(run({"EVAL", "return redis.pcall('script', 'load')", "0"}),
            error("ERR Wrong number of args calling Redis command from script"));
}

TEST_F(MultiTest, QueuingReportsNoKeyEvents) {
  take_events();
  EXPECT_EQ(run({"MULTI"}), Reply::ok());
  EXPECT_EQ(run({"SET", "k", "v", "PX", "100"}), queued());
  EXPECT_TRUE(take_events().empty());
  EXPECT_EQ(run({"EXEC"}), array({Reply::ok()}));
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Created, "k", kNoExpire},
                                                       {KeyEvent::ExpireSet, "k", kStartMs + 100}}));
}

}  // namespace
}  // namespace locksim::engine

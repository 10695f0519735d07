// Unit: the 16 databases (cmd_db.cpp, keyspace.hpp's Databases): SELECT, SWAPDB, MOVE, FLUSHDB,
// FLUSHALL, DBSIZE, the db a script runs in, and which key events reach the host (db 0's only).
// The replies were seen on redis-server 7.0.15; verify/differential/db_test.cpp checks them live.
#include "verify/unit/engine/engine_harness.hpp"

namespace locksim::engine {
namespace {

class SelectTest : public EngineTest {
 protected:
  Reply other(std::initializer_list<std::string_view> argv) { return engine_.execute(other_, argv); }
  SessionId other_ = engine_.open_session();
};

TEST_F(SelectTest, ASessionStartsInDbZeroAndEachDbHasItsOwnKeys) {
  EXPECT_EQ(run({"SET", "k", "zero"}), Reply::ok());
  EXPECT_EQ(run({"SELECT", "1"}), Reply::ok());
  EXPECT_EQ(run({"GET", "k"}), Reply::nil());
  EXPECT_EQ(run({"SET", "k", "one"}), Reply::ok());
  EXPECT_EQ(run({"SET", "only-in-one", "x"}), Reply::ok());
  EXPECT_EQ(run({"DBSIZE"}), integer(2));
  EXPECT_EQ(other({"GET", "k"}), bulk("zero"));
  EXPECT_EQ(other({"DBSIZE"}), integer(1));
  EXPECT_EQ(run({"SELECT", "15"}), Reply::ok());
  EXPECT_EQ(run({"DBSIZE"}), integer(0));
  EXPECT_EQ(run({"SELECT", "1"}), Reply::ok());
  EXPECT_EQ(run({"GET", "k"}), bulk("one"));
  // keyspace() is db 0, whatever any session selected.
  EXPECT_EQ(engine_.keyspace().size(), 1u);
  EXPECT_EQ(engine_.databases().db(1).size(), 2u);
}

TEST_F(SelectTest, SelectRefusesWhatIsNotADbIndex) {
  EXPECT_EQ(run({"SELECT", "16"}), error("ERR DB index is out of range"));
  EXPECT_EQ(run({"SELECT", "-1"}), error("ERR DB index is out of range"));
  EXPECT_EQ(run({"SELECT", "abc"}), error("ERR value is not an integer or out of range"));
  EXPECT_EQ(run({"SELECT", " 1"}), error("ERR value is not an integer or out of range"));
  EXPECT_EQ(run({"SELECT", "01"}), error("ERR value is not an integer or out of range"));
  EXPECT_EQ(run({"SELECT", "99999999999"}),
            error("ERR value is out of range, value must between -2147483648 and 2147483647"));
  EXPECT_EQ(run({"SELECT"}), error("ERR wrong number of arguments for 'select' command"));
  EXPECT_EQ(run({"SELECT", "1", "2"}), error("ERR wrong number of arguments for 'select' command"));
  EXPECT_EQ(run({"SET", "k", "v"}), Reply::ok());
  EXPECT_EQ(other({"GET", "k"}), bulk("v"));  // still db 0
}

TEST_F(SelectTest, FlushdbEmptiesTheSessionsDbAndFlushallEveryDb) {
  run({"SET", "a", "0"});
  run({"SELECT", "3"});
  run({"SET", "a", "3"});
  run({"SET", "b", "3"});
  EXPECT_EQ(run({"FLUSHDB", "bogus"}), error("ERR syntax error"));
  EXPECT_EQ(run({"FLUSHDB", "SYNC", "ASYNC"}), error("ERR syntax error"));
  EXPECT_EQ(run({"FLUSHDB", "async"}), Reply::ok());
  EXPECT_EQ(run({"DBSIZE"}), integer(0));
  EXPECT_EQ(other({"GET", "a"}), bulk("0"));
  run({"SET", "c", "3"});
  EXPECT_EQ(run({"FLUSHALL"}), Reply::ok());
  EXPECT_EQ(run({"DBSIZE"}), integer(0));
  EXPECT_EQ(other({"DBSIZE"}), integer(0));
}

TEST_F(SelectTest, SwapdbExchangesTheDataUnderEverySession) {
  run({"SET", "k", "zero"});
  EXPECT_EQ(other({"SELECT", "1"}), Reply::ok());
  EXPECT_EQ(other({"SET", "k", "one"}), Reply::ok());
  EXPECT_EQ(other({"PEXPIRE", "k", "5000"}), integer(1));
  EXPECT_EQ(run({"SWAPDB", "0", "1"}), Reply::ok());
  EXPECT_EQ(run({"GET", "k"}), bulk("one"));
  EXPECT_EQ(run({"PTTL", "k"}), integer(5000));
  EXPECT_EQ(other({"GET", "k"}), bulk("zero"));
  EXPECT_EQ(run({"SWAPDB", "1", "1"}), Reply::ok());
  EXPECT_EQ(other({"GET", "k"}), bulk("zero"));
}

TEST_F(SelectTest, SwapdbRefusesWhatIsNotADbIndex) {
  EXPECT_EQ(run({"SWAPDB", "abc", "1"}), error("ERR invalid first DB index"));
  EXPECT_EQ(run({"SWAPDB", "0", "abc"}), error("ERR invalid second DB index"));
  EXPECT_EQ(run({"SWAPDB", "99999999999", "1"}), error("ERR invalid first DB index"));
  EXPECT_EQ(run({"SWAPDB", "abc", "def"}), error("ERR invalid first DB index"));
  EXPECT_EQ(run({"SWAPDB", "0", "16"}), error("ERR DB index is out of range"));
  EXPECT_EQ(run({"SWAPDB", "-1", "0"}), error("ERR DB index is out of range"));
  EXPECT_EQ(run({"SWAPDB", "0"}), error("ERR wrong number of arguments for 'swapdb' command"));
}

TEST_F(SelectTest, MoveTakesTheKeyAndItsExpiry) {
  run({"SET", "k", "v", "PX", "5000"});
  EXPECT_EQ(run({"MOVE", "k", "2"}), integer(1));
  EXPECT_EQ(run({"EXISTS", "k"}), integer(0));
  EXPECT_EQ(run({"SELECT", "2"}), Reply::ok());
  EXPECT_EQ(run({"GET", "k"}), bulk("v"));
  EXPECT_EQ(run({"PTTL", "k"}), integer(5000));
  EXPECT_EQ(run({"MOVE", "nokey", "0"}), integer(0));
  EXPECT_EQ(other({"SET", "k", "there"}), Reply::ok());
  EXPECT_EQ(run({"MOVE", "k", "0"}), integer(0));  // present in db 0: nothing moves
  EXPECT_EQ(run({"GET", "k"}), bulk("v"));
  EXPECT_EQ(run({"MOVE", "k", "2"}), error("ERR source and destination objects are the same"));
  EXPECT_EQ(run({"MOVE", "k", "16"}), error("ERR DB index is out of range"));
  EXPECT_EQ(run({"MOVE", "k", "x"}), error("ERR value is not an integer or out of range"));
  EXPECT_EQ(run({"MOVE", "k", "-99999999999"}),
            error("ERR value is out of range, value must between -2147483648 and 2147483647"));
}

TEST_F(SelectTest, AnExpiredKeyDoesNotMove) {
  run({"SET", "k", "v", "PX", "10"});
  host_.advance_ms(11);
  EXPECT_EQ(run({"MOVE", "k", "1"}), integer(0));
  EXPECT_FALSE(stored("k"));
  EXPECT_EQ(engine_.databases().db(1).size(), 0u);
}

TEST_F(SelectTest, AScriptStartsInItsCallersDbAndItsSelectEndsWithIt) {
  run({"SELECT", "4"});
  EXPECT_EQ(run({"EVAL", "redis.call('set', 'x', 'four'); return redis.call('dbsize')", "0"}), integer(1));
  EXPECT_EQ(
      run({"EVAL", "redis.call('select', 5); redis.call('set', 'x', 'five'); return redis.call('get', 'x')", "0"}),
      bulk("five"));
  EXPECT_EQ(run({"GET", "x"}), bulk("four"));  // the session is still in db 4
  EXPECT_EQ(run({"EVAL", "return redis.call('get', 'x')", "0"}), bulk("four"));
  EXPECT_EQ(engine_.databases().db(5).size(), 1u);
  EXPECT_EQ(other({"EVAL", "return redis.call('get', 'x')", "0"}), Reply::nil());  // db 0
}

TEST_F(SelectTest, SelectInAScriptRefusesWhatIsNotADbIndex) {
  EXPECT_EQ(run({"EVAL", "return redis.pcall('select', 16)", "0"}), error("ERR DB index is out of range"));
  EXPECT_EQ(run({"EVAL", "return redis.pcall('select', 'a')", "0"}),
            error("ERR value is not an integer or out of range"));
}

TEST_F(SelectTest, ASelectInsideMultiMovesTheCommandsAfterItAndStays) {
  EXPECT_EQ(run({"MULTI"}), Reply::ok());
  EXPECT_EQ(run({"SELECT", "3"}), Reply::status("QUEUED"));
  EXPECT_EQ(run({"SET", "k", "three"}), Reply::status("QUEUED"));
  EXPECT_EQ(run({"EVAL", "return redis.call('get', 'k')", "0"}), Reply::status("QUEUED"));
  EXPECT_EQ(run({"EXEC"}), Reply::array({Reply::ok(), Reply::ok(), bulk("three")}));
  EXPECT_EQ(run({"DBSIZE"}), integer(1));
  EXPECT_EQ(other({"DBSIZE"}), integer(0));
}

TEST_F(SelectTest, ActiveExpiryCoversEveryDb) {
  run({"SET", "a", "v", "PX", "10"});
  run({"SELECT", "9"});
  run({"SET", "b", "v", "PX", "10"});
  host_.advance_ms(11);
  EXPECT_EQ(engine_.active_expire(), 2u);
  EXPECT_EQ(engine_.databases().db(9).size(), 0u);
}

TEST_F(SelectTest, OnlyDbZeroReportsKeyEvents) {
  run({"SELECT", "1"});
  take_events();
  run({"SET", "k", "v", "PX", "100"});
  run({"DEL", "k"});
  run({"SET", "k", "v", "PX", "100"});
  host_.advance_ms(101);
  run({"GET", "k"});
  run({"SET", "j", "v"});
  run({"FLUSHALL"});
  EXPECT_TRUE(take_events().empty());
}

TEST_F(SelectTest, SwapdbReportsWhatDbZeroLosesAndGains) {
  run({"SET", "old", "v", "PX", "100"});
  run({"SELECT", "1"});
  run({"SET", "new", "v", "PX", "200"});
  run({"SET", "plain", "v"});
  take_events();
  EXPECT_EQ(run({"SWAPDB", "1", "0"}), Reply::ok());
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Deleted, "old", kStartMs + 100},
                                                       {KeyEvent::Created, "new", kNoExpire},
                                                       {KeyEvent::ExpireSet, "new", kStartMs + 200},
                                                       {KeyEvent::Created, "plain", kNoExpire}}));
  EXPECT_EQ(run({"SWAPDB", "1", "2"}), Reply::ok());
  EXPECT_TRUE(take_events().empty());
}

TEST_F(SelectTest, MoveReportsWhatDbZeroLosesAndGains) {
  run({"SET", "k", "v", "PX", "100"});
  take_events();
  EXPECT_EQ(run({"MOVE", "k", "1"}), integer(1));
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Deleted, "k", kStartMs + 100}}));
  run({"SELECT", "1"});
  EXPECT_EQ(run({"MOVE", "k", "0"}), integer(1));
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Created, "k", kNoExpire},
                                                       {KeyEvent::ExpireSet, "k", kStartMs + 100}}));
}

TEST_F(SelectTest, FlushallReportsDbZerosKeysOnly) {
  run({"SET", "a", "v"});
  run({"SELECT", "1"});
  run({"SET", "b", "v"});
  take_events();
  EXPECT_EQ(run({"FLUSHALL"}), Reply::ok());
  EXPECT_EQ(take_events(), (std::vector<RecordedEvent>{{KeyEvent::Deleted, "a", kNoExpire}}));
}

}  // namespace
}  // namespace locksim::engine

// Differential: the 16 databases (cmd_db.cpp): SELECT, SWAPDB, MOVE, FLUSHDB, FLUSHALL, DBSIZE,
// and the db a script runs in. Two clients where one must see what the other did.
#include "verify/support/differential.hpp"

namespace locksim::test {
namespace {

TEST_F(Differential, SelectKeepsEachDbApart) {
  Connection other = connect();
  expect_same({"SET", "k", "zero"});
  expect_same({"SELECT", "1"});
  expect_same({"GET", "k"});
  expect_same({"SET", "k", "one"});
  expect_same({"HSET", "h", "f", "v"});
  expect_same({"DBSIZE"});
  expect_same(other, {"GET", "k"});
  expect_same(other, {"DBSIZE"});
  expect_same({"select", "15"});
  expect_same({"DBSIZE"});
  expect_same({"SELECT", "1"});
  expect_same({"HGETALL", "h"});
  expect_same({"TYPE", "k"});
  expect_same(other, {"TYPE", "h"});
}

TEST_F(Differential, SelectRefusals) {
  for (const char* index :
       {"16", "-1", "abc", " 1", "01", "+1", "1.0", "", "99999999999", "-99999999999", "9223372036854775808"})
    expect_same({"SELECT", index});
  expect_same({"SELECT", std::string("1\0", 2)});
  expect_same({"SELECT"});
  expect_same({"SELECT", "1", "2"});
  expect_same({"SET", "k", "v"});
  expect_same({"SELECT", "0"});
  expect_same({"GET", "k"});
}

TEST_F(Differential, FlushdbAndFlushall) {
  Connection other = connect();
  expect_same({"SET", "a", "0"});
  expect_same({"SELECT", "3"});
  expect_same({"SET", "a", "3"});
  expect_same({"SET", "b", "3"});
  for (const std::vector<std::string>& refused :
       std::vector<std::vector<std::string>>{{"FLUSHDB", "bogus"}, {"FLUSHDB", "SYNC", "ASYNC"}, {"FLUSHALL", "x"}})
    expect_same(refused);
  expect_same({"DBSIZE"});
  expect_same({"FLUSHDB", std::string("async\0junk", 10)});
  expect_same({"DBSIZE"});
  expect_same(other, {"GET", "a"});
  expect_same({"SET", "c", "3"});
  expect_same({"FLUSHDB"});
  expect_same({"SET", "c", "3"});
  expect_same(other, {"FLUSHALL", "SYNC"});
  expect_same({"DBSIZE"});
  expect_same(other, {"DBSIZE"});
}

TEST_F(Differential, Swapdb) {
  Connection other = connect();
  expect_same({"SET", "k", "zero"});
  expect_same(other, {"SELECT", "1"});
  expect_same(other, {"SET", "k", "one"});
  expect_same(other, {"RPUSH", "l", "x"});
  expect_same({"SWAPDB", "0", "1"});
  expect_same({"GET", "k"});
  expect_same({"LRANGE", "l", "0", "-1"});
  expect_same({"DBSIZE"});
  expect_same(other, {"GET", "k"});
  expect_same(other, {"DBSIZE"});
  expect_same({"SWAPDB", "1", "1"});
  expect_same({"SWAPDB", "15", "0"});
  expect_same({"DBSIZE"});
  for (const auto& [a, b] : std::vector<std::pair<std::string, std::string>>{{"abc", "1"},
                                                                             {"0", "abc"},
                                                                             {"abc", "def"},
                                                                             {"99999999999", "1"},
                                                                             {"0", "-99999999999"},
                                                                             {"0", "16"},
                                                                             {"-1", "0"},
                                                                             {"16", "abc"}})
    expect_same({"SWAPDB", a, b});
  expect_same({"SWAPDB", "0"});
}

TEST_F(Differential, Move) {
  Connection other = connect();
  expect_same({"SET", "k", "v"});
  expect_same({"ZADD", "z", "1", "m"});
  expect_same({"MOVE", "k", "2"});
  expect_same({"EXISTS", "k"});
  expect_same({"MOVE", "nokey", "2"});
  expect_same({"MOVE", "k", "0"});
  expect_same({"MOVE", "z", "16"});
  expect_same({"MOVE", "z", "-1"});
  expect_same({"MOVE", "z", "x"});
  expect_same({"MOVE", "z", "99999999999"});
  expect_same({"MOVE", "z"});
  expect_same(other, {"SELECT", "2"});
  expect_same(other, {"GET", "k"});
  expect_same(other, {"SET", "z", "there"});
  expect_same({"MOVE", "z", "2"});  // present there: nothing moves
  expect_same({"ZRANGE", "z", "0", "-1"});
  expect_same(other, {"MOVE", "k", "0"});
  expect_same({"GET", "k"});
  // The expiry moves with the key.
  expect_same({"SET", "t", "v", "EX", "100"});
  expect_same({"MOVE", "t", "3"});
  expect_same({"SELECT", "3"});
  expect_close({"PTTL", "t"}, 250);
  expect_same({"TTL", "t"});
}

TEST_F(Differential, ScriptsRunInTheirCallersDb) {
  expect_same({"SELECT", "4"});
  expect_same({"EVAL", "redis.call('set', 'x', 'four'); return redis.call('dbsize')", "0"});
  expect_same({"EVAL", "redis.call('select', 5); redis.call('set', 'x', 'five'); return redis.call('get', 'x')", "0"});
  expect_same({"GET", "x"});
  expect_same({"EVAL", "return redis.call('get', 'x')", "0"});
  expect_same({"SELECT", "5"});
  expect_same({"GET", "x"});
  expect_same({"EVAL", "return redis.pcall('select', 16)", "0"});
  expect_same({"EVAL", "return redis.pcall('select', 'a')", "0"});
  expect_same({"EVAL", "return redis.call('select', 16)", "0"});
  expect_same({"EVAL", "return redis.pcall('select')", "0"});
  expect_same({"EVAL", "redis.call('select', 6); return redis.call('move', 'y', 5)", "0"});
  expect_same({"EVAL", "return redis.call('swapdb', 4, 5)", "0"});
  expect_same({"GET", "x"});
  expect_same({"EVAL", "return redis.call('flushdb')", "0"});
  expect_same({"DBSIZE"});
}

TEST_F(Differential, SelectInsideATransaction) {
  Connection other = connect();
  expect_same({"MULTI"});
  expect_same({"SELECT", "3"});
  expect_same({"SET", "k", "three"});
  expect_same({"EVAL", "return redis.call('get', 'k')", "0"});
  expect_same({"DBSIZE"});
  expect_same({"EXEC"});
  expect_same({"DBSIZE"});
  expect_same(other, {"DBSIZE"});
}

}  // namespace
TEST_F(Differential, CopyDuplicatesTheValueItsEncodingAndItsExpiry) {
  expect_same({"SET", "s", "12"});
  expect_same({"APPEND", "r", "raw"});
  expect_same({"HSET", "h", "f", "v"});
  expect_same({"RPUSH", "l", "a", "b"});
  expect_same({"ZADD", "z", "1", "m"});
  expect_same({"SADD", "set", "1", "2"});
  expect_same({"PEXPIRE", "h", "100000"});
  for (const char* key : {"s", "r", "h", "l", "z", "set"}) {
    const std::string copy = std::string(key) + "-copy";
    expect_same({"COPY", key, copy});
    expect_same({"TYPE", copy});
    expect_same({"OBJECT", "ENCODING", copy});
  }
  expect_close({"PTTL", "h-copy"}, 100);  // each side counts its own milliseconds since PEXPIRE
  expect_same({"TTL", "s-copy"});
  expect_same({"LPUSH", "l-copy", "c"});
  expect_same({"LRANGE", "l", "0", "-1"});
  expect_same({"COPY", "s", "l-copy"});
  expect_same({"COPY", "s", "l-copy", "REPLACE"});
  expect_same({"GET", "l-copy"});
  expect_same({"COPY", "missing", "x"});
  expect_same({"COPY", "s", "s"});
  expect_same({"COPY", "s", "s", "DB", "0"});
  expect_same({"COPY", "s", "s", "DB", "1"});
  expect_same({"SELECT", "1"});
  expect_same({"GET", "s"});
  expect_same({"SELECT", "0"});
  expect_same({"COPY", "s", "t", "DB", "16"});
  expect_same({"COPY", "s", "t", "DB", "-1"});
  expect_same({"COPY", "s", "t", "DB", "x"});
  expect_same({"COPY", "s", "t", "DB", "4294967296"});
  expect_same({"COPY", "s", "t", "DB"});
  expect_same({"COPY", "s", "t", "NOW"});
  expect_same({"COPY", "s", "t", "replace", "db", "2", "REPLACE"});
  expect_same({"COPY", "s"});
}
}  // namespace locksim::test

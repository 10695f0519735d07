// Differential: SORT and SORT_RO (cmd_sort.cpp). Sets are sorted or stored wherever they are read,
// since an unsorted set comes back in each server's own order.
#include "verify/support/differential.hpp"

namespace locksim::test {

TEST_F(Differential, SortNumbersAndAlpha) {
  expect_same({"RPUSH", "l", "3", "10", "1", "2.5", "-4", "1e2", "0x10"});
  expect_same({"SORT", "l"});
  expect_same({"SORT", "l", "DESC"});
  expect_same({"SORT", "l", "ALPHA"});
  expect_same({"SORT", "l", "ALPHA", "DESC"});
  expect_same({"SORT", "l", "LIMIT", "1", "3"});
  expect_same({"SORT", "l", "LIMIT", "-5", "2"});
  expect_same({"SORT", "l", "LIMIT", "5", "100"});
  expect_same({"SORT", "l", "LIMIT", "100", "1"});
  expect_same({"SORT", "l", "LIMIT", "0", "-1"});
  expect_same({"SORT", "l", "LIMIT", "0", "0"});
  expect_same({"SORT_RO", "l", "DESC", "LIMIT", "0", "2"});
  expect_same({"RPUSH", "words", "b", "a", "", "c", "ab"});
  expect_same({"SORT", "words"});
  expect_same({"SORT", "words", "ALPHA"});
  expect_same({"RPUSH", "bad", "1", "nan"});
  expect_same({"SORT", "bad"});
  expect_same({"RPUSH", "big", "1", "1e400"});
  expect_same({"SORT", "big"});
  expect_same({"RPUSH", "ties", "1.0", "1", "01", "a1"});
  expect_same({"SORT", "ties", "ALPHA"});
}

TEST_F(Differential, SortSetsAndSortedSets) {
  expect_same({"SADD", "s", "5", "3", "9", "1"});
  expect_same({"SORT", "s"});
  expect_same({"SORT", "s", "DESC", "LIMIT", "1", "2"});
  expect_same({"SADD", "t", "pear", "apple", "fig"});
  expect_same({"SORT", "t", "ALPHA"});
  expect_same({"SORT", "t", "BY", "nosort", "STORE", "dst"});  // a set stored is sorted after all
  expect_same({"LRANGE", "dst", "0", "-1"});
  expect_same({"EVAL", "return redis.call('sort', KEYS[1], 'by', 'nosort')", "1", "t"});
  expect_same({"ZADD", "z", "3", "c", "1", "a", "2", "b", "0", "d"});
  expect_same({"SORT", "z", "ALPHA"});
  expect_same({"SORT", "z", "BY", "nosort"});
  expect_same({"SORT", "z", "BY", "nosort", "DESC"});
  expect_same({"SORT", "z", "BY", "nosort", "LIMIT", "1", "2"});
  expect_same({"SORT", "z", "BY", "nosort", "DESC", "LIMIT", "1", "2"});
  expect_same({"RPUSH", "l", "x", "y", "z"});
  expect_same({"SORT", "l", "BY", "nosort", "DESC", "LIMIT", "1", "5"});
  expect_same({"SORT", "missing"});
  expect_same({"SORT", "missing", "BY", "nosort"});
}

TEST_F(Differential, SortByAndGetPatterns) {
  expect_same({"RPUSH", "ids", "1", "2", "3", "4"});
  expect_same({"MSET", "w_1", "30", "w_2", "10", "w_3", "20"});
  expect_same({"HSET", "o_1", "name", "one", "rank", "b"});
  expect_same({"HSET", "o_2", "name", "two", "rank", "a"});
  expect_same({"HSET", "o_3", "name", "three"});
  expect_same({"SORT", "ids", "BY", "w_*"});
  expect_same({"SORT", "ids", "BY", "w_*", "DESC"});
  expect_same({"SORT", "ids", "BY", "w_*", "GET", "#", "GET", "o_*->name", "GET", "w_*", "GET", "nope_*"});
  expect_same({"SORT", "ids", "BY", "o_*->rank", "ALPHA"});
  expect_same({"SORT", "ids", "BY", "o_*->rank", "ALPHA", "DESC"});
  expect_same({"SORT", "ids", "BY", "o_*->", "ALPHA"});
  expect_same({"SORT", "ids", "GET", "o_*->name", "LIMIT", "1", "2"});
  expect_same({"SORT", "ids", "GET", "fixed"});
  expect_same({"SORT", "ids", "BY", "o_*->name", "GET", "o_*->name"});  // names are no numbers
  expect_same({"SET", "w_4", "x"});
  expect_same({"SORT", "ids", "BY", "w_*"});
  expect_same({"SORT", "ids", "BY", "w_*", "ALPHA", "GET", "w_*"});
}

TEST_F(Differential, SortStore) {
  expect_same({"RPUSH", "l", "3", "1", "2"});
  expect_same({"SET", "dst", "string"});
  expect_same({"EXPIRE", "dst", "100"});
  expect_same({"SORT", "l", "STORE", "dst"});
  expect_same({"TYPE", "dst"});
  expect_same({"TTL", "dst"});
  expect_same({"LRANGE", "dst", "0", "-1"});
  expect_same({"SORT", "l", "GET", "nope_*", "STORE", "dst"});
  expect_same({"LRANGE", "dst", "0", "-1"});
  expect_same({"SORT", "empty", "STORE", "dst"});
  expect_same({"EXISTS", "dst"});
  expect_same({"SORT", "l", "STORE", "l"});
  expect_same({"LRANGE", "l", "0", "-1"});
  expect_same({"WATCH", "l"});
  expect_same({"SORT", "empty", "STORE", "l"});
  expect_same({"MULTI"});
  expect_same({"PING"});
  expect_same({"EXEC"});
}

TEST_F(Differential, SortErrors) {
  expect_same({"SET", "s", "v"});
  expect_same({"SORT", "s"});
  expect_same({"HSET", "h", "f", "v"});
  expect_same({"SORT", "h"});
  expect_same({"SORT", "l", "LIMIT", "1"});
  expect_same({"SORT", "l", "LIMIT", "x", "1"});
  expect_same({"SORT", "l", "LIMIT", "1", "1.5"});
  expect_same({"SORT", "l", "BY"});
  expect_same({"SORT", "l", "GET"});
  expect_same({"SORT", "l", "STORE"});
  expect_same({"SORT", "l", "NOPE"});
  expect_same({"SORT_RO", "l", "STORE", "dst"});
  expect_same({"SORT", "s", "NOPE"});  // options before the key's type
  expect_same({"SORT"});
  expect_same({"SORT_RO"});
  expect_same({"EVAL", "return redis.pcall('sort', 'l', 'store', 'dst')", "0"});
  expect_same({"EVAL", "#!lua flags=no-writes\nreturn redis.pcall('sort', 'l')", "0"});
  expect_same({"EVAL", "#!lua flags=no-writes\nreturn redis.pcall('sort_ro', 'l')", "0"});
}

}  // namespace locksim::test

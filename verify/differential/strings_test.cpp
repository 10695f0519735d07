// Differential: strings (cmd_string.cpp).
#include "verify/support/differential.hpp"

namespace locksim::test {

TEST_F(Differential, GetAndSetBasics) {
  expect_same({"GET", "k"});
  expect_same({"SET", "k", "v"});
  expect_same({"GET", "k"});
  expect_same({"SET", "k", "v", "NX"});
  expect_same({"SET", "k", "w", "XX", "GET"});
  expect_same({"SET", "k", "v", "NX", "XX"});
  expect_same({"SET", "k", "v", "PX", "0"});
  expect_same({"SET", "k", "v", "EX", "9223372036854775807"});
  expect_same({"SET", "k", "v", "PX", "abc"});
  expect_close({"SET", "k", "v", "PX", "5000"}, 0);
  expect_close({"PTTL", "k"}, 50);
}

TEST_F(Differential, GetOfAMissingKeyIsNilAndOfAnEmptyStringIsEmpty) {
  expect_same({"GET", "missing"});
  expect_same({"SET", "k", ""});
  expect_same({"GET", "k"});
  expect_same({"SET", "bin", std::string("a\0b\r\n", 5)});
  expect_same({"GET", "bin"});
}

TEST_F(Differential, GetAndAppendOnOtherTypesAreWrongType) {
  expect_same({"HSET", "h", "f", "v"});
  expect_same({"RPUSH", "l", "a"});
  expect_same({"ZADD", "z", "1", "m"});
  for (const char* key : {"h", "l", "z"}) {
    expect_same({"GET", key});
    expect_same({"APPEND", key, "x"});
    expect_same({"INCR", key});
    expect_same({"DECR", key});
    expect_same({"INCRBY", key, "2"});
    expect_same({"DECRBY", key, "2"});
    expect_same({"SET", key, "v", "GET"});
    expect_same({"SET", key, "v", "NX", "GET"});
  }
}

TEST_F(Differential, SetOverwritesAnyTypeAndSetnxNeverDoes) {
  expect_same({"HSET", "h", "f", "v"});
  expect_same({"SETNX", "h", "x"});
  expect_same({"TYPE", "h"});
  expect_same({"SET", "h", "now-a-string"});
  expect_same({"TYPE", "h"});
  expect_same({"GET", "h"});
  expect_same({"RPUSH", "l", "a"});
  expect_same({"SET", "l", "v", "XX"});
  expect_same({"GET", "l"});
  expect_same({"SETNX", "new", "1"});
  expect_same({"SETNX", "new", "2"});
  expect_same({"GET", "new"});
}

TEST_F(Differential, SetNxAndXxFollowExistence) {
  expect_same({"SET", "k", "v", "XX"});
  expect_same({"EXISTS", "k"});
  expect_same({"SET", "k", "v", "NX"});
  expect_same({"SET", "k", "w", "NX"});
  expect_same({"GET", "k"});
  expect_same({"SET", "k", "w", "XX"});
  expect_same({"GET", "k"});
  expect_same({"SET", "k", "x", "nx", "get"});
  expect_same({"SET", "k2", "x", "NX", "GET"});
  expect_same({"GET", "k2"});
  expect_same({"SET", "k3", "x", "XX", "GET"});
  expect_same({"EXISTS", "k3"});
}

TEST_F(Differential, SetGetReturnsTheOldValueOrNil) {
  expect_same({"SET", "k", "one", "GET"});
  expect_same({"SET", "k", "two", "GET"});
  expect_same({"GET", "k"});
  expect_same({"SET", "k", "three", "GET", "EX", "100"});
  expect_close({"TTL", "k"}, 1);
}

TEST_F(Differential, SetRejectsConflictingAndUnknownOptions) {
  expect_same({"SET", "k", "v", "XX", "NX"});
  expect_same({"SET", "k", "v", "EX", "10", "PX", "100"});
  expect_same({"SET", "k", "v", "PX", "100", "EX", "10"});
  expect_same({"SET", "k", "v", "EX", "10", "EXAT", "9999999999"});
  expect_same({"SET", "k", "v", "PXAT", "9999999999999", "EXAT", "9999999999"});
  expect_same({"SET", "k", "v", "EX", "10", "KEEPTTL"});
  expect_same({"SET", "k", "v", "KEEPTTL", "EX", "10"});
  expect_same({"SET", "k", "v", "KEEPTTL", "PXAT", "9999999999999"});
  expect_same({"SET", "k", "v", "EX"});
  expect_same({"SET", "k", "v", "PX"});
  expect_same({"SET", "k", "v", "EXAT"});
  expect_same({"SET", "k", "v", "PXAT"});
  expect_same({"SET", "k", "v", "FOO"});
  expect_same({"SET", "k", "v", "NXX"});
  expect_same({"SET", "k", "v", "G"});
  expect_same({"SET", "k", "v", "10"});
  expect_same({"EXISTS", "k"});
}

TEST_F(Differential, SetOptionsEndAtANulByteAsRedisCStringsDo) {
  expect_same({"SET", "k", "v", std::string("NX\0junk", 7)});
  expect_same({"SET", "k", "w", std::string("xx\0", 3), std::string("GET\0x", 5)});
  expect_same({"SET", "k", "x", std::string("KEEPTTL\0", 8)});
  expect_same({"SET", "k", "y", std::string("PX\0", 3), "100000"});
  expect_close({"PTTL", "k"}, 100);
  expect_same({"SET", "k", "z", std::string("\0NX", 3)});
  expect_same({"SET", "k", "z", std::string("N\0X", 3)});
  expect_same({"GET", "k"});
}

TEST_F(Differential, SetRepeatsOfOneOptionAreAccepted) {
  expect_same({"SET", "k", "v", "NX", "NX"});
  expect_same({"SET", "k", "w", "XX", "XX", "GET", "GET"});
  expect_same({"SET", "k", "x", "EX", "10", "EX", "1000"});
  expect_close({"TTL", "k"}, 1);
  expect_same({"SET", "k", "y", "KEEPTTL", "KEEPTTL"});
  expect_close({"TTL", "k"}, 1);
}

TEST_F(Differential, SetExpiryArgumentsMustBePositiveIntegers) {
  for (const char* opt : {"EX", "PX", "EXAT", "PXAT"}) {
    expect_same({"SET", "k", "v", opt, "0"});
    expect_same({"SET", "k", "v", opt, "-1"});
    expect_same({"SET", "k", "v", opt, "abc"});
    expect_same({"SET", "k", "v", opt, "1.5"});
    expect_same({"SET", "k", "v", opt, "01"});
    expect_same({"SET", "k", "v", opt, "+1"});
    expect_same({"SET", "k", "v", opt, " 1"});
    expect_same({"SET", "k", "v", opt, ""});
    expect_same({"SET", "k", "v", opt, "-9223372036854775808"});
    expect_same({"SET", "k", "v", opt, "9223372036854775808"});
    expect_same({"SET", "k", "v", opt, "99999999999999999999999"});
  }
  expect_same({"EXISTS", "k"});
}

TEST_F(Differential, SetExpiryThatWouldOverflowIsInvalid) {
  expect_same({"SET", "k", "v", "EX", "9223372036854775"});
  expect_same({"SET", "k", "v", "EX", "9223372036854776"});
  expect_same({"SET", "k", "v", "PX", "9223372036854775807"});
  expect_same({"SET", "k", "v", "PX", "9223372036854000000"});
  expect_same({"SET", "k", "v", "EXAT", "9223372036854776"});
  expect_same({"EXISTS", "k"});
  expect_same({"SET", "k", "v", "EXAT", "9223372036854775"});
  expect_same({"PEXPIRETIME", "k"});
  expect_same({"SET", "k", "v", "PXAT", "9223372036854775807"});
  expect_same({"PEXPIRETIME", "k"});
}

TEST_F(Differential, SetWithEveryExpiryForm) {
  expect_same({"SET", "ex", "v", "EX", "100"});
  expect_close({"TTL", "ex"}, 1);
  expect_close({"PTTL", "ex"}, 100);
  expect_same({"SET", "px", "v", "px", "100000"});
  expect_close({"TTL", "px"}, 1);
  expect_same({"SET", "exat", "v", "exat", "4102444800"});
  expect_same({"EXPIRETIME", "exat"});
  expect_same({"PEXPIRETIME", "exat"});
  expect_same({"SET", "pxat", "v", "PXAT", "4102444800123"});
  expect_same({"EXPIRETIME", "pxat"});
  expect_same({"PEXPIRETIME", "pxat"});
}

TEST_F(Differential, SetWithAnExpiryInThePastLeavesNoKey) {
  expect_same({"SET", "k", "v", "PXAT", "1"});
  expect_same({"GET", "k"});
  expect_same({"EXISTS", "k"});
  expect_same({"SET", "k", "v", "EXAT", "1"});
  expect_same({"TTL", "k"});
}

TEST_F(Differential, SetDropsTheTtlUnlessKeepttl) {
  expect_same({"SET", "k", "v", "EXAT", "4102444800"});
  expect_same({"SET", "k", "w", "KEEPTTL"});
  expect_same({"EXPIRETIME", "k"});
  expect_same({"SET", "k", "x", "XX", "KEEPTTL", "GET"});
  expect_same({"EXPIRETIME", "k"});
  expect_same({"SET", "k", "y"});
  expect_same({"TTL", "k"});
  expect_same({"SET", "k", "z", "KEEPTTL"});
  expect_same({"TTL", "k"});
  expect_same({"SET", "n", "v", "KEEPTTL"});
  expect_same({"TTL", "n"});
}

TEST_F(Differential, SetNxThatFailsKeepsTheOldTtl) {
  expect_same({"SET", "k", "v", "EXAT", "4102444800"});
  expect_same({"SET", "k", "w", "NX", "PX", "10"});
  expect_same({"GET", "k"});
  expect_same({"EXPIRETIME", "k"});
  expect_same({"SET", "k2", "w", "XX", "EX", "10"});
  expect_same({"TTL", "k2"});
}

TEST_F(Differential, SetnxCreatesOnlyMissingKeys) {
  expect_same({"SETNX", "k", "a"});
  expect_same({"SETNX", "k", "b"});
  expect_same({"GET", "k"});
  expect_same({"ZADD", "z", "1", "m"});
  expect_same({"SETNX", "z", "b"});
  expect_same({"TYPE", "z"});
}

TEST_F(Differential, AppendCreatesExtendsAndKeepsTheTtl) {
  expect_same({"APPEND", "k", "abc"});
  expect_same({"APPEND", "k", "de"});
  expect_same({"APPEND", "k", ""});
  expect_same({"GET", "k"});
  expect_same({"APPEND", "empty", ""});
  expect_same({"EXISTS", "empty"});
  expect_same({"GET", "empty"});
  expect_same({"SET", "n", "12"});
  expect_same({"APPEND", "n", "3"});
  expect_same({"INCR", "n"});
  expect_same({"EXPIREAT", "n", "4102444800"});
  expect_same({"APPEND", "n", "0"});
  expect_same({"EXPIRETIME", "n"});
  expect_same({"GET", "n"});
}

TEST_F(Differential, IncrAndDecrStartFromZeroAndKeepTheTtl) {
  expect_same({"INCR", "k"});
  expect_same({"INCR", "k"});
  expect_same({"DECR", "k"});
  expect_same({"DECR", "d"});
  expect_same({"INCRBY", "k", "10"});
  expect_same({"INCRBY", "k", "-20"});
  expect_same({"DECRBY", "k", "5"});
  expect_same({"DECRBY", "k", "-5"});
  expect_same({"INCRBY", "k", "0"});
  expect_same({"GET", "k"});
  expect_same({"EXPIREAT", "k", "4102444800"});
  expect_same({"INCR", "k"});
  expect_same({"EXPIRETIME", "k"});
  expect_same({"DECRBY", "fresh", "7"});
  expect_same({"GET", "fresh"});
}

TEST_F(Differential, IncrParsesStoredValuesStrictly) {
  for (const char* stored : {"01", "+1", "-0", " 1", "1 ", "1.0", "1e3", "", "abc", "0x10", "--1", "-",
                             "9223372036854775808", "-9223372036854775809", "12345678901234567890123",
                             "00", "-01"}) {
    expect_same({"SET", "k", stored});
    expect_same({"INCR", "k"});
    expect_same({"DECR", "k"});
    expect_same({"INCRBY", "k", "1"});
    expect_same({"GET", "k"});
  }
  for (const char* stored : {"0", "-1", "9223372036854775806", "-9223372036854775807"}) {
    expect_same({"SET", "k", stored});
    expect_same({"INCR", "k"});
    expect_same({"GET", "k"});
  }
}

TEST_F(Differential, IncrbyParsesTheIncrementStrictly) {
  expect_same({"SET", "k", "5"});
  for (const char* by : {"01", "+1", "-0", " 1", "1 ", "1.5", "", "x", "9223372036854775808",
                         "-9223372036854775809", "123456789012345678901", "-"}) {
    expect_same({"INCRBY", "k", by});
    expect_same({"DECRBY", "k", by});
  }
  expect_same({"INCRBY", "k", "-9223372036854775808"});
  expect_same({"GET", "k"});
  expect_same({"INCRBY", "missing", "x"});
  expect_same({"EXISTS", "missing"});
  expect_same({"HSET", "h", "f", "v"});
  expect_same({"INCRBY", "h", "x"});
}

TEST_F(Differential, IncrementsThatOverflowAreRefusedAndChangeNothing) {
  expect_same({"SET", "max", "9223372036854775807"});
  expect_same({"INCR", "max"});
  expect_same({"INCRBY", "max", "1"});
  expect_same({"DECRBY", "max", "-1"});
  expect_same({"INCRBY", "max", "0"});
  expect_same({"DECR", "max"});
  expect_same({"GET", "max"});
  expect_same({"SET", "min", "-9223372036854775808"});
  expect_same({"DECR", "min"});
  expect_same({"INCRBY", "min", "-1"});
  expect_same({"DECRBY", "min", "1"});
  expect_same({"INCR", "min"});
  expect_same({"GET", "min"});
  expect_same({"SET", "k", "-1"});
  expect_same({"INCRBY", "k", "-9223372036854775808"});
  expect_same({"SET", "k", "1"});
  expect_same({"INCRBY", "k", "9223372036854775807"});
  expect_same({"INCRBY", "k", "-9223372036854775808"});
  expect_same({"GET", "k"});
}

TEST_F(Differential, DecrbyOfTheSmallestIntegerIsRefused) {
  expect_same({"SET", "k", "0"});
  expect_same({"DECRBY", "k", "-9223372036854775808"});
  expect_same({"DECRBY", "missing", "-9223372036854775808"});
  expect_same({"DECRBY", "k", "-9223372036854775807"});
  expect_same({"DECRBY", "k", "9223372036854775807"});
  expect_same({"DECRBY", "k", "1"});
  expect_same({"GET", "k"});
}

TEST_F(Differential, StringCommandsCheckTheirArity) {
  expect_same({"GET"});
  expect_same({"GET", "a", "b"});
  expect_same({"SET", "k"});
  expect_same({"SETNX", "k"});
  expect_same({"SETNX", "k", "v", "x"});
  expect_same({"APPEND", "k"});
  expect_same({"INCR"});
  expect_same({"INCR", "a", "b"});
  expect_same({"DECR"});
  expect_same({"INCRBY", "k"});
  expect_same({"INCRBY", "k", "1", "2"});
  expect_same({"DECRBY", "k"});
}

TEST_F(Differential, SetexAndPsetex) {
  expect_same({"SETEX", "k", "100", "v"});
  expect_close({"TTL", "k"}, 1);
  expect_same({"GET", "k"});
  expect_same({"PSETEX", "p", "100000", "v"});
  expect_close({"PTTL", "p"}, 100);
  expect_same({"HSET", "h", "f", "v"});
  expect_same({"SETEX", "h", "100", "now-a-string"});
  expect_same({"GET", "h"});
  for (const char* time : {"0", "-1", "x", "1.5", "", "9223372036854775807", "9223372036854775", "9223372036854776"}) {
    expect_same({"SETEX", "k", time, "w"});
    expect_same({"PSETEX", "k", time, "w"});
  }
  expect_same({"GET", "k"});
  expect_same({"SETEX", "k", "100"});
  expect_same({"PSETEX", "k", "100", "v", "x"});
}

TEST_F(Differential, GetdelReadsAndDeletesAString) {
  expect_same({"GETDEL", "k"});
  expect_same({"SET", "k", "v", "EX", "100"});
  expect_same({"GETDEL", "k"});
  expect_same({"EXISTS", "k"});
  expect_same({"GETDEL", "k"});
  expect_same({"SADD", "s", "m"});
  expect_same({"GETDEL", "s"});
  expect_same({"EXISTS", "s"});
  expect_same({"GETDEL"});
  expect_same({"GETDEL", "k", "x"});
}

TEST_F(Differential, GetexSetsMovesAndRemovesTheExpiry) {
  expect_same({"SET", "k", "v"});
  expect_same({"GETEX", "k"});
  expect_same({"TTL", "k"});
  expect_same({"GETEX", "k", "EX", "100"});
  expect_close({"TTL", "k"}, 1);
  expect_same({"GETEX", "k", "px", "200000"});
  expect_close({"PTTL", "k"}, 100);
  expect_same({"GETEX", "k", "EXAT", "4102444800"});
  expect_same({"EXPIRETIME", "k"});
  expect_same({"GETEX", "k", "PXAT", "4102444800123"});
  expect_same({"PEXPIRETIME", "k"});
  expect_same({"GETEX", "k", "PERSIST"});
  expect_same({"TTL", "k"});
  expect_same({"GETEX", "k", "PERSIST", "PERSIST"});
  expect_same({"GETEX", "k", "EX", "10", "EX", "100"});
  expect_close({"TTL", "k"}, 1);
  // An absolute time in the past answers the value and deletes the key.
  expect_same({"GETEX", "k", "PXAT", "1"});
  expect_same({"EXISTS", "k"});
  expect_same({"SET", "k", "v"});
  expect_same({"GETEX", "k", "EXAT", "1"});
  expect_same({"EXISTS", "k"});
}

TEST_F(Differential, GetexOptionsAndErrors) {
  expect_same({"SET", "k", "v"});
  expect_same({"SADD", "s", "m"});
  for (const char* key : {"k", "s", "missing"}) {
    for (const std::vector<std::string>& options : std::vector<std::vector<std::string>>{
             {"EX", "0"},
             {"EX", "-1"},
             {"PX", "x"},
             {"EXAT", "9223372036854775807"},
             {"PXAT", ""},
             {"EX"},
             {"KEEPTTL"},
             {"NX"},
             {"GET"},
             {"PERSIST", "EX", "10"},
             {"EX", "10", "PERSIST"},
             {"EX", "10", "PX", "100"},
             {"PXAT", "1", "EXAT", "1"},
             {"FOO"},
             {std::string("PERSIST\0x", 9)},
             {std::string("EX\0", 3), "100"}}) {
      std::vector<std::string> argv = {"GETEX", key};
      argv.insert(argv.end(), options.begin(), options.end());
      expect_same(argv);
    }
  }
  expect_same({"TTL", "k"});
  expect_same({"GETEX"});
}

TEST_F(Differential, MgetMsetAndMsetnx) {
  expect_same({"MSET", "a", "1", "b", "2", "a", "3"});
  expect_same({"MGET", "a", "b", "c", "a"});
  expect_same({"SADD", "s", "m"});
  expect_same({"SET", "e", "v", "EX", "100"});
  expect_same({"MGET", "s", "e", "missing"});
  expect_same({"MSET", "s", "now-a-string", "e", "w"});
  expect_same({"TYPE", "s"});
  expect_same({"TTL", "e"});
  expect_same({"MSETNX", "new1", "x", "a", "y"});
  expect_same({"EXISTS", "new1"});
  expect_same({"MSETNX", "new1", "x", "new2", "y", "new1", "z"});
  expect_same({"MGET", "new1", "new2"});
  expect_same({"MSET", "a"});
  expect_same({"MSET", "a", "1", "b"});
  expect_same({"MSETNX", "a"});
  expect_same({"MSETNX", "q", "1", "r"});
  expect_same({"EXISTS", "q"});
  expect_same({"MGET"});
}

TEST_F(Differential, StrlenAndGetset) {
  expect_same({"STRLEN", "missing"});
  expect_same({"SET", "k", std::string("a\0b\r\n", 5)});
  expect_same({"STRLEN", "k"});
  expect_same({"SET", "n", "12345"});
  expect_same({"STRLEN", "n"});
  expect_same({"INCR", "n"});
  expect_same({"STRLEN", "n"});
  expect_same({"SADD", "s", "m"});
  expect_same({"STRLEN", "s"});
  expect_same({"STRLEN"});
  expect_same({"GETSET", "g", "v"});
  expect_same({"EXPIRE", "g", "100"});
  expect_same({"GETSET", "g", "w"});
  expect_same({"TTL", "g"});
  expect_same({"GETSET", "s", "w"});
  expect_same({"GETSET", "g"});
}

TEST_F(Differential, ScriptsReadMgetAsAnArrayWithFalseForNil) {
  expect_same({"MSET", "a", "1", "b", "2"});
  expect_same({"EVAL", "return redis.call('MGET', KEYS[1], KEYS[2], KEYS[3])", "3", "a", "missing", "b"});
  expect_same({"EVAL", "local r = redis.call('MGET', 'missing') return tostring(r[1])", "0"});
  expect_same({"EVAL", "return redis.call('GETEX', KEYS[1], 'PX', 100000)", "1", "a"});
  expect_same({"EVAL", "return redis.call('GETDEL', KEYS[1])", "1", "b"});
}

TEST_F(Differential, GetrangeCountsFromEitherEndAndClampsToTheString) {
  expect_same({"SET", "k", "Hello, World"});
  const char* bounds[][2] = {{"0", "4"},    {"-5", "-1"}, {"0", "-1"},  {"5", "3"},    {"-1", "-5"}, {"100", "200"},
                             {"-100", "2"}, {"0", "100"}, {"11", "11"}, {"12", "12"},  {"-1", "-1"}, {"-13", "-12"},
                             {"3", "-100"}, {"-3", "0"},  {"0", "0"},   {"9223372036854775807", "-9223372036854775808"},
                             {"-9223372036854775808", "9223372036854775807"}};
  for (const auto& [start, end] : bounds) {
    expect_same({"GETRANGE", "k", start, end});
    expect_same({"SUBSTR", "k", start, end});
  }
  expect_same({"GETRANGE", "missing", "0", "-1"});
  expect_same({"SET", "e", ""});
  expect_same({"GETRANGE", "e", "0", "-1"});
  expect_same({"GETRANGE", "e", "-1", "0"});
  expect_same({"SET", "n", "-12345"});
  expect_same({"GETRANGE", "n", "1", "2"});
  expect_same({"GETRANGE", "k", "a", "1"});
  expect_same({"GETRANGE", "k", "1", "1.5"});
  expect_same({"GETRANGE", "missing", "x", "1"});
  expect_same({"RPUSH", "l", "a"});
  expect_same({"GETRANGE", "l", "0", "1"});
  expect_same({"GETRANGE", "k", "0"});
}

TEST_F(Differential, SetrangeWritesAtAnOffsetAndZeroFillsTheGap) {
  expect_same({"SETRANGE", "k", "5", "abc"});
  expect_same({"GET", "k"});
  expect_same({"OBJECT", "ENCODING", "k"});
  expect_same({"SETRANGE", "k", "0", "XY"});
  expect_same({"SETRANGE", "k", "6", "long tail"});
  expect_same({"GET", "k"});
  expect_same({"SET", "n", "12"});
  expect_same({"SETRANGE", "n", "0", "3"});
  expect_same({"OBJECT", "ENCODING", "n"});
  expect_same({"INCR", "n"});
  // Nothing to write: nothing made, the length said.
  expect_same({"SETRANGE", "missing", "10", ""});
  expect_same({"EXISTS", "missing"});
  expect_same({"SETRANGE", "k", "100", ""});
  expect_same({"STRLEN", "k"});
  // The offset, and the size it would make.
  expect_same({"SETRANGE", "k", "-1", "x"});
  expect_same({"SETRANGE", "k", "abc", "x"});
  expect_same({"SETRANGE", "k", "536870911", "xy"});
  expect_same({"SETRANGE", "k", "9223372036854775807", "x"});
  expect_same({"SETRANGE", "k", "-1", ""});
  expect_same({"RPUSH", "l", "a"});
  expect_same({"SETRANGE", "l", "0", "x"});
  expect_same({"SETRANGE", "l", "0", ""});
  expect_same({"SETRANGE", "k", "1"});
}

TEST_F(Differential, SetrangeBreaksAWatchOnlyWhenItWrites) {
  expect_same({"SET", "k", "abc"});
  expect_same({"WATCH", "k"});
  expect_same({"SETRANGE", "k", "1", ""});
  expect_same({"MULTI"});
  expect_same({"GET", "k"});
  expect_same({"EXEC"});
  expect_same({"WATCH", "k"});
  expect_same({"SETRANGE", "k", "1", "z"});
  expect_same({"MULTI"});
  expect_same({"GET", "k"});
  expect_same({"EXEC"});
}
TEST_F(Differential, IncrbyfloatAddsInLongDoubleAndWritesWhatAHumanReads) {
  expect_same({"INCRBYFLOAT", "f", "10.5"});
  expect_same({"OBJECT", "ENCODING", "f"});
  expect_same({"INCRBYFLOAT", "f", "0.1"});
  expect_same({"INCRBYFLOAT", "f", "-10.6"});
  expect_same({"GET", "f"});
  expect_same({"OBJECT", "ENCODING", "f"});  // "0": made as it came, not as an integer
  expect_same({"INCRBYFLOAT", "f", "3"});
  expect_same({"OBJECT", "ENCODING", "f"});
  expect_same({"INCR", "f"});
  expect_same({"OBJECT", "ENCODING", "f"});
  for (const char* by : {"5.0e3", "-5e-3", "1e-17", "0x10", "+1.5", "-0", ".5", "5.", "1e4000", "-1e4000", "1e-5000",
                         "inf", "-inf", "nan", " 1", "1 ", "", "1.5x", "1e", "0.1234567890123456789"}) {
    expect_same({"SET", "g", "1"});
    expect_same({"INCRBYFLOAT", "g", by});
    expect_same({"GET", "g"});
  }
  expect_same({"SET", "big", "1e308"});
  expect_same({"INCRBYFLOAT", "big", "1e308"});
  expect_same({"SET", "huge", "1e4000"});
  expect_same({"INCRBYFLOAT", "huge", "0"});
  expect_same({"STRLEN", "huge"});
  expect_same({"SET", "word", "abc"});
  expect_same({"INCRBYFLOAT", "word", "1"});
  expect_same({"SET", "t", "1.5", "PX", "100000"});
  expect_same({"INCRBYFLOAT", "t", "1"});
  expect_same({"TTL", "t"});
  expect_same({"RPUSH", "l", "a"});
  expect_same({"INCRBYFLOAT", "l", "1"});
  expect_same({"INCRBYFLOAT", "f"});
  expect_same({"EVAL", "return redis.call('INCRBYFLOAT', KEYS[1], '2.5')", "1", "f"});
}

TEST_F(Differential, IncrbyfloatBreaksAWatchEvenWithTheSameBytes) {
  expect_same({"SET", "f", "1.5"});
  expect_same({"WATCH", "f"});
  expect_same({"INCRBYFLOAT", "f", "0"});
  expect_same({"MULTI"});
  expect_same({"GET", "f"});
  expect_same({"EXEC"});
}

TEST_F(Differential, LcsFindsTheLongestCommonSubsequence) {
  expect_same({"MSET", "a", "ohmytext", "b", "mynewtext"});
  expect_same({"LCS", "a", "b"});
  expect_same({"LCS", "a", "b", "LEN"});
  expect_same({"LCS", "a", "b", "IDX"});
  expect_same({"LCS", "a", "b", "IDX", "MINMATCHLEN", "4"});
  expect_same({"LCS", "a", "b", "IDX", "MINMATCHLEN", "4", "WITHMATCHLEN"});
  expect_same({"LCS", "a", "b", "idx", "withmatchlen"});
  expect_same({"LCS", "a", "b", "IDX", "MINMATCHLEN", "-5"});
  expect_same({"LCS", "a", "b", "IDX", "MINMATCHLEN", "100"});
  expect_same({"LCS", "a", "b", "LEN", "LEN", "WITHMATCHLEN"});
  expect_same({"LCS", "a", "b", "MINMATCHLEN", "2"});
  expect_same({"LCS", "b", "a", "IDX", "WITHMATCHLEN"});
  expect_same({"LCS", "a", "a", "IDX", "WITHMATCHLEN"});
  expect_same({"LCS", "a", "missing"});
  expect_same({"LCS", "missing", "a", "LEN"});
  expect_same({"LCS", "missing", "other", "IDX"});
  // string.tcl's sequences, shortened: several ranges, matches at both strings' starts and ends.
  expect_same({"MSET", "rna1", "CACCTTCCCAGGTAACAAACCAACCAACTTTCGATCTCTTGTAGATCTGTTCTCTAAACGAAC",
               "rna2", "ATTAAAGGTTTATACCTTCCCAGGTAACAAACCAACCAACTTTCGATCTCTTGTAGATCTGTTCT"});
  expect_same({"LCS", "rna1", "rna2"});
  expect_same({"LCS", "rna1", "rna2", "LEN"});
  expect_same({"LCS", "rna1", "rna2", "IDX", "WITHMATCHLEN"});
  expect_same({"LCS", "rna1", "rna2", "IDX", "MINMATCHLEN", "5", "WITHMATCHLEN"});
  expect_same({"MSET", "x", "abcabc", "y", "cba", "i", "12321", "j", "123"});
  expect_same({"LCS", "x", "y", "IDX", "WITHMATCHLEN"});
  expect_same({"LCS", "y", "x", "IDX", "WITHMATCHLEN"});
  expect_same({"LCS", "i", "j"});
  expect_same({"LCS", "i", "j", "IDX"});
  expect_same({"MSET", "bin1", std::string("a\0b\xff\0", 5), "bin2", std::string("\0\xff\0b", 4)});
  expect_same({"LCS", "bin1", "bin2"});
  expect_same({"LCS", "bin1", "bin2", "IDX", "WITHMATCHLEN"});
}

TEST_F(Differential, LcsRefusesBadArgumentsAndTypes) {
  expect_same({"MSET", "a", "abc", "b", "abd"});
  expect_same({"HSET", "h", "f", "v"});
  expect_same({"LCS", "a", "b", "LEN", "IDX"});
  expect_same({"LCS", "a", "b", "IDX", "LEN"});
  expect_same({"LCS", "a", "b", "FOO"});
  expect_same({"LCS", "a", "b", "MINMATCHLEN"});
  expect_same({"LCS", "a", "b", "MINMATCHLEN", "x"});
  expect_same({"LCS", "a", "b", "MINMATCHLEN", " 1"});
  expect_same({"LCS", "a", "b", "MINMATCHLEN", "1.5"});
  expect_same({"LCS", "a", "b", std::string("LEN\0x", 5)});
  // The types are checked before the options.
  expect_same({"LCS", "a", "h"});
  expect_same({"LCS", "h", "a", "FOO"});
  expect_same({"LCS", "h", "missing", "LEN", "IDX"});
  expect_same({"LCS", "a"});
  expect_same({"LCS"});
  expect_same({"EVAL", "return redis.call('lcs', KEYS[1], KEYS[2], 'idx', 'withmatchlen')", "2", "a", "b"});
  expect_same({"EVAL", "return redis.pcall('lcs', KEYS[1], KEYS[2])", "2", "a", "h"});
}

}  // namespace locksim::test

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

}  // namespace locksim::test

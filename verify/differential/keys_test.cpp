// Differential: keys and expiry (cmd_keys.cpp).
#include <chrono>
#include <thread>

#include "verify/support/differential.hpp"

namespace locksim::test {
namespace {

// 2100-01-01 and 2200-01-01: far enough ahead that nothing expires during a test.
constexpr const char* kFarSeconds = "4102444800";
constexpr const char* kFarterSeconds = "7258118400";
constexpr const char* kFarMs = "4102444800000";
constexpr const char* kFarterMs = "7258118400000";

}  // namespace

TEST_F(Differential, DelCountsOnlyKeysThatExisted) {
  expect_same({"DEL", "missing"});
  expect_same({"SET", "a", "1"});
  expect_same({"HSET", "b", "f", "v"});
  expect_same({"RPUSH", "c", "x"});
  expect_same({"DEL", "a", "b", "c", "d"});
  expect_same({"EXISTS", "a", "b", "c"});
  expect_same({"SET", "a", "1"});
  expect_same({"DEL", "a", "a", "a"});
}

TEST_F(Differential, DelOfAnExpiredKeyCountsNothing) {
  expect_same({"SET", "k", "v", "PX", "1"});
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  expect_same({"DEL", "k"});
}

TEST_F(Differential, ExistsCountsARepeatedKeyEachTime) {
  expect_same({"EXISTS", "k"});
  expect_same({"SET", "k", "v"});
  expect_same({"ZADD", "z", "1", "m"});
  expect_same({"EXISTS", "k", "k", "z", "missing", "k"});
}

TEST_F(Differential, TypeNamesEveryKind) {
  expect_same({"SET", "s", "v"});
  expect_same({"HSET", "h", "f", "v"});
  expect_same({"LPUSH", "l", "x"});
  expect_same({"ZADD", "z", "1", "m"});
  for (const char* key : {"s", "h", "l", "z", "missing"}) expect_same({"TYPE", key});
}

TEST_F(Differential, TtlAndPttlOfMissingAndPersistentKeys) {
  expect_same({"TTL", "missing"});
  expect_same({"PTTL", "missing"});
  expect_same({"EXPIRETIME", "missing"});
  expect_same({"PEXPIRETIME", "missing"});
  expect_same({"SET", "k", "v"});
  expect_same({"TTL", "k"});
  expect_same({"PTTL", "k"});
  expect_same({"EXPIRETIME", "k"});
  expect_same({"PEXPIRETIME", "k"});
}

TEST_F(Differential, ExpireSetsARelativeTimeOnEveryType) {
  expect_same({"SET", "s", "v"});
  expect_same({"HSET", "h", "f", "v"});
  expect_same({"RPUSH", "l", "x"});
  expect_same({"ZADD", "z", "1", "m"});
  expect_same({"EXPIRE", "s", "100"});
  expect_same({"PEXPIRE", "h", "100000"});
  expect_same({"EXPIRE", "l", "1500"});
  expect_same({"PEXPIRE", "z", "1500"});
  for (const char* key : {"s", "h", "l", "z"}) {
    expect_close({"TTL", key}, 1);
    expect_close({"PTTL", key}, 100);
  }
  expect_same({"EXPIRE", "missing", "100"});
  expect_same({"PEXPIRE", "missing", "100"});
}

TEST_F(Differential, TtlRoundsToTheNearestSecond) {
  expect_same({"SET", "k", "v", "PX", "1499"});
  expect_close({"TTL", "k"}, 0);
  expect_same({"SET", "k", "v", "PX", "2800"});
  expect_close({"TTL", "k"}, 0);
}

TEST_F(Differential, ExpireatAndPexpireatSetAbsoluteTimes) {
  expect_same({"SET", "k", "v"});
  expect_same({"EXPIREAT", "k", kFarSeconds});
  expect_same({"EXPIRETIME", "k"});
  expect_same({"PEXPIRETIME", "k"});
  expect_same({"PEXPIREAT", "k", "4102444800999"});
  expect_same({"EXPIRETIME", "k"});
  expect_same({"PEXPIRETIME", "k"});
  expect_same({"PEXPIREAT", "k", "4102444800499"});
  expect_same({"EXPIRETIME", "k"});
  expect_same({"PEXPIREAT", "k", "4102444800500"});
  expect_same({"EXPIRETIME", "k"});
  expect_same({"EXPIREAT", "missing", kFarSeconds});
  expect_same({"PEXPIREAT", "missing", kFarMs});
}

TEST_F(Differential, ZeroOrNegativeOrPastTimesDeleteTheKey) {
  const std::vector<std::vector<std::string>> forms = {
      {"EXPIRE", "k", "0"},         {"EXPIRE", "k", "-1"},        {"PEXPIRE", "k", "0"},
      {"PEXPIRE", "k", "-100"},     {"EXPIREAT", "k", "0"},       {"EXPIREAT", "k", "1"},
      {"PEXPIREAT", "k", "1"},      {"PEXPIREAT", "k", "-5"},     {"EXPIRE", "k", "-9223372036854775"},
      {"PEXPIRE", "k", "-9223372036854775808"}, {"PEXPIREAT", "k", "-9223372036854775808"},
  };
  for (const auto& form : forms) {
    expect_same({"SET", "k", "v"});
    expect_same(form);
    expect_same({"EXISTS", "k"});
    expect_same(form);
  }
  expect_same({"HSET", "h", "f", "v"});
  expect_same({"EXPIRE", "h", "0"});
  expect_same({"TYPE", "h"});
}

TEST_F(Differential, ExpireTimesMustBeIntegers) {
  expect_same({"SET", "k", "v"});
  for (const char* cmd : {"EXPIRE", "PEXPIRE", "EXPIREAT", "PEXPIREAT"}) {
    for (const char* t : {"abc", "1.5", "01", "+1", "-0", " 1", "", "9223372036854775808",
                          "-9223372036854775809", "123456789012345678901"}) {
      expect_same({cmd, "k", t});
      expect_same({cmd, "missing", t});
    }
  }
  expect_same({"TTL", "k"});
}

TEST_F(Differential, ExpireTimesThatOverflowAreInvalid) {
  expect_same({"SET", "k", "v"});
  expect_same({"EXPIRE", "k", "9223372036854776"});
  expect_same({"EXPIRE", "k", "-9223372036854776"});
  expect_same({"EXPIRE", "k", "9223372036854775"});
  expect_same({"EXPIREAT", "k", "9223372036854776"});
  expect_same({"EXPIREAT", "k", "-9223372036854776"});
  expect_same({"PEXPIRE", "k", "9223372036854775807"});
  expect_same({"EXPIRE", "missing", "9223372036854776"});
  expect_same({"TTL", "k"});
  expect_same({"EXPIREAT", "k", "9223372036854775"});
  expect_same({"PEXPIRETIME", "k"});
  expect_same({"PEXPIREAT", "k", "9223372036854775807"});
  expect_same({"PEXPIRETIME", "k"});
  expect_same({"EXPIRETIME", "k"});
}

TEST_F(Differential, ExpireNxSetsOnlyWithoutAnExpiry) {
  expect_same({"SET", "k", "v"});
  expect_same({"EXPIREAT", "k", kFarSeconds, "NX"});
  expect_same({"EXPIREAT", "k", kFarterSeconds, "nx"});
  expect_same({"EXPIRETIME", "k"});
  expect_same({"EXPIRE", "missing", "10", "NX"});
}

TEST_F(Differential, ExpireXxSetsOnlyOverAnExpiry) {
  expect_same({"SET", "k", "v"});
  expect_same({"EXPIREAT", "k", kFarSeconds, "XX"});
  expect_same({"TTL", "k"});
  expect_same({"EXPIREAT", "k", kFarSeconds});
  expect_same({"PEXPIREAT", "k", kFarterMs, "XX"});
  expect_same({"PEXPIRETIME", "k"});
  expect_same({"EXPIRE", "k", "0", "XX"});
  expect_same({"EXISTS", "k"});
}

TEST_F(Differential, ExpireGtTreatsNoExpiryAsInfinite) {
  expect_same({"SET", "k", "v"});
  expect_same({"EXPIREAT", "k", kFarSeconds, "GT"});
  expect_same({"TTL", "k"});
  expect_same({"EXPIREAT", "k", kFarSeconds});
  expect_same({"EXPIREAT", "k", kFarSeconds, "GT"});
  expect_same({"PEXPIREAT", "k", "4102444799999", "GT"});
  expect_same({"PEXPIREAT", "k", kFarterMs, "gt"});
  expect_same({"PEXPIRETIME", "k"});
  expect_same({"EXPIRE", "k", "-1", "GT"});
  expect_same({"EXISTS", "k"});
}

TEST_F(Differential, ExpireLtAlwaysSetsOverNoExpiry) {
  expect_same({"SET", "k", "v"});
  expect_same({"EXPIREAT", "k", kFarterSeconds, "LT"});
  expect_same({"EXPIRETIME", "k"});
  expect_same({"EXPIREAT", "k", kFarterSeconds, "LT"});
  expect_same({"PEXPIREAT", "k", "7258118400001", "LT"});
  expect_same({"EXPIREAT", "k", kFarSeconds, "lt"});
  expect_same({"EXPIRETIME", "k"});
  expect_same({"EXPIRE", "k", "-1", "LT"});
  expect_same({"EXISTS", "k"});
  expect_same({"SET", "k", "v"});
  expect_same({"EXPIRE", "k", "-1", "LT"});
  expect_same({"EXISTS", "k"});
}

TEST_F(Differential, ExpireFlagsCombineOnlyAsRedisAllows) {
  expect_same({"SET", "k", "v"});
  expect_same({"EXPIRE", "k", "10", "NX", "XX"});
  expect_same({"EXPIRE", "k", "10", "NX", "GT"});
  expect_same({"EXPIRE", "k", "10", "LT", "NX"});
  expect_same({"EXPIRE", "k", "10", "GT", "LT"});
  expect_same({"EXPIRE", "k", "10", "NX", "GT", "LT"});
  expect_same({"EXPIRE", "k", "10", "XX", "GT"});
  expect_same({"EXPIREAT", "k", kFarSeconds, "XX", "LT"});
  expect_same({"EXPIREAT", "k", kFarSeconds});
  expect_same({"EXPIREAT", "k", kFarterSeconds, "XX", "GT"});
  expect_same({"EXPIRETIME", "k"});
  expect_same({"EXPIREAT", "k", kFarSeconds, "NX", "NX"});
  expect_same({"EXPIRE", "k", "10", "FOO"});
  expect_same({"EXPIRE", "k", "10", "NX", "FOO"});
  expect_same({"EXPIRE", "k", "abc", "FOO"});
  expect_same({"EXPIRE", "k", "abc", "NX", "XX"});
  expect_same({"PEXPIRE", "missing", "10", "bar"});
  expect_same({"EXPIRE", "missing", "abc", "NX"});
  expect_same({"EXPIRE", "missing", "9223372036854776", "NX"});
  expect_same({"EXPIRETIME", "k"});
}

TEST_F(Differential, ExpireOptionsEndAtANulByteAsRedisCStringsDo) {
  expect_same({"SET", "k", "v"});
  expect_same({"EXPIREAT", "k", kFarSeconds, std::string("NX\0junk", 7)});
  expect_same({"EXPIRETIME", "k"});
  expect_same({"EXPIREAT", "k", kFarterSeconds, std::string("bad\0junk", 8)});
  expect_same({"EXPIREAT", "k", kFarterSeconds, std::string("\0", 1)});
}

TEST_F(Differential, UnsupportedOptionErrorsStayOnOneLine) {
  expect_same({"SET", "k", "v"});
  expect_same({"EXPIRE", "k", "10", "a\r\nb"});
  expect_same({"EXPIRE", "k", "10", "x\n"});
  expect_same({"PEXPIRE", "k", "10", "\ry"});
}

TEST_F(Differential, PersistRemovesOnlyAnExistingExpiry) {
  expect_same({"PERSIST", "missing"});
  expect_same({"SET", "k", "v"});
  expect_same({"PERSIST", "k"});
  expect_same({"EXPIREAT", "k", kFarSeconds});
  expect_same({"PERSIST", "k"});
  expect_same({"TTL", "k"});
  expect_same({"PERSIST", "k"});
  expect_same({"RPUSH", "l", "a"});
  expect_same({"PEXPIREAT", "l", kFarMs});
  expect_same({"PERSIST", "l"});
  expect_same({"PTTL", "l"});
}

TEST_F(Differential, AnExpiredKeyIsGoneForEveryCommand) {
  expect_same({"SET", "k", "v", "PX", "1"});
  expect_same({"HSET", "h", "f", "1"});
  expect_same({"PEXPIRE", "h", "1"});
  expect_same({"RPUSH", "l", "a"});
  expect_same({"PEXPIRE", "l", "1"});
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  expect_same({"TTL", "k"});
  expect_same({"PTTL", "k"});
  expect_same({"PERSIST", "k"});
  expect_same({"TYPE", "h"});
  expect_same({"HINCRBY", "h", "f", "1"});
  expect_same({"TTL", "h"});
  expect_same({"LLEN", "l"});
  expect_same({"SET", "k", "new", "XX"});
  expect_same({"SETNX", "k", "new"});
  expect_same({"GET", "k"});
  expect_same({"TTL", "k"});
}

TEST_F(Differential, KeyCommandsCheckTheirArity) {
  expect_same({"DEL"});
  expect_same({"EXISTS"});
  expect_same({"EXPIRE", "k"});
  expect_same({"PEXPIRE", "k"});
  expect_same({"EXPIREAT", "k"});
  expect_same({"PEXPIREAT", "k"});
  expect_same({"TTL"});
  expect_same({"TTL", "a", "b"});
  expect_same({"PTTL"});
  expect_same({"EXPIRETIME"});
  expect_same({"PEXPIRETIME", "a", "b"});
  expect_same({"PERSIST"});
  expect_same({"PERSIST", "a", "b"});
  expect_same({"TYPE"});
  expect_same({"TYPE", "a", "b"});
}

TEST_F(Differential, UnlinkAndTouchCountKeysThatExist) {
  expect_same({"SET", "a", "1"});
  expect_same({"SADD", "s", "m"});
  expect_same({"SET", "e", "v", "PX", "1"});
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  expect_same({"TOUCH", "a", "s", "a", "e", "missing"});
  expect_same({"UNLINK", "a", "s", "e", "missing", "a"});
  expect_same({"EXISTS", "a", "s"});
  expect_same({"UNLINK"});
  expect_same({"TOUCH"});
}

TEST_F(Differential, RenameMovesValueAndExpiry) {
  expect_same({"RENAME", "missing", "x"});
  expect_same({"RENAMENX", "missing", "x"});
  expect_same({"RENAME", "missing", "missing"});
  expect_same({"SET", "a", "v", "EX", "100"});
  expect_same({"RENAME", "a", "a"});
  expect_same({"RENAMENX", "a", "a"});
  expect_same({"RENAME", "a", "b"});
  expect_same({"EXISTS", "a"});
  expect_same({"GET", "b"});
  expect_close({"TTL", "b"}, 1);
  expect_same({"SADD", "s", "1", "2"});
  expect_same({"RENAMENX", "b", "s"});
  expect_same({"RENAME", "b", "s"});
  expect_same({"TYPE", "s"});
  expect_close({"TTL", "s"}, 1);
  expect_same({"HSET", "h", "f", "v"});
  expect_same({"RENAMENX", "h", "s2"});
  expect_same({"HGETALL", "s2"});
  expect_same({"TTL", "s2"});
  expect_same({"SET", "gone", "v", "PX", "1"});
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  expect_same({"RENAME", "gone", "x"});
  expect_same({"RENAME", "s2", "gone"});
  expect_same({"RENAME", "a"});
  expect_same({"RENAMENX", "a", "b", "c"});
}

TEST_F(Differential, RandomkeyWithNothingToChooseFrom) {
  expect_same({"RANDOMKEY"});
  expect_same({"SET", "only", "v"});
  expect_same({"RANDOMKEY"});
  expect_same({"SET", "e", "v", "PX", "1"});
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  expect_same({"RANDOMKEY"});
  expect_same({"DEL", "only"});
  expect_same({"RANDOMKEY"});
  expect_same({"RANDOMKEY", "x"});
}

}  // namespace locksim::test

// Differential: bitmaps (cmd_bits.cpp): SETBIT, GETBIT, BITCOUNT, BITPOS, BITOP, and what they leave
// behind (the bytes, OBJECT ENCODING, expiry). Nothing here is random, so every reply is compared
// exactly; the cases of Redis's tests/unit/bitops.tcl that are deterministic are among them.
#include <string>

#include "verify/support/differential.hpp"

namespace locksim::test {

TEST_F(Differential, SetbitGrowsTheStringAndAnswersTheOldBit) {
  expect_same({"SETBIT", "k", "7", "1"});
  expect_same({"GET", "k"});
  expect_same({"SETBIT", "k", "7", "1"});
  expect_same({"SETBIT", "k", "7", "0"});
  expect_same({"SETBIT", "k", "0", "1"});
  expect_same({"SETBIT", "k", "100", "1"});
  expect_same({"STRLEN", "k"});
  expect_same({"GET", "k"});
  expect_same({"SETBIT", "k", "3", "0"});  // clearing a clear bit inside the string
  expect_same({"SETBIT", "k", "200", "0"});  // clearing past the end still grows it
  expect_same({"STRLEN", "k"});
  expect_same({"OBJECT", "ENCODING", "k"});
  expect_same({"GET", "k"});
}

TEST_F(Differential, SetbitLeavesEveryStringRaw) {
  // bitops.tcl: SETBIT against integer-encoded key, and against a shared integer.
  expect_same({"SET", "i", "1"});
  expect_same({"OBJECT", "ENCODING", "i"});
  expect_same({"SETBIT", "i", "6", "1"});
  expect_same({"GET", "i"});
  expect_same({"OBJECT", "ENCODING", "i"});
  expect_same({"SET", "big", "123456789012"});
  expect_same({"SETBIT", "big", "0", "0"});  // nothing changes but the encoding
  expect_same({"GET", "big"});
  expect_same({"OBJECT", "ENCODING", "big"});
  expect_same({"SET", "e", "hello"});
  expect_same({"SETBIT", "e", "1", "0"});
  expect_same({"GET", "e"});
  expect_same({"OBJECT", "ENCODING", "e"});
  expect_same({"INCR", "big"});  // a raw string that holds an integer still counts
  expect_same({"GET", "big"});
}

TEST_F(Differential, SetbitKeepsTheKeysExpiry) {
  expect_same({"SET", "k", "v", "EX", "100"});
  expect_same({"SETBIT", "k", "1", "1"});
  expect_close({"TTL", "k"}, 1);
}

TEST_F(Differential, SetbitAndGetbitRefuseBadOffsetsAndBits) {
  expect_same({"SET", "k", "x"});
  for (const char* offset : {"-1", "x", " 1", "1 ", "1.0", "", "+1", "01", "4294967296", "9223372036854775807",
                             "9223372036854775808", "-9223372036854775808"}) {
    expect_same({"SETBIT", "k", offset, "1"});
    expect_same({"GETBIT", "k", offset});
    expect_same({"GETBIT", "missing", offset});
  }
  // 2^32-1, the last bit of a 512 MB string: readable (SETBIT there would make the whole string).
  expect_same({"GETBIT", "k", "4294967295"});
  for (const char* bit : {"2", "-1", "x", "", " 1", "1.0", "10", "9223372036854775808"})
    expect_same({"SETBIT", "k", "1", bit});
  // The offset is checked before the bit, and both before the key's type.
  expect_same({"HSET", "h", "f", "v"});
  expect_same({"SETBIT", "h", "-1", "2"});
  expect_same({"SETBIT", "h", "1", "2"});
  expect_same({"SETBIT", "h", "1", "1"});
  expect_same({"GETBIT", "h", "x"});
  expect_same({"GETBIT", "h", "1"});
  expect_same({"GET", "k"});
  expect_same({"EXISTS", "missing"});
}

TEST_F(Differential, GetbitReadsBitsOfStringsAndIntegers) {
  expect_same({"SET", "k", "`"});  // 0110 0000
  for (const char* offset : {"0", "1", "2", "3", "7", "8", "1000"}) expect_same({"GETBIT", "k", offset});
  expect_same({"SET", "i", "12"});  // an int-encoded string is read as its digits
  for (const char* offset : {"0", "2", "3", "10", "11", "15", "16"}) expect_same({"GETBIT", "i", offset});
  expect_same({"GETBIT", "missing", "0"});
  expect_same({"EXISTS", "missing"});
  expect_same({"GETBIT", "k"});
  expect_same({"GETBIT", "k", "1", "2"});
  expect_same({"SETBIT", "k", "1"});
}

TEST_F(Differential, BitcountOfWholeStringsAndByteRanges) {
  expect_same({"BITCOUNT", "missing"});
  expect_same({"SET", "k", "foobar"});
  expect_same({"BITCOUNT", "k"});
  for (auto [start, end] : std::initializer_list<std::pair<const char*, const char*>>{
           {"0", "0"}, {"1", "1"}, {"0", "-1"}, {"-2", "-1"}, {"-1", "-2"}, {"5", "3"}, {"-100", "100"},
           {"100", "200"}, {"2", "-100"}, {"-9223372036854775808", "9223372036854775807"}, {"0", "0"}}) {
    expect_same({"BITCOUNT", "k", start, end});
    expect_same({"BITCOUNT", "k", start, end, "BYTE"});
    expect_same({"BITCOUNT", "k", start, end, "bit"});
  }
  expect_same({"SET", "i", "-123"});
  expect_same({"BITCOUNT", "i"});
  expect_same({"BITCOUNT", "i", "1", "2"});
  expect_same({"SET", "e", ""});
  expect_same({"BITCOUNT", "e"});
  expect_same({"BITCOUNT", "e", "0", "-1"});
  expect_same({"BITCOUNT", "e", "0", "-1", "BIT"});
}

TEST_F(Differential, BitcountWithBitRanges) {
  // bitops.tcl: BITCOUNT with start, end (BIT), e.g. on "foobar" and a string of all ones.
  expect_same({"SET", "s", "foobar"});
  for (auto [start, end] : std::initializer_list<std::pair<const char*, const char*>>{
           {"0", "0"}, {"1", "1"}, {"0", "7"}, {"1", "6"}, {"3", "12"}, {"5", "30"}, {"7", "8"}, {"8", "15"},
           {"-1", "-1"}, {"-8", "-1"}, {"-7", "-2"}, {"0", "47"}, {"0", "48"}, {"47", "47"}, {"46", "100"}}) {
    expect_same({"BITCOUNT", "s", start, end, "BIT"});
  }
  expect_same({"SET", "ones", "\xff\xff\xff"});
  for (auto [start, end] : std::initializer_list<std::pair<const char*, const char*>>{
           {"0", "0"}, {"1", "14"}, {"3", "3"}, {"7", "16"}, {"-3", "-2"}, {"23", "23"}, {"9", "9"}})
    expect_same({"BITCOUNT", "ones", start, end, "BIT"});
}

TEST_F(Differential, BitcountRefusesBadArguments) {
  expect_same({"SET", "k", "foobar"});
  expect_same({"BITCOUNT", "k", "0"});
  expect_same({"BITCOUNT", "k", "0", "1", "BIT", "x"});
  expect_same({"BITCOUNT", "k", "0", "1", "bits"});
  expect_same({"BITCOUNT", "k", "0", "1", std::string("bit\0x", 5)});
  expect_same({"BITCOUNT", "k", "x", "1"});
  expect_same({"BITCOUNT", "k", "0", "x"});
  expect_same({"BITCOUNT", "k", " 0", "1"});
  expect_same({"BITCOUNT", "k", "0", "1.5"});
  // Two negative indexes the wrong way round answer 0 before the unit is read.
  expect_same({"BITCOUNT", "k", "-1", "-2", "nonsense"});
  // A missing key answers 0 before anything else is read; a wrong type refuses first.
  expect_same({"BITCOUNT", "missing", "0"});
  expect_same({"BITCOUNT", "missing", "x", "y", "z"});
  expect_same({"LPUSH", "l", "x"});
  expect_same({"BITCOUNT", "l"});
  expect_same({"BITCOUNT", "l", "x"});
  expect_same({"BITCOUNT"});
}

TEST_F(Differential, BitposFindsSetAndClearBits) {
  expect_same({"BITPOS", "missing", "0"});
  expect_same({"BITPOS", "missing", "1"});
  expect_same({"BITPOS", "missing", "1", "x"});
  expect_same({"SET", "k", std::string("\xff\xf0\x00", 3)});
  expect_same({"BITPOS", "k", "0"});
  expect_same({"BITPOS", "k", "1"});
  expect_same({"SET", "k", std::string("\x00\xff\xf0", 3)});
  for (const char* start : {"0", "1", "2", "3", "-1", "-2", "-100"}) {
    expect_same({"BITPOS", "k", "1", start});
    expect_same({"BITPOS", "k", "0", start});
  }
  for (auto [start, end] : std::initializer_list<std::pair<const char*, const char*>>{
           {"0", "0"}, {"0", "1"}, {"1", "1"}, {"2", "-1"}, {"-1", "-3"}, {"5", "10"}, {"1", "0"}}) {
    expect_same({"BITPOS", "k", "1", start, end});
    expect_same({"BITPOS", "k", "0", start, end});
    expect_same({"BITPOS", "k", "0", start, end, "BYTE"});
  }
  // bitops.tcl: "BITPOS bit=0 with string less than 1 word works", "... fuzzy testing" shapes.
  expect_same({"SET", "ones", std::string("\xff\xff\xff", 3)});
  expect_same({"BITPOS", "ones", "0"});
  expect_same({"BITPOS", "ones", "0", "0"});
  expect_same({"BITPOS", "ones", "0", "0", "-1"});
  expect_same({"SET", "zeros", std::string(20, '\0')});
  expect_same({"BITPOS", "zeros", "1"});
  expect_same({"BITPOS", "zeros", "0"});
  expect_same({"SET", "long", std::string(40, '\xff') + "\x7f" + std::string(10, '\0')});
  expect_same({"BITPOS", "long", "0"});
  expect_same({"BITPOS", "long", "1", "40"});
  expect_same({"BITPOS", "long", "0", "41"});
  expect_same({"BITPOS", "long", "1", "41"});
  expect_same({"SET", "i", "1"});
  expect_same({"BITPOS", "i", "1"});
  expect_same({"BITPOS", "i", "0"});
  expect_same({"SET", "e", ""});
  expect_same({"BITPOS", "e", "0"});
  expect_same({"BITPOS", "e", "1"});
  expect_same({"BITPOS", "e", "0", "0"});
}

TEST_F(Differential, BitposWithBitRanges) {
  expect_same({"SET", "k", std::string("\x00\xff\x00", 3)});
  for (auto [start, end] : std::initializer_list<std::pair<const char*, const char*>>{
           {"0", "7"}, {"7", "9"}, {"8", "8"}, {"9", "15"}, {"15", "16"}, {"16", "23"}, {"-8", "-1"}, {"-9", "-1"},
           {"3", "3"}, {"10", "12"}, {"0", "100"}, {"20", "4"}, {"23", "23"}, {"1", "22"}}) {
    expect_same({"BITPOS", "k", "1", start, end, "BIT"});
    expect_same({"BITPOS", "k", "0", start, end, "bit"});
  }
  expect_same({"SET", "ones", std::string("\xff\xff", 2)});
  for (auto [start, end] : std::initializer_list<std::pair<const char*, const char*>>{
           {"0", "15"}, {"3", "5"}, {"7", "8"}, {"15", "15"}, {"9", "10"}}) {
    expect_same({"BITPOS", "ones", "0", start, end, "BIT"});
    expect_same({"BITPOS", "ones", "1", start, end, "BIT"});
  }
  // Without an end, a clear bit past the range counts as found (the string is zero-padded).
  expect_same({"BITPOS", "ones", "0", "3"});
  expect_same({"BITPOS", "ones", "0", "3", "-1"});
}

TEST_F(Differential, BitposRefusesBadArguments) {
  expect_same({"SET", "k", "foo"});
  for (const char* bit : {"2", "-1", "x", "", " 1", "1.0", "9223372036854775808"}) {
    expect_same({"BITPOS", "k", bit});
    expect_same({"BITPOS", "missing", bit});
  }
  expect_same({"BITPOS", "k", "1", "x"});
  expect_same({"BITPOS", "k", "1", "0", "x"});
  expect_same({"BITPOS", "k", "1", "0", "1", "BITS"});
  expect_same({"BITPOS", "k", "1", "x", "1", "BITS"});  // the start is read before the unit
  expect_same({"BITPOS", "k", "1", "0", "x", "BITS"});  // the unit before the end
  expect_same({"BITPOS", "k", "1", "0", "1", "BIT", "x"});
  expect_same({"SADD", "s", "m"});
  expect_same({"BITPOS", "s", "1"});
  expect_same({"BITPOS", "s", "2"});
  expect_same({"BITPOS", "s", "1", "x"});
  expect_same({"BITPOS", "k"});
}

TEST_F(Differential, BitopCombinesStringsOfEveryLength) {
  expect_same({"SET", "a", "foobar"});
  expect_same({"SET", "b", "abcdef"});
  expect_same({"SET", "c", "xy"});
  expect_same({"SET", "n", "12"});
  for (const char* op : {"AND", "or", "Xor"}) {
    expect_same({"BITOP", op, "dest", "a", "b"});
    expect_same({"GET", "dest"});
    expect_same({"BITOP", op, "dest", "a", "c", "missing"});
    expect_same({"GET", "dest"});
    expect_same({"BITOP", op, "dest", "c"});
    expect_same({"GET", "dest"});
    expect_same({"BITOP", op, "dest", "n", "a", "b", "c"});
    expect_same({"GET", "dest"});
  }
  expect_same({"BITOP", "NOT", "dest", "a"});
  expect_same({"GET", "dest"});
  expect_same({"BITOP", "not", "dest", "n"});
  expect_same({"GET", "dest"});
  expect_same({"OBJECT", "ENCODING", "dest"});
  // Long enough for Redis's word-at-a-time fast path (32 bytes and more).
  const std::string x(70, 'x'), y = std::string(40, '\x0f') + std::string(35, '\xf3');
  expect_same({"SET", "x", x});
  expect_same({"SET", "y", y});
  for (const char* op : {"AND", "OR", "XOR"}) {
    expect_same({"BITOP", op, "dest", "x", "y", "x"});
    expect_same({"GET", "dest"});
  }
  expect_same({"BITOP", "NOT", "dest", "y"});
  expect_same({"GET", "dest"});
  // The destination may be a source.
  expect_same({"BITOP", "XOR", "a", "a", "b"});
  expect_same({"GET", "a"});
}

TEST_F(Differential, BitopReplacesTheDestinationOrDeletesIt) {
  expect_same({"HSET", "dest", "f", "v"});
  expect_same({"SET", "a", "ab"});
  expect_same({"BITOP", "OR", "dest", "a"});  // whatever it held, and its expiry, goes
  expect_same({"TYPE", "dest"});
  expect_same({"SET", "dest", "v", "EX", "100"});
  expect_same({"BITOP", "OR", "dest", "a"});
  expect_same({"TTL", "dest"});
  expect_same({"OBJECT", "ENCODING", "dest"});
  expect_same({"SET", "empty", ""});
  expect_same({"BITOP", "AND", "dest", "missing", "empty"});  // an empty result deletes it
  expect_same({"EXISTS", "dest"});
  expect_same({"BITOP", "AND", "dest", "missing"});
  expect_same({"EXISTS", "dest"});
  expect_same({"BITOP", "NOT", "dest", "missing"});
  expect_same({"EXISTS", "dest"});
}

TEST_F(Differential, BitopRefusesBadOperationsAndTypes) {
  expect_same({"SET", "a", "x"});
  expect_same({"LPUSH", "l", "x"});
  expect_same({"BITOP", "NAND", "dest", "a"});
  expect_same({"BITOP", "", "dest", "a"});
  expect_same({"BITOP", std::string("and\0x", 5), "dest", "a"});
  expect_same({"GET", "dest"});
  expect_same({"BITOP", "NOT", "dest", "a", "a"});
  expect_same({"BITOP", "NOT", "dest", "l", "a"});
  expect_same({"BITOP", "AND", "dest", "a", "l"});
  expect_same({"BITOP", "AND", "dest", "l"});
  expect_same({"BITOP", "NOT", "dest", "l"});
  expect_same({"EXISTS", "dest"});
  expect_same({"BITOP", "AND", "dest"});
  expect_same({"BITOP", "AND"});
}

TEST_F(Differential, BitCommandsFromAScript) {
  expect_same({"EVAL", "redis.call('setbit', KEYS[1], 9, 1); return {redis.call('getbit', KEYS[1], 9), "
               "redis.call('bitcount', KEYS[1]), redis.call('bitpos', KEYS[1], 1), "
               "redis.call('bitop', 'not', KEYS[2], KEYS[1])}",
               "2", "{k}a", "{k}b"});
  expect_same({"GET", "{k}b"});
  expect_same({"EVAL", "return redis.pcall('setbit', KEYS[1], -1, 1)", "1", "{k}a"});
  expect_same({"EVAL", "#!lua flags=no-writes\nreturn redis.pcall('setbit', KEYS[1], 1, 1)", "1", "{k}a"});
}

}  // namespace locksim::test

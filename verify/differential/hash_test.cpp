// Differential: hashes (cmd_hash.cpp). HRANDFIELD chooses at random in Redis: where the choice
// shows, the tests compare what does not depend on it (sizes, membership, that values go with their
// fields), and exactly where nothing is left to chance (a count that takes the whole hash, a hash
// of one field). HSCAN is tested with the other scans (keys_scan_test.cpp).
#include <map>
#include <set>

#include "verify/support/differential_unordered.hpp"

namespace locksim::test {

TEST_F(Differential, HsetCountsOnlyNewFields) {
  expect_same({"HSET", "h", "a", "1"});
  expect_same({"HSET", "h", "a", "2", "b", "3", "c", "4"});
  expect_same({"HSET", "h", "a", "5", "a", "6"});
  expect_same({"HSET", "h", "d", "1", "d", "2"});
  expect_same({"HGET", "h", "a"});
  expect_same({"HGET", "h", "d"});
  expect_same({"HGETALL", "h"});
  expect_same({"HLEN", "h"});
}

TEST_F(Differential, HsetWithAnUnpairedFieldIsAnArityError) {
  expect_same({"HSET", "h", "a", "1", "b"});
  expect_same({"HSET", "h", "a"});
  expect_same({"HSET", "h"});
  expect_same({"EXISTS", "h"});
  expect_same({"SET", "s", "v"});
  expect_same({"HSET", "s", "a", "1", "b"});
}

TEST_F(Differential, HashListingsKeepInsertionOrderAcrossUpdatesAndDeletes) {
  expect_same({"HSET", "h", "z", "1", "a", "2", "m", "3", "b", "4"});
  expect_same({"HSET", "h", "a", "20"});
  expect_same({"HDEL", "h", "m"});
  expect_same({"HSET", "h", "m", "30"});
  expect_same({"HINCRBY", "h", "new", "5"});
  expect_same({"HSETNX", "h", "x", "y"});
  expect_same({"HGETALL", "h"});
  expect_same({"HKEYS", "h"});
  expect_same({"HVALS", "h"});
}

TEST_F(Differential, HashReadsOfAMissingKeyAreEmpty) {
  expect_same({"HGET", "h", "f"});
  expect_same({"HEXISTS", "h", "f"});
  expect_same({"HLEN", "h"});
  expect_same({"HGETALL", "h"});
  expect_same({"HKEYS", "h"});
  expect_same({"HVALS", "h"});
  expect_same({"HDEL", "h", "f"});
  expect_same({"EXISTS", "h"});
}

TEST_F(Differential, HgetAndHexistsOfAMissingField) {
  expect_same({"HSET", "h", "f", "v"});
  expect_same({"HGET", "h", "g"});
  expect_same({"HEXISTS", "h", "g"});
  expect_same({"HEXISTS", "h", "f"});
  expect_same({"HSET", "h", "", ""});
  expect_same({"HGET", "h", ""});
  expect_same({"HEXISTS", "h", ""});
}

TEST_F(Differential, HashValuesRoundTripExactly) {
  for (const char* v : {"01", "+1", "-0", " 1", "1.50", "1e3", "9223372036854775808", "-9223372036854775808",
                        "0", "-1", "0x1", ""}) {
    expect_same({"HSET", "h", "f", v});
    expect_same({"HGET", "h", "f"});
    expect_same({"HVALS", "h"});
  }
}

TEST_F(Differential, HsetnxSetsOnlyAMissingField) {
  expect_same({"HSETNX", "h", "f", "1"});
  expect_same({"HSETNX", "h", "f", "2"});
  expect_same({"HSETNX", "h", "g", "3"});
  expect_same({"HGETALL", "h"});
}

TEST_F(Differential, HincrbyCreatesAndIncrements) {
  expect_same({"HINCRBY", "h", "f", "5"});
  expect_same({"HINCRBY", "h", "f", "-7"});
  expect_same({"HINCRBY", "h", "f", "0"});
  expect_same({"HINCRBY", "h", "g", "-9223372036854775808"});
  expect_same({"HGETALL", "h"});
}

TEST_F(Differential, HincrbyParsesStoredValuesStrictly) {
  for (const char* stored : {"01", "+1", "-0", " 1", "1 ", "1.0", "", "abc", "9223372036854775808", "-",
                             "123456789012345678901"}) {
    expect_same({"HSET", "h", "f", stored});
    expect_same({"HINCRBY", "h", "f", "1"});
    expect_same({"HGET", "h", "f"});
  }
}

TEST_F(Differential, HincrbyParsesTheIncrementFirst) {
  for (const char* by : {"01", "+1", "-0", " 1", "1.5", "", "x", "9223372036854775808", "123456789012345678901"}) {
    expect_same({"HINCRBY", "h", "f", by});
    expect_same({"EXISTS", "h"});
  }
  expect_same({"SET", "s", "v"});
  expect_same({"HINCRBY", "s", "f", "x"});
  expect_same({"HINCRBY", "s", "f", "1"});
}

TEST_F(Differential, HincrbyOverflowIsRefused) {
  expect_same({"HSET", "h", "max", "9223372036854775807", "min", "-9223372036854775808"});
  expect_same({"HINCRBY", "h", "max", "1"});
  expect_same({"HINCRBY", "h", "max", "0"});
  expect_same({"HINCRBY", "h", "max", "-1"});
  expect_same({"HINCRBY", "h", "min", "-1"});
  expect_same({"HINCRBY", "h", "min", "9223372036854775807"});
  expect_same({"HINCRBY", "h", "min", "-9223372036854775808"});
  expect_same({"HGETALL", "h"});
}

TEST_F(Differential, HdelCountsRemovedFieldsAndDeletesAnEmptyHash) {
  expect_same({"HSET", "h", "a", "1", "b", "2", "c", "3"});
  expect_same({"HDEL", "h", "x"});
  expect_same({"HDEL", "h", "a", "a", "x"});
  expect_same({"HLEN", "h"});
  expect_same({"HDEL", "h", "b", "c", "b"});
  expect_same({"EXISTS", "h"});
  expect_same({"TYPE", "h"});
  expect_same({"HGETALL", "h"});
}

TEST_F(Differential, AnEmptiedHashLosesItsTtl) {
  expect_same({"HSET", "h", "a", "1"});
  expect_same({"EXPIREAT", "h", "4102444800"});
  expect_same({"HDEL", "h", "a"});
  expect_same({"HSET", "h", "a", "1"});
  expect_same({"TTL", "h"});
}

TEST_F(Differential, HashCommandsOnOtherTypesAreWrongType) {
  expect_same({"SET", "s", "v"});
  expect_same({"RPUSH", "l", "a"});
  expect_same({"ZADD", "z", "1", "m"});
  for (const char* key : {"s", "l", "z"}) {
    expect_same({"HSET", key, "f", "v"});
    expect_same({"HSETNX", key, "f", "v"});
    expect_same({"HGET", key, "f"});
    expect_same({"HEXISTS", key, "f"});
    expect_same({"HINCRBY", key, "f", "1"});
    expect_same({"HDEL", key, "f"});
    expect_same({"HLEN", key});
    expect_same({"HGETALL", key});
    expect_same({"HKEYS", key});
    expect_same({"HVALS", key});
  }
}

TEST_F(Differential, HashCommandsCheckTheirArity) {
  expect_same({"HSETNX", "h", "f"});
  expect_same({"HSETNX", "h", "f", "v", "x"});
  expect_same({"HGET", "h"});
  expect_same({"HGET", "h", "f", "g"});
  expect_same({"HEXISTS", "h"});
  expect_same({"HINCRBY", "h", "f"});
  expect_same({"HINCRBY", "h", "f", "1", "2"});
  expect_same({"HDEL", "h"});
  expect_same({"HLEN"});
  expect_same({"HGETALL"});
  expect_same({"HKEYS", "a", "b"});
  expect_same({"HVALS"});
}

TEST_F(Differential, HmgetAnswersEachFieldOrNil) {
  expect_same({"HMGET", "missing", "a", "b"});
  expect_same({"HSET", "h", "a", "1", "b", "two", "c", ""});
  expect_same({"HMGET", "h", "a", "x", "b", "c", "a"});
  expect_same({"HMGET", "h", "x"});
  expect_same({"SET", "s", "v"});
  expect_same({"HMGET", "s", "a"});
  expect_same({"HMGET", "h"});
  expect_same({"EVAL", "return redis.call('HMGET', KEYS[1], 'a', 'zz', 'b')", "1", "h"});
}

TEST_F(Differential, HstrlenOfValuesFieldsAndKeys) {
  expect_same({"HSET", "h", "s", "hello", "i", "12345", "n", "-1", "e", "", "big", "18446744073709551616"});
  for (const char* field : {"s", "i", "n", "e", "big", "missing"}) expect_same({"HSTRLEN", "h", field});
  expect_same({"HINCRBY", "h", "i", "-12345"});
  expect_same({"HSTRLEN", "h", "i"});
  expect_same({"HSTRLEN", "missing", "f"});
  expect_same({"SET", "str", "v"});
  expect_same({"HSTRLEN", "str", "f"});
  expect_same({"HSTRLEN", "h"});
  expect_same({"HSTRLEN", "h", "s", "i"});
  // hash.tcl: HSTRLEN of a value past the listpack limit, in a hashtable.
  expect_same({"HSET", "h", "long", std::string(100, 'x')});
  expect_same({"OBJECT", "ENCODING", "h"});
  expect_same({"HSTRLEN", "h", "long"});
  expect_same({"HSTRLEN", "h", "s"});
}

TEST_F(Differential, HincrbyfloatAddsInLongDouble) {
  expect_same({"HINCRBYFLOAT", "h", "f", "10.5"});
  expect_same({"HINCRBYFLOAT", "h", "f", "0.1"});
  expect_same({"HINCRBYFLOAT", "h", "f", "-5"});
  expect_same({"HINCRBYFLOAT", "h", "f", "-5.6"});
  expect_same({"HINCRBYFLOAT", "h", "g", "1e3"});
  expect_same({"HINCRBYFLOAT", "h", "g", "3.0e3"});
  expect_same({"HINCRBYFLOAT", "h", "g", "-0"});
  expect_same({"HINCRBYFLOAT", "h", "z", "-0.0"});
  expect_same({"HSET", "h", "i", "17", "sci", "5.0e3", "plus", "+1.5", "hex", "0x10", "spaced", "1 "});
  expect_same({"HINCRBYFLOAT", "h", "i", "1.5"});
  expect_same({"HINCRBYFLOAT", "h", "sci", "200"});
  expect_same({"HINCRBYFLOAT", "h", "plus", "1"});
  expect_same({"HINCRBYFLOAT", "h", "hex", "1"});
  expect_same({"HINCRBYFLOAT", "h", "spaced", "1"});
  expect_same({"HINCRBYFLOAT", "h", "tiny", "0.0000000000000000001"});
  expect_same({"HINCRBYFLOAT", "h", "huge", "1e30"});
  expect_same({"HGETALL", "h"});
  expect_same({"OBJECT", "ENCODING", "h"});
  // A result longer than 64 bytes turns the hash into a hashtable, as HSET would.
  expect_same({"HINCRBYFLOAT", "h", "huge", "1e100"});
  expect_same({"OBJECT", "ENCODING", "h"});
  expect_same({"HGET", "h", "huge"});
}

TEST_F(Differential, HincrbyfloatRefusesBadNumbers) {
  for (const char* by : {"x", "", " 1", "1 ", "1.5.5", "inf", "-inf", "+inf", "nan", "1e5000", "-1e5000",
                         "1e-5000", "0x", "--1"}) {
    expect_same({"HINCRBYFLOAT", "h", "f", by});
    expect_same({"EXISTS", "h"});
  }
  for (const char* stored : {"abc", "", " 1", "1 ", "1e5000", "nan", "inf", "1.5x"}) {
    expect_same({"HSET", "h", "f", stored});
    expect_same({"HINCRBYFLOAT", "h", "f", "1"});
    expect_same({"HGET", "h", "f"});
  }
  // hash.tcl: HINCRBYFLOAT over 32bit value / against hash key originally set with HSET.
  expect_same({"HSET", "h", "big", "17179869184"});
  expect_same({"HINCRBYFLOAT", "h", "big", "17179869184"});
  // Past long double's range: the sum is refused and the value stays.
  expect_same({"HSET", "h", "max", "1.1e4932"});
  expect_same({"HINCRBYFLOAT", "h", "max", "1.1e4932"});
  expect_same({"HINCRBYFLOAT", "h", "max", "-1.1e4932"});
  expect_same({"HSET", "h", "max", "1.1e4932"});
  expect_same({"HGET", "h", "max"});
  expect_same({"SET", "s", "1"});
  expect_same({"HINCRBYFLOAT", "s", "f", "1"});
  expect_same({"HINCRBYFLOAT", "s", "f", "x"});  // the increment is read before the key
  expect_same({"HINCRBYFLOAT", "s", "f", "inf"});
  expect_same({"HINCRBYFLOAT", "h", "f"});
  expect_same({"HINCRBYFLOAT", "h", "f", "1", "2"});
}

TEST_F(Differential, HincrbyfloatKeepsTheTtlAndBreaksAWatch) {
  expect_same({"HSET", "h", "f", "1"});
  expect_same({"EXPIRE", "h", "100"});
  expect_same({"HINCRBYFLOAT", "h", "f", "0"});
  expect_close({"TTL", "h"}, 1);
  Connection other = connect();
  expect_same({"WATCH", "h"});
  expect_same(other, {"HINCRBYFLOAT", "h", "f", "0"});
  expect_same({"MULTI"});
  expect_same({"HGET", "h", "f"});
  expect_same({"EXEC"});
}

TEST_F(Differential, HrandfieldWithNothingLeftToChance) {
  expect_same({"HRANDFIELD", "missing"});
  expect_same({"HRANDFIELD", "missing", "3"});
  expect_same({"HRANDFIELD", "missing", "-3"});
  expect_same({"HRANDFIELD", "missing", "0"});
  expect_same({"HRANDFIELD", "missing", "3", "WITHVALUES"});
  expect_same({"EXISTS", "missing"});
  expect_same({"HSET", "one", "only", "v"});
  expect_same({"HRANDFIELD", "one"});
  expect_same({"HRANDFIELD", "one", "1"});
  expect_same({"HRANDFIELD", "one", "1", "WITHVALUES"});
  expect_same({"HRANDFIELD", "one", "-3"});
  expect_same({"HRANDFIELD", "one", "-3", "withvalues"});
  expect_same({"HRANDFIELD", "one", "0"});
  expect_same({"HRANDFIELD", "one", "0", "WITHVALUES"});
  // A count that covers the hash replies with all of it, in the listpack's order.
  expect_same({"HSET", "h", "z", "1", "a", "2", "m", "3"});
  expect_same({"HRANDFIELD", "h", "3"});
  expect_same({"HRANDFIELD", "h", "100"});
  expect_same({"HRANDFIELD", "h", "3", "WITHVALUES"});
  expect_same({"HRANDFIELD", "h", "9223372036854775807"});
  expect_same({"HRANDFIELD", "h", "4611686018427387903", "WITHVALUES"});
}

TEST_F(Differential, HrandfieldRefusesBadArguments) {
  expect_same({"HSET", "h", "a", "1"});
  for (const char* count : {"x", "", " 1", "1.0", "9223372036854775808", "-9223372036854775808"}) {
    expect_same({"HRANDFIELD", "h", count});
    expect_same({"HRANDFIELD", "missing", count});
  }
  expect_same({"HRANDFIELD", "h", "1", "foo"});
  expect_same({"HRANDFIELD", "h", "1", "WITHVALUES", "x"});
  expect_same({"HRANDFIELD", "missing", "1", "foo"});  // the options are read before the key
  expect_same({"HRANDFIELD", "h", "4611686018427387904", "WITHVALUES"});
  expect_same({"HRANDFIELD", "h", "-4611686018427387904", "WITHVALUES"});
  expect_same({"HRANDFIELD", "h", "9223372036854775807", "WITHVALUES"});
  expect_same({"HRANDFIELD", "h", "-9223372036854775807", "WITHVALUES"});
  expect_same({"SET", "s", "v"});
  expect_same({"HRANDFIELD", "s"});
  expect_same({"HRANDFIELD", "s", "0"});  // the type is checked before a zero count answers
  expect_same({"HRANDFIELD", "s", "-1", "WITHVALUES"});
  expect_same({"HRANDFIELD", "s", "x"});
  expect_same({"HRANDFIELD"});
}

namespace {

using Hashes = DifferentialUnordered;

std::map<std::string, std::string> hash_of(const Reply& hgetall) {
  std::map<std::string, std::string> out;
  for (size_t i = 0; i + 1 < hgetall.elements.size(); i += 2) out[hgetall.elements[i].str] = hgetall.elements[i + 1].str;
  return out;
}

}  // namespace

TEST_F(Hashes, HrandfieldTakesFieldsOfTheHash) {
  expect_same({"HSET", "h", "a", "1", "b", "2", "c", "3", "d", "4", "e", "5", "f", "6", "g", "7", "h", "8"});
  const auto all = hash_of(fake_->execute(session_, {"HGETALL", "h"}));
  for (const char* count : {"1", "2", "5", "7", "-1", "-20", "20"}) {
    for (bool with_values : {false, true}) {
      std::vector<std::string> argv = {"HRANDFIELD", "h", count};
      if (with_values) argv.push_back("WITHVALUES");
      auto [fake, live] = both(argv);
      ASSERT_EQ(fake.kind, Reply::Kind::Array);
      ASSERT_EQ(fake.elements.size(), live.elements.size()) << count;
      const size_t step = with_values ? 2 : 1;
      for (const Reply* reply : {&fake, &live}) {
        std::set<std::string> seen;
        for (size_t i = 0; i < reply->elements.size(); i += step) {
          const std::string& field = reply->elements[i].str;
          ASSERT_TRUE(all.contains(field)) << field;
          if (with_values) {
            EXPECT_EQ(reply->elements[i + 1].str, all.at(field));
          }
          seen.insert(field);
        }
        if (count[0] != '-') {
          EXPECT_EQ(seen.size(), reply->elements.size() / step) << "no repeats";
        }
      }
    }
  }
  auto [fake, live] = both({"HRANDFIELD", "h"});
  EXPECT_EQ(fake.kind, live.kind);
  EXPECT_TRUE(all.contains(fake.str));
  EXPECT_TRUE(all.contains(live.str));
}

TEST_F(Hashes, HrandfieldOfAHashtableTakesAllOfItForABigCount) {
  std::vector<std::string> hset = {"HSET", "big"};
  for (int i = 0; i < 600; ++i) {
    hset.push_back("field:" + std::to_string(i));
    hset.push_back(std::to_string(i));
  }
  expect_same(hset);
  expect_same({"OBJECT", "ENCODING", "big"});
  expect_same_elements({"HRANDFIELD", "big", "600"});
  expect_same_elements({"HRANDFIELD", "big", "1000"});
  auto [fake, live] = both({"HRANDFIELD", "big", "-1000", "WITHVALUES"});
  EXPECT_EQ(fake.elements.size(), live.elements.size());
}

TEST_F(Differential, HmsetSetsAsHsetAndAnswersOk) {
  expect_same({"HMSET", "h", "a", "1", "b", "2"});
  expect_same({"HMSET", "h", "a", "3"});
  expect_same({"HGETALL", "h"});
  expect_same({"HMSET", "h", "a"});
  expect_same({"HMSET", "h", "a", "1", "b"});
  expect_same({"HMSET", "h"});
  expect_same({"SET", "s", "v"});
  expect_same({"HMSET", "s", "a", "1"});
  expect_same({"WATCH", "h"});
  expect_same({"HMSET", "h", "a", "3"});
  expect_same({"MULTI"});
  expect_same({"PING"});
  expect_same({"EXEC"});
}

}  // namespace locksim::test

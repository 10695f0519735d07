// Differential: OBJECT and MEMORY (cmd_object.cpp). ENCODING shows which representation Redis chose
// for a value, which depends on the value and on its history (APPEND, one-way conversions), so these
// tests walk each type across its limits. MEMORY USAGE's byte count depends on Redis's allocator, so
// it is compared by the kind of its reply (an integer, or nil for a missing key) and its errors
// exactly; the fake's number is an estimate (docs/fidelity.md).
#include <chrono>
#include <thread>

#include "verify/support/differential.hpp"

namespace locksim::test {

TEST_F(Differential, ObjectSubcommandsAndTheirErrors) {
  expect_same({"SET", "k", "v"});
  expect_same({"OBJECT", "HELP"});
  expect_same({"object", "help"});
  expect_same({"OBJECT", "HELP", "x"});
  expect_same({"OBJECT"});
  expect_same({"OBJECT", "ENCODING"});
  expect_same({"OBJECT", "ENCODING", "k", "x"});
  expect_same({"OBJECT", "REFCOUNT"});
  expect_same({"OBJECT", "FREQ"});
  expect_same({"OBJECT", "NOPE", "k"});
  expect_same({"OBJECT", std::string("enc\0oding", 9), "k"});
  expect_same({"OBJECT", "a\r\nb", "k"});
  expect_same({"OBJECT", std::string(200, 'x'), "k"});
  expect_same({"OBJECT", "ENCODING", "missing"});
  expect_same({"OBJECT", "REFCOUNT", "missing"});
  expect_same({"OBJECT", "FREQ", "missing"});
  expect_same({"OBJECT", "FREQ", "k"});
  expect_same({"OBJECT", "REFCOUNT", "k"});
  expect_same({"SCRIPT", "a\nb"});
  expect_same({"SCRIPT", std::string("fl\0ush", 6)});
}

TEST_F(Differential, ObjectFromAScript) {
  expect_same({"SET", "k", "12"});
  expect_same({"EVAL", "return redis.call('OBJECT', 'ENCODING', KEYS[1])", "1", "k"});
  expect_same({"EVAL", "return redis.call('object', 'refcount', KEYS[1])", "1", "k"});
  expect_same({"EVAL", "return redis.pcall('OBJECT', 'NOPE', KEYS[1])", "1", "k"});
  expect_same({"EVAL", "return redis.pcall('OBJECT', 'ENCODING')", "0"});
  expect_same({"EVAL", "return redis.pcall('OBJECT')", "0"});
  expect_same({"EVAL", "return redis.pcall('OBJECT', 'HELP')", "0"});
  expect_same({"EVAL", "return redis.call('SET', KEYS[1], 'x' .. 'y') and redis.call('OBJECT', 'ENCODING', KEYS[1])",
               "1", "k"});
}

TEST_F(Differential, StringEncodingsAndRefcounts) {
  const std::vector<std::string> values = {"0", "1", "-1", "9999", "10000", "-9223372036854775808",
                                           "9223372036854775807", "9223372036854775808", "12345678901234567890",
                                           "01", "+1", "-0", " 1", "1.5", "", "abc",
                                           std::string(44, 'x'), std::string(45, 'x'), std::string(100, 'y')};
  for (const auto& value : values) {
    expect_same({"SET", "k", value});
    expect_same({"OBJECT", "ENCODING", "k"});
    expect_same({"OBJECT", "REFCOUNT", "k"});
  }
  // Every way of writing a string goes through Redis's tryObjectEncoding except APPEND to a string
  // that exists, which leaves it raw.
  expect_same({"SETNX", "n", "5"});
  expect_same({"SETEX", "x", "100", "5"});
  expect_same({"PSETEX", "p", "100000", "hello"});
  expect_same({"MSET", "m1", "7", "m2", "hello"});
  expect_same({"GETSET", "g", "70000"});
  expect_same({"SET", "s", "1", "GET", "KEEPTTL"});
  expect_same({"APPEND", "fresh", "123"});
  for (const char* key : {"n", "x", "p", "m1", "m2", "g", "s", "fresh"}) {
    expect_same({"OBJECT", "ENCODING", key});
    expect_same({"OBJECT", "REFCOUNT", key});
  }
  expect_same({"APPEND", "n", "1"});
  expect_same({"OBJECT", "ENCODING", "n"});
  expect_same({"APPEND", "fresh", ""});
  expect_same({"OBJECT", "ENCODING", "fresh"});
  expect_same({"OBJECT", "REFCOUNT", "fresh"});
  expect_same({"INCR", "fresh"});
  expect_same({"OBJECT", "ENCODING", "fresh"});
  expect_same({"OBJECT", "REFCOUNT", "fresh"});
  expect_same({"INCRBY", "fresh", "100000"});
  expect_same({"OBJECT", "ENCODING", "fresh"});
  expect_same({"OBJECT", "REFCOUNT", "fresh"});
  expect_same({"APPEND", "fresh", "x"});
  expect_same({"RENAME", "fresh", "moved"});
  expect_same({"OBJECT", "ENCODING", "moved"});
  expect_same({"GETEX", "moved", "EX", "100"});
  expect_same({"OBJECT", "ENCODING", "moved"});
  expect_same({"SET", "moved", "short"});
  expect_same({"OBJECT", "ENCODING", "moved"});
}

TEST_F(Differential, ContainerEncodingsAndTheirOneWayConversions) {
  expect_same({"RPUSH", "l", "a"});
  expect_same({"OBJECT", "ENCODING", "l"});
  expect_same({"OBJECT", "REFCOUNT", "l"});
  // Hashes: 512 fields (not 128, as for sorted sets) and 64-byte values fit a listpack; more
  // converts, and fewer does not go back.
  for (int i = 0; i < 512; ++i) expect_same({"HSET", "h", "f" + std::to_string(i), "v"});
  expect_same({"OBJECT", "ENCODING", "h"});
  expect_same({"HSET", "h", "f0", "w", "f512", "v"});
  expect_same({"OBJECT", "ENCODING", "h"});
  expect_same({"HDEL", "h", "f512", "f511", "f510"});
  expect_same({"OBJECT", "ENCODING", "h"});
  expect_same({"HSET", "h64", "f", std::string(64, 'v'), std::string(64, 'f'), "v"});
  expect_same({"OBJECT", "ENCODING", "h64"});
  expect_same({"HSETNX", "h64", "f", std::string(65, 'v')});
  expect_same({"OBJECT", "ENCODING", "h64"});
  expect_same({"HINCRBY", "h64", std::string(65, 'g'), "1"});
  expect_same({"OBJECT", "ENCODING", "h64"});
  expect_same({"HSET", "hv", "f", std::string(65, 'v')});
  expect_same({"OBJECT", "ENCODING", "hv"});
  expect_same({"HSET", "hv", "f", "short"});
  expect_same({"OBJECT", "ENCODING", "hv"});
  // Sorted sets: the same limits, for new members.
  for (int i = 0; i < 128; ++i) expect_same({"ZADD", "z", std::to_string(i), "m" + std::to_string(i)});
  expect_same({"OBJECT", "ENCODING", "z"});
  expect_same({"ZADD", "z", "1", "m128"});
  expect_same({"OBJECT", "ENCODING", "z"});
  expect_same({"ZREM", "z", "m128", "m127"});
  expect_same({"OBJECT", "ENCODING", "z"});
  expect_same({"ZADD", "z2", "1", std::string(64, 'm')});
  expect_same({"OBJECT", "ENCODING", "z2"});
  expect_same({"ZADD", "z2", "XX", "1", std::string(65, 'm')});
  expect_same({"OBJECT", "ENCODING", "z2"});
  expect_same({"ZADD", "z2", "1", std::string(65, 'm')});
  expect_same({"OBJECT", "ENCODING", "z2"});
  expect_same({"ZADD", "z3", "1", std::string(65, 'm')});
  expect_same({"OBJECT", "ENCODING", "z3"});
  // Sets: integers up to 512 are an intset; a non-integer or a 513th member converts for good.
  for (int i = 0; i < 512; ++i) expect_same({"SADD", "s", std::to_string(i * 7 - 1000)});
  expect_same({"OBJECT", "ENCODING", "s"});
  expect_same({"SMEMBERS", "s"});
  expect_same({"SADD", "s", "5000"});
  expect_same({"OBJECT", "ENCODING", "s"});
  expect_same({"SREM", "s", "5000", "-1000"});
  expect_same({"OBJECT", "ENCODING", "s"});
  expect_same({"SADD", "t", "x"});
  expect_same({"OBJECT", "ENCODING", "t"});
  expect_same({"SADD", "u", "1", "01"});
  expect_same({"OBJECT", "ENCODING", "u"});
  expect_same({"SREM", "u", "01"});
  expect_same({"OBJECT", "ENCODING", "u"});
  // A set operation's result starts as an intset; SMOVE creates its destination from the member.
  expect_same({"SADD", "a", "1", "2", "x"});
  expect_same({"SADD", "b", "x"});
  expect_same({"SDIFFSTORE", "d1", "a", "b"});
  expect_same({"OBJECT", "ENCODING", "d1"});
  expect_same({"SDIFFSTORE", "d2", "a", "b", "b", "b", "b"});
  expect_same({"OBJECT", "ENCODING", "d2"});
  expect_same({"SINTERSTORE", "d3", "a", "u"});
  expect_same({"OBJECT", "ENCODING", "d3"});
  expect_same({"SUNIONSTORE", "d4", "u", "b"});
  expect_same({"OBJECT", "ENCODING", "d4"});
  expect_same({"SMOVE", "a", "d5", "x"});
  expect_same({"OBJECT", "ENCODING", "d5"});
  expect_same({"SMOVE", "a", "d6", "1"});
  expect_same({"OBJECT", "ENCODING", "d6"});
  expect_same({"OBJECT", "ENCODING", "a"});
  // SPOP that leaves few members rebuilds the set: integers left make an intset again.
  // Which members go is drawn at random by Redis; how many, and the encoding after, are not.
  expect_same({"SADD", "p", "1", "2", "3", "4", "5", "6", "x"});
  expect_same({"SREM", "p", "x"});
  expect_same({"OBJECT", "ENCODING", "p"});
  auto [fake, live] = both({"SPOP", "p", "5"});
  EXPECT_EQ(fake.elements.size(), live.elements.size());
  expect_same({"OBJECT", "ENCODING", "p"});
  expect_same({"SCARD", "p"});
}

namespace {

// MEMORY USAGE of `key` (and `options`) answers an integer on both sides, positive on the fake.
void expect_usage_integer(std::pair<Reply, Reply> replies, const std::string& what) {
  auto& [fake, live] = replies;
  EXPECT_EQ(live.kind, Reply::Kind::Integer) << what << ": " << describe(live);
  ASSERT_EQ(fake.kind, Reply::Kind::Integer) << what << ": " << describe(fake);
  EXPECT_GT(fake.integer, 0) << what;
}

}  // namespace

// The thresholds are server config (CONFIG SET *-max-*): here small ones, set on both sides, and
// each container walked across them; a write reads the threshold in force when it runs.
TEST_F(Differential, ContainerEncodingsFollowTheConfiguredThresholds) {
  const std::vector<std::pair<std::string, std::string>> small = {
      {"hash-max-listpack-entries", "2"}, {"hash-max-listpack-value", "4"}, {"zset-max-listpack-entries", "2"},
      {"zset-max-listpack-value", "4"},   {"set-max-intset-entries", "2"}};
  struct Restore {  // the live server is shared by every test: put Redis's defaults back whatever happens
    RedisClient& live;
    ~Restore() {
      live.command({"CONFIG", "SET", "hash-max-listpack-entries", "512", "hash-max-listpack-value", "64",
                    "zset-max-listpack-entries", "128", "zset-max-listpack-value", "64", "set-max-intset-entries", "512"});
    }
  } restore{*live_};
  for (const auto& [name, value] : small) ASSERT_EQ(live_->command({"CONFIG", "SET", name, value}), Reply::ok());
  engine::EncodingLimits& limits = fake_->databases().limits();
  limits = {.hash_listpack_entries = 2, .hash_listpack_value = 4, .zset_listpack_entries = 2,
            .zset_listpack_value = 4, .set_intset_entries = 2};
  for (const auto& step : std::vector<std::vector<std::string>>{
           {"HSET", "h", "a", "1", "b", "2"}, {"OBJECT", "ENCODING", "h"}, {"HSET", "h", "c", "3"},
           {"OBJECT", "ENCODING", "h"}, {"HSET", "h2", "f", "12345"}, {"OBJECT", "ENCODING", "h2"},
           {"HSET", "h3", "long-field", "1"}, {"OBJECT", "ENCODING", "h3"},
           {"ZADD", "z", "1", "a", "2", "b"}, {"OBJECT", "ENCODING", "z"}, {"ZADD", "z", "3", "c"},
           {"OBJECT", "ENCODING", "z"}, {"ZADD", "z2", "1", "abcde"}, {"OBJECT", "ENCODING", "z2"},
           {"ZADD", "z3", "-0", "a", "1", "b"}, {"ZSCORE", "z3", "a"}, {"ZADD", "z3", "2", "c"},
           {"ZADD", "z3", "-0", "d"}, {"ZSCORE", "z3", "d"},
           {"ZUNIONSTORE", "u", "1", "z"}, {"OBJECT", "ENCODING", "u"}, {"ZINTERSTORE", "i", "2", "z", "z3"},
           {"OBJECT", "ENCODING", "i"}, {"ZRANGESTORE", "r", "z", "0", "1"}, {"OBJECT", "ENCODING", "r"},
           {"ZRANGESTORE", "r3", "z", "0", "-1"}, {"OBJECT", "ENCODING", "r3"},
           {"SADD", "s", "1", "2"}, {"OBJECT", "ENCODING", "s"}, {"SADD", "s", "3"}, {"OBJECT", "ENCODING", "s"},
           {"SUNIONSTORE", "su", "s"}, {"OBJECT", "ENCODING", "su"}, {"SINTERSTORE", "si", "s", "s"},
           {"OBJECT", "ENCODING", "si"}})
    expect_same(step);
  // Zero entries: the first member already converts; a wider value threshold lets a long member in.
  ASSERT_EQ(live_->command({"CONFIG", "SET", "zset-max-listpack-entries", "0", "hash-max-listpack-value", "1kb"}),
            Reply::ok());
  limits.zset_listpack_entries = 0;
  limits.hash_listpack_value = 1024;
  for (const auto& step : std::vector<std::vector<std::string>>{
           {"ZADD", "z4", "1", "a"}, {"OBJECT", "ENCODING", "z4"}, {"HSET", "h4", "f", std::string(1024, 'v')},
           {"OBJECT", "ENCODING", "h4"}, {"HSET", "h5", "f", std::string(1025, 'v')}, {"OBJECT", "ENCODING", "h5"},
           {"OBJECT", "ENCODING", "z"}})  // stored ones keep what they became
    expect_same(step);
}

TEST_F(Differential, MemoryUsageIsAnIntegerForEveryTypeAndNilForAMissingKey) {
  expect_same({"SET", "int", "12345"});
  expect_same({"SET", "embstr", "hello"});
  expect_same({"SET", "raw", std::string(100, 'x')});
  expect_same({"APPEND", "appended", "1"});
  expect_same({"HSET", "hash", "f", "v", "n", "1"});
  expect_same({"RPUSH", "list", "a", "1", std::string(100, 'y')});
  expect_same({"SADD", "intset", "1", "2", "-70000"});
  expect_same({"SADD", "set", "a", "b"});
  expect_same({"ZADD", "zset", "1", "a", "2.5", "b"});
  std::vector<std::string> hset = {"HSET", "bighash"}, sadd = {"SADD", "bigset"}, zadd = {"ZADD", "bigzset"},
                           rpush = {"RPUSH", "biglist"};
  for (int i = 0; i < 600; ++i) {
    hset.insert(hset.end(), {"f" + std::to_string(i), std::to_string(i)});
    sadd.push_back("m" + std::to_string(i));
    zadd.insert(zadd.end(), {std::to_string(i), "m" + std::to_string(i)});
    rpush.push_back(std::string(50, 'z') + std::to_string(i));
  }
  for (const auto& argv : {hset, sadd, zadd, rpush}) expect_same(argv);
  for (const char* key : {"int", "embstr", "raw", "appended", "hash", "list", "intset", "set", "zset", "bighash",
                          "bigset", "bigzset", "biglist"}) {
    expect_usage_integer(both({"MEMORY", "USAGE", key}), key);
    expect_usage_integer(both({"MEMORY", "USAGE", key, "SAMPLES", "0"}), key);
    expect_usage_integer(both({"memory", "usage", key, "samples", "1", "SAMPLES", "3"}), key);
  }
  expect_same({"MEMORY", "USAGE", "missing"});
  expect_same({"MEMORY", "USAGE", "missing", "SAMPLES", "10"});
  expect_same({"EXISTS", "missing"});
  // A key's usage grows with what it holds.
  const auto small = fake_->execute(session_, {"MEMORY", "USAGE", "hash"});
  const auto big = fake_->execute(session_, {"MEMORY", "USAGE", "bighash"});
  EXPECT_LT(small.integer, big.integer);
}

TEST_F(Differential, MemoryUsageDoesNotExpireAKey) {
  // memoryCommand finds the key in the dict directly: an expired key still has a size, and stays.
  expect_same({"SET", "k", "v", "PX", "1"});
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  expect_usage_integer(both({"MEMORY", "USAGE", "k"}), "expired k");
  expect_same({"DBSIZE"});
  expect_same({"EXISTS", "k"});
  expect_same({"MEMORY", "USAGE", "k"});
}

TEST_F(Differential, MemoryUsageOptionErrors) {
  expect_same({"SET", "k", "v"});
  for (const std::string& key : {std::string("k"), std::string("missing")}) {
    // The options are read before the key is looked up.
    for (const std::vector<std::string>& options : std::vector<std::vector<std::string>>{
             {"SAMPLES"},
             {"SAMPLES", "-1"},
             {"SAMPLES", "x"},
             {"SAMPLES", " 1"},
             {"SAMPLES", "1.5"},
             {"SAMPLES", ""},
             {"SAMPLES", "9223372036854775808"},
             {"SAMPLES", "-9223372036854775808"},
             {"SAMPLES", "1", "SAMPLES"},
             {"SAMPLES", "1", "x"},
             {"FOO"},
             {"FOO", "1"},
             {std::string("SAMPLES\0x", 9), "x"}}) {
      std::vector<std::string> argv = {"MEMORY", "USAGE", key};
      argv.insert(argv.end(), options.begin(), options.end());
      expect_same(argv);
    }
  }
  expect_usage_integer(both({"MEMORY", "USAGE", "k", std::string("SAMPLES\0x", 9), "2"}), "NUL option");
  expect_usage_integer(both({"MEMORY", "USAGE", "k", "SAMPLES", "9223372036854775807"}), "largest SAMPLES");
}

TEST_F(Differential, MemorySubcommandsAndTheirErrors) {
  expect_same({"MEMORY", "HELP"});
  expect_same({"memory", "help"});
  expect_same({"MEMORY", "HELP", "x"});
  expect_same({"MEMORY"});
  expect_same({"MEMORY", "USAGE"});
  expect_same({"MEMORY", "NOPE"});
  expect_same({"MEMORY", "NOPE", "k"});
  expect_same({"MEMORY", std::string("usa\0ge", 7), "k"});
  expect_same({"MULTI"});
  expect_same({"MEMORY", "USAGE"});
  expect_same({"MEMORY", "USAGE", "k"});
  expect_same({"EXEC"});
}

TEST_F(Differential, MemoryUsageFromAScript) {
  expect_same({"SET", "k", "v"});
  auto [fake, live] = both({"EVAL", "return redis.call('memory', 'usage', KEYS[1])", "1", "k"});
  EXPECT_EQ(fake.kind, Reply::Kind::Integer) << describe(fake);
  EXPECT_EQ(live.kind, Reply::Kind::Integer) << describe(live);
  expect_same({"EVAL", "return redis.call('memory', 'usage', KEYS[1])", "1", "missing"});
  expect_same({"EVAL", "return redis.pcall('memory', 'usage', KEYS[1], 'samples', -1)", "1", "k"});
  expect_same({"EVAL", "return redis.pcall('memory', 'usage')", "0"});
  expect_same({"EVAL", "return redis.pcall('memory', 'nope')", "0"});
  expect_same({"EVAL", "#!lua flags=no-writes\nreturn redis.call('memory', 'usage', KEYS[1])", "1", "missing"});
}

}  // namespace locksim::test

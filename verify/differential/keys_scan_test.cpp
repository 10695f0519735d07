// Differential: KEYS and SCAN (cmd_keys.cpp, glob.cpp), HSCAN, SSCAN and ZSCAN (cmd_scan.cpp). Redis returns keys in its dict's order and
// numbers SCAN cursors by its buckets; the fake uses byte order and cursors of its own
// (docs/fidelity.md). So a KEYS reply is compared as a set, a SCAN by the union of a whole
// iteration (and, within it, that nothing is returned that should not be), and every error exactly.
// A container in its small encoding (listpack, intset) is returned whole in one call by Redis, so
// those container scans are compared exactly; big ones (hashtable, skiplist) as SCAN is.
#include <chrono>
#include <functional>
#include <set>
#include <thread>

#include "verify/support/differential_unordered.hpp"

namespace locksim::test {
namespace {

class KeysAndScan : public DifferentialUnordered {
 protected:
  void SetUp() override {
    DifferentialUnordered::SetUp();
    for (const char* key : {"hello", "hallo", "hillo", "hllo", "heeello", "a", "b", "ab", "a*b", "a?b", "[x]", "-",
                            "]", "\\", "user:1", "user:2", "user:10", "session:1", ""})
      expect_same({"SET", key, "v"});
    expect_same({"SET", std::string("nul\0byte", 8), "v"});
    expect_same({"SET", "\xff\xfe", "v"});
    expect_same({"HSET", "user:h", "f", "v"});
    expect_same({"SADD", "user:s", "m"});
    expect_same({"RPUSH", "user:l", "x"});
    expect_same({"ZADD", "user:z", "1", "m"});
  }

  // Every key one whole SCAN iteration returns (with repeats), from one side.
  static std::vector<std::string> iterate(const std::function<Reply(const std::vector<std::string>&)>& send,
                                          const std::vector<std::string>& options) {
    std::vector<std::string> keys;
    std::string cursor = "0";
    for (int calls = 0; calls < 10000; ++calls) {
      std::vector<std::string> argv = {"SCAN", cursor};
      argv.insert(argv.end(), options.begin(), options.end());
      const Reply reply = send(argv);
      EXPECT_EQ(reply.kind, Reply::Kind::Array) << describe(reply);
      if (reply.kind != Reply::Kind::Array || reply.elements.size() != 2) break;
      for (const auto& key : reply.elements[1].elements) keys.push_back(key.str);
      cursor = reply.elements[0].str;
      if (cursor == "0") break;
    }
    return keys;
  }

  // A whole iteration on each side returns the same keys.
  void expect_same_scan(const std::vector<std::string>& options) {
    const auto fake = iterate([this](const auto& argv) { return fake_->execute(session_, argv); }, options);
    const auto live = iterate([this](const auto& argv) { return live_->command(argv); }, options);
    const std::set<std::string> fake_set(fake.begin(), fake.end()), live_set(live.begin(), live.end());
    std::string shown;
    for (const auto& option : options) shown += option + " ";
    EXPECT_EQ(fake_set, live_set) << "SCAN ... " << shown;
    EXPECT_EQ(fake_set.size(), fake.size()) << "the fake returned a key twice: SCAN ... " << shown;
  }
};

}  // namespace

TEST_F(KeysAndScan, KeysMatchesAsRedisGlobsDo) {
  for (const std::string& pattern :
       {std::string("*"), std::string("**"), std::string(""), std::string("h?llo"), std::string("h*llo"),
        std::string("h[ae]llo"), std::string("h[^e]llo"), std::string("h[a-e]llo"), std::string("h[e-a]llo"),
        std::string("a*b"), std::string("a\\*b"), std::string("a\\?b"), std::string("\\[x\\]"), std::string("[[]x]"),
        std::string("[\\]]"), std::string("[]]"), std::string("[a-]"), std::string("[-]"), std::string("["),
        std::string("[a"), std::string("h[a"), std::string("\\"), std::string("\\\\"), std::string("*\\"),
        std::string("user:?"), std::string("user:*"), std::string("user:[0-9]*"), std::string("*:*"),
        std::string("?"), std::string("??"), std::string("*?*"), std::string("nul*"), std::string("nul\0*", 5),
        std::string("[a-\xff]*"), std::string("\xff*"), std::string("[^a]"), std::string("[^]"),
        std::string("*e*l*o"), std::string("a*a*a*a*a*a*a*a*b")}) {
    expect_same_elements({"KEYS", pattern});
  }
  expect_same({"KEYS"});
  expect_same({"KEYS", "*", "x"});
}

TEST_F(KeysAndScan, KeysLeavesOutExpiredKeys) {
  expect_same({"SET", "user:gone", "v", "PX", "1"});
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  expect_same_elements({"KEYS", "user:*"});
  expect_same({"DBSIZE"});  // KEYS did not delete it
}

TEST_F(KeysAndScan, AWholeScanReturnsEveryKey) {
  for (const char* count : {"1", "2", "3", "10", "1000"}) expect_same_scan({"COUNT", count});
  expect_same_scan({});
  expect_same_scan({"MATCH", "user:*"});
  expect_same_scan({"MATCH", "*"});
  expect_same_scan({"MATCH", "h[ae]llo", "COUNT", "2"});
  expect_same_scan({"COUNT", "1", "MATCH", "nope*"});
  expect_same_scan({"MATCH", "a*", "MATCH", "b*"});
  expect_same_scan({"COUNT", "1", "COUNT", "5"});
}

TEST_F(KeysAndScan, ScanFiltersByType) {
  for (const std::string& type : {std::string("string"), std::string("hash"), std::string("set"), std::string("list"),
                                  std::string("zset"), std::string("ZSET"), std::string("stream"), std::string("none"),
                                  std::string("bogus"), std::string("set\0x", 5)}) {
    expect_same_scan({"TYPE", type});
    expect_same_scan({"TYPE", type, "MATCH", "user:*", "COUNT", "3"});
  }
}

TEST_F(KeysAndScan, ScanSkipsExpiredKeysButTypeNoneNamesThem) {
  expect_same({"SET", "user:gone", "v", "PX", "1"});
  expect_same({"SADD", "user:gone-set", "m"});
  expect_same({"PEXPIRE", "user:gone-set", "1"});
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  expect_same_scan({"TYPE", "none"});
  expect_same({"EXISTS", "user:gone", "user:gone-set"});
  expect_same({"SET", "user:gone", "v", "PX", "1"});
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  expect_same_scan({"MATCH", "user:*"});
  expect_same({"DBSIZE"});
}

TEST_F(KeysAndScan, ScanArgumentErrors) {
  for (const std::string& cursor : {std::string(" 1"), std::string("1 "), std::string("x"), std::string("1x"),
                                    std::string("18446744073709551616"), std::string("99999999999999999999999"),
                                    std::string("\t0"), std::string("0.5")})
    expect_same({"SCAN", cursor});
  for (const std::vector<std::string>& options : std::vector<std::vector<std::string>>{
           {"COUNT", "0"},
           {"COUNT", "-1"},
           {"COUNT", "x"},
           {"COUNT", ""},
           {"COUNT", "9223372036854775808"},
           {"COUNT"},
           {"MATCH"},
           {"TYPE"},
           {"FOO", "bar"},
           {"COUNT", "1", "FOO"},
           {"COUNT", "0", "MATCH", "*"},
           {"MATCH", "*", "COUNT", "x"}}) {
    std::vector<std::string> argv = {"SCAN", "0"};
    argv.insert(argv.end(), options.begin(), options.end());
    expect_same(argv);
  }
  expect_same({"SCAN", "x", "COUNT", "0"});
  expect_same({"SCAN"});
  // Cursors strtoul reads: each side answers an array (the cursors themselves are each side's own).
  for (const std::string& cursor : {std::string(""), std::string("+0"), std::string("-1"),
                                    std::string("18446744073709551615"), std::string("0\0junk", 6)}) {
    auto [fake, live] = both({"SCAN", cursor, "COUNT", "1000"});
    EXPECT_EQ(fake.kind, Reply::Kind::Array) << describe(fake);
    EXPECT_EQ(live.kind, Reply::Kind::Array) << describe(live);
  }
  expect_same({"SCAN", std::string("0\0junk", 6), std::string("COUNT\0x", 7), "1000", "MATCH", "zzz*"});
}

namespace {

class ContainerScans : public DifferentialUnordered {
 protected:
  // Every element (with its value, for a hash or a sorted set) one whole iteration of `command`
  // (HSCAN, SSCAN, ZSCAN) over `key` returns, with repeats, from one side.
  static std::vector<std::string> iterate(const std::function<Reply(const std::vector<std::string>&)>& send,
                                          const std::string& command, const std::string& key,
                                          const std::vector<std::string>& options) {
    const bool pairs = command != "SSCAN";
    std::vector<std::string> elements;
    std::string cursor = "0";
    for (int calls = 0; calls < 10000; ++calls) {
      std::vector<std::string> argv = {command, key, cursor};
      argv.insert(argv.end(), options.begin(), options.end());
      const Reply reply = send(argv);
      EXPECT_EQ(reply.kind, Reply::Kind::Array) << describe(reply);
      if (reply.kind != Reply::Kind::Array || reply.elements.size() != 2) break;
      const auto& batch = reply.elements[1].elements;
      EXPECT_TRUE(!pairs || batch.size() % 2 == 0);
      for (size_t i = 0; i < batch.size(); i += pairs ? 2 : 1)
        elements.push_back(pairs && i + 1 < batch.size() ? batch[i].str + " => " + batch[i + 1].str : batch[i].str);
      cursor = reply.elements[0].str;
      if (cursor == "0") break;
    }
    return elements;
  }

  // A whole iteration on each side returns the same elements, each once on the fake.
  void expect_same_container_scan(const std::string& command, const std::string& key,
                                  const std::vector<std::string>& options) {
    const auto fake = iterate([this](const auto& argv) { return fake_->execute(session_, argv); }, command, key, options);
    const auto live = iterate([this](const auto& argv) { return live_->command(argv); }, command, key, options);
    const std::set<std::string> fake_set(fake.begin(), fake.end()), live_set(live.begin(), live.end());
    std::string shown;
    for (const auto& option : options) shown += option + " ";
    EXPECT_EQ(fake_set, live_set) << command << " " << key << " ... " << shown;
    EXPECT_EQ(fake_set.size(), fake.size()) << "the fake returned an element twice: " << command << " ... " << shown;
    EXPECT_FALSE(fake.empty() && !live.empty());
  }
};

}  // namespace

TEST_F(ContainerScans, SmallContainersComeWholeInOneCall) {
  expect_same({"HSET", "h", "z", "1", "a", "two", "ab", "3", "", "empty"});
  expect_same({"SADD", "ints", "30", "-5", "1", "200000", "7"});
  expect_same({"ZADD", "z", "1", "a", "2.5", "b", "-inf", "c", "1e20", "d", "3e18", "e", "-0", "f", "0.1", "g"});
  expect_same({"ZADD", "z", "inf", "h", "-12", "i", "4611686018427387904", "j", "5e-324", "k"});
  for (const char* cursor : {"0", "1", "12345", "-1"}) {
    expect_same({"HSCAN", "h", cursor});
    expect_same({"SSCAN", "ints", cursor});
    expect_same({"ZSCAN", "z", cursor});
  }
  for (const std::vector<std::string>& options : std::vector<std::vector<std::string>>{
           {"COUNT", "1"}, {"MATCH", "a*"}, {"MATCH", "*"}, {"MATCH", "?"}, {"MATCH", "[a-c]"}, {"MATCH", ""},
           {"MATCH", "1*", "COUNT", "2"}, {"MATCH", "nothing"}, {"COUNT", "1", "COUNT", "100"}, {"MATCH", "-*"}}) {
    for (const char* command : {"HSCAN", "SSCAN", "ZSCAN"}) {
      const char* key = std::string(command) == "HSCAN" ? "h" : std::string(command) == "SSCAN" ? "ints" : "z";
      std::vector<std::string> argv = {command, key, "0"};
      argv.insert(argv.end(), options.begin(), options.end());
      expect_same(argv);
    }
  }
  expect_same({"OBJECT", "ENCODING", "h"});
  expect_same({"OBJECT", "ENCODING", "ints"});
  expect_same({"OBJECT", "ENCODING", "z"});
}

TEST_F(ContainerScans, ScansOfMissingKeysAndOtherTypes) {
  expect_same({"SET", "s", "v"});
  expect_same({"HSET", "h", "f", "v"});
  for (const char* command : {"HSCAN", "SSCAN", "ZSCAN"}) {
    expect_same({command, "missing", "0"});
    // A missing key is an empty scan before any option is read; a wrong type refuses before them.
    expect_same({command, "missing", "7", "COUNT", "0"});
    expect_same({command, "missing", "0", "TYPE", "string"});
    expect_same({command, "missing", "x"});
    expect_same({command, "s", "0"});
    expect_same({command, "s", "0", "COUNT", "0"});
    expect_same({command, "s", "x"});
    expect_same({command, "missing"});
    expect_same({command});
  }
  expect_same({"SSCAN", "h", "0"});
  expect_same({"ZSCAN", "h", "0"});
  expect_same({"HSCAN", "h", "0", "TYPE", "hash"});
  expect_same({"EXISTS", "missing"});
}

TEST_F(ContainerScans, ContainerScanArgumentErrors) {
  expect_same({"HSET", "h", "f", "v"});
  // An intset: a set of strings is a hashtable in 7.0, whose buckets Redis hashes with a seed drawn
  // at start, so what a made-up cursor finds there varies from run to run.
  expect_same({"SADD", "s", "7"});
  expect_same({"ZADD", "z", "1", "m"});
  for (const auto& [command, key] : std::vector<std::pair<std::string, std::string>>{
           {"HSCAN", "h"}, {"SSCAN", "s"}, {"ZSCAN", "z"}}) {
    for (const std::string& cursor : {std::string(" 1"), std::string("1 "), std::string("x"),
                                      std::string("18446744073709551616"), std::string("0.5")})
      expect_same({command, key, cursor});
    for (const std::vector<std::string>& options : std::vector<std::vector<std::string>>{
             {"COUNT", "0"},
             {"COUNT", "-1"},
             {"COUNT", "x"},
             {"COUNT", " 1"},
             {"COUNT", "9223372036854775808"},
             {"COUNT"},
             {"MATCH"},
             {"TYPE", "string"},
             {"FOO", "bar"},
             {"COUNT", "1", "FOO"},
             {"MATCH", "*", "COUNT", "x"},
             {std::string("COUNT\0x", 7), "5"},
             {"NOVALUES"}}) {
      std::vector<std::string> argv = {command, key, "0"};
      argv.insert(argv.end(), options.begin(), options.end());
      expect_same(argv);
    }
    // Cursors strtoul reads: a small container ignores them.
    for (const std::string& cursor : {std::string(""), std::string("+0"), std::string("18446744073709551615"),
                                      std::string("0\0junk", 6)})
      expect_same({command, key, cursor});
  }
}

TEST_F(ContainerScans, BigContainersAreWalkedAcrossCalls) {
  std::vector<std::string> hset = {"HSET", "h"}, sadd = {"SADD", "s"}, zadd = {"ZADD", "z"};
  for (int i = 0; i < 600; ++i) {
    const std::string name = (i % 3 == 0 ? "user:" : i % 3 == 1 ? "item:" : "") + std::to_string(i * 7919 % 1000);
    hset.insert(hset.end(), {name, "v" + std::to_string(i)});
    sadd.push_back(name);
    zadd.insert(zadd.end(), {std::to_string(i) + ".25", name});
  }
  expect_same(hset);
  expect_same(sadd);
  expect_same(zadd);
  expect_same({"SADD", "ints", "1", "2", "3"});
  for (int i = 0; i < 600; ++i) sadd[2 + i] = std::to_string(i * 13);
  sadd[1] = "ints";
  expect_same(sadd);
  for (const char* key : {"h", "s", "z", "ints"}) expect_same({"OBJECT", "ENCODING", key});
  for (const std::vector<std::string>& options : std::vector<std::vector<std::string>>{
           {}, {"COUNT", "1"}, {"COUNT", "7"}, {"COUNT", "1000"}, {"MATCH", "user:*"}, {"MATCH", "*1*", "COUNT", "3"},
           {"MATCH", "nothing*", "COUNT", "50"}}) {
    expect_same_container_scan("HSCAN", "h", options);
    expect_same_container_scan("SSCAN", "s", options);
    expect_same_container_scan("ZSCAN", "z", options);
    expect_same_container_scan("SSCAN", "ints", options);
  }
}

TEST_F(ContainerScans, ASmallSetOfStringsIsAHashtable) {
  // Not an intset: Redis walks its dict, which a few members fill in one call.
  expect_same({"SADD", "s", "b", "a", "c"});
  expect_same({"OBJECT", "ENCODING", "s"});
  expect_same_elements({"SMEMBERS", "s"});
  expect_same_container_scan("SSCAN", "s", {});
  expect_same_container_scan("SSCAN", "s", {"MATCH", "a"});
}

TEST_F(ContainerScans, ContainerScansFromAScript) {
  expect_same({"HSET", "h", "a", "1", "b", "2"});
  expect_same({"EVAL", "return redis.call('hscan', KEYS[1], 0, 'match', 'a')", "1", "h"});
  expect_same({"EVAL", "return redis.pcall('hscan', KEYS[1], 'x')", "1", "h"});
  expect_same({"EVAL", "#!lua flags=no-writes\nreturn redis.call('zscan', KEYS[1], 0)", "1", "missing"});
}

}  // namespace locksim::test

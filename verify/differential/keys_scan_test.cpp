// Differential: KEYS and SCAN (cmd_keys.cpp, glob.cpp). Redis returns keys in its dict's order and
// numbers SCAN cursors by its buckets; the fake uses byte order and cursors of its own
// (docs/fidelity.md). So a KEYS reply is compared as a set, a SCAN by the union of a whole
// iteration (and, within it, that nothing is returned that should not be), and every error exactly.
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

}  // namespace locksim::test

// Differential property: random command sequences over strings, keys/expiry, hashes, lists, sorted
// sets and sets, on a tiny key space so that overwrites, WRONGTYPE and emptied containers happen
// often. Every reply of the fake must equal the live server's. Set members are integers, so that
// every set is an intset and its order is Redis's own (a hashtable's would be unspecified), and
// SPOP/SRANDMEMBER take counts that cover a whole set (Redis's draws are random).
//
// Time: relative expiries are at least 100 s away, so nothing expires during a case; TTL, PTTL,
// EXPIRETIME and PEXPIRETIME are compared with a tolerance. Relative EXPIRE/PEXPIRE never take GT
// or LT: two identical relative times compare equal or not depending on whether the two commands
// ran in the same millisecond, on the live server as on the fake. Absolute times take every flag.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <sstream>

#include "verify/support/differential.hpp"
#include "verify/support/quiet_property.hpp"

namespace locksim::test {
namespace {

using Argv = std::vector<std::string>;

constexpr int kCasesMax = 300;
constexpr int kLengthMax = 30;

rc::Gen<std::string> key() { return rc::gen::element<std::string>("a", "b", "c", "d"); }
rc::Gen<std::string> field() { return rc::gen::element<std::string>("f", "g", "h"); }
rc::Gen<std::string> value() {
  return rc::gen::element<std::string>("0", "1", "-1", "10", "x", "", "01", "9223372036854775807",
                                       "-9223372036854775808", "1.5");
}
rc::Gen<std::string> integer() {
  return rc::gen::element<std::string>("0", "1", "-1", "2", "5", "-3", "x", "9223372036854775807",
                                       "-9223372036854775808", "+1");
}
rc::Gen<std::string> index() { return rc::gen::element<std::string>("0", "1", "-1", "-2", "2", "5", "-9", "x"); }
rc::Gen<std::string> member() { return rc::gen::element<std::string>("m", "n", "o"); }
rc::Gen<std::string> set_member() { return rc::gen::element<std::string>("1", "2", "-1", "10"); }
rc::Gen<std::string> score() {
  return rc::gen::element<std::string>("1", "2", "-1", "0", "1.5", "inf", "-inf", "x");
}
rc::Gen<std::string> relative_seconds() { return rc::gen::element<std::string>("-1", "0", "100", "200"); }
rc::Gen<std::string> relative_ms() { return rc::gen::element<std::string>("-1", "0", "150000", "300000"); }
// 1 (long past), 2100-01-01, 2200-01-01.
rc::Gen<std::string> absolute_seconds() { return rc::gen::element<std::string>("1", "4102444800", "7258118400"); }
rc::Gen<std::string> absolute_ms() {
  return rc::gen::element<std::string>("1", "4102444800000", "4102444800700", "7258118400000");
}

// Appends 0-2 of `options` (repeats and conflicts included: their errors must match too).
void add_options(Argv& argv, const std::vector<std::string>& options) {
  const int n = *rc::gen::inRange(0, 3);
  for (int i = 0; i < n; ++i) argv.push_back(*rc::gen::elementOf(options));
}

Argv set_command() {
  Argv argv = {"SET", *key(), *value()};
  const int n = *rc::gen::inRange(0, 3);
  for (int i = 0; i < n; ++i) {
    switch (*rc::gen::inRange(0, 8)) {
      case 0: argv.push_back("NX"); break;
      case 1: argv.push_back("XX"); break;
      case 2: argv.push_back("GET"); break;
      case 3: argv.push_back("KEEPTTL"); break;
      case 4: argv.insert(argv.end(), {"EX", *relative_seconds()}); break;
      case 5: argv.insert(argv.end(), {"PX", *relative_ms()}); break;
      case 6: argv.insert(argv.end(), {"EXAT", *absolute_seconds()}); break;
      default: argv.insert(argv.end(), {"PXAT", *absolute_ms()}); break;
    }
  }
  return argv;
}

Argv expire_command() {
  Argv argv;
  switch (*rc::gen::inRange(0, 4)) {
    case 0: argv = {"EXPIRE", *key(), *relative_seconds()}; break;
    case 1: argv = {"PEXPIRE", *key(), *relative_ms()}; break;
    case 2: argv = {"EXPIREAT", *key(), *absolute_seconds()}; break;
    default: argv = {"PEXPIREAT", *key(), *absolute_ms()}; break;
  }
  const bool relative = argv[0] == "EXPIRE" || argv[0] == "PEXPIRE";
  if (relative) add_options(argv, {"NX", "XX"});
  else add_options(argv, {"NX", "XX", "GT", "LT"});
  return argv;
}

Argv some_keys(const std::string& name) {
  Argv argv = {name};
  const int n = *rc::gen::inRange(1, 4);
  for (int i = 0; i < n; ++i) argv.push_back(*key());
  return argv;
}

Argv random_command() {
  // Every command as likely at any size: inRange alone scales with RapidCheck's size, which would
  // leave the last cases of this switch to the last few runs.
  switch (*rc::gen::resize(100, rc::gen::inRange(0, 65))) {
    // strings
    case 0: return {"GET", *key()};
    case 1: case 2: return set_command();
    case 3: return {"SETNX", *key(), *value()};
    case 4: return {"APPEND", *key(), *value()};
    case 5: return {"INCR", *key()};
    case 6: return {"DECR", *key()};
    case 7: return {"INCRBY", *key(), *integer()};
    case 8: return {"DECRBY", *key(), *integer()};
    // keys and expiry
    case 9: return some_keys("DEL");
    case 10: return some_keys("EXISTS");
    case 11: case 12: return expire_command();
    case 13: return {"TTL", *key()};
    case 14: return {"PTTL", *key()};
    case 15: return {"EXPIRETIME", *key()};
    case 16: return {"PEXPIRETIME", *key()};
    case 17: return {"PERSIST", *key()};
    case 18: return {"TYPE", *key()};
    // hashes
    case 19: case 20: {
      Argv argv = {"HSET", *key()};
      const int n = *rc::gen::inRange(1, 4);
      for (int i = 0; i < n; ++i) argv.insert(argv.end(), {*field(), *value()});
      return argv;
    }
    case 21: return {"HSETNX", *key(), *field(), *value()};
    case 22: return {"HGET", *key(), *field()};
    case 23: return {"HEXISTS", *key(), *field()};
    case 24: return {"HINCRBY", *key(), *field(), *integer()};
    case 25: {
      Argv argv = {"HDEL", *key()};
      const int n = *rc::gen::inRange(1, 3);
      for (int i = 0; i < n; ++i) argv.push_back(*field());
      return argv;
    }
    case 26: return {"HLEN", *key()};
    case 27: return {*rc::gen::element<std::string>("HGETALL", "HKEYS", "HVALS"), *key()};
    // lists
    case 28: case 29: {
      Argv argv = {*rc::gen::element<std::string>("LPUSH", "RPUSH"), *key()};
      const int n = *rc::gen::inRange(1, 4);
      for (int i = 0; i < n; ++i) argv.push_back(*value());
      return argv;
    }
    case 30: {
      Argv argv = {*rc::gen::element<std::string>("LPOP", "RPOP"), *key()};
      if (*rc::gen::arbitrary<bool>()) argv.push_back(*rc::gen::element<std::string>("0", "1", "2", "5", "-1"));
      return argv;
    }
    case 31: return {"LINDEX", *key(), *index()};
    case 32: return {"LLEN", *key()};
    case 33: return {"LRANGE", *key(), *index(), *index()};
    case 34: return {"LREM", *key(), *rc::gen::element<std::string>("0", "1", "-1", "2"), *value()};
    case 35: return {"LSET", *key(), *index(), *value()};
    // sorted sets
    case 36: case 37: {
      Argv argv = {"ZADD", *key()};
      add_options(argv, {"NX", "XX", "GT", "LT", "CH"});
      const int n = *rc::gen::inRange(1, 3);
      for (int i = 0; i < n; ++i) argv.insert(argv.end(), {*score(), *member()});
      return argv;
    }
    case 38: return {"ZSCORE", *key(), *member()};
    case 39: return {"ZREM", *key(), *member()};
    case 40: {
      Argv argv = {"ZRANGE", *key(), *index(), *index()};
      if (*rc::gen::arbitrary<bool>()) argv.push_back("WITHSCORES");
      return argv;
    }
    case 41: return {"ZINCRBY", *key(), *score(), *member()};
    case 42: return {"ZCARD", *key()};
    case 43: return {"ZRANK", *key(), *member()};
    // sets
    case 44: case 45: {
      Argv argv = {"SADD", *key()};
      const int n = *rc::gen::inRange(1, 4);
      for (int i = 0; i < n; ++i) argv.push_back(*set_member());
      return argv;
    }
    case 46: return {"SREM", *key(), *set_member(), *set_member()};
    case 47: return {*rc::gen::element<std::string>("SISMEMBER", "SMISMEMBER"), *key(), *set_member()};
    case 48: return {*rc::gen::element<std::string>("SCARD", "SMEMBERS"), *key()};
    case 49: return {"SMOVE", *key(), *key(), *set_member()};
    case 50: return some_keys(*rc::gen::element<std::string>("SINTER", "SUNION", "SDIFF"));
    case 51: {
      Argv argv = some_keys(*rc::gen::element<std::string>("SINTERSTORE", "SUNIONSTORE", "SDIFFSTORE"));
      argv.insert(argv.begin() + 1, *key());
      return argv;
    }
    case 52: {
      Argv argv = some_keys("SINTERCARD");
      argv.insert(argv.begin() + 1, std::to_string(argv.size() - 1));
      if (*rc::gen::arbitrary<bool>())
        argv.insert(argv.end(), {"LIMIT", *rc::gen::element<std::string>("0", "1", "-1")});
      return argv;
    }
    case 53: {
      // Counts that leave nothing to chance: none, all of a set (at most 4 members), or an error.
      return {*rc::gen::element<std::string>("SPOP", "SRANDMEMBER"), *key(),
              *rc::gen::element<std::string>("0", "5", "x")};
    }
    // more strings
    case 54: return {"STRLEN", *key()};
    case 55: return some_keys("MGET");
    case 56: {
      Argv argv = {*rc::gen::element<std::string>("MSET", "MSETNX")};
      const int n = *rc::gen::inRange(1, 3);
      for (int i = 0; i < n; ++i) argv.insert(argv.end(), {*key(), *value()});
      return argv;
    }
    case 57: return {*rc::gen::element<std::string>("GETDEL", "GETEX"), *key()};
    case 58: {
      Argv argv = {"GETEX", *key()};
      switch (*rc::gen::inRange(0, 5)) {
        case 0: argv.insert(argv.end(), {"EX", *relative_seconds()}); break;
        case 1: argv.insert(argv.end(), {"PX", *relative_ms()}); break;
        case 2: argv.insert(argv.end(), {"EXAT", *absolute_seconds()}); break;
        case 3: argv.insert(argv.end(), {"PXAT", *absolute_ms()}); break;
        default: argv.push_back("PERSIST"); break;
      }
      return argv;
    }
    case 59: return {"GETSET", *key(), *value()};
    case 60: return {"SETEX", *key(), *relative_seconds(), *value()};
    case 61: return {"PSETEX", *key(), *relative_ms(), *value()};
    // more keys
    case 62: return {*rc::gen::element<std::string>("RENAME", "RENAMENX"), *key(), *key()};
    case 63: return some_keys(*rc::gen::element<std::string>("TOUCH", "UNLINK"));
    default: return {"OBJECT", *rc::gen::element<std::string>("ENCODING", "REFCOUNT"), *key()};
  }
}

// How far an integer reply may drift between the fake and the live server (their clocks run).
int64_t tolerance_of(const std::string& command) {
  if (command == "TTL" || command == "EXPIRETIME") return 1;
  if (command == "PTTL" || command == "PEXPIRETIME") return 250;
  return 0;
}

bool close_enough(const Reply& fake, const Reply& live, int64_t tolerance) {
  if (tolerance == 0 || fake.kind != Reply::Kind::Integer || live.kind != Reply::Kind::Integer)
    return fake == live;
  // -1 and -2 are states, not times: they must match exactly.
  if (fake.integer < 0 || live.integer < 0) return fake == live;
  const int64_t d = fake.integer - live.integer;
  return d <= tolerance && -d <= tolerance;
}

std::string show(const Argv& argv) {
  std::string out;
  for (const auto& a : argv) out += (out.empty() ? "" : " ") + (a.empty() ? std::string("\"\"") : a);
  return out;
}

}  // namespace

TEST_F(Differential, RandomCommandSequencesAnswerAsTheLiveServerDoes) {
  const auto property = [this] {
    const int length = *rc::gen::inRange(1, kLengthMax + 1);
    const auto commands = *rc::gen::container<std::vector<Argv>>(static_cast<size_t>(length),
                                                                 rc::gen::exec(random_command));
    // A fresh start for every case: both sides empty.
    RC_ASSERT(live_->command({"FLUSHALL"}) == Reply::ok());
    fake_ = std::make_unique<engine::Engine>(host_);
    session_ = fake_->open_session();
    for (size_t i = 0; i < commands.size(); ++i) {
      const auto [fake, live] = both(commands[i]);
      if (close_enough(fake, live, tolerance_of(commands[i][0]))) continue;
      std::ostringstream why;
      why << "step " << i << ": " << show(commands[i]) << "\n  fake: " << locksim::describe(fake)
          << "\n  live: " << locksim::describe(live) << "\n  sequence:";
      for (size_t j = 0; j <= i; ++j) why << "\n    " << show(commands[j]);
      RC_FAIL(why.str());
    }
  };

  check_quietly("Differential/RandomCommandSequencesAnswerAsTheLiveServerDoes", kCasesMax, property);
}

}  // namespace locksim::test

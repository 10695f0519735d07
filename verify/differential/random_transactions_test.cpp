// Differential property: two clients interleave random commands with transactions, WATCHes and
// databases on a tiny key space (a key per type, two dbs), so that a WATCH is touched, or not, by
// every kind of write, in place or not, with errors queued and per command. Every reply of the
// fake must equal the live server's, exactly: nothing expires during a case (relative expiries are
// at least 100 s away) and nothing reads a TTL.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <sstream>

#include "verify/support/differential.hpp"
#include "verify/support/quiet_property.hpp"

namespace locksim::test {
namespace {

using Argv = std::vector<std::string>;

constexpr int kCasesMax = 1000;
constexpr int kRoundsMax = 8;

// One key per type, so that a write usually finds the type it expects and edits in place; now and
// then a command goes to a key of another type (WRONGTYPE: an error that touches nothing).
rc::Gen<std::string> key() { return rc::gen::element<std::string>("s", "h", "l", "z"); }
std::string key_for(const char* own) { return *rc::gen::inRange(0, 8) == 0 ? *key() : std::string(own); }
rc::Gen<std::string> value() { return rc::gen::element<std::string>("0", "1", "x", ""); }
rc::Gen<std::string> db() { return rc::gen::element<std::string>("0", "1", "0", "1", "16", "x"); }
rc::Gen<std::string> field() { return rc::gen::element<std::string>("f", "g"); }
rc::Gen<std::string> member() { return rc::gen::element<std::string>("m", "n"); }
rc::Gen<std::string> zero_or_one() { return rc::gen::element<std::string>("0", "1"); }

Argv data_command() {
  switch (*rc::gen::inRange(0, 26)) {
    case 0:
      return {"GET", key_for("s")};
    case 1:
      return {"SET", key_for("s"), *value()};
    case 2:
      return {"SET", key_for("s"), *value(), *rc::gen::element<std::string>("NX", "XX", "GET", "KEEPTTL")};
    case 3:
      return {"SETNX", key_for("s"), *value()};
    case 4:
      return {"APPEND", key_for("s"), *value()};
    case 5:
      return {"INCRBY", key_for("s"), *zero_or_one()};
    case 6:
      return {"DEL", *key()};
    case 7:
      return {"EXISTS", *key(), *key()};
    case 8:
      return {"EXPIRE", *key(), *rc::gen::element<std::string>("100", "200", "-1"),
              *rc::gen::element<std::string>("NX", "XX")};
    case 9:
      return {"PEXPIREAT", *key(), "7258118400000"};
    case 10:
      return {"PERSIST", *key()};
    case 11:
      return {"HSET", key_for("h"), *field(), *value()};
    case 12:
      return {"HSETNX", key_for("h"), *field(), *value()};
    case 13:
      return {"HDEL", key_for("h"), *field()};
    case 14:
      return {"HINCRBY", key_for("h"), *field(), *zero_or_one()};
    case 15:
      return {"RPUSH", key_for("l"), *value()};
    case 16:
      return {"LPOP", key_for("l"), *zero_or_one()};
    case 17:
      return {"LREM", key_for("l"), "0", *value()};
    case 18:
      return {"LSET", key_for("l"), *rc::gen::element<std::string>("0", "5"), *value()};
    case 19:
      return {"ZADD", key_for("z"), *rc::gen::element<std::string>("1", "2"), *member()};
    case 20:
      return {"ZADD", key_for("z"), *rc::gen::element<std::string>("NX", "XX", "GT", "LT"),
              *rc::gen::element<std::string>("1", "2"), *member()};
    case 21:
      return {"ZINCRBY", key_for("z"), *zero_or_one(), *member()};
    case 22:
      return {"ZREM", key_for("z"), *member()};
    case 23:
      return {"EVAL", "return redis.call('incr', KEYS[1])", "1", key_for("s")};
    case 24:
      return {"EVAL", "return redis.call('hset', KEYS[1], 'f', ARGV[1])", "1", key_for("h"), *value()};
    default:
      return {"TYPE", *key()};
  }
}

// Anything at all, misuse of transactions included.
Argv any_command() {
  switch (*rc::gen::inRange(0, 14)) {
    case 0:
      return {"MULTI"};
    case 1:
      return {"EXEC"};
    case 2:
      return {"DISCARD"};
    case 3:
      return {"WATCH", *key()};
    case 4:
      return {"UNWATCH"};
    case 5:
      return {"SELECT", *db()};
    case 6:
      return {"SWAPDB", *db(), *db()};
    case 7:
      return {"MOVE", *key(), *db()};
    case 8:
      return {*rc::gen::element<std::string>("FLUSHDB", "FLUSHALL", "DBSIZE")};
    case 9:  // refused before it runs, so a transaction in progress is spoiled
      return *rc::gen::elementOf(
          std::vector<Argv>{{"NOSUCH"}, {"GET"}, {"EXEC", "x"}, {"WATCH"}, {"SELECT"}, {"DISCARD", "x"}});
    default:
      return data_command();
  }
}

// One step: which client (0 or 1) sends what.
struct Step {
  int client;
  Argv argv;
};

std::string show(const Step& step) {
  std::string out = step.client == 0 ? "A:" : "B:";
  for (const auto& a : step.argv) out += " " + (a.empty() ? std::string("\"\"") : a);
  return out;
}

// A round: one client WATCHes a key or two, both clients write (or not) around its MULTI, and it
// EXECs (or DISCARDs); any command of either client may come between. Rounds make the touched,
// untouched and spoiled transactions common, which fully random commands seldom are.
void add_round(std::vector<Step>& steps) {
  const int watcher = *rc::gen::inRange(0, 2);
  const int other = 1 - watcher;
  const auto some = [&steps](int client, int most, auto command) {
    const int n = *rc::gen::inRange(0, most + 1);
    for (int i = 0; i < n; ++i) steps.push_back(Step{client, command()});
  };
  if (*rc::gen::inRange(0, 5) == 0) steps.push_back(Step{watcher, {"SELECT", *db()}});
  Argv watch = {"WATCH", *key()};
  if (*rc::gen::arbitrary<bool>()) watch.push_back(*key());
  steps.push_back(Step{watcher, watch});
  some(other, 2, data_command);
  some(*rc::gen::inRange(0, 2), 1, any_command);
  steps.push_back(Step{watcher, {"MULTI"}});
  for (int i = *rc::gen::inRange(0, 4); i > 0; --i)
    steps.push_back(Step{*rc::gen::inRange(0, 2), *rc::gen::inRange(0, 6) == 0 ? any_command() : data_command()});
  steps.push_back(Step{watcher, {*rc::gen::inRange(0, 8) == 0 ? "DISCARD" : "EXEC"}});
}

}  // namespace

TEST_F(Differential, RandomTransactionsOfTwoClientsAnswerAsTheLiveServerDoes) {
  const auto property = [this] {
    const int rounds = *rc::gen::inRange(1, kRoundsMax + 1);
    std::vector<Step> steps;
    for (int i = 0; i < rounds; ++i) add_round(steps);
    // A fresh start for every case: both sides empty, both clients new (db 0, no transaction).
    RC_ASSERT(live_->command({"FLUSHALL"}) == Reply::ok());
    fake_ = std::make_unique<engine::Engine>(host_);
    session_ = fake_->open_session();
    Connection clients[2] = {connect(), connect()};
    for (size_t i = 0; i < steps.size(); ++i) {
      const auto [fake, live] = both(clients[steps[i].client], steps[i].argv);
      if (fake == live) continue;
      std::ostringstream why;
      why << "step " << i << ": " << show(steps[i]) << "\n  fake: " << locksim::describe(fake)
          << "\n  live: " << locksim::describe(live) << "\n  sequence:";
      for (size_t j = 0; j <= i; ++j) why << "\n    " << show(steps[j]);
      RC_FAIL(why.str());
    }
  };

  check_quietly("Differential/RandomTransactionsOfTwoClientsAnswerAsTheLiveServerDoes", kCasesMax, property);
}

}  // namespace locksim::test

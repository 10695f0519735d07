// Differential: every lock script of scripts/ through realistic lock sequences, on the fake and on
// the live server. PTTL-like integers may differ by a little (real time passes between the two);
// fair-lock scripts take the client's "now" as ARGV, and both sides get the same value.
#include "verify/support/differential.hpp"

namespace locksim::test {
namespace {


constexpr int64_t kTolerance = 250;  // ms: real time between the fake's and the live server's reply

struct Delivery {
  engine::SessionId session;
  std::string channel;
  std::string message;
  bool operator==(const Delivery&) const = default;
};

class RecordingHost : public WallClockHost {
 public:
  void deliver(engine::SessionId session, std::string_view channel, std::string_view message, std::string_view) override {
    delivered.push_back({session, std::string(channel), std::string(message)});
  }
  std::vector<Delivery> delivered;
};

class LockScripts : public Differential {
 protected:
  void SetUp() override {
    Differential::SetUp();
    fake_ = std::make_unique<engine::Engine>(recording_);
    session_ = fake_->open_session();
  }
  void TearDown() override { fake_.reset(); }

  static std::vector<std::string> script(const std::string& name, const std::vector<std::string>& keys,
                                         const std::vector<std::string>& args) {
    std::vector<std::string> argv{"EVAL", lock_script(name), std::to_string(keys.size())};
    argv.insert(argv.end(), keys.begin(), keys.end());
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
  }
  void same(const std::string& name, const std::vector<std::string>& keys, const std::vector<std::string>& args) {
    expect_same(script(name, keys, args));
  }
  void close(const std::string& name, const std::vector<std::string>& keys, const std::vector<std::string>& args) {
    expect_close(script(name, keys, args), kTolerance);
  }
  // The sorted set with its scores as integers, so that scores derived from a PTTL compare closely.
  void expect_scores_close(const std::string& key) {
    expect_close({"EVAL",
                  "local r = redis.call('zrange', KEYS[1], 0, -1, 'WITHSCORES') "
                  "for i = 2, #r, 2 do r[i] = tonumber(r[i]) end return r",
                  "1", key},
                 kTolerance);
  }
  // Subscribes a fresh live connection and a fresh fake session to `channel`.
  std::pair<std::unique_ptr<RedisClient>, engine::SessionId> subscriber(const std::string& channel) {
    auto live = std::make_unique<RedisClient>(shared_redis_server().port());
    const engine::SessionId fake = fake_->open_session();
    const Reply subscribed = Reply::array({Reply::bulk("subscribe"), Reply::bulk(channel), Reply::integer_of(1)});
    EXPECT_EQ(live->command({"SUBSCRIBE", channel}), subscribed);
    EXPECT_EQ(fake_->execute(fake, {"SUBSCRIBE", channel}), Reply::sequence({subscribed}));
    return {std::move(live), fake};
  }
  static Reply message(const std::string& channel, const std::string& payload) {
    return Reply::array({Reply::bulk("message"), Reply::bulk(channel), Reply::bulk(payload)});
  }

  RecordingHost recording_;
};

const std::string kLock = "lock";
const std::string kChannel = "redisson_lock__channel:{lock}";
const std::string kA = "uuid-a:1", kB = "uuid-b:7";

class RLockAcquire : public LockScripts, public ::testing::WithParamInterface<const char*> {};

TEST_P(RLockAcquire, AcquireReenterContendRenewUnlock) {
  const std::string acquire = GetParam();
  const std::string unlock = "rlock_unlock";
  auto [live_sub, fake_sub] = subscriber(kChannel);

  same(acquire, {kLock}, {"30000", kA});
  expect_same({"HGETALL", kLock});
  expect_close({"PTTL", kLock}, kTolerance);
  same(acquire, {kLock}, {"30000", kA});  // re-enter
  expect_same({"HGET", kLock, kA});
  close(acquire, {kLock}, {"30000", kB});  // contend: the remaining PTTL
  expect_same({"HEXISTS", kLock, kB});
  same("rlock_renew", {kLock}, {"60000", kA});
  expect_close({"PTTL", kLock}, kTolerance);
  same("rlock_renew", {kLock}, {"60000", kB});
  same(unlock, {kLock, kChannel}, {"0", "30000", kB});  // not the holder: nil
  same(unlock, {kLock, kChannel}, {"0", "30000", kA});  // one hold left: 0
  expect_same({"HGET", kLock, kA});
  expect_close({"PTTL", kLock}, kTolerance);
  EXPECT_TRUE(recording_.delivered.empty());
  same(unlock, {kLock, kChannel}, {"0", "30000", kA});  // released: 1, waiters told
  expect_same({"EXISTS", kLock});
  EXPECT_EQ(live_sub->read_reply(), message(kChannel, "0"));
  EXPECT_EQ(recording_.delivered, (std::vector<Delivery>{{fake_sub, kChannel, "0"}}));
  same(unlock, {kLock, kChannel}, {"0", "30000", kA});  // gone: nil
  same("rlock_renew", {kLock}, {"30000", kA});
  same(acquire, {kLock}, {"30000", kB});  // B gets it now
  expect_same({"HGETALL", kLock});
}

TEST_P(RLockAcquire, AcquireAfterTheLeaseRunsOut) {
  const std::string acquire = GetParam();
  same(acquire, {kLock}, {"50", kA});
  expect_same({"DEBUG", "SLEEP", "0.1"});  // the fake's wall-clock host sleeps too
  expect_same({"EXISTS", kLock});
  same(acquire, {kLock}, {"30000", kB});
  expect_same({"HGETALL", kLock});
}

INSTANTIATE_TEST_SUITE_P(EveryEra, RLockAcquire,
                         ::testing::Values("rlock_acquire_hset", "rlock_acquire_hincrby",
                                           "rlock_acquire_one_condition"));

// 3.22.0 to 3.23.x: the publish command is ARGV[4]; the sequence of rlock_unlock, with the same
// replies and messages.
TEST_F(LockScripts, UnlockWithThePublishCommandAsAnArgv) {
  auto [live_sub, fake_sub] = subscriber(kChannel);
  const std::vector<std::string> keys{kLock, kChannel};
  same("rlock_acquire_one_condition", {kLock}, {"30000", kA});
  same("rlock_acquire_one_condition", {kLock}, {"30000", kA});
  same("rlock_unlock_3_22", keys, {"0", "30000", kB, "publish"});  // not the holder: nil
  same("rlock_unlock_3_22", keys, {"0", "30000", kA, "publish"});  // one hold left: 0
  expect_same({"HGET", kLock, kA});
  expect_close({"PTTL", kLock}, kTolerance);
  EXPECT_TRUE(recording_.delivered.empty());
  same("rlock_unlock_3_22", keys, {"0", "30000", kA, "publish"});  // released: 1, waiters told
  expect_same({"EXISTS", kLock});
  EXPECT_EQ(live_sub->read_reply(), message(kChannel, "0"));
  EXPECT_EQ(recording_.delivered, (std::vector<Delivery>{{fake_sub, kChannel, "0"}}));
  same("rlock_unlock_3_22", keys, {"0", "30000", kA, "publish"});  // gone: nil
  // Without the fourth ARGV the script fails at the publish, after the DEL: the lock is gone and
  // nobody is told.
  same("rlock_acquire_one_condition", {kLock}, {"30000", kA});
  same("rlock_unlock_3_22", keys, {"0", "30000", kA});
  expect_same({"EXISTS", kLock});
  // forceUnlock of the same era: ARGV[2] is the command.
  same("rlock_acquire_one_condition", {kLock}, {"30000", kB});
  same("rlock_force_unlock_3_22", keys, {"0", "publish"});
  expect_same({"EXISTS", kLock});
  EXPECT_EQ(live_sub->read_reply(), message(kChannel, "0"));
  same("rlock_force_unlock_3_22", keys, {"0", "publish"});  // nothing to delete: 0
  EXPECT_EQ(recording_.delivered.size(), 2u);
}

TEST_F(LockScripts, WrongTypeKeyFailsTheScript) {
  expect_same({"SET", kLock, "plain"});
  same("rlock_acquire_hincrby", {kLock}, {"30000", kA});
  same("rlock_acquire_hset", {kLock}, {"30000", kA});
  same("rlock_renew", {kLock}, {"30000", kA});
  same("rlock_unlock", {kLock, kChannel}, {"0", "30000", kA});
  same("rlock_acquire_one_condition", {kLock}, {"30000", kA});
  same("rlock_unlock_3_22", {kLock, kChannel}, {"0", "30000", kA, "publish"});
  same("rlock_unlock_latch", {kLock, kChannel, "latch"}, {"0", "30000", kA, "publish", "13500"});
}

TEST_F(LockScripts, UnlockOfAMissingLockIsSilentInOldRedisson) {
  auto [live_sub, fake_sub] = subscriber(kChannel);
  same("rlock_unlock_silent_missing", {kLock, kChannel}, {"0", "30000", kA});  // gone: 1 and a message
  EXPECT_EQ(live_sub->read_reply(), message(kChannel, "0"));
  same("rlock_acquire_hset", {kLock}, {"30000", kA});
  same("rlock_acquire_hset", {kLock}, {"30000", kA});
  same("rlock_unlock_silent_missing", {kLock, kChannel}, {"0", "30000", kB});
  same("rlock_unlock_silent_missing", {kLock, kChannel}, {"0", "30000", kA});
  expect_close({"PTTL", kLock}, kTolerance);
  same("rlock_unlock_silent_missing", {kLock, kChannel}, {"0", "30000", kA});
  EXPECT_EQ(live_sub->read_reply(), message(kChannel, "0"));
  expect_same({"EXISTS", kLock});
  EXPECT_EQ(recording_.delivered,
            (std::vector<Delivery>{{fake_sub, kChannel, "0"}, {fake_sub, kChannel, "0"}}));
}

TEST_F(LockScripts, UnlockWithALatchAnswersAResendAsTheFirstTime) {
  auto [live_sub, fake_sub] = subscriber(kChannel);
  const std::string latch = "redisson_unlock_latch:{" + kLock + "}:req-1";
  same("rlock_acquire_hincrby", {kLock}, {"30000", kA});
  same("rlock_acquire_hincrby", {kLock}, {"30000", kA});
  same("rlock_unlock_latch", {kLock, kChannel, latch}, {"0", "30000", kA, "publish", "13500"});
  expect_same({"HGET", kLock, kA});
  expect_same({"GET", latch});
  expect_close({"PTTL", latch}, kTolerance);
  // The resend: the latch answers 0 again and the count stays at 1.
  same("rlock_unlock_latch", {kLock, kChannel, latch}, {"0", "30000", kA, "publish", "13500"});
  expect_same({"HGET", kLock, kA});
  const std::string latch2 = "redisson_unlock_latch:{" + kLock + "}:req-2";
  same("rlock_unlock_latch", {kLock, kChannel, latch2}, {"0", "30000", kA, "publish", "13500"});
  expect_same({"EXISTS", kLock});
  expect_same({"GET", latch2});
  EXPECT_EQ(live_sub->read_reply(), message(kChannel, "0"));  // published once, by ARGV[4]
  EXPECT_EQ(recording_.delivered, (std::vector<Delivery>{{fake_sub, kChannel, "0"}}));
  same("rlock_unlock_latch", {kLock, kChannel, latch2}, {"0", "30000", kA, "publish", "13500"});
  // A non-holder with a fresh latch gets nil and no latch is written.
  const std::string latch3 = "redisson_unlock_latch:{" + kLock + "}:req-3";
  same("rlock_unlock_latch", {kLock, kChannel, latch3}, {"0", "30000", kB, "publish", "13500"});
  expect_same({"EXISTS", latch3});
  EXPECT_EQ(recording_.delivered.size(), 1u);  // the resend published nothing
}

TEST_F(LockScripts, ForceUnlockDeletesWhoeverHolds) {
  auto [live_sub, fake_sub] = subscriber(kChannel);
  same("rlock_force_unlock", {kLock, kChannel}, {"0"});  // nothing to delete: 0, no message
  same("rlock_acquire_hincrby", {kLock}, {"30000", kA});
  same("rlock_acquire_hincrby", {kLock}, {"30000", kA});
  same("rlock_force_unlock", {kLock, kChannel}, {"0"});
  expect_same({"EXISTS", kLock});
  EXPECT_EQ(live_sub->read_reply(), message(kChannel, "0"));
  EXPECT_EQ(recording_.delivered, (std::vector<Delivery>{{fake_sub, kChannel, "0"}}));
  same("rlock_force_unlock", {kLock, kChannel}, {"0"});
  same("rlock_renew", {kLock}, {"30000", kA});
}

TEST_F(LockScripts, EvalshaRunsTheSameScripts) {
  auto [fake_sha, live_sha] = both({"SCRIPT", "LOAD", lock_script("rlock_acquire_hincrby")});
  ASSERT_EQ(fake_sha, live_sha);
  expect_same({"EVALSHA", live_sha.str, "1", kLock, "30000", kA});
  expect_close({"EVALSHA", live_sha.str, "1", kLock, "30000", kB}, kTolerance);
  auto [fake_unlock, live_unlock] = both({"SCRIPT", "LOAD", lock_script("rlock_unlock")});
  ASSERT_EQ(fake_unlock, live_unlock);
  expect_same({"EVALSHA", live_unlock.str, "2", kLock, kChannel, "0", "30000", kA});
  expect_same({"EXISTS", kLock});
}

TEST_F(LockScripts, TokenRelease) {
  expect_same({"SET", kLock, "token-1", "NX", "PX", "30000"});
  expect_same({"SET", kLock, "token-2", "NX", "PX", "30000"});  // contended: nil
  same("token_release", {kLock}, {"token-2"});
  expect_same({"GET", kLock});
  same("token_release", {kLock}, {"token-1"});
  expect_same({"EXISTS", kLock});
  same("token_release", {kLock}, {"token-1"});
  expect_same({"HSET", kLock, "f", "v"});
  same("token_release", {kLock}, {"token-1"});  // WRONGTYPE from GET, raised by the script
}

// Fair lock: KEYS = lock, queue, timeouts (and the channel prefix for unlock).
const std::string kQueue = "redisson_lock_queue:{lock}";
const std::string kTimeouts = "redisson_lock_timeout:{lock}";
const std::string kPrefix = "redisson_lock__channel:{lock}";
const std::string kH = "uuid-h:1", kW1 = "uuid-w:1", kW2 = "uuid-w:2", kW3 = "uuid-w:3";
constexpr int64_t kNow = 1'700'000'000'000;
constexpr int64_t kWait = 5000;

class FairLock : public LockScripts, public ::testing::WithParamInterface<const char*> {
 protected:
  // ARGV of the acquire script for `id` at client time `now`: the head variant takes now + wait.
  std::vector<std::string> acquire_args(const std::string& id, int64_t now) const {
    const bool head = std::string(GetParam()) == "fair_acquire_head";
    return {"30000", id, std::to_string(head ? now + kWait : kWait), std::to_string(now)};
  }
  void acquire_same(const std::string& id, int64_t now) { same(GetParam(), {kLock, kQueue, kTimeouts}, acquire_args(id, now)); }
  void acquire_close(const std::string& id, int64_t now) {
    close(GetParam(), {kLock, kQueue, kTimeouts}, acquire_args(id, now));
  }
  void unlock_same(const std::string& id, int64_t now) {
    same("fair_unlock", {kLock, kQueue, kTimeouts, kPrefix}, {"0", "30000", id, std::to_string(now)});
  }
  void state_same() {
    expect_same({"LRANGE", kQueue, "0", "-1"});
    expect_scores_close(kTimeouts);
    expect_same({"HGETALL", kLock});
  }
};

TEST_P(FairLock, ThreeWaitersQueueAndUnlockWakesTheHead) {
  auto [live_w1, fake_w1] = subscriber(kPrefix + ":" + kW1);
  acquire_same(kH, kNow);
  acquire_same(kH, kNow);  // re-enter
  acquire_close(kW1, kNow);
  acquire_close(kW2, kNow + 10);
  acquire_close(kW3, kNow + 20);
  state_same();
  acquire_close(kW2, kNow + 30);  // already queued: its estimate, nothing added
  state_same();

  unlock_same(kW2, kNow + 40);  // not the holder: nil
  unlock_same(kH, kNow + 40);   // one hold left: 0
  EXPECT_TRUE(recording_.delivered.empty());
  unlock_same(kH, kNow + 50);  // released: 1, the head (w1) is woken on its own channel
  EXPECT_EQ(live_w1->read_reply(), message(kPrefix + ":" + kW1, "0"));
  EXPECT_EQ(recording_.delivered, (std::vector<Delivery>{{fake_w1, kPrefix + ":" + kW1, "0"}}));
  expect_same({"EXISTS", kLock});

  acquire_close(kW2, kNow + 60);  // free, but w2 is not the head: it keeps waiting
  acquire_same(kW1, kNow + 70);   // the head takes it
  state_same();
  unlock_same(kW1, kNow + 80);  // the next head (w2) is woken; nobody listens there
  expect_same({"PUBLISH", kPrefix + ":" + kW2, "probe"});
  acquire_same(kW2, kNow + 90);
  state_same();
}

TEST_P(FairLock, StaleWaitersAreDropped) {
  acquire_same(kH, kNow);
  acquire_close(kW1, kNow);
  acquire_close(kW2, kNow);
  state_same();
  // Far in the (client's) future every waiter's timeout has passed: both are dropped, w3 queues.
  const int64_t later = kNow + 10 * 60 * 1000;
  acquire_close(kW3, later);
  state_same();
  unlock_same(kH, later);  // releases; w3 is the head now
  acquire_same(kW3, later + 1);
  state_same();
  unlock_same(kW3, later + 2);
  expect_same({"EXISTS", kLock, kQueue, kTimeouts});
}

TEST_P(FairLock, UnlockOfAFreeLockWakesTheHeadAndAnswersOne) {
  auto [live_w1, fake_w1] = subscriber(kPrefix + ":" + kW1);
  acquire_same(kH, kNow);
  acquire_close(kW1, kNow);
  expect_same({"DEL", kLock});  // the lease ran out, say
  unlock_same(kH, kNow + 1);
  EXPECT_EQ(live_w1->read_reply(), message(kPrefix + ":" + kW1, "0"));
  EXPECT_EQ(recording_.delivered, (std::vector<Delivery>{{fake_w1, kPrefix + ":" + kW1, "0"}}));
  unlock_same(kH, kNow + 2);
  EXPECT_EQ(live_w1->read_reply(), message(kPrefix + ":" + kW1, "0"));
  EXPECT_EQ(recording_.delivered.size(), 2u);
}

INSTANTIATE_TEST_SUITE_P(EveryEra, FairLock,
                         ::testing::Values("fair_acquire_head", "fair_acquire_tail", "fair_acquire_tail_3_31",
                                           "fair_acquire_tail_3_32", "fair_acquire_tail_3_45"));

// acquireFailed of each era, after the acquire script of the same era: a middle waiter leaves, then
// the first one (the head era lowers everyone only when the first leaves; the tail era lowers the
// ones after the leaver).
class FairAcquireFailed : public FairLock {
 protected:
  void failed_same(const std::string& id) {
    const std::string script = std::string(GetParam()) == "fair_acquire_head" ? "fair_acquire_failed_head"
                                                                               : "fair_acquire_failed_tail";
    same(script, {kQueue, kTimeouts}, {id, std::to_string(kWait)});
  }
};

TEST_P(FairAcquireFailed, ALeaverLeavesTheQueueAndTheOthersTimeoutsMoveUp) {
  acquire_same(kH, kNow);
  acquire_close(kW1, kNow);
  acquire_close(kW2, kNow + 10);
  acquire_close(kW3, kNow + 20);
  state_same();
  failed_same(kW2);
  state_same();
  failed_same(kW1);
  state_same();
  failed_same(kW1);  // not queued any more: nothing changes
  state_same();
  failed_same(kW3);
  expect_same({"EXISTS", kQueue, kTimeouts});
}

INSTANTIATE_TEST_SUITE_P(BothEras, FairAcquireFailed, ::testing::Values("fair_acquire_head", "fair_acquire_tail"));

// A queue head without a score (the list and the set out of step): the stale loop of 3.11.1 to
// 3.30.x fails the script on comparing nil; 3.31.0's stops there instead and the caller queues
// behind the last waiter; 3.32.0 answers a queued caller max(0, pttl), here 0 (no expiry: -1).
TEST_F(LockScripts, AQueueHeadWithoutAScoreFailsTheOldStaleLoopOnly) {
  const std::vector<std::string> keys{kLock, kQueue, kTimeouts};
  expect_same({"HSET", kLock, kH, "1"});
  expect_same({"RPUSH", kQueue, "ghost:1", kW2});
  expect_same({"ZADD", kTimeouts, std::to_string(kNow + 10000), kW2});
  const std::vector<std::string> args{"30000", kW1, std::to_string(kWait), std::to_string(kNow)};
  same("fair_acquire_tail", keys, args);
  expect_same({"LRANGE", kQueue, "0", "-1"});
  same("fair_acquire_tail_3_31", keys, args);  // 10000: W2's score - now; W1 queued behind W2
  expect_same({"LRANGE", kQueue, "0", "-1"});
  expect_same({"ZRANGE", kTimeouts, "0", "-1", "WITHSCORES"});
  same("fair_acquire_tail_3_31", keys, args);  // already queued: its score - wait - now
  same("fair_acquire_tail_3_32", keys, args);  // already queued: max(0, -1)
  same("fair_acquire_tail_3_45", keys, args);  // the same
  expect_same({"ZRANGE", kTimeouts, "0", "-1", "WITHSCORES"});
}

// The LAST waiter without a score: up to 3.44.x a newcomer's arithmetic on its nil score fails the
// script; 3.45.0 chains from the lock's pttl instead (here -1: no expiry).
TEST_F(LockScripts, ALastWaiterWithoutAScoreFailsTheNewcomerUntil3_45) {
  const std::vector<std::string> keys{kLock, kQueue, kTimeouts};
  expect_same({"HSET", kLock, kH, "1"});
  expect_same({"PEXPIRE", kLock, "30000"});
  expect_same({"RPUSH", kQueue, kW2, "ghost:1"});
  expect_same({"ZADD", kTimeouts, std::to_string(kNow + 10000), kW2});
  const std::vector<std::string> args{"30000", kW1, std::to_string(kWait), std::to_string(kNow)};
  same("fair_acquire_tail", keys, args);
  same("fair_acquire_tail_3_31", keys, args);
  same("fair_acquire_tail_3_32", keys, args);
  expect_same({"LRANGE", kQueue, "0", "-1"});
  close("fair_acquire_tail_3_45", keys, args);  // ~30000: the lock's pttl; W1 queued at the end
  expect_same({"LRANGE", kQueue, "0", "-1"});
  expect_scores_close(kTimeouts);
}

TEST_F(LockScripts, FairForceUnlockDeletesWhoeverHoldsAndWakesTheHead) {
  auto [live_w1, fake_w1] = subscriber(kPrefix + ":" + kW1);
  const std::vector<std::string> keys{kLock, kQueue, kTimeouts, kPrefix};
  same("fair_force_unlock", keys, {"0", std::to_string(kNow)});  // nothing held: 0, no message
  same("fair_acquire_tail", {kLock, kQueue, kTimeouts}, {"30000", kH, std::to_string(kWait), std::to_string(kNow)});
  close("fair_acquire_tail", {kLock, kQueue, kTimeouts}, {"30000", kW1, std::to_string(kWait), std::to_string(kNow)});
  same("fair_force_unlock", keys, {"0", std::to_string(kNow + 5)});
  expect_same({"EXISTS", kLock});
  EXPECT_EQ(live_w1->read_reply(), message(kPrefix + ":" + kW1, "0"));
  EXPECT_EQ(recording_.delivered, (std::vector<Delivery>{{fake_w1, kPrefix + ":" + kW1, "0"}}));
  // Far later, w1 is stale: pruned, and with nothing to delete nobody is told.
  same("fair_force_unlock", keys, {"0", std::to_string(kNow + 10 * 60 * 1000)});
  expect_same({"EXISTS", kQueue, kTimeouts});
  EXPECT_EQ(recording_.delivered.size(), 1u);
}

// tryacquire takes ARGV[3] = now and ARGV[4] = the wait: the reverse of acquire's order.
class FairTryAcquire : public LockScripts, public ::testing::WithParamInterface<const char*> {};

TEST_P(FairTryAcquire, NeverQueues) {
  const std::string tryacquire = GetParam();
  const std::vector<std::string> keys{kLock, kQueue, kTimeouts};
  auto args = [](const std::string& id, int64_t now) {
    return std::vector<std::string>{"30000", id, std::to_string(kWait), std::to_string(now)};
  };
  auto try_args = [](const std::string& id, int64_t now) {
    return std::vector<std::string>{"30000", id, std::to_string(now), std::to_string(kWait)};
  };
  same(tryacquire, keys, try_args(kH, kNow));             // free: taken
  same(tryacquire, keys, try_args(kH, kNow));             // re-entered
  same(tryacquire, keys, try_args(kW2, kNow));            // held: 1, not queued
  expect_same({"EXISTS", kQueue, kTimeouts});
  close("fair_acquire_tail", keys, args(kW1, kNow + 1));  // w1 and w2 queue with acquire
  close("fair_acquire_tail", keys, args(kW2, kNow + 1));
  expect_same({"DEL", kLock});
  same(tryacquire, keys, try_args(kW2, kNow + 2));  // free, but w2 is not the head: 1
  same(tryacquire, keys, try_args(kW1, kNow + 3));  // the head takes it; w2's timeout drops by the wait
  expect_same({"HGETALL", kLock});
  expect_same({"LRANGE", kQueue, "0", "-1"});
  expect_scores_close(kTimeouts);
  expect_same({"DEL", kLock});
  same(tryacquire, keys, try_args(kW3, kNow + 10 * 60 * 1000));  // w2 is stale: pruned, w3 takes it
  expect_same({"EXISTS", kQueue, kTimeouts});
  expect_same({"HGETALL", kLock});
}

INSTANTIATE_TEST_SUITE_P(BothEras, FairTryAcquire,
                         ::testing::Values("fair_tryacquire_tail", "fair_tryacquire_tail_3_31"));

// Redisson's SpinLock: RLock's hash without pub/sub, before and behind the unlock latch.
TEST_F(LockScripts, SpinLockScripts) {
  const std::string latch = "redisson_unlock_latch:{lock}:r1";
  same("spin_acquire", {kLock}, {"30000", kA});
  same("spin_acquire", {kLock}, {"30000", kA});   // re-entered
  close("spin_acquire", {kLock}, {"30000", kB});  // the remaining PTTL
  same("spin_unlock", {kLock}, {"30000", kB});    // not the holder: nil
  same("spin_unlock", {kLock}, {"30000", kA});    // one hold left: 0
  expect_close({"PTTL", kLock}, kTolerance);
  same("spin_unlock_latch", {kLock, latch}, {"30000", kA, "9000"});  // released: 1, the latch set
  same("spin_unlock_latch", {kLock, latch}, {"30000", kA, "9000"});  // a resend: the latch answers 1
  expect_same({"EXISTS", kLock});
  expect_same({"GET", latch});
  same("spin_acquire", {kLock}, {"30000", kB});
  same("spin_force_unlock", {kLock}, {});
  same("spin_force_unlock", {kLock}, {});
}

// Redisson 3.19.0's FencedLock: every grant, a re-entry's too, INCRs the token counter and answers
// {-1, token}; a refusal answers {pttl, -1} and takes no token.
TEST_F(LockScripts, FencedAcquireHandsOutATokenPerGrant) {
  const std::vector<std::string> keys{kLock, "redisson_lock_token:{lock}"};
  same("fenced_acquire", keys, {"30000", kA});   // {-1, 1}
  same("fenced_acquire", keys, {"30000", kA});   // re-entered: {-1, 2}
  close("fenced_acquire", keys, {"30000", kB});  // {pttl, -1}
  expect_same({"HGETALL", kLock});
  expect_same({"GET", "redisson_lock_token:{lock}"});
  expect_same({"DEL", kLock});
  same("fenced_acquire", keys, {"30000", kB});  // {-1, 3}
}

// Redisson 4.4.0's non-reentrant locks: the holder's second acquire is answered with ARGV's error
// (redis.error_reply of a message without a code: "-ERR NON_REENTRANT_REACQUIRE" on Redis 7.0), the
// hash still counting it once; anyone else is told to wait as by RLock and FairLock.
const std::string kReentry = "NON_REENTRANT_REACQUIRE";

TEST_F(LockScripts, NonReentrantAcquireRefusesTheHolderAtOnce) {
  same("nonreentrant_acquire", {kLock}, {"30000", kA, kReentry});  // free: taken
  same("nonreentrant_acquire", {kLock}, {"30000", kA, kReentry});  // the holder again: the error
  expect_same({"HGETALL", kLock});
  close("nonreentrant_acquire", {kLock}, {"30000", kB, kReentry});  // another: the remaining PTTL
  same("rlock_unlock", {kLock, kChannel}, {"0", "30000", kA});       // one unlock frees it
  expect_same({"EXISTS", kLock});
  same("nonreentrant_acquire", {kLock}, {"30000", kB, kReentry});
  expect_same({"HGETALL", kLock});
}

TEST_F(LockScripts, NonReentrantFairAcquireRefusesTheHolderWithoutQueueingIt) {
  const std::vector<std::string> keys{kLock, kQueue, kTimeouts};
  auto args = [](const std::string& id, int64_t now) {
    return std::vector<std::string>{"30000", id, std::to_string(kWait), std::to_string(now), kReentry};
  };
  auto try_args = [](const std::string& id, int64_t now) {
    return std::vector<std::string>{"30000", id, std::to_string(now), std::to_string(kWait), kReentry};
  };
  same("nonreentrant_fair_acquire", keys, args(kH, kNow));            // free: taken
  close("nonreentrant_fair_acquire", keys, args(kW1, kNow + 10));     // w1 queues
  same("nonreentrant_fair_acquire", keys, args(kH, kNow + 20));       // the holder again: the error
  same("nonreentrant_fair_tryacquire", keys, try_args(kH, kNow + 30));  // and without a wait
  same("nonreentrant_fair_tryacquire", keys, try_args(kW2, kNow + 30)); // held: 1, not queued
  expect_same({"HGETALL", kLock});
  expect_same({"LRANGE", kQueue, "0", "-1"});
  expect_scores_close(kTimeouts);
  same("fair_unlock", {kLock, kQueue, kTimeouts, kPrefix}, {"0", "30000", kH, std::to_string(kNow + 40)});
  same("nonreentrant_fair_tryacquire", keys, try_args(kW2, kNow + 50));  // free, but w1 is the head: 1
  same("nonreentrant_fair_acquire", keys, args(kW1, kNow + 60));         // the head takes it
  expect_same({"HGETALL", kLock});
  expect_same({"EXISTS", kQueue, kTimeouts});
}

// A queue head without a score: 3.31.0's tryacquire stops its stale loop there, the older one fails.
TEST_F(LockScripts, FairTryAcquireWithAHeadWithoutAScore) {
  const std::vector<std::string> keys{kLock, kQueue, kTimeouts};
  expect_same({"RPUSH", kQueue, "ghost:1"});
  const std::vector<std::string> args{"30000", kW1, std::to_string(kNow), std::to_string(kWait)};
  same("fair_tryacquire_tail", keys, args);
  same("fair_tryacquire_tail_3_31", keys, args);  // not the head: 1
  expect_same({"LRANGE", kQueue, "0", "-1"});
}

// ReadWriteLock: one hash "lock" with `mode` and a field per holder, reader timeout keys
// "{lock}:<id>:rwlock_timeout:<n>", channel "redisson_rwlock:{lock}".
const std::string kRwChannel = "redisson_rwlock:{lock}";
const std::string kRwPrefix = "{lock}";
std::string timeouts(const std::string& id) { return kRwPrefix + ":" + id + ":rwlock_timeout"; }

class RwLockScripts : public LockScripts {
 protected:
  void read_acquire(const std::string& id, const std::string& lease = "30000") {
    close("rwlock_read_acquire", {kLock, timeouts(id)}, {lease, id, id + ":write"});
  }
  void write_acquire(const std::string& id, const std::string& lease = "30000") {
    close("rwlock_write_acquire", {kLock}, {lease, id + ":write"});
  }
  void read_unlock(const std::string& id) {
    same("rwlock_read_unlock", {kLock, kRwChannel, timeouts(id), kRwPrefix}, {"0", id});
  }
  void write_unlock(const std::string& id) {
    same("rwlock_write_unlock", {kLock, kRwChannel}, {"1", "30000", id + ":write"});
  }
  // 3.44.0: the latch key (KEYS[5] / KEYS[3]), the publish command and the latch's lifetime.
  void read_unlock_3_44(const std::string& id, const std::string& latch) {
    same("rwlock_read_unlock_3_44", {kLock, kRwChannel, timeouts(id), kRwPrefix, latch},
         {"0", id, "publish", "13500"});
  }
  void write_unlock_3_44(const std::string& id, const std::string& latch) {
    same("rwlock_write_unlock_3_44", {kLock, kRwChannel, latch}, {"1", "30000", id + ":write", "publish", "13500"});
  }
  void pttl(const std::string& key) { expect_close({"PTTL", key}, kTolerance); }
};

TEST_F(RwLockScripts, ReadersShareAndTheLastOneOutDeletesAndPublishesZero) {
  auto [live_sub, fake_sub] = subscriber(kRwChannel);
  read_acquire(kA, "10000");
  expect_same({"HGETALL", kLock});
  pttl(kLock);
  pttl(timeouts(kA) + ":1");
  read_acquire(kB, "30000");  // read mode: shared; the hash takes max(pttl, lease)
  read_acquire(kB, "5000");   // a re-entry with a shorter lease keeps the longer TTL
  expect_same({"HGETALL", kLock});
  pttl(kLock);
  pttl(timeouts(kB) + ":2");
  write_acquire(kA);  // read mode: a writer is told the TTL, even the reader itself
  read_unlock(kB);    // B's :2 goes; the hash takes the longest reader TTL left (B's :1, 30 s)
  expect_same({"EXISTS", timeouts(kB) + ":2"});
  pttl(kLock);
  read_unlock(kB);    // only A is left: the hash takes A's 10 s
  pttl(kLock);
  read_unlock(kB);    // B holds nothing: nil
  EXPECT_TRUE(recording_.delivered.empty());
  read_unlock(kA);    // the last reader: 1, hash deleted, 0 published
  expect_same({"EXISTS", kLock, timeouts(kA) + ":1"});
  EXPECT_EQ(live_sub->read_reply(), message(kRwChannel, "0"));
  EXPECT_EQ(recording_.delivered, (std::vector<Delivery>{{fake_sub, kRwChannel, "0"}}));
  read_unlock(kA);    // a missing lock: silent 1 and another message (up to 3.43.x)
  EXPECT_EQ(live_sub->read_reply(), message(kRwChannel, "0"));
  read_unlock_3_44(kA, "latch-1");  // 3.44.0: nil, but still a message, and the latch is set
  EXPECT_EQ(live_sub->read_reply(), message(kRwChannel, "0"));
  expect_same({"GET", "latch-1"});
  read_unlock_3_44(kA, "latch-1");  // the resend: the latch's 1
  EXPECT_EQ(recording_.delivered.size(), 3u);
}

TEST_F(RwLockScripts, TheLatchOf3_44AnswersAResendOfAReadUnlockAsTheFirstTime) {
  auto [live_sub, fake_sub] = subscriber(kRwChannel);
  read_acquire(kA);
  read_acquire(kA);
  read_acquire(kB);
  read_unlock_3_44(kA, "latch-1");  // other holders: 0
  read_unlock_3_44(kA, "latch-1");  // the resend: 0 again, A still holds once
  expect_same({"HGETALL", kLock});
  expect_same({"GET", "latch-1"});
  expect_close({"PTTL", "latch-1"}, kTolerance);
  read_unlock_3_44(kA, "latch-2");
  read_unlock_3_44(kB, "latch-3");  // the last reader: 1, deleted, published
  expect_same({"EXISTS", kLock});
  EXPECT_EQ(live_sub->read_reply(), message(kRwChannel, "0"));
  read_unlock_3_44(kB, "latch-3");  // resend: 1, no second message
  read_unlock_3_44(kB, "latch-4");  // holds nothing, lock missing: nil (and a message)
  EXPECT_EQ(live_sub->read_reply(), message(kRwChannel, "0"));
  EXPECT_EQ(recording_.delivered.size(), 2u);
  read_acquire(kA);
  read_unlock_3_44(kB, "latch-5");  // not a reader: nil, no latch
  expect_same({"EXISTS", "latch-5"});
}

TEST_F(RwLockScripts, AWriterExcludesOthersReentersByAddingItsLeaseAndPublishesOne) {
  auto [live_sub, fake_sub] = subscriber(kRwChannel);
  write_acquire(kA, "10000");
  expect_same({"HGETALL", kLock});
  write_acquire(kA, "10000");  // re-entry: pttl + lease, ~20 s
  pttl(kLock);
  write_acquire(kB);           // busy: the TTL
  read_acquire(kB);            // busy: the TTL
  write_unlock(kB);            // not the holder: nil
  same("rlock_renew", {kLock}, {"30000", kA + ":write"});  // the write side renews as RLock does
  pttl(kLock);
  write_unlock(kA);            // one hold left: 0, the lease restarts
  pttl(kLock);
  write_unlock(kA);            // released: 1, deleted, READ_UNLOCK_MESSAGE
  expect_same({"EXISTS", kLock});
  EXPECT_EQ(live_sub->read_reply(), message(kRwChannel, "1"));
  EXPECT_EQ(recording_.delivered, (std::vector<Delivery>{{fake_sub, kRwChannel, "1"}}));
  write_unlock(kA);            // missing: silent 1 (up to 3.43.x) ...
  EXPECT_EQ(live_sub->read_reply(), message(kRwChannel, "1"));
  write_unlock_3_44(kA, "latch-1");  // ... nil from 3.44.0 (still a message; the latch set)
  EXPECT_EQ(live_sub->read_reply(), message(kRwChannel, "1"));
  expect_same({"GET", "latch-1"});
  read_acquire(kB);
  write_unlock(kB);            // read mode: nil for a write unlock
  write_unlock_3_44(kB, "latch-2");
  expect_same({"EXISTS", "latch-2"});
  expect_same({"HGETALL", kLock});
  same("rwlock_read_force_unlock", {kLock, kRwChannel}, {"0"});  // B's read lock, deleted
  EXPECT_EQ(live_sub->read_reply(), message(kRwChannel, "0"));
  write_acquire(kA);
  write_acquire(kA);
  write_unlock_3_44(kA, "latch-3");  // one hold left: 0, latched
  write_unlock_3_44(kA, "latch-3");  // the resend: 0, still one hold
  expect_same({"HGETALL", kLock});
  write_unlock_3_44(kA, "latch-4");  // released: 1, READ_UNLOCK_MESSAGE
  EXPECT_EQ(live_sub->read_reply(), message(kRwChannel, "1"));
  write_unlock_3_44(kA, "latch-4");
  expect_same({"EXISTS", kLock});
  EXPECT_EQ(recording_.delivered.size(), 5u);
}

TEST_F(RwLockScripts, AWriterReadsToo_ItsWriteUnlockLeavesReadMode) {
  write_acquire(kA);
  read_acquire(kA, "10000");   // the writer's own read lock
  read_acquire(kA, "10000");
  expect_same({"HGETALL", kLock});
  read_acquire(kB);            // another reader: busy
  read_unlock(kA);             // write mode with other fields: 0, the hash lives on
  expect_same({"HGETALL", kLock});
  pttl(kLock);
  write_unlock(kA);            // the writer leaves; its read hold remains: mode read, 1
  expect_same({"HGETALL", kLock});
  EXPECT_TRUE(recording_.delivered.empty());
  read_acquire(kB);            // now B can read
  expect_same({"HGETALL", kLock});
  same("rwlock_write_force_unlock", {kLock, kRwChannel}, {"1"});  // wrong mode: 0
  same("rwlock_read_force_unlock", {kLock, kRwChannel}, {"0"});   // deleted: 1
  expect_same({"EXISTS", kLock});
}

TEST_F(RwLockScripts, ReadRenewalRestartsTheHashAndEveryReadersTimeoutKey) {
  read_acquire(kA, "1000");
  read_acquire(kB, "2000");
  read_acquire(kB, "2000");
  same("rwlock_read_renew", {kLock, kRwPrefix}, {"30000", kA});
  pttl(kLock);
  pttl(timeouts(kA) + ":1");
  pttl(timeouts(kB) + ":1");  // B's keys too, renewed by A
  pttl(timeouts(kB) + ":2");
  same("rwlock_read_renew", {kLock, kRwPrefix}, {"30000", "uuid-c:3"});  // not a reader: 0
  expect_same({"DEL", kLock});
  same("rwlock_read_renew", {kLock, kRwPrefix}, {"30000", kA});
  expect_same({"SET", kLock, "plain"});  // a wrong-type key fails every script alike
  read_acquire(kA);
  write_acquire(kA);
  read_unlock(kA);
  write_unlock(kA);
  same("rwlock_read_renew", {kLock, kRwPrefix}, {"30000", kA});
}

TEST_F(RwLockScripts, AnExpiredReaderTimeoutKeyNoLongerHoldsTheHashOpen) {
  read_acquire(kA, "100");
  read_acquire(kB, "30000");
  expect_same({"DEBUG", "SLEEP", "0.2"});  // A's timeout key expires; its field stays
  expect_same({"EXISTS", timeouts(kA) + ":1"});
  read_unlock(kB);  // only A's field remains, whose key is gone: max -2 -> hash deleted, 1
  expect_same({"EXISTS", kLock});
}

}  // namespace
}  // namespace locksim::test

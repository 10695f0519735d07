// Redisson's client logic that changed across versions (shared/redisson-versions.md), one option of
// RedissonOptions or CommandPolicy each: every test pins what the affected setting does, to the
// millisecond or to the key's PTTL, beside what the fixed setting does in the same run.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "model/checkers.hpp"
#include "scenario/loader.hpp"
#include "scenario/runner.hpp"
#include "sim/simulation.hpp"

namespace locksim::world {
namespace {

using client::LeaseMemory;
using client::RedissonOptions;
using client::UnlockCancelsRenewal;
using client::WatchdogOnError;
using model::EventKind;
using model::Validity;

OpSpec lock_op(int64_t lease_ms = -1) { return OpSpec::lock_op("orders", lease_ms); }
OpSpec unlock_op() { return OpSpec::unlock("orders"); }
OpSpec work_op(int64_t ms) { return OpSpec::work(ms); }

// The default options with `change` made.
template <typename Change>
RedissonOptions options(Change change) {
  RedissonOptions o;
  change(o);
  return o;
}

// An RLock (or a lock of `type`) "orders" over one server; every message takes exactly 1 ms, so
// times are exact.
std::unique_ptr<sim::Simulation> rlock_world(RedissonOptions redisson, bool reorder = false,
                                             const std::string& type = "rlock") {
  WorldOptions options;
  options.link.latency_min_ms = 1;
  options.link.latency_max_ms = 1;
  options.link.reorder = reorder;
  auto made = std::make_unique<sim::Simulation>(options);
  client::LockSpec spec;
  spec.type = type;
  spec.name = "orders";
  spec.redisson = redisson;
  made->world.add_lock(spec);
  made->world.add_client("A");
  made->world.add_client("B");
  return made;
}

// The executions of `role` the server ran; `noscript`: also the EVALSHAs it answered NOSCRIPT,
// which ran nothing (each script's first use, and the first after a restart, is one of those).
std::vector<model::Event> execs(World& w, const std::string& role, bool noscript = false) {
  std::vector<model::Event> out;
  for (const auto& e : w.history().events())
    if (e.kind == EventKind::Exec && e.f == role && (noscript || e.reply.rfind("-NOSCRIPT", 0) != 0)) out.push_back(e);
  return out;
}

int64_t invoked_at(World& w, const std::string& process, int64_t thread, const std::string& f) {
  for (const auto& e : w.history().events())
    if (e.process == process && e.thread == thread && e.f == f && e.kind == EventKind::Invoke) return e.at_ms;
  ADD_FAILURE() << "no invoke of " << process << ":" << thread << " " << f;
  return -1;
}

model::Event outcome(World& w, const std::string& process, int64_t thread, const std::string& f, size_t n = 0) {
  size_t seen = 0;
  for (const auto& e : w.history().events())
    if (e.process == process && e.thread == thread && e.f == f && model::is_outcome(e.kind) && seen++ == n) return e;
  ADD_FAILURE() << "no outcome " << n << " of " << process << ":" << thread << " " << f;
  return {};
}

// The lock key's PTTL on the server now, -2 when it is gone.
int64_t pttl(sim::Simulation& s) {
  const auto& entries = s.servers.node(0).engine().keyspace().entries();
  auto it = entries.find("orders");
  if (it == entries.end()) return -2;
  if (it->second.expire_at_ms < 0) return -1;
  return it->second.expire_at_ms - s.world.epoch_now();
}

// Judged with the watchdog lease the world's clients ran with (a renewal that sets another is a
// violation of its own).
Validity verdict(World& w, const std::string& property, int64_t watchdog_ms = 30000) {
  model::CheckerOptions options;
  options.watchdog.watchdog_lease_ms = watchdog_ms;
  return model::run_checkers(w.history(), {property}, options)[0].valid;
}

// --- lease_memory ---------------------------------------------------------------------------------

// lock(5000), unlock, then lock(): the second acquire's PEXPIRE and the first renewal.
struct LeaseLessAfterExplicit {
  int64_t acquire_ttl = 0;
  int64_t first_renewal_after_ms = 0;
  std::string first_renewal_reply;
};

LeaseLessAfterExplicit lease_less_after_explicit(LeaseMemory memory, const std::string& type = "rlock") {
  auto s = rlock_world(options([&](RedissonOptions& o) { o.lease_memory = memory; }), false, type);
  s->world.op(0, "A", 1, lock_op(5000));
  s->world.op(0, "A", 1, unlock_op());
  s->world.op(1000, "A", 1, lock_op());
  s->world.op(1000, "A", 1, work_op(40000));
  s->world.run_until(40000);
  const auto acquires = execs(s->world, "acquire");
  const auto renewals = execs(s->world, "renew");
  EXPECT_GE(acquires.size(), 2u);
  EXPECT_GE(renewals.size(), 1u);
  if (acquires.size() < 2 || renewals.empty()) return {};
  return {acquires[1].ttl_ms, renewals[0].at_ms - acquires[1].at_ms, renewals[0].reply};
}

TEST(LeaseMemory, PerAcquireGivesALeaseLessLockTheWatchdogTimeout) {
  const LeaseLessAfterExplicit r = lease_less_after_explicit(LeaseMemory::PerAcquire);
  EXPECT_EQ(r.acquire_ttl, 30000);
  // lockWatchdogTimeout / 3 after the acquire's reply (1 ms back); the renewal script's first
  // EVALSHA is answered NOSCRIPT and resent as EVAL (3 ms more).
  EXPECT_EQ(r.first_renewal_after_ms, 10004);
  EXPECT_EQ(r.first_renewal_reply, "1");
}

// #4818 (3.15.0 to 3.19.1): the PEXPIRE is the stale 5 s lease, the renewal still comes at 10 s and
// finds the key gone.
TEST(LeaseMemory, StaleExplicitSendsTheLastExplicitLeaseButRenewsOnTheWatchdogPeriod) {
  const LeaseLessAfterExplicit r = lease_less_after_explicit(LeaseMemory::StaleExplicit);
  EXPECT_EQ(r.acquire_ttl, 5000);
  EXPECT_EQ(r.first_renewal_after_ms, 10004);
  EXPECT_EQ(r.first_renewal_reply, "0");
}

// RedissonLockTest.testRemainTimeToLive2: lock(10 s) three times, unlock twice.
std::vector<int64_t> partial_unlock_ttls(LeaseMemory memory, const std::string& type = "rlock") {
  auto s = rlock_world(options([&](RedissonOptions& o) { o.lease_memory = memory; }), false, type);
  for (int i = 0; i < 3; ++i) s->world.op(0, "A", 1, lock_op(10000));
  s->world.op(0, "A", 1, unlock_op());
  s->world.op(0, "A", 1, unlock_op());
  s->world.run_until(100);
  EXPECT_EQ(outcome(s->world, "A", 1, "unlock", 1).kind, EventKind::Ok);
  std::vector<int64_t> ttls;
  for (const auto& e : execs(s->world, "unlock")) ttls.push_back(e.ttl_ms);
  ttls.push_back(pttl(*s));
  return ttls;
}

TEST(LeaseMemory, PerAcquireKeepsTheExplicitLeaseThroughPartialUnlocks) {
  const std::vector<int64_t> ttls = partial_unlock_ttls(LeaseMemory::PerAcquire);
  ASSERT_EQ(ttls.size(), 3u);
  EXPECT_EQ(ttls[0], 10000);
  EXPECT_EQ(ttls[1], 10000);
  EXPECT_LE(ttls[2], 10000);
  EXPECT_GE(ttls[2], 9900);
}

// #5623 (3.19.2 to 3.27.1): the first unlock resets the stored lease, so the second PEXPIREs to 30 s.
TEST(LeaseMemory, ResetOnUnlockPexpiresAPartialUnlockToTheWatchdogTimeout) {
  const std::vector<int64_t> ttls = partial_unlock_ttls(LeaseMemory::ResetOnUnlock);
  ASSERT_EQ(ttls.size(), 3u);
  EXPECT_EQ(ttls[0], 10000);
  EXPECT_EQ(ttls[1], 30000);
  EXPECT_GT(ttls[2], 29900);
}

// RedissonSpinLock keeps its own internalLockLeaseTime, which hides RedissonBaseLock's, and only its
// cancelExpirationRenewal override puts it back: none up to 3.19.1, so a lease-less lock() after an
// explicit lease sends the stale 5 s as RLock did (#4818's shape)...
TEST(LeaseMemory, SpinLockUpTo3_19_1NeverPutsItsLeaseBack) {
  const LeaseLessAfterExplicit r = lease_less_after_explicit(LeaseMemory::StaleExplicit, "spin");
  EXPECT_EQ(r.acquire_ttl, 5000);
  EXPECT_EQ(r.first_renewal_reply, "0") << "the renewal comes on the watchdog's period and finds the key gone";
}

// ... from 3.19.2 the unlock that released the hold puts it back ...
TEST(LeaseMemory, SpinLockFrom3_19_2PutsItsLeaseBackWhenTheUnlockReleases) {
  for (const LeaseMemory memory : {LeaseMemory::ResetOnUnlock, LeaseMemory::PerAcquire}) {
    const LeaseLessAfterExplicit r = lease_less_after_explicit(memory, "spin");
    EXPECT_EQ(r.acquire_ttl, 30000);
    EXPECT_EQ(r.first_renewal_reply, "1");
  }
}

// ... where a partial unlock does it too up to 3.27.1 (#5623's shape), and not from 3.27.2.
TEST(LeaseMemory, SpinLockPartialUnlocksKeepTheLeaseFrom3_27_2Only) {
  const std::vector<int64_t> reset = partial_unlock_ttls(LeaseMemory::ResetOnUnlock, "spin");
  ASSERT_EQ(reset.size(), 3u);
  EXPECT_EQ(reset[1], 30000);
  const std::vector<int64_t> kept = partial_unlock_ttls(LeaseMemory::PerAcquire, "spin");
  ASSERT_EQ(kept.size(), 3u);
  EXPECT_EQ(kept[1], 10000);
  EXPECT_LE(kept[2], 10000);
}

// The spin lock's watchdog renews from RedissonBaseLock's field, which a spin lock never sets: every
// lockWatchdogTimeout/3, to lockWatchdogTimeout. A:2 holds lease-less; A:1's refused lock(5000)
// attempts set the spin lock's own field to 5 s, which A:2's renewals must not send.
TEST(LeaseMemory, SpinLockRenewsOnTheWatchdogsTimeoutWhateverLeaseItsThreadsSend) {
  // 3.27.2 to 3.43.x: RLock's renewal would read internalLockLeaseTime (3.44.0's batched one does not).
  auto s = rlock_world(options([](RedissonOptions& o) {
                         o.lease_memory = LeaseMemory::PerAcquire;
                         o.renewal_at_watchdog_timeout = false;
                       }),
                       false, "spin");
  s->world.op(0, "A", 2, lock_op());
  s->world.op(0, "A", 2, work_op(40000));
  s->world.op(1000, "A", 1, lock_op(5000));
  s->world.run_until(30000);
  const auto renewals = execs(s->world, "renew");
  ASSERT_GE(renewals.size(), 2u);
  for (const auto& r : renewals) {
    EXPECT_EQ(r.reply, "1");
    EXPECT_EQ(r.ttl_ms, 30000) << "renewed at " << r.at_ms;
  }
  EXPECT_GE(renewals[1].at_ms - renewals[0].at_ms, 10000) << "on the watchdog's period";
}

// --- unlock_cancels_renewal -----------------------------------------------------------------------

// A holds with the watchdog and unlocks at 10.5 s while every message of A is lost until 24.1 s: all
// four sends of the unlock are lost, the renewal of 20 s gets through on its resend at 24.5 s.
std::unique_ptr<sim::Simulation> unlock_times_out(UnlockCancelsRenewal cancels) {
  auto s = rlock_world(options([&](RedissonOptions& o) { o.unlock_cancels_renewal = cancels; }));
  s->world.op(0, "A", 1, lock_op());
  s->world.op(0, "A", 1, work_op(10500));
  s->world.op(0, "A", 1, unlock_op());
  s->world.inject(10500, {.kind = FaultKind::Loss, .client = "A", .for_ms = 13600});
  s->world.run_until(120000);
  EXPECT_EQ(outcome(s->world, "A", 1, "unlock").kind, EventKind::Info);
  return s;
}

TEST(UnlockCancelsRenewal, AlwaysStopsRenewingAfterAnUnlockThatTimedOut) {
  auto s = unlock_times_out(UnlockCancelsRenewal::Always);
  const int64_t gave_up = outcome(s->world, "A", 1, "unlock").at_ms;
  EXPECT_EQ(gave_up - invoked_at(s->world, "A", 1, "unlock"), 4 * 3000 + 3 * 1500);
  int64_t sent_after = 0;
  for (const auto& e : execs(s->world, "renew")) sent_after += e.sent_ms > gave_up;
  EXPECT_EQ(sent_after, 0);
  EXPECT_EQ(pttl(*s), -2) << "the last renewal's 30 s ran out";
}

// #1966 (up to 3.10.4): the renewal outlives the unlock and keeps the key forever.
TEST(UnlockCancelsRenewal, OnlyWhenAnsweredKeepsRenewingAfterAnUnlockThatTimedOut) {
  auto s = unlock_times_out(UnlockCancelsRenewal::OnlyWhenAnswered);
  const int64_t gave_up = outcome(s->world, "A", 1, "unlock").at_ms;
  int64_t renewed_after = 0;
  for (const auto& e : execs(s->world, "renew")) renewed_after += e.sent_ms > gave_up && e.reply == "1";
  EXPECT_GE(renewed_after, 9);  // one every 10 s from 34.5 s to 114.5 s
  EXPECT_GT(pttl(*s), 20000);
  EXPECT_EQ(verdict(s->world, "watchdog"), Validity::No);
}

// A:1 locks, Redis restarts empty, A:1's unlock is answered nil, then A:2 locks the same name.
std::unique_ptr<sim::Simulation> unlock_answered_nil(UnlockCancelsRenewal cancels) {
  auto s = rlock_world(options([&](RedissonOptions& o) { o.unlock_cancels_renewal = cancels; }));
  s->world.op(0, "A", 1, lock_op());
  s->world.inject(2000, {.kind = FaultKind::RedisRestart});
  s->world.op(3000, "A", 1, unlock_op());
  s->world.op(4000, "A", 2, lock_op());
  s->world.op(4000, "A", 2, work_op(60000));
  s->world.run_until(60000);
  EXPECT_EQ(outcome(s->world, "A", 1, "unlock").kind, EventKind::Fail);
  EXPECT_EQ(outcome(s->world, "A", 2, "lock").kind, EventKind::Ok);
  return s;
}

TEST(UnlockCancelsRenewal, AlwaysGivesTheNextLockItsOwnRenewal) {
  auto s = unlock_answered_nil(UnlockCancelsRenewal::Always);
  const auto renewals = execs(s->world, "renew");
  ASSERT_GE(renewals.size(), 5u);
  for (const auto& e : renewals) EXPECT_EQ(e.thread, 2) << e.at_ms;
  // A:2's acquire ran at 4003 (after NOSCRIPT: the restart emptied the script cache); its own timer
  // renews 10 s after the reply, again after a NOSCRIPT.
  EXPECT_EQ(renewals[0].at_ms, 14007);
  EXPECT_GT(pttl(*s), 20000);
}

// #2515 (3.12.0): the entry of A:1 stays with its timer; A:2's lock() joins it, the timer renews for
// A:1 (its first thread), is told 0 and stops, and A:2's hold expires 30 s after it was taken.
TEST(UnlockCancelsRenewal, NotOnNilLeavesTheNextLockWithoutRenewal) {
  auto s = unlock_answered_nil(UnlockCancelsRenewal::NotOnNil);
  const auto renewals = execs(s->world, "renew");
  ASSERT_EQ(renewals.size(), 1u);
  EXPECT_EQ(renewals[0].thread, 1);
  EXPECT_EQ(renewals[0].reply, "0");
  EXPECT_EQ(renewals[0].at_ms, 10007);
  EXPECT_EQ(pttl(*s), -2);
  EXPECT_EQ(verdict(s->world, "watchdog"), Validity::No);
}

// --- renewal_at_watchdog_timeout -----------------------------------------------------------------

// A:1 holds with lock(), then re-enters with lock(10 s) at 1 s and keeps both holds: the renewals
// after the re-entry, as the server ran them.
std::vector<model::Event> renewals_after_lease_reentry(bool at_watchdog_timeout) {
  auto s = rlock_world(options([&](RedissonOptions& o) { o.renewal_at_watchdog_timeout = at_watchdog_timeout; }));
  s->world.op(0, "A", 1, lock_op());
  s->world.op(1000, "A", 1, lock_op(10000));
  s->world.op(1000, "A", 1, work_op(60000));
  s->world.run_until(25000);
  return execs(s->world, "renew");
}

// Up to 3.43.x the instance's timer renews with internalLockLeaseTime, which the re-entry set to
// 10 s: after the first renewal (at 10 s, scheduled before it), every 3.3 s, to 10 s.
TEST(RenewalAtWatchdogTimeout, OffRenewsWithTheReentrysLease) {
  const auto renewals = renewals_after_lease_reentry(false);
  ASSERT_GE(renewals.size(), 3u);
  EXPECT_NE(renewals[1].text.find(" 10000 "), std::string::npos) << renewals[1].text;
  EXPECT_EQ(renewals[2].at_ms - renewals[1].at_ms, 3333 + 2);
}

// 3.44.0 on, the LockTask renews every 10 s to 30 s, whatever lease the instance last used.
TEST(RenewalAtWatchdogTimeout, OnRenewsWithTheWatchdogTimeout) {
  const auto renewals = renewals_after_lease_reentry(true);
  ASSERT_EQ(renewals.size(), 2u);
  for (const auto& e : renewals) EXPECT_NE(e.text.find(" 30000 "), std::string::npos) << e.text;
  EXPECT_EQ(renewals[1].at_ms - renewals[0].at_ms, 10000 + 2);
}

// --- not_held_drops_thread ---------------------------------------------------------------------------

// A:1 holds twice with lock(); B force-unlocks at 5 s, so every later renewal is told 0.
std::vector<model::Event> renewals_after_force_unlock(bool drops_thread) {
  auto s = rlock_world(options([&](RedissonOptions& o) {
    o.not_held_drops_thread = drops_thread;
    o.watchdog_on_error = WatchdogOnError::KeepRenewing;
  }));
  s->world.op(0, "A", 1, lock_op());
  s->world.op(0, "A", 1, lock_op());
  s->world.op(0, "A", 1, work_op(60000));
  s->world.op(5000, "B", 1, OpSpec::force_unlock("orders"));
  s->world.run_until(60000);
  return execs(s->world, "renew");
}

// Up to 3.43.x the first 0 ends the entry (cancelExpirationRenewal(null)).
TEST(NotHeldDropsThread, OffEndsRenewalAtTheFirstZero) {
  const auto renewals = renewals_after_force_unlock(false);
  ASSERT_EQ(renewals.size(), 1u);
  EXPECT_EQ(renewals[0].reply, "0");
}

// 3.44.0 on: each 0 drops one of A:1's two holds from the entry; the second ends it.
TEST(NotHeldDropsThread, OnDropsOneHoldPerZero) {
  const auto renewals = renewals_after_force_unlock(true);
  ASSERT_EQ(renewals.size(), 2u);
  for (const auto& e : renewals) EXPECT_EQ(e.reply, "0") << e.at_ms;
  EXPECT_EQ(renewals[1].at_ms - renewals[0].at_ms, 10002);  // a period after the reply, 1 ms each way
}

// --- entry_leak -----------------------------------------------------------------------------------

// #6144 (Redisson's own test of the fix, testLockReentrantRenew): A:1 locks twice and unlocks twice;
// A:2 then holds with lock() for 40 s.
std::unique_ptr<sim::Simulation> reentrant_then_second_thread(client::EntryLeak leak) {
  auto s = rlock_world(options([&](RedissonOptions& o) {
    o.entry_leak = leak;
    o.watchdog_on_error = WatchdogOnError::KeepRenewing;
  }));
  s->world.op(0, "A", 1, lock_op());
  s->world.op(0, "A", 1, lock_op());
  s->world.op(0, "A", 1, unlock_op());
  s->world.op(0, "A", 1, unlock_op());
  s->world.op(1000, "A", 2, lock_op());
  s->world.op(1000, "A", 2, work_op(40000));
  s->world.run_until(35000);
  return s;
}

// Fixed (up to 3.36.x, and from 3.46.0): A:1 leaves the entry with its last unlock; A:2's lock()
// starts a timer of its own that renews for A:2.
TEST(EntryLeak, NoneRenewsTheSecondThread) {
  auto s = reentrant_then_second_thread(client::EntryLeak::None);
  const auto renewals = execs(s->world, "renew");
  ASSERT_GE(renewals.size(), 3u);
  for (const auto& e : renewals) EXPECT_EQ(e.thread, 2) << e.at_ms;
  EXPECT_GT(pttl(*s), 20000);
}

// 3.37.0-3.43.x: a stale copy of A:1 heads the entry and its timer; it renews for A:1 at 10 s, is
// told 0 and cancels the entry, A:2 with it: A:2's hold is gone at 31 s.
TEST(EntryLeak, ByNameRenewsForTheStaleThreadAndEndsTheSecondThreadsRenewal) {
  auto s = reentrant_then_second_thread(client::EntryLeak::ByName);
  const auto renewals = execs(s->world, "renew");
  ASSERT_EQ(renewals.size(), 1u);
  EXPECT_EQ(renewals[0].thread, 1);
  EXPECT_EQ(renewals[0].reply, "0");
  EXPECT_EQ(pttl(*s), -2);
  EXPECT_EQ(verdict(s->world, "watchdog"), Validity::No);
}

// 3.44.0 until the fix: the stale A:1 has no lock name; nothing is ever sent for the lock.
TEST(EntryLeak, NullNameNeverRenewsAgain) {
  auto s = reentrant_then_second_thread(client::EntryLeak::NullName);
  EXPECT_TRUE(execs(s->world, "renew", true).empty());
  EXPECT_EQ(pttl(*s), -2);
  EXPECT_EQ(verdict(s->world, "watchdog"), Validity::No);
}

// --- watchdog_on_error ----------------------------------------------------------------------------

// lockWatchdogTimeout 90 s (renewal every 30 s): A:1 holds; every message of A is lost from 29 s to
// 49 s, so the renewal of 30 s fails with all its resends; A:2 waits in lock() meanwhile.
std::unique_ptr<sim::Simulation> renewal_fails(WatchdogOnError on_error) {
  auto s = rlock_world(options([&](RedissonOptions& o) {
    o.watchdog_timeout_ms = 90000;
    o.watchdog_on_error = on_error;
  }));
  s->world.op(0, "A", 1, lock_op());
  s->world.op(0, "A", 1, work_op(200000));
  s->world.op(0, "A", 1, unlock_op());
  s->world.op(5000, "A", 2, lock_op());
  s->world.op(5000, "A", 2, work_op(120000));
  s->world.op(5000, "A", 2, unlock_op());
  s->world.inject(29000, {.kind = FaultKind::Loss, .client = "A", .for_ms = 20000});
  s->world.run_until(400000);
  return s;
}

// 3.44.0 on: the next period's renewal gets through; A:2 waits for A:1's unlock.
TEST(WatchdogOnError, KeepRenewingRetriesAtTheNextPeriod) {
  auto s = renewal_fails(WatchdogOnError::KeepRenewing);
  // A:1's unlock publishes, A:2 wakes and takes the lock.
  EXPECT_EQ(outcome(s->world, "A", 2, "lock").at_ms, 200010);
  EXPECT_EQ(verdict(s->world, "mutual_exclusion"), Validity::Yes);
  EXPECT_EQ(verdict(s->world, "watchdog", 90000), Validity::Yes);
}

// 3.14.0 to 3.43.x: A:1's hold lapses at 90 s and A:2 gets in; its own lock() starts a new timer,
// which renews it. The loss ended at 49 s and A's connection worked for the 41 s after it, more than
// a renewal period (30 s): it does not explain the lapse (#3194), so the watchdog is violated.
TEST(WatchdogOnError, StopForGoodLetsTheNextLockRenewAgain) {
  auto s = renewal_fails(WatchdogOnError::StopForGood);
  EXPECT_EQ(outcome(s->world, "A", 2, "lock").at_ms, 90006);
  int64_t renewed_a2 = 0;
  for (const auto& e : execs(s->world, "renew")) renewed_a2 += e.thread == 2 && e.reply == "1";
  EXPECT_EQ(renewed_a2, 3);  // 120 s of work: at 30, 60 and 90 s into it
  EXPECT_EQ(verdict(s->world, "mutual_exclusion"), Validity::No);
  EXPECT_EQ(verdict(s->world, "watchdog", 90000), Validity::No);
}

// Up to 3.13.x (#3194): the entry of A:1 stays, A:2's lock() joins it and no timer renews A:2, whose
// hold expires 90 s after it was taken with no fault to explain it.
TEST(WatchdogOnError, StopKeepEntryLeavesTheNextLockWithoutRenewal) {
  auto s = renewal_fails(WatchdogOnError::StopKeepEntry);
  EXPECT_EQ(outcome(s->world, "A", 2, "lock").at_ms, 90006);
  int64_t renewed_a2 = 0;
  for (const auto& e : execs(s->world, "renew")) renewed_a2 += e.thread == 2;
  EXPECT_EQ(renewed_a2, 0);
  EXPECT_EQ(verdict(s->world, "watchdog", 90000), Validity::No);
}

// --- renewal_ignores_not_held ---------------------------------------------------------------------

// A holds with the watchdog; Redis restarts empty at 2 s and A never unlocks.
std::vector<model::Event> renewals_after_restart(bool ignores_not_held) {
  auto s = rlock_world(options([&](RedissonOptions& o) { o.renewal_ignores_not_held = ignores_not_held; }));
  s->world.op(0, "A", 1, lock_op());
  s->world.inject(2000, {.kind = FaultKind::RedisRestart});
  s->world.run_until(45000);
  return execs(s->world, "renew");
}

TEST(RenewalIgnoresNotHeld, OffStopsAtTheFirstZero) {
  const auto renewals = renewals_after_restart(false);
  ASSERT_EQ(renewals.size(), 1u);
  EXPECT_EQ(renewals[0].reply, "0");
}

// #2037 (3.10.5, 3.10.6): one renewal every 10 s, each told 0, for as long as the entry lives.
TEST(RenewalIgnoresNotHeld, OnRenewsEveryPeriodThoughToldZero) {
  const auto renewals = renewals_after_restart(true);
  ASSERT_EQ(renewals.size(), 4u);
  for (size_t i = 0; i < renewals.size(); ++i) {
    EXPECT_EQ(renewals[i].reply, "0");
    if (i > 0) {
      EXPECT_EQ(renewals[i].at_ms - renewals[i - 1].at_ms, 10002);
    }
  }
}

// --- wakeup_lost_between_check_and_listen ---------------------------------------------------------

// A holds with a 30 s lease and unlocks at about 200 ms. B's lock() runs its second attempt at
// about 105 ms; that reply is slowed by 300 ms, and (messages may overtake) A's unlock message
// reaches B while the reply is still on its way.
model::Event wakeup_in_the_window(bool lost) {
  auto s = rlock_world(options([&](RedissonOptions& o) { o.wakeup_lost_between_check_and_listen = lost; }),
                       /*reorder=*/true);
  s->world.op(0, "A", 1, lock_op(30000));
  s->world.op(0, "A", 1, work_op(200));
  s->world.op(0, "A", 1, unlock_op());
  s->world.op(100, "B", 1, lock_op());
  s->world.op(100, "B", 1, unlock_op());
  s->world.inject(105, {.kind = FaultKind::Delay, .client = "B", .for_ms = 2, .extra_ms = 300});
  s->world.run_until(60000);
  const auto b_acquires = [&] {
    std::vector<model::Event> out;
    for (const auto& e : execs(s->world, "acquire"))
      if (e.client == "B") out.push_back(e);
    return out;
  }();
  EXPECT_EQ(b_acquires.size(), 3u);
  EXPECT_EQ(verdict(s->world, "liveness"), lost ? Validity::No : Validity::Yes);
  return outcome(s->world, "B", 1, "lock");
}

TEST(WakeupLost, OffTheMessageWaitsAsAPermitAndBRetriesAtOnce) {
  const model::Event b = wakeup_in_the_window(false);
  EXPECT_EQ(b.kind, EventKind::Ok);
  EXPECT_LT(b.at_ms, 500);
}

// #5761 (up to 3.27.x): B listens after the message came and sleeps its ~29.9 s ttl.
TEST(WakeupLost, OnTheMessageIsLostAndBSleepsItsTtl) {
  const model::Event b = wakeup_in_the_window(true);
  EXPECT_EQ(b.kind, EventKind::Ok);
  EXPECT_GT(b.at_ms, 30000);
}

// --- retry_delay_max_ms ---------------------------------------------------------------------------

// Redis stops for a minute while A sends its acquire: the server later runs every send, each with
// the time A sent it. Returns the pauses between sends beyond the 3 s timeout.
std::vector<int64_t> resend_pauses(client::CommandPolicy policy) {
  auto s = rlock_world(options([&](RedissonOptions& o) { o.commands = policy; }));
  s->world.inject(50, {.kind = FaultKind::RedisPause, .for_ms = 60000});
  s->world.op(100, "A", 1, lock_op());
  s->world.run_until(70000);
  std::vector<int64_t> pauses;
  const auto sends = execs(s->world, "acquire", /*noscript=*/true);
  for (size_t i = 1; i < sends.size(); ++i)
    pauses.push_back(sends[i].sent_ms - sends[i - 1].sent_ms - policy.timeout_ms);
  return pauses;
}

TEST(RetryDelay, UpTo347EveryResendWaitsTheFixedInterval) {
  EXPECT_EQ(resend_pauses({}), (std::vector<int64_t>{1500, 1500, 1500}));
}

// 3.48.0: EqualJitterDelay(1000, 2000): attempt 0 waits [500, 1000], the later ones [1000, 2000],
// drawn from the client's seeded stream (the same run gives the same pauses).
TEST(RetryDelay, From348ResendsWaitAnEqualJitterDelay) {
  const client::CommandPolicy policy{.retry_attempts = 4, .retry_interval_ms = 1000, .retry_delay_max_ms = 2000};
  const std::vector<int64_t> pauses = resend_pauses(policy);
  ASSERT_EQ(pauses.size(), 4u);
  EXPECT_GE(pauses[0], 500);
  EXPECT_LE(pauses[0], 1000);
  for (size_t i = 1; i < pauses.size(); ++i) {
    EXPECT_GE(pauses[i], 1000) << i;
    EXPECT_LE(pauses[i], 2000) << i;
  }
  EXPECT_NE(pauses[1], pauses[2]);
  EXPECT_EQ(resend_pauses(policy), pauses);
}

// The unlock latch lives (timeout + retryDelay(attempts)) x attempts: 13 500 ms up to 3.47.x; from
// 3.48.0 one draw of retryDelay(4) in [1000, 2000] gives 16 000 to 20 000 ms.
int64_t latch_ms(client::CommandPolicy policy) {
  auto s = rlock_world(options([&](RedissonOptions& o) {
    o.unlock_latch = true;
    o.commands = policy;
  }));
  s->world.op(0, "A", 1, lock_op());
  s->world.op(0, "A", 1, unlock_op());
  s->world.run_until(1000);
  const auto unlocks = execs(s->world, "unlock");
  EXPECT_EQ(unlocks.size(), 1u);
  if (unlocks.empty()) return -1;
  // The command's last word is ARGV[4], the latch's PX.
  const std::string& text = unlocks[0].text;
  return std::stoll(text.substr(text.find_last_of(' ') + 1));
}

TEST(RetryDelay, TheUnlockLatchOutlivesEveryResend) {
  EXPECT_EQ(latch_ms({}), 13500);
  const int64_t jittered = latch_ms({.retry_attempts = 4, .retry_interval_ms = 1000, .retry_delay_max_ms = 2000});
  EXPECT_GE(jittered, 16000);
  EXPECT_LE(jittered, 20000);
}

}  // namespace
}  // namespace locksim::world

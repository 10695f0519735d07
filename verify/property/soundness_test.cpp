// Soundness of the checkers, both ways (docs/checkers.md, "Safe configurations"):
// - configurations that are safe by construction, explored over thousands of fixed seeds, must come
//   out clean: a "violated" there would be a checker crying wolf;
// - the mirror: the token lock's known hazard and planted script bugs must each be caught by the
//   checker that should catch them: a "holds" there would be a checker asleep.
// Each safe configuration's argument is in docs/checkers.md. Seeds are fixed, so every run
// explores the same cases; large ranges are split into tests of their own so ctest -j spreads them.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "explore/explore.hpp"
#include "scenario/writer.hpp"

namespace locksim::explore {
namespace {

using scenario::Scenario;
using scenario::ScenarioResult;
using scenario::TimelineEntry;
using scenario::run_scenario;
using scenario::run_scenario_file;
using scenario::write_scenario;
using scenario::write_scenario_file;
using scenario::PropertyResult;

const std::string kPlanted = std::string(LOCKSIM_SOURCE_DIR) + "/verify/property/planted/";

// The sanitizer build (Debug, about thirty times slower) explores every tenth seed of each range;
// the ordinary build explores them all.
#ifdef LOCKSIM_SANITIZED
constexpr uint64_t kStride = 10;
#else
constexpr uint64_t kStride = 1;
#endif

// Every case of seeds [first, first + count) holds every configured property (no shrinking: a
// failure prints the generated case, which `locksim explore --seed` reproduces and shrinks). And
// each property was judged on something in most of them: a case with none of a property's inputs
// (a token lock's case with no write, a FairLock's where nobody queued) says unknown, and clean
// seeds that judged nothing would prove nothing. Two seeds in three is the bar: the FairLock
// configuration queues a waiter in about four seeds in five.
void expect_clean(const ExploreConfig& config, uint64_t first, uint64_t count) {
  const ShrinkOptions no_shrink{false, 0};
  uint64_t seeds = 0;
  std::map<std::string, uint64_t> judged;  // property -> seeds that judged it
  for (uint64_t seed = first; seed < first + count; seed += kStride) {
    const CaseResult r = explore_case(config, seed, no_shrink);
    ASSERT_FALSE(r.error) << "seed " << seed << ": " << *r.error;
    ASSERT_TRUE(r.violated.empty()) << "seed " << seed << ": " << r.violated << " (" << r.anomaly << ") " << r.explanation
                                    << "\n" << write_scenario(r.shrunk);
    ++seeds;
    for (const auto& [property, verdict] : r.verdicts) judged[property] += verdict == "unknown" ? 0 : 1;
  }
  ASSERT_EQ(judged.size(), config.properties.size());
  for (const auto& [property, n] : judged)
    EXPECT_GE(n * 3, seeds * 2) << property << " was judged in " << n << " of " << seeds << " seeds";
}

// A counterexample of `property` with `anomaly` is found within `count` seeds; with `finding_only`,
// one that is also a finding (no hazard of the configuration explains it).
void expect_caught(const ExploreConfig& config, const std::string& property, const std::string& anomaly,
                   uint64_t count, bool finding_only = false) {
  const ShrinkOptions no_shrink{false, 0};
  for (uint64_t seed = 1; seed <= count; ++seed) {
    const CaseResult r = explore_case(config, seed, no_shrink);
    ASSERT_FALSE(r.error) << "seed " << seed << ": " << *r.error;
    if ((!finding_only || r.is_finding()) && r.violated == property && r.anomaly == anomaly) return;
  }
  ADD_FAILURE() << "no " << property << " (" << anomaly << ")" << (finding_only ? " finding" : "") << " in " << count
                << " seeds";
}

void expect_finding(const ExploreConfig& config, const std::string& property, const std::string& anomaly,
                    uint64_t count) {
  expect_caught(config, property, anomaly, count, true);
}

ExploreConfig config(std::string lock, std::vector<std::string> faults, std::vector<std::string> properties) {
  ExploreConfig c;
  c.lock_type = std::move(lock);
  c.leases = false;
  c.faults = std::move(faults);
  c.properties = std::move(properties);
  return c;
}

// --- safe by construction -----------------------------------------------------------------------

// RLock with the watchdog, clients crashing: a crashed holder's key lives until its lease runs out
// and nobody else can believe it holds meanwhile; waiters are woken by unlocks or told the ttl.
ExploreConfig rlock_crashes() {
  return config("rlock", {"crash"}, {"mutual_exclusion", "reentrancy", "watchdog", "liveness"});
}
TEST(SafeRlockWithTheWatchdogAndCrashes, Seeds1To5000) { expect_clean(rlock_crashes(), 1, 5000); }
TEST(SafeRlockWithTheWatchdogAndCrashes, Seeds5001To10000) { expect_clean(rlock_crashes(), 5001, 5000); }

// The same with messages that overtake one another (--reorder): a wake-up overtaking a reply, an
// unlock's reply behind a renewal's. Redisson's RLock from 3.28.0 listens before it checks (#5761),
// so nothing a reordering link does breaks it.
TEST(SafeRlockWithTheWatchdogAndCrashesOnAReorderingLink, Seeds1To2000) {
  ExploreConfig c = rlock_crashes();
  c.reorder = true;
  // The flag reaches the world: some case's messages arrive in another order than on a FIFO link.
  bool overtaken = false;
  for (uint64_t seed = 1; seed <= 50 && !overtaken; ++seed) {
    const scenario::Scenario reordering = generate_case(c, seed).value();
    ASSERT_TRUE(reordering.world.link.reorder);
    overtaken = scenario::run_scenario(reordering).history.to_jsonl() !=
                scenario::run_scenario(generate_case(rlock_crashes(), seed).value()).history.to_jsonl();
  }
  EXPECT_TRUE(overtaken) << "50 cases ran the same with and without reordering";
  expect_clean(c, 1, 2000);
}

// The token lock under every fault that leaves the token counter on the server: the resource refuses
// a lower token, and the counter never hands one out twice.
ExploreConfig token_counter_kept() {
  ExploreConfig c = config("token", {"crash", "pause", "partition", "delay", "loss", "clock_jump", "redis_pause"}, {"fencing"});
  c.leases = true;
  return c;
}
TEST(SafeTokenFencingWhileTheCounterSurvives, Seeds1To2500) { expect_clean(token_counter_kept(), 1, 2500); }
TEST(SafeTokenFencingWhileTheCounterSurvives, Seeds2501To5000) { expect_clean(token_counter_kept(), 2501, 2500); }

// FairLock (the tail era) with lock() only, the watchdog, threadWaitTime 300 s and no faults: every
// waiter stays live and queued, and each unlock wakes the head of the queue.
TEST(SafeFairLockWithLockOnly, Seeds1To2000) {
  ExploreConfig c = config("fair", {}, {"mutual_exclusion", "watchdog", "liveness", "fair_queue"});
  c.try_locks = false;
  c.lock_options = {{"thread_wait_ms", "300000"}};
  expect_clean(c, 1, 2000);
}

// The same on a link where messages overtake one another: a FairLock waiter from 3.28.0 listens
// before it checks, as RLock's does (#5761), and FairLock wakes its queue's head by name.
TEST(SafeFairLockWithLockOnlyOnAReorderingLink, Seeds1To2000) {
  ExploreConfig c = config("fair", {}, {"mutual_exclusion", "watchdog", "liveness", "fair_queue"});
  c.try_locks = false;
  c.lock_options = {{"thread_wait_ms", "300000"}};
  c.reorder = true;
  expect_clean(c, 1, 2000);
}

// ReadWriteLock with the watchdog and crashes: a crashed holder's hash lives until its lease runs
// out, and no one else believes it holds the write side meanwhile. Not safe for the watchdog: a
// re-entrant write acquire adds its lease to what is left, and up to 4.3.x the read renewal renews
// every reader's timeout key, so a crashed reader's hold lives on beside a live one (late-expiry,
// caught below). Safe on the two eras of read renewal that work: 3.43.0's and the newest's; from
// 3.44.0 to 3.52.x the batched read renewal fails whenever a field counts 2 (PR #6883, caught below).
TEST(SafeReadWriteLockWithTheWatchdogAndCrashes, Seeds1To2000) {
  for (const std::string version : {"3.43.0", "4.7.0"}) {
    ExploreConfig c = config("rwlock", {"crash"}, {"read_write"});
    c.lock_options = {{"redisson", version}};
    expect_clean(c, 1, 2000);
  }
}

// The same on a link where messages overtake one another (the newest version).
TEST(SafeReadWriteLockWithTheWatchdogAndCrashesOnAReorderingLink, Seeds1To2000) {
  ExploreConfig c = config("rwlock", {"crash"}, {"read_write"});
  c.reorder = true;
  expect_clean(c, 1, 2000);
}

// ReadWriteLock with the watchdog and no fault: every hold is renewed by its live holder and freed by
// its unlock; with no crash no reader's timeout key outlives its owner's wish. As above.
TEST(SafeReadWriteLockWithTheWatchdog, Seeds1To2000) {
  for (const std::string version : {"3.43.0", "4.7.0"}) {
    ExploreConfig c = config("rwlock", {}, {"read_write", "watchdog"});
    c.lock_options = {{"redisson", version}};
    expect_clean(c, 1, 2000);
  }
}

// MultiLock with the watchdog and crashes: RLock's argument, part by part.
TEST(SafeMultiLockWithTheWatchdogAndCrashes, Seeds1To2000) {
  expect_clean(config("multi", {"crash"}, {"mutual_exclusion", "reentrancy", "watchdog", "liveness"}), 1, 2000);
}

// RedLock with the watchdog and crashes (its silent unlock of a lock not held is a reentrancy
// finding, not a safety one: docs/checkers.md).
TEST(SafeRedLockWithTheWatchdogAndCrashes, Seeds1To2000) {
  expect_clean(config("red", {"crash"}, {"mutual_exclusion", "watchdog", "liveness"}), 1, 2000);
}

// Redisson's SpinLock with the watchdog and crashes: RLock's argument; a waiter polls instead of
// listening, so no wake-up can be lost, and a backoff is at most 128 ms. Its first and newest scripts.
TEST(SafeSpinLockWithTheWatchdogAndCrashes, Seeds1To2000) {
  for (const std::string version : {"3.15.0", "4.7.0"}) {
    ExploreConfig c = config("spin", {"crash"}, {"mutual_exclusion", "reentrancy", "watchdog", "liveness"});
    c.lock_options = {{"redisson", version}};
    expect_clean(c, 1, 2000);
  }
}

// Redisson's FencedLock (3.19.0) with the watchdog and crashes: RLock's argument, and every grant
// takes a new token from a counter nothing loses, so the resource never accepts a stale or shared one.
TEST(SafeFencedLockWithTheWatchdogAndCrashes, Seeds1To2000) {
  expect_clean(config("fenced", {"crash"}, {"mutual_exclusion", "reentrancy", "watchdog", "liveness", "fencing"}), 1,
               2000);
}

// The FencedLock under every fault that leaves its token counter on the server: as the token lock.
TEST(SafeFencedLockFencingWhileTheCounterSurvives, Seeds1To2000) {
  ExploreConfig c = config("fenced", {"crash", "pause", "partition", "delay", "loss", "clock_jump", "redis_pause"}, {"fencing"});
  c.leases = true;
  expect_clean(c, 1, 2000);
}

// Redisson's NonReentrantLock (4.4.0) with the watchdog and crashes: RLock's argument, and a holder's
// second acquire (a quarter of the sessions re-enter) is refused at once and counts nothing.
TEST(SafeNonReentrantLockWithTheWatchdogAndCrashes, Seeds1To2000) {
  expect_clean(config("nonreentrant", {"crash"}, {"mutual_exclusion", "reentrancy", "watchdog", "liveness"}), 1, 2000);
}

// Redisson's NonReentrantFairLock with lock() only: FairLock's argument. Not reentrancy: FairLock's
// unlock of a free lock answers success in every version (docs/checkers.md), and a refused re-entry
// is followed by the session's inner unlock, which frees the lock, then its outer one, which is that.
TEST(SafeNonReentrantFairLockWithLockOnly, Seeds1To2000) {
  ExploreConfig c = config("nonreentrant-fair", {}, {"mutual_exclusion", "watchdog", "liveness", "fair_queue"});
  c.try_locks = false;
  expect_clean(c, 1, 2000);
}

// --- hazards and planted bugs are caught --------------------------------------------------------

// A failover to a lagging replica or a restart without persistence loses INCRs: the counter hands
// a token out twice, and the resource accepts it from two holders.
TEST(CaughtTokenSharedAfterTheCounterIsLost, Failover) {
  ExploreConfig c = config("token", {"failover"}, {"fencing"});
  c.leases = true;
  expect_caught(c, "fencing", "shared-token", 500);
}
TEST(CaughtTokenSharedAfterTheCounterIsLost, RestartWithoutPersistence) {
  ExploreConfig c = config("token", {"redis_restart"}, {"fencing"});
  c.leases = true;
  expect_caught(c, "fencing", "shared-token", 500);
}

TEST(CaughtPlantedBug, AnAcquireThatIgnoresTheOwnerBreaksMutualExclusion) {
  ExploreConfig c = config("rlock", {}, {"mutual_exclusion"});
  c.lock_options = {{"redisson", "3.18.0"}};  // the last version that runs rlock_acquire_hincrby
  c.script_files = {{"rlock_acquire_hincrby", kPlanted + "acquire_ignores_owner.lua"}};
  expect_caught(c, "mutual_exclusion", "mutex-overlap", 100);
}

TEST(CaughtPlantedBug, AnUnlockThatIgnoresTheCountBreaksReentrancy) {
  ExploreConfig c = config("rlock", {}, {"reentrancy"});
  c.lock_options = {{"redisson", "3.21.0"}};  // the last version that runs rlock_unlock
  c.script_files = {{"rlock_unlock", kPlanted + "unlock_ignores_count.lua"}};
  expect_caught(c, "reentrancy", "reentry-count", 100);
}

TEST(CaughtPlantedBug, AnUnlockThatIgnoresTheCountBreaksMutualExclusion) {
  ExploreConfig c = config("rlock", {}, {"mutual_exclusion"});
  c.lock_options = {{"redisson", "3.21.0"}};  // the last version that runs rlock_unlock
  c.script_files = {{"rlock_unlock", kPlanted + "unlock_ignores_count.lua"}};
  expect_caught(c, "mutual_exclusion", "mutex-overlap", 200);
}

TEST(CaughtPlantedBug, ARenewalThatNeverChecksOwnershipBreaksTheWatchdog) {
  ExploreConfig c = config("rlock", {"pause"}, {"watchdog"});
  c.script_files = {{"rlock_renew", kPlanted + "renew_ignores_owner.lua"}};
  expect_caught(c, "watchdog", "renewed-without-hold", 300);
}

TEST(CaughtPlantedBug, AFairAcquireThatSkipsTheQueueBreaksFifoOrder) {
  ExploreConfig c = config("fair", {}, {"fair_queue"});
  c.try_locks = false;
  c.lock_options = {{"redisson", "3.13.2"}};  // fair_acquire_tail's era, threadWaitTime 5000
  c.script_files = {{"fair_acquire_tail", kPlanted + "fair_acquire_skips_queue.lua"}};
  expect_caught(c, "fair_queue", "fifo-inversion", 100);
}

// A failover to a lagging replica loses the FencedLock's counter INCRs too: a token handed out twice,
// which the ">=" resource accepts from both holders.
TEST(CaughtTokenSharedAfterTheCounterIsLost, FencedLockFailover) {
  ExploreConfig c = config("fenced", {"failover"}, {"fencing"});
  c.leases = true;
  expect_caught(c, "fencing", "shared-token", 500);
}

// RFencedLock.lockAndGetToken(lease, unit) drops its lease (every version, 3.19.0 to 4.7.0): the
// hold is the watchdog's, set to 30 s and renewed. Found on the newest version, as an open bug must be.
TEST(CaughtRedissonBug, FencedLockAndGetTokenDropsItsLease) {
  ExploreConfig c = config("fenced", {}, {"watchdog"});
  c.leases = true;
  expect_caught(c, "watchdog", "lease-mismatch", 100);
}

// From 3.44.0 (the batched renewal) a renewal answered "not held" drops one count of the entry's
// first thread. A thread that re-entered three times and whose hold a restart lost keeps the first
// place for three renewal periods, and another thread of its client that took the lock after the
// restart is not renewed in time: its hold lapses. The restart is no hazard of it (that hold came
// after it), so plain exploration of the newest version must report it as a finding.
TEST(CaughtRedissonBug, ARestartLostReentrantHoldStarvesTheNextThreadsRenewal) {
  ExploreConfig c = config("rlock", {"redis_restart"}, {"watchdog"});
  c.clients_max = 2;
  c.threads_max = 2;
  expect_finding(c, "watchdog", "watchdog-lapse", 2000);
}

// #3004 / #3730 / #6150, open: a FairLock waiter queued longer than threadWaitTime is pruned by the
// next release, which then wakes nobody; from 3.32.0 it retries after at most the pttl it was told
// and queues again behind whoever came meanwhile. With fairLockWaitTimeout at 5 s (a user's option)
// plain exploration of the newest version reports it as a finding: a waiter sleeping on a free lock.
TEST(CaughtRedissonBug, AFairWaiterPastThreadWaitTimeIsPrunedAndSleepsOnAFreeLock) {
  ExploreConfig c = config("fair", {}, {"fair_queue"});
  c.lock_options = {{"thread_wait_ms", "5000"}};
  expect_finding(c, "fair_queue", "starved", 100);
}

// FairLock's unlock of a lock nobody holds answers success in every version (its script returns 1
// when the key is absent): the caller is told it released a lock it did not hold.
TEST(CaughtRedissonBehaviour, AFairUnlockOfAFreeLockAnswersSuccess) {
  expect_caught(config("fair", {}, {"reentrancy"}), "reentrancy", "unlock-by-non-holder", 50);
}

// A non-reentrant acquire written from RLock's script counts its holder's second acquire.
TEST(CaughtPlantedBug, ANonReentrantAcquireThatReentersBreaksReentrancy) {
  ExploreConfig c = config("nonreentrant", {}, {"reentrancy"});
  c.script_files = {{"nonreentrant_acquire", std::string(LOCKSIM_SOURCE_DIR) +
                                                 "/scenarios/user-scripts/nonreentrant_acquire_that_reenters.lua"}};
  expect_caught(c, "reentrancy", "reentry-not-refused", 100);
}

// Redisson's read renewal renews every reader's timeout keys, a crashed reader's too (up to 4.3.x;
// PR #7098 fixed it in 4.4.0): the crashed reader's hold outlives its lease beside a live reader,
// one reason the ReadWriteLock configuration with crashes is safe for read_write only.
TEST(CaughtRedissonBehaviour, AReadRenewalKeepsACrashedReaderAlive) {
  ExploreConfig c = config("rwlock", {"crash"}, {"watchdog"});
  c.lock_options = {{"redisson", "4.3.1"}};
  expect_caught(c, "watchdog", "late-expiry", 500);
}

// From 3.44.0 to 3.52.x the batched read renewal fails on any field counting 2 (a reader or the
// writer holding twice), after it has renewed the hash: the readers' timeout keys lapse under a
// running watchdog, with no fault at all, and a read unlock then frees the hash under its readers.
ExploreConfig rwlock_on_3_52(std::vector<std::string> properties) {
  ExploreConfig c = config("rwlock", {}, std::move(properties));
  c.lock_options = {{"redisson", "3.52.0"}};
  return c;
}
TEST(CaughtRedissonBug, TheBatchedReadRenewalOf3_44LetsReadHoldsLapse) {
  expect_caught(rwlock_on_3_52({"watchdog"}), "watchdog", "watchdog-lapse", 200);
}
TEST(CaughtRedissonBug, TheBatchedReadRenewalOf3_44LetsAWriterInAmongReaders) {
  expect_caught(rwlock_on_3_52({"read_write"}), "read_write", "read-write-overlap", 500);
}

}  // namespace
}  // namespace locksim::explore

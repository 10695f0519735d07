// Scenario files: a broken file gets one message naming file, line, column and what was expected.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "scenario/loader.hpp"
#include "scenario/runner.hpp"
#include "scenario/time_scale.hpp"
#include "scenario/writer.hpp"

namespace locksim::scenario {
namespace {



const std::string kBad = std::string(LOCKSIM_SOURCE_DIR) + "/verify/scenario/bad/";

std::string error_of(const std::string& name) {
  try {
    load_scenario(kBad + name);
  } catch (const ScenarioError& e) {
    const std::string text = e.what();
    return text.substr(kBad.size());  // "<file>:<line>:<col>: message"
  }
  return "(loaded without error)";
}

// --- YAML mistakes: each said at the line to fix, with the parser's own words after it.

// --- the interrupt fault: only where it reaches an acquire.

TEST(ScenarioLoader, AnInterruptThatWouldReachNoAcquireIsAnErrorAtItsStep) {
  EXPECT_EQ(error_of("interrupt-on-spin.yaml"),
            "interrupt-on-spin.yaml:6:31: an interrupt reaches the acquires of rlock, fair, rwlock, fenced, "
            "nonreentrant and nonreentrant-fair locks (Redisson's lock() and tryLock() loops); this lock is spin");
  EXPECT_EQ(error_of("interrupt-thread-without-ops.yaml"),
            "interrupt-thread-without-ops.yaml:6:5: client A has no op step on thread 2 for this interrupt to reach");
  EXPECT_EQ(error_of("interrupt-before-3.17.yaml"),
            "interrupt-before-3.17.yaml:6:31: an interrupt is modelled for Redisson 3.17.0 and later, whose sync "
            "calls meet it as 4.x's do; 3.16.7's met it otherwise (up to 3.11.3 get() waited on through it; to 3.16.x "
            "lock() subscribed otherwise)");
}

TEST(ScenarioLoader, AnUnclosedBraceIsReportedWhereItOpened) {
  EXPECT_EQ(error_of("bad-yaml.yaml"),
            "bad-yaml.yaml:2:7: the '{' opened here is never closed (the YAML parser gave up at line 3: end of map "
            "flow not found)");
  EXPECT_EQ(error_of("yaml-unclosed-brace.yaml"),
            "yaml-unclosed-brace.yaml:3:7: the '{' opened here is never closed (the YAML parser gave up at line 4: "
            "end of map flow not found)");
  EXPECT_EQ(error_of("yaml-unclosed-step.yaml"),
            "yaml-unclosed-step.yaml:6:5: the '{' opened here is never closed (the YAML parser gave up at line 7: "
            "end of map flow not found)");
}

TEST(ScenarioLoader, AnUnclosedBracketIsReportedWhereItOpened) {
  EXPECT_EQ(error_of("yaml-unclosed-bracket.yaml"),
            "yaml-unclosed-bracket.yaml:3:10: the '[' opened here is never closed (the YAML parser gave up at line 4: "
            "end of sequence flow not found)");
  EXPECT_EQ(error_of("yaml-bracket-closed-by-brace.yaml"),
            "yaml-bracket-closed-by-brace.yaml:4:21: the '[' opened here is never closed: a '}' at line 4, column 26 "
            "comes first (the YAML parser gave up at line 4: illegal flow end)");
}

TEST(ScenarioLoader, AClosingBraceWithNothingOpenIsPointedAt) {
  EXPECT_EQ(error_of("yaml-stray-brace.yaml"),
            "yaml-stray-brace.yaml:2:34: this '}' closes nothing: no '{' is open here (the YAML parser gave up at "
            "line 2: illegal flow end)");
}

// yaml-cpp 0.7 lets a quote run to the end of the file; the file would then fail as "missing 'lock'".
TEST(ScenarioLoader, AnUnclosedQuoteIsReportedWhereItOpened) {
  EXPECT_EQ(error_of("yaml-unclosed-quote.yaml"),
            "yaml-unclosed-quote.yaml:2:8: the quote \" opened here is never closed: its value runs to the end of the "
            "file");
  EXPECT_EQ(error_of("yaml-unclosed-quote-in-step.yaml"),
            "yaml-unclosed-quote-in-step.yaml:5:21: the quote ' opened here is never closed (the YAML parser gave up "
            "at line 7: end of map flow not found)");
}

// Brackets and quotes inside quotes, block scalars and comments open nothing: the valid file loads
// as written, and in the broken one the '{' really left open is found past them.
TEST(ScenarioLoader, BracketsAndQuotesInsideValuesAndCommentsAreNotMistakes) {
  const Scenario s = load_scenario(kBad + "../yaml-quotes-brackets-comments.yaml");
  EXPECT_EQ(s.lock.name, "it's [orders");
  EXPECT_EQ(s.clients.size(), 2u);
  EXPECT_EQ(s.timeline.size(), 2u);
  EXPECT_EQ(error_of("yaml-unclosed-after-quotes.yaml"),
            "yaml-unclosed-after-quotes.yaml:9:5: the '{' opened here is never closed (the YAML parser gave up at "
            "line 10: end of map flow not found)");
}

TEST(ScenarioLoader, AMissingCommaInAFlowMappingIsNamed) {
  EXPECT_EQ(error_of("yaml-missing-comma.yaml"),
            "yaml-missing-comma.yaml:6:13: a ',' is missing before 'client': the entries of a '{...}' are separated "
            "by commas (the YAML parser gave up at line 6: end of map flow not found)");
}

TEST(ScenarioLoader, ATabInTheIndentationIsNamed) {
  EXPECT_EQ(error_of("yaml-tab-indent.yaml"),
            "yaml-tab-indent.yaml:7:1: a tab indents this line; YAML indents with spaces (the YAML parser gave up at "
            "line 7: illegal block entry)");
  EXPECT_EQ(error_of("yaml-tab-after-spaces.yaml"),
            "yaml-tab-after-spaces.yaml:4:3: a tab indents this line; YAML indents with spaces (the YAML parser gave "
            "up at line 4: illegal tab when looking for indentation)");
}

TEST(ScenarioLoader, AKeyIndentedUnlikeItsSiblingsSaysWhichLineToMatch) {
  EXPECT_EQ(error_of("yaml-key-too-deep.yaml"),
            "yaml-key-too-deep.yaml:4:5: 'name' is indented 4 spaces, more than 'type' on line 3 (2 spaces), which "
            "already has its value 'rlock': indent it like 'type', or remove that value to nest it under 'type' (the "
            "YAML parser gave up at line 4: illegal map value)");
  EXPECT_EQ(error_of("yaml-key-between-levels.yaml"),
            "yaml-key-between-levels.yaml:4:2: 'name' is indented 1 space, in line with nothing above it: indent it "
            "like 'type' on line 3 (2 spaces) or like 'lock' on line 2 (0 spaces) (the YAML parser gave up at line 4: "
            "end of map not found)");
  EXPECT_EQ(error_of("yaml-step-key-between-levels.yaml"),
            "yaml-step-key-between-levels.yaml:7:4: 'op' is indented 3 spaces, in line with nothing above it: indent "
            "it like 'client' on line 6 (4 spaces) or like 'timeline' on line 4 (0 spaces) (the YAML parser gave up "
            "at line 7: end of sequence not found)");
}

TEST(ScenarioLoader, AKeyAmongListItemsSaysWhereItCouldGo) {
  EXPECT_EQ(error_of("yaml-step-key-among-items.yaml"),
            "yaml-step-key-among-items.yaml:7:3: 'op' stands where the '- ' items of 'timeline' (line 4) stand: "
            "indent it like 'client' on line 6 (4 spaces) to add it to that item, or indent it like 'timeline' on "
            "line 4 (0 spaces) to end the list (the YAML parser gave up at line 7: end of map not found)");
  EXPECT_EQ(error_of("yaml-key-among-items.yaml"),
            "yaml-key-among-items.yaml:6:3: 'expect' stands where the '- ' items of 'timeline' (line 4) stand: "
            "indent it like 'timeline' on line 4 (0 spaces) to end the list (the YAML parser gave up at line 6: end "
            "of map not found)");
}

TEST(ScenarioLoader, AListItemAtTheWrongDepthSaysWhichItemToMatch) {
  EXPECT_EQ(error_of("yaml-item-between-levels.yaml"),
            "yaml-item-between-levels.yaml:6:2: this list item is indented 1 space, in line with nothing above it: "
            "indent it like the list item on line 5 (2 spaces) (the YAML parser gave up at line 6: end of map not "
            "found)");
  EXPECT_EQ(error_of("yaml-items-unaligned.yaml"),
            "yaml-items-unaligned.yaml:6:1: this list item is indented 0 spaces, the item before it on line 5 is "
            "indented 2 spaces: indent the items of one list alike (the YAML parser gave up at line 6: end of map not "
            "found)");
  EXPECT_EQ(error_of("yaml-item-too-deep.yaml"),
            "yaml-item-too-deep.yaml:9:7: this list item is indented 6 spaces, more than the list item on line 8 (4 "
            "spaces), which is complete: indent it like that item (the YAML parser gave up at line 9: end of sequence "
            "not found)");
  EXPECT_EQ(error_of("yaml-item-among-keys.yaml"),
            "yaml-item-among-keys.yaml:4:3: this list item stands among the 'key: value' lines of 'lock' (line 2), "
            "where no list can start: give it a key of its own, or indent it under the key it belongs to (the YAML "
            "parser gave up at line 4: end of map not found)");
  EXPECT_EQ(error_of("yaml-value-after-value.yaml"),
            "yaml-value-after-value.yaml:5:3: this list item is indented 2 spaces, more than 'timeline' on line 4 (0 "
            "spaces), which already has its value 'steps': indent it like 'timeline', or remove that value to nest it "
            "under 'timeline' (the YAML parser gave up at line 5: illegal map value)");
}

TEST(ScenarioLoader, AKeyWithoutItsColonAndSpaceIsNamed) {
  EXPECT_EQ(error_of("yaml-key-without-colon.yaml"),
            "yaml-key-without-colon.yaml:3:1: 'clients [A]' is no 'key: value' line: a key needs ': ' after it (the "
            "YAML parser gave up at line 4: illegal map value)");
  EXPECT_EQ(error_of("yaml-no-space-after-colon.yaml"),
            "yaml-no-space-after-colon.yaml:3:7: 'type:rlock' needs a space after its ':' (type: rlock) (the YAML "
            "parser gave up at line 4: illegal map value)");
  EXPECT_EQ(error_of("yaml-colon-in-value.yaml"),
            "yaml-colon-in-value.yaml:2:24: the value of 'about' holds ': ', which would start a key: put the value in "
            "quotes (about: \"A holds the lock: B waits.\") (the YAML parser gave up at line 2: illegal map value)");
  EXPECT_EQ(error_of("no-space-in-step.yaml"),
            "no-space-in-step.yaml:5:34: unknown key 'lease_ms:100' in a lock step: a lock step takes at, client, "
            "thread, op, lease_ms, lease_s (a ':' needs a space after it)");
}

// yaml-cpp keeps both of two equal keys and answers the first: the second would be ignored unseen.
TEST(ScenarioLoader, AKeyWrittenTwiceIsAnError) {
  EXPECT_EQ(error_of("duplicate-key.yaml"), "duplicate-key.yaml:8:1: 'expect' appears twice in the scenario (first on line 6)");
  EXPECT_EQ(error_of("duplicate-key-in-step.yaml"),
            "duplicate-key-in-step.yaml:5:51: 'wait_ms' appears twice in a timeline step (first on line 5)");
}

TEST(ScenarioLoader, AnUnknownKeyListsTheKeysThatExist) {
  EXPECT_EQ(error_of("unknown-key.yaml"),
            "unknown-key.yaml:4:3: unknown key 'leas_ms' in lock (expected one of: type, name, redisson, lease_ms, watchdog_ms, "
            "watchdog_on_error, acquire_script, unlock_script, renew_script, unlock_latch, retry_ms, setnx_expire, timeout_ms, "
            "retry_attempts, retry_interval_ms, fair_variant, thread_wait_ms, wait_replaces_thread_wait, zero_wait_tryacquire, "
            "parts, rwlock_variant, rwlock_read_renewal, replace_scripts, check_lock_synced_slaves)");
}

TEST(ScenarioLoader, ARedissonVersionOutsideTheModelledRangeNamesTheRange) {
  EXPECT_EQ(error_of("redisson-too-old.yaml"),
            "redisson-too-old.yaml:4:13: Redisson 3.4.0 is not modelled (modelled: 3.5.5 to 4.7.0)");
  EXPECT_EQ(error_of("redisson-not-a-version.yaml"),
            "redisson-not-a-version.yaml:4:13: 'latest' is not a Redisson version (expected X.Y.Z, e.g. 3.27.1)");
}

// The version sets every versioned option first; the file's explicit options win whatever their order.
TEST(ScenarioLoader, ARedissonVersionSetsTheLockAndExplicitOptionsOverrideIt) {
  const Scenario old = load_scenario(kBad + "../redisson-3.23-with-latch.yaml");
  EXPECT_EQ(old.lock.redisson_version, "3.23.0");
  EXPECT_TRUE(old.lock.redisson.unlock_latch);  // explicit, though 3.23.0 has none
  EXPECT_EQ(old.lock.redisson.watchdog_on_error, client::WatchdogOnError::StopForGood);  // 3.23.0's
  EXPECT_EQ(old.lock.redisson.commands.retry_attempts, 3);
  const Scenario forced = load_scenario(kBad + "../redisson-3.23-with-latch.yaml", "3.44.0");
  EXPECT_EQ(forced.lock.redisson_version, "3.44.0");  // run --redisson wins over the file's version
  EXPECT_EQ(forced.lock.redisson.watchdog_on_error, client::WatchdogOnError::KeepRenewing);
  EXPECT_TRUE(forced.lock.redisson.unlock_latch);
  EXPECT_THROW(load_scenario(kBad + "../redisson-3.23-with-latch.yaml", "9.9.9"), ScenarioError);
}

// Redisson 4.7.0 unlocks with rlock_unlock_latch: a replaced rlock_unlock would never run.
TEST(ScenarioLoader, AReplacedScriptTheVersionNeverRunsIsAnError) {
  const std::string error = error_of("replace-script-never-run.yaml");
  EXPECT_EQ(error.rfind("replace-script-never-run.yaml:4:35: the rlock lock of Redisson 4.7.0 never runs the script "
                        "'rlock_unlock'", 0),
            0u)
      << error;
  EXPECT_NE(error.find("(it runs rlock_acquire_one_condition, rlock_force_unlock_3_22, rlock_renew, rlock_unlock_latch)"),
            std::string::npos)
      << error;
}

TEST(ScenarioLoader, AFailoverViaSentinelHasNoLag) {
  EXPECT_EQ(error_of("sentinel-with-lag.yaml"),
            "sentinel-with-lag.yaml:6:55: a failover via sentinel promotes a replica that follows its master: lag_ms must be 0");
}

TEST(ScenarioLoader, FailoverViaAndDownMsAreChecked) {
  EXPECT_EQ(error_of("failover-unknown-via.yaml"),
            "failover-unknown-via.yaml:6:37: unknown via 'carrier-pigeon' (expected direct, sentinel)");
  EXPECT_EQ(error_of("sentinel-down-too-short.yaml"),
            "sentinel-down-too-short.yaml:6:56: down_ms is at least 100 (Sentinel's own clock)");
  EXPECT_EQ(error_of("down-ms-on-direct-failover.yaml"),
            "down-ms-on-direct-failover.yaml:6:53: down_ms applies to a failover via sentinel");
  EXPECT_EQ(error_of("via-on-restart.yaml"),
            "via-on-restart.yaml:6:37: via does not apply to a redis_restart fault, which happens at an instant: a "
            "redis_restart fault takes at, fault, persistence, server (via applies to failover)");
}

TEST(ScenarioLoader, ARedisPauseASentinelWouldTakeForADeadMasterIsRefused) {
  EXPECT_EQ(error_of("pause-outlasts-sentinel-down.yaml"),
            "pause-outlasts-sentinel-down.yaml:6:1: a redis_pause of 2000 ms on a server a Sentinel watches (down_ms 1000, "
            "line 7) would make Sentinel fail over on its own, which locksim does not model: keep the pause under 1000 ms");
}

TEST(ScenarioLoader, LiveDiffersIsChecked) {
  EXPECT_EQ(error_of("live-differs-unknown.yaml"),
            "live-differs-unknown.yaml:9:13: unknown property 'mutex' in live.differs (expected mutual_exclusion, fencing, "
            "reentrancy, watchdog, liveness, fair_queue or read_write)");
  EXPECT_EQ(error_of("live-differs-twice.yaml"), "live-differs-twice.yaml:9:31: live.differs names 'mutual_exclusion' twice");
  EXPECT_EQ(error_of("live-differs-without-why.yaml"),
            "live-differs-without-why.yaml:9:3: live.differs needs a 'why': the real reason the verdict can differ live");
}

TEST(ScenarioLoader, LiveDiffersNamesOnlyCheckedProperties) {
  EXPECT_EQ(error_of("live-differs-unchecked.yaml"),
            "live-differs-unchecked.yaml:9:13: live.differs names 'liveness', which expect does not check");
}

TEST(ScenarioLoader, AnUnknownLockTypeSaysWhichExist) {
  EXPECT_EQ(error_of("unknown-lock-type.yaml"),
            "unknown-lock-type.yaml:2:14: unknown lock type 'mutex' (expected rlock, fair, multi, red, rwlock, "
            "spin, fenced, nonreentrant, nonreentrant-fair, setnx, naive, token or client-reentrant)");
}

TEST(ScenarioLoader, TheNonReentrantLocksNeedRedisson4_4AndItsScripts) {
  EXPECT_EQ(error_of("nonreentrant-before-4-4.yaml"),
            "nonreentrant-before-4-4.yaml:2:38: Redisson 4.3.1 has no nonreentrant lock: it came in 4.4.0");
  EXPECT_EQ(error_of("nonreentrant-fair-old-variant.yaml"),
            "nonreentrant-fair-old-variant.yaml:2:47: a nonreentrant-fair lock runs Redisson 4.4.0's scripts, of "
            "fair_variant tail-3.45 (not tail-3.32)");
  // The non-reentrant lock's acquire is its own: naming RLock's would silently run nothing of it.
  EXPECT_EQ(error_of("nonreentrant-rlock-acquire-script.yaml"),
            "nonreentrant-rlock-acquire-script.yaml:2:44: the nonreentrant lock never runs 'rlock_acquire_hset' "
            "(acquire_script): it runs nonreentrant_acquire, rlock_force_unlock_3_22, rlock_renew, rlock_unlock_latch; "
            "to run your own file in place of one of those, name it under replace_scripts");
  // A version given on the command line (run --redisson) is named as such where the file names none.
  try {
    load_scenario(std::string(LOCKSIM_SOURCE_DIR) + "/scenarios/nonreentrant-reacquire-refused.yaml", "4.3.0");
    ADD_FAILURE() << "4.3.0 ran a nonreentrant lock";
  } catch (const ScenarioError& e) {
    EXPECT_NE(std::string(e.what()).find("--redisson 4.3.0: Redisson 4.3.0 has no nonreentrant lock: it came in 4.4.0"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(error_of("bad-fence-rule.yaml"), "bad-fence-rule.yaml:2:21: unknown fence_rule '==' (expected >=, >)");
  // Unquoted, '>=' starts a YAML block of text: the parser's words alone say nothing of quotes.
  EXPECT_EQ(error_of("fence-rule-unquoted.yaml"),
            "fence-rule-unquoted.yaml:2:21: 'fence_rule': a value beginning with '>' starts a block of text in YAML; "
            "quote it: fence_rule: \">=\" (the YAML parser gave up at line 2: unknown token)");
  // Options only some locks read are refused on others, where they would do nothing.
  EXPECT_EQ(error_of("fence-rule-on-rlock.yaml"),
            "fence-rule-on-rlock.yaml:2:21: fence_rule applies to locks whose writes carry fencing tokens (token, "
            "client-reentrant and fenced; this lock is rlock)");
  // A lease of 0 is read apart by Redisson's versions: refused, not run one way for all of them.
  EXPECT_EQ(error_of("lease-zero.yaml"),
            "lease-zero.yaml:5:44: lease_ms 0 is not modelled (Redisson's RLock reads it as a 0 ms lease up to 3.17.0 "
            "and as no lease from 3.17.1): leave it out for no lease (the watchdog), or give at least 1");
  EXPECT_EQ(error_of("retry-ms-on-fenced.yaml"),
            "retry-ms-on-fenced.yaml:2:32: retry_ms applies to the polling locks setnx, naive, token and "
            "client-reentrant (this lock is fenced, which waits as Redisson does)");
  const Scenario s = load_scenario(std::string(LOCKSIM_SOURCE_DIR) + "/scenarios/nonreentrant-fair-reacquire-refused.yaml");
  EXPECT_EQ(s.lock.type, "nonreentrant-fair");
  EXPECT_TRUE(s.lock.fair.zero_wait_uses_tryacquire);
}

TEST(ScenarioLoader, AnRwlockOpNamesItsSideAndOnlyAnRwlockOpMay) {
  EXPECT_EQ(error_of("rwlock-missing-side.yaml"),
            "rwlock-missing-side.yaml:5:5: missing 'side' (read or write) in a 'lock' step on an rwlock");
  EXPECT_EQ(error_of("side-on-rlock.yaml"),
            "side-on-rlock.yaml:5:40: side applies to lock type rwlock only (this lock is rlock)");
  EXPECT_EQ(error_of("bad-side.yaml"), "bad-side.yaml:5:40: unknown side 'both' (expected read, write)");
  const Scenario s = load_scenario(std::string(LOCKSIM_SOURCE_DIR) + "/scenarios/rwlock-writer-excludes.yaml");
  EXPECT_EQ(s.lock.type, "rwlock");
  ASSERT_FALSE(s.timeline.empty());
  ASSERT_TRUE(s.timeline[0].op.has_value());
  EXPECT_EQ(s.timeline[0].op->lock, "orders:write");
  EXPECT_EQ(s.timeline[3].op->lock, "orders:read");
}

TEST(ScenarioLoader, TryLockMinusOneIsForMultiAndRedOnly) {
  EXPECT_EQ(error_of("wait-minus-one-on-rlock.yaml"),
            "wait-minus-one-on-rlock.yaml:5:47: wait_ms -1 (tryLock(-1, lease)) applies to lock types multi and red "
            "(this lock is rlock; wait_ms 0 does what -1 would)");
  EXPECT_EQ(error_of("wait-minus-two.yaml"),
            "wait-minus-two.yaml:5:47: expected -1 (tryLock(-1, lease)) or a non-negative integer for wait_ms, got -2");
  const Scenario s =
      load_scenario(std::string(LOCKSIM_SOURCE_DIR) + "/scenarios/redisson/2172-multilock-trylock-minus-one.yaml");
  ASSERT_TRUE(s.timeline[0].op.has_value());
  EXPECT_EQ(s.timeline[0].op->kind, world::OpSpec::Kind::TryLock);
  EXPECT_EQ(s.timeline[0].op->wait_ms, -1);
  EXPECT_EQ(s.timeline[0].op->lease_ms, 10000);
}

TEST(ScenarioLoader, ALeaseInSecondsIsNamedOnceOnAnAcquire) {
  EXPECT_EQ(error_of("lease-s-and-lease-ms.yaml"),
            "lease-s-and-lease-ms.yaml:5:59: a step names its lease once: lease_ms or lease_s");
  EXPECT_EQ(error_of("lease-s-on-unlock.yaml"),
            "lease-s-on-unlock.yaml:5:36: lease_s does not apply to an unlock step: an unlock step takes at, client, "
            "thread, op (lease_s applies to lock and try_lock)");
  EXPECT_EQ(error_of("lease-s-negative.yaml"),
            "lease-s-negative.yaml:5:43: expected a non-negative integer for lease_s, got -5");
  const Scenario s =
      load_scenario(std::string(LOCKSIM_SOURCE_DIR) + "/scenarios/redisson/5484-multilock-lease-unit-ignored.yaml");
  ASSERT_TRUE(s.timeline[0].op.has_value());
  EXPECT_EQ(s.timeline[0].op->lease_ms, 5000);
  EXPECT_EQ(s.timeline[0].op->lease_unit_ms, 1000);
  EXPECT_EQ(s.timeline[3].op->lease_unit_ms, 1) << "B's lock() names no lease";
}

TEST(ScenarioLoader, FairLockKeysAreCheckedAndReachTheCheckerOptions) {
  EXPECT_EQ(error_of("bad-fair-variant.yaml"),
            "bad-fair-variant.yaml:2:34: unknown fair_variant 'middle' (expected head, tail, tail-3.31, tail-3.32, tail-3.45)");
  EXPECT_EQ(error_of("bad-rwlock-read-renewal.yaml"),
            "bad-rwlock-read-renewal.yaml:2:43: unknown rwlock_read_renewal '4.1' (expected 3.8, 3.44, 4.0, 4.4)");
  EXPECT_EQ(error_of("rwlock-read-renewal-on-rlock.yaml"),
            "rwlock-read-renewal-on-rlock.yaml:2:42: rwlock_read_renewal applies to lock type rwlock only (this lock is rlock)");
  EXPECT_EQ(error_of("fair-key-on-rlock.yaml"),
            "fair-key-on-rlock.yaml:2:37: thread_wait_ms applies to lock types fair and nonreentrant-fair only (this "
            "lock is rlock)");
  const Scenario s = load_scenario(std::string(LOCKSIM_SOURCE_DIR) + "/scenarios/fair-fifo-head.yaml");
  EXPECT_EQ(s.lock.type, "fair");
  EXPECT_EQ(s.lock.fair.variant, client::FairVariant::Head);
  EXPECT_EQ(s.lock.fair.thread_wait_ms, 5000);
  EXPECT_EQ(s.checker_options.fair_queue.thread_wait_ms, 5000);
}

TEST(ScenarioLoader, AnUnknownOpPointsAtIt) {
  EXPECT_EQ(error_of("unknown-op.yaml"),
            "unknown-op.yaml:6:29: unknown op 'grab' (expected lock, try_lock, unlock, force_unlock, work, write, "
            "is_locked or is_held)");
}

TEST(ScenarioLoader, AClientThatIsNotDeclaredIsAnError) {
  EXPECT_EQ(error_of("undeclared-client.yaml"), "undeclared-client.yaml:6:21: client 'C' is not declared in clients");
}

TEST(ScenarioLoader, ANegativeTimeIsAnError) {
  EXPECT_EQ(error_of("negative-time.yaml"), "negative-time.yaml:5:10: expected a non-negative integer for at, got -5");
}

TEST(ScenarioLoader, AnErrorReplysTextIsOneErrorLine) {
  EXPECT_EQ(
      error_of("error-reply-multiline-text.yaml"),
      "error-reply-multiline-text.yaml:6:54: text must be one line: a Redis error reply cannot hold a line break");
  EXPECT_EQ(
      error_of("error-reply-text-not-a-string.yaml"),
      "error-reply-text-not-a-string.yaml:6:54: expected a string for text (the error line, e.g. 'LOADING Redis is "
      "loading the dataset in memory')");
  EXPECT_EQ(
      error_of("error-reply-empty-text.yaml"),
      "error-reply-empty-text.yaml:6:54: text must start with the error's code (e.g. BUSY, LOADING, ERR), not ''");
  EXPECT_EQ(error_of("text-on-pause.yaml"),
            "text-on-pause.yaml:6:53: text does not apply to a pause fault: a pause fault takes at, fault, client, "
            "for_ms (text applies to error_reply)");
}

TEST(ScenarioLoader, AnErrorReplyIsAServersFaultThatLasts) {
  EXPECT_EQ(error_of("error-reply-without-for.yaml"),
            "error-reply-without-for.yaml:6:5: missing 'for_ms' in an error_reply fault");
  EXPECT_EQ(error_of("error-reply-with-client.yaml"),
            "error-reply-with-client.yaml:6:23: a 'error_reply' fault concerns the server, not a client");
}

TEST(ScenarioLoader, AResetIsAClientsFaultOfAnInstant) {
  EXPECT_EQ(error_of("reset-with-for.yaml"),
            "reset-with-for.yaml:6:40: for_ms does not apply to a reset fault, which happens at an instant: a reset "
            "fault takes at, fault, client (for_ms applies to work and to pause, partition, delay, loss, redis_pause "
            "and error_reply)");
  EXPECT_EQ(error_of("reset-without-client.yaml"),
            "reset-without-client.yaml:6:5: missing 'client' in a 'reset' fault");
}

TEST(ScenarioLoader, AnUnderscoreGroupsDigitsOnlyBetweenTwoOfThem) {
  EXPECT_EQ(error_of("underscore-typo.yaml"), "underscore-typo.yaml:5:10: expected an integer for at, got '3__0'");
}

TEST(ScenarioLoader, AnOpPinnedTwiceOrAnEmptyNameIsRefused) {
  EXPECT_EQ(error_of("pinned-twice.yaml"),
            "pinned-twice.yaml:9:7: this op is pinned already, on line 8: pin each op once");
  EXPECT_EQ(error_of("empty-name.yaml"), "empty-name.yaml:1:7: the name is empty: reports name the scenario by it");
}

TEST(ScenarioLoader, AKeyWithoutAValueIsSaidWhereItIs) {
  EXPECT_EQ(error_of("clients-without-value.yaml"), "clients-without-value.yaml:3:1: 'clients' has no value");
}

TEST(ScenarioLoader, ASecondYamlDocumentIsAnErrorNotDropped) {
  EXPECT_EQ(error_of("two-documents.yaml"),
            "two-documents.yaml:7:1: a second YAML document (after '---'): a scenario file holds one scenario; put "
            "the others in files of their own");
}

// --- A timeline with no operation on the lock would let every property hold untested.

TEST(ScenarioLoader, ATimelineWithNoOpOnTheLockIsRefused) {
  EXPECT_EQ(error_of("empty-timeline.yaml"),
            "empty-timeline.yaml:4:11: the timeline has no op step on the lock (lock, try_lock, unlock, write, ...): "
            "there would be nothing to judge");
  EXPECT_EQ(error_of("only-work-and-faults.yaml"),
            "only-work-and-faults.yaml:5:3: the timeline has no op step on the lock (lock, try_lock, unlock, write, "
            "...): there would be nothing to judge");
}

// --- A step has the keys its op or fault reads (op_vocabulary.hpp, world/fault.hpp) and no other.

TEST(ScenarioLoader, AKeyTheOpIgnoresIsAnErrorListingTheKeysItTakes) {
  EXPECT_EQ(error_of("lease-ms-on-write.yaml"),
            "lease-ms-on-write.yaml:6:36: lease_ms does not apply to a write step: a write step takes at, client, "
            "thread, op (lease_ms applies to lock and try_lock)");
  EXPECT_EQ(error_of("misspelt-key-in-step.yaml"),
            "misspelt-key-in-step.yaml:5:38: unknown key 'wait' in a try_lock step: a try_lock step takes at, client, "
            "thread, op, wait_ms, lease_ms, lease_s");
  EXPECT_EQ(error_of("misspelt-op-key.yaml"),
            "misspelt-op-key.yaml:5:24: unknown key 'opp' in a timeline step (a step has 'op' or 'fault')");
}

TEST(ScenarioLoader, SideIsAKeyOfAnRwlocksOpsButWork) {
  EXPECT_EQ(error_of("side-on-work.yaml"),
            "side-on-work.yaml:6:48: side does not apply to a work step: a work step takes at, client, thread, op, "
            "for_ms (side applies to lock, try_lock, unlock, force_unlock, write, is_locked and is_held)");
}

TEST(ScenarioLoader, AKeyTheFaultIgnoresIsAnErrorListingTheKeysItTakes) {
  EXPECT_EQ(error_of("for-ms-on-crash.yaml"),
            "for-ms-on-crash.yaml:6:39: for_ms does not apply to a crash fault, which happens at an instant: a crash "
            "fault takes at, fault, client (for_ms applies to work and to pause, partition, delay, loss, redis_pause "
            "and error_reply)");
  EXPECT_EQ(error_of("wait-ms-on-pause.yaml"),
            "wait-ms-on-pause.yaml:6:53: wait_ms does not apply to a pause fault: a pause fault takes at, fault, "
            "client, for_ms (wait_ms applies to try_lock)");
  EXPECT_EQ(error_of("thread-on-fault.yaml"),
            "thread-on-fault.yaml:6:25: thread does not apply to a pause fault: a pause fault takes at, fault, "
            "client, for_ms (thread applies to op steps and to interrupt)");
}

// --- expect.ops pins an op the timeline schedules, or the file is wrong.

TEST(ScenarioLoader, APinPastTheTimelinesOpsSaysHowManyThereAre) {
  EXPECT_EQ(error_of("pin-past-timeline.yaml"),
            "pin-past-timeline.yaml:13:7: B's 2nd try_lock cannot happen: the timeline has 1 try_lock step of B (line "
            "6)");
  EXPECT_EQ(error_of("pin-repeated-ops.yaml"),
            "pin-repeated-ops.yaml:14:7: A's 3rd lock cannot happen: the timeline has 2 lock steps of A (lines 5, 6)");
}

TEST(ScenarioLoader, APinOfAnOpTheClientNeverDoesIsAnError) {
  EXPECT_EQ(error_of("pin-op-never-done.yaml"),
            "pin-op-never-done.yaml:10:7: B's 1st unlock cannot happen: the timeline has no unlock step of B (B does "
            "try_lock, write)");
  EXPECT_EQ(error_of("pin-client-without-ops.yaml"),
            "pin-client-without-ops.yaml:9:7: B's 1st lock cannot happen: the timeline has no op step of B");
}

TEST(ScenarioLoader, APinOfAThreadWithoutStepsIsAnError) {
  EXPECT_EQ(error_of("pin-thread-missing.yaml"),
            "pin-thread-missing.yaml:9:7: A thread 2's 1st try_lock cannot happen: the timeline has no step of A on "
            "thread 2 (A's steps run on threads 1, 3)");
}

// Every pin of the library names an op its timeline schedules; a crash may still leave it unrun,
// which the run reports as "missing" rather than the loader refusing it.
TEST(ScenarioLoader, APinWithinTheTimelineLoads) {
  const Scenario s = load_scenario(std::string(LOCKSIM_SOURCE_DIR) + "/scenarios/pause-longer-than-lease-token.yaml");
  EXPECT_EQ(s.expect_ops.size(), 2u);
}

TEST(ScenarioLoader, AMissingSectionIsNamed) {
  EXPECT_EQ(error_of("missing-lock.yaml"), "missing-lock.yaml:1:1: missing 'lock' in the scenario");
}

TEST(ScenarioLoader, ANonIntegerSaysWhatItGot) {
  EXPECT_EQ(error_of("not-an-integer.yaml"), "not-an-integer.yaml:5:47: expected an integer for wait_ms, got 'soon'");
}

TEST(ScenarioLoader, UnknownFaultsPropertiesAndExpectationsAreErrors) {
  EXPECT_EQ(error_of("unknown-fault.yaml"),
            "unknown-fault.yaml:5:31: unknown fault 'meteor' (expected crash, pause, partition, delay, loss, "
            "clock_jump, redis_restart, failover, redis_pause, error_reply, reset or interrupt)");
  EXPECT_EQ(error_of("unknown-property.yaml"),
            "unknown-property.yaml:8:3: unknown property 'fairness' in expect (expected mutual_exclusion, fencing, "
            "reentrancy, watchdog, liveness, fair_queue, read_write or ops)");
  EXPECT_EQ(error_of("bad-expectation.yaml"),
            "bad-expectation.yaml:7:21: unknown expectation for mutual_exclusion 'yes-please' (expected holds, violated)");
}

// Naming a property that does not apply to the lock's type is an error at its line, listing the
// ones that do: never a silent "holds".
TEST(ScenarioLoader, APropertyThatDoesNotApplyToTheLockIsAnError) {
  EXPECT_EQ(error_of("property-not-for-lock.yaml"),
            "property-not-for-lock.yaml:8:3: property 'reentrancy' does not apply to a token lock (it judges that "
            "every acquire and unlock moves its holder's count by exactly one); for token use mutual_exclusion, "
            "fencing or liveness");
  EXPECT_EQ(error_of("mutual-exclusion-on-rwlock.yaml"),
            "mutual-exclusion-on-rwlock.yaml:7:3: property 'mutual_exclusion' does not apply to a rwlock lock (it "
            "judges that no two owners believe they hold one lock at once); for rwlock use reentrancy, watchdog, "
            "liveness or read_write");
}

// Without a property in expect, every property that applies is observed (nothing is expected).
TEST(ScenarioLoader, AScenarioWithoutExpectationsObservesEveryApplicableProperty) {
  const Scenario s = load_scenario(std::string(LOCKSIM_SOURCE_DIR) + "/scenarios/rlock-is-held.yaml");
  ASSERT_TRUE(s.expect.empty());
  const ScenarioResult r = run_scenario(s);
  ASSERT_FALSE(r.error);
  std::vector<std::string> observed;
  for (const auto& p : r.properties) {
    observed.push_back(p.property);
    EXPECT_TRUE(p.expected.empty()) << p.property;
    EXPECT_TRUE(p.passed) << p.property;
  }
  EXPECT_EQ(observed, (std::vector<std::string>{"mutual_exclusion", "reentrancy", "watchdog", "liveness"}));
  EXPECT_TRUE(r.passed());
}

TEST(ScenarioLoader, MultiServerKeysAreChecked) {
  EXPECT_EQ(error_of("parts-on-rlock.yaml"), "parts-on-rlock.yaml:2:28: parts applies to multi and red locks only");
  EXPECT_EQ(error_of("missing-server.yaml"), "missing-server.yaml:7:44: server 3 does not exist (the world has 2)");
}

TEST(ScenarioLoader, TheSyncedSlavesCheckIsRedissonsOnly) {
  EXPECT_EQ(error_of("synced-check-on-token.yaml"),
            "synced-check-on-token.yaml:2:57: check_lock_synced_slaves applies to Redisson's locks only");
}

TEST(ScenarioLoader, AUserScriptThatDoesNotCompileIsReportedAtItsOwnLine) {
  const std::string error = error_of("broken-user-script.yaml");
  EXPECT_EQ(error.rfind("lua/broken_acquire.lua:3:1: the Lua script does not compile (ERR Error compiling script", 0), 0u)
      << error;
  EXPECT_NE(error.find("it is the acquire_script of " + kBad + "broken-user-script.yaml:2"), std::string::npos) << error;
}

TEST(ScenarioLoader, AScriptNameThatIsNotInScriptsIsAnError) {
  EXPECT_EQ(error_of("unknown-script-name.yaml").rfind("unknown-script-name.yaml:2:36: no script 'rlock_unlock_v99' in ", 0), 0u)
      << error_of("unknown-script-name.yaml");
}

TEST(ScenarioLoader, ReplacingAScriptThatDoesNotExistIsAnError) {
  EXPECT_EQ(error_of("replace-unknown-script.yaml").rfind("replace-unknown-script.yaml:4:21: no script 'token_relase' in ", 0), 0u)
      << error_of("replace-unknown-script.yaml");
}

TEST(ScenarioLoader, ZeroLatencyIsRefused) {
  EXPECT_EQ(error_of("zero-latency.yaml"), "zero-latency.yaml:2:22: latency_ms is at least 1 (a message always takes time)");
}

TEST(ScenarioLoader, AStepNeedsExactlyOneOfOpOrFault) {
  EXPECT_EQ(error_of("op-and-fault.yaml"), "op-and-fault.yaml:5:5: a timeline step needs exactly one of 'op' or 'fault'");
  EXPECT_EQ(error_of("missing-for-ms.yaml"), "missing-for-ms.yaml:5:5: missing 'for_ms' in a pause fault");
}

TEST(ScenarioLoader, TheLibraryLoadsAndItsDefaultsAreFilledIn) {
  const Scenario s = load_scenario(std::string(LOCKSIM_SOURCE_DIR) + "/scenarios/pause-longer-than-lease-token.yaml");
  EXPECT_EQ(s.name, "pause-longer-than-lease-token");
  EXPECT_EQ(s.seed, 7u);
  EXPECT_EQ(s.lock.type, "token");
  EXPECT_EQ(s.default_lease_ms, 10000);
  ASSERT_EQ(s.timeline.size(), 6u);
  ASSERT_TRUE(s.timeline[0].op.has_value());
  EXPECT_EQ(s.timeline[0].op->lease_ms, 10000) << "an acquire without a lease takes the lock's";
  ASSERT_TRUE(s.timeline[1].fault.has_value());
  EXPECT_EQ(s.timeline[1].fault->kind, world::FaultKind::Pause);
  EXPECT_EQ(s.timeline[1].fault->for_ms, 15000);
  EXPECT_EQ(s.run_ms, 15200 + 60000);
  ASSERT_EQ(s.expect.size(), 2u);
  EXPECT_EQ(s.expect_ops.size(), 2u);
}

TEST(ScenarioLoader, ABadFileBecomesABadInputResultAndTheRunGoesOn) {
  const ScenarioResult r = run_scenario_file(kBad + "unknown-op.yaml");
  EXPECT_TRUE(r.bad_input);
  ASSERT_TRUE(r.error.has_value());
  EXPECT_FALSE(r.passed());
}

// A soak's own event cap reads back from the file a replay writes.
TEST(ScenarioLoader, MaxEventsSurvivesTheWriter) {
  Scenario s = load_scenario(std::string(LOCKSIM_SOURCE_DIR) + "/examples/exhaustive/rlock-2x2.yaml");
  s.world.max_events = 123456789;
  const std::string path = ::testing::TempDir() + "max-events-round-trip.yaml";
  write_scenario_file(s, path);
  EXPECT_EQ(load_scenario(path).world.max_events, 123456789);
}

}  // namespace
}  // namespace locksim::scenario

namespace locksim::scenario {
namespace {

// How a script is sent is each client's own: a Redisson version's form (4.7.0: EVALSHA, SCRIPT LOAD,
// EVALSHA) must not reach a polling lock, which sends EVALSHA and then EVAL on NOSCRIPT, even though
// the file's timeouts and resends reach both.
// Redisson 3.48.0 on resends 4 times after equal-jitter delays of 1-2 s; a polling lock (a SET NX PX
// client) is not Redisson and keeps 3 resends 1,500 ms apart, unless the file sets its own, which
// reach both clients. And --time-scale scales the polling lock's command timing too.
TEST(ScenarioLoader, APollingLockKeepsItsOwnResendsUnderARedissonVersion) {
  const std::string file = ::testing::TempDir() + "locksim-token-resends.yaml";
  const std::string timeline = "clients: [A]\ntimeline:\n  - {at: 0, client: A, op: lock}\n";
  std::ofstream(file) << "name: token-resends\nlock: {type: token, name: orders}\n" << timeline;
  Scenario s = load_scenario(file);
  EXPECT_EQ(s.lock.redisson.commands.retry_attempts, 4);
  EXPECT_EQ(s.lock.redisson.commands.retry_delay_max_ms, 2000);
  EXPECT_EQ(s.lock.polling.commands.timeout_ms, 3000);
  EXPECT_EQ(s.lock.polling.commands.retry_attempts, 3);
  EXPECT_EQ(s.lock.polling.commands.retry_interval_ms, 1500);
  EXPECT_EQ(s.lock.polling.commands.retry_delay_max_ms, 0);
  EXPECT_EQ(scale_times(s, 2.0).lock.polling.commands.timeout_ms, 6000);
  EXPECT_EQ(scale_times(s, 2.0).lock.polling.commands.retry_interval_ms, 3000);

  std::ofstream(file) << "name: token-resends\nlock: {type: token, name: orders, retry_attempts: 1, retry_interval_ms: 700}\n"
                      << timeline;
  s = load_scenario(file);
  EXPECT_EQ(s.lock.polling.commands.retry_attempts, 1);
  EXPECT_EQ(s.lock.polling.commands.retry_interval_ms, 700);
  EXPECT_EQ(s.lock.redisson.commands.retry_attempts, 1);
  // What the writer keeps is what the file set, and nothing the version set.
  const std::string written = ::testing::TempDir() + "locksim-token-resends-written.yaml";
  write_scenario_file(s, written);
  const Scenario again = load_scenario(written);
  EXPECT_EQ(again.lock.polling.commands.retry_attempts, 1);
  EXPECT_EQ(again.lock.polling.commands.retry_interval_ms, 700);
  EXPECT_EQ(again.lock.polling.commands.retry_delay_max_ms, 0);
}

TEST(ScenarioLoader, APollingLockKeepsItsOwnScriptFormUnderARedissonVersion) {
  const std::string file = ::testing::TempDir() + "locksim-token-script-form.yaml";
  std::ofstream(file) << "name: token-form\nlock: {type: token, name: orders, timeout_ms: 2000}\nclients: [A]\n"
                         "timeline:\n  - {at: 0, client: A, op: lock}\n  - {at: 0, client: A, op: unlock}\n";
  const Scenario s = load_scenario(file);
  EXPECT_EQ(s.lock.polling.commands.timeout_ms, 2000);
  EXPECT_EQ(s.lock.polling.commands.scripts, client::ScriptForm::EvalshaThenEval);
  EXPECT_EQ(s.lock.redisson.commands.scripts, client::ScriptForm::EvalshaLoadEvalsha);
  // And as it runs: the unlock's first EVALSHA meets NOSCRIPT and goes again as EVAL, never loaded.
  const ScenarioResult r = run_scenario(s);
  ASSERT_FALSE(r.error) << *r.error;
  int noscript = 0, loads = 0;
  for (const model::Event& e : r.history.events()) {
    if (e.kind != model::EventKind::Exec) continue;
    noscript += e.reply.starts_with("-NOSCRIPT");
    loads += e.f == "script_load";
  }
  EXPECT_GE(noscript, 1);
  EXPECT_EQ(loads, 0);
  std::remove(file.c_str());
}

// A count of milliseconds with a few digits too many is an error at its place, never a signed
// overflow in the run_ms rule or a run that goes on until it is killed (issue 42).
TEST(ScenarioLoader, MillisecondsPastTheirBoundAreErrorsAtTheirPlace) {
  EXPECT_EQ(error_of("at-past-longest-run.yaml"),
            "at-past-longest-run.yaml:5:10: at is at most 1000000000 ms (about 11.6 days, the longest run), not "
            "9223372036854775000");
  EXPECT_EQ(error_of("run-ms-past-longest-run.yaml"),
            "run-ms-past-longest-run.yaml:6:9: run_ms is at most 1000000000 ms (about 11.6 days, the longest run), not "
            "60000000000000");
  EXPECT_EQ(error_of("timeline-past-longest-run.yaml"),
            "timeline-past-longest-run.yaml:5:3: the timeline's steps end at 1800000000 ms, past the longest run "
            "(1000000000 ms, about 11.6 days)");
  EXPECT_EQ(error_of("lease-past-31-years.yaml"),
            "lease-past-31-years.yaml:5:44: lease_ms is at most 1000000000000 ms (about 31 years), not "
            "9223372036854775807");
  EXPECT_EQ(error_of("drift-past-a-million.yaml"),
            "drift-past-a-million.yaml:3:32: drift_ppm is within -1000000..1000000 (a clock at twice the pace, or one "
            "that stands still), not 9000000000000");
  EXPECT_EQ(error_of("clock-jump-past-31-years.yaml"),
            "clock-jump-past-31-years.yaml:6:50: a clock jump's by_ms: a clock offset is at most 1000000000000 ms "
            "either way, not -9223372036854775808");
  // The bounds themselves load: a step at, and a run of, exactly kRunMsMax.
  const std::string edge = ::testing::TempDir() + "locksim-run-ms-edge.yaml";
  std::ofstream(edge) << "name: edge\nlock: {type: rlock, name: orders}\nclients: [A]\n"
                         "timeline:\n  - {at: 1000000000, client: A, op: lock}\nrun_ms: 1000000000\n";
  EXPECT_EQ(load_scenario(edge).run_ms, kRunMsMax);
  std::remove(edge.c_str());
}

// `bounded:` (docs/exhaustive.md): every mistake at its line and column, saying what was expected.
TEST(ScenarioLoader, BoundedMistakesAreErrorsAtTheirPlace) {
  EXPECT_EQ(error_of("bounded-latency-zero.yaml"),
            "bounded-latency-zero.yaml:7:21: a latency is at least 1 ms (a message always takes time)");
  EXPECT_EQ(error_of("bounded-unknown-fault.yaml"),
            "bounded-unknown-fault.yaml:8:25: unknown fault 'meteor' (expected crash, pause, partition, delay, loss, "
            "clock_jump, redis_restart, failover, redis_pause, error_reply, reset or interrupt)");
  EXPECT_EQ(error_of("bounded-pause-without-duration.yaml"),
            "bounded-pause-without-duration.yaml:8:7: missing 'for_ms' in a pause fault");
  EXPECT_EQ(error_of("bounded-unknown-key.yaml"),
            "bounded-unknown-key.yaml:7:3: unknown key 'latencies' in bounded (expected one of: latencies_ms, slow_max, "
            "lost_max, faults, clock_offsets_ms, reduce, depth, choices, deviations)");
  EXPECT_EQ(error_of("bounded-unknown-client.yaml"), "bounded-unknown-client.yaml:8:40: no client named 'Z'");
  EXPECT_EQ(error_of("bounded-zero-count.yaml"), "bounded-zero-count.yaml:8:15: count is at least 1");
  EXPECT_EQ(error_of("bounded-fault-with-at.yaml"),
            "bounded-fault-with-at.yaml:8:32: unknown key 'at' in a bounded crash fault (expected one of: fault, "
            "client, count)");
  EXPECT_EQ(error_of("bounded-negative-choice.yaml"),
            "bounded-negative-choice.yaml:7:16: expected a non-negative integer for a choice, got -1");
  EXPECT_EQ(error_of("bounded-clock-offset-twice.yaml"),
            "bounded-clock-offset-twice.yaml:7:30: clock_offsets_ms names 0 twice");
  EXPECT_EQ(error_of("bounded-clock-offset-too-far.yaml"),
            "bounded-clock-offset-too-far.yaml:7:25: a clock offset is at most 1000000000000 ms either way, not "
            "-9223372036854775808");
  EXPECT_EQ(error_of("client-clock-offset-too-far.yaml"),
            "client-clock-offset-too-far.yaml:3:38: a clock offset is at most 1000000000000 ms either way, not "
            "2000000000000");
  EXPECT_EQ(error_of("bounded-clock-offsets-empty.yaml"),
            "bounded-clock-offsets-empty.yaml:7:21: expected a list of clock offsets in ms for clock_offsets_ms, e.g. [0, 40000]");
}

// What the writer says of `bounded:` reads back the same: a counterexample replays from its file.
TEST(ScenarioLoader, BoundedSurvivesTheWriter) {
  Scenario s = load_scenario(std::string(LOCKSIM_SOURCE_DIR) + "/examples/exhaustive/rlock-2x2.yaml");
  ASSERT_TRUE(s.bounded);
  s.bounded->slow_max = 3;
  s.bounded->lost_max = 1;
  s.bounded->reduce = false;
  s.bounded->depth = 50;
  s.bounded->clock_offsets = {0, -500, 40000};
  s.choices = {0, 2, 0, 1};
  s.deviations = std::vector<std::string>{"A's request takes 10 ms", "a \"quoted\" one: with a colon"};
  const std::string path = ::testing::TempDir() + "bounded-round-trip.yaml";
  write_scenario_file(s, path);
  const Scenario back = load_scenario(path);
  ASSERT_TRUE(back.bounded);
  EXPECT_EQ(*back.bounded, *s.bounded);
  EXPECT_EQ(back.choices, s.choices);
  EXPECT_EQ(back.deviations, s.deviations);
}

}  // namespace
}  // namespace locksim::scenario

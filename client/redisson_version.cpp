#include "client/redisson_version.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include "base/assert.hpp"
#include "model/lock_types.hpp"

namespace locksim::client {

std::string Version::str() const {
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

std::optional<Version> parse_version(std::string_view text) {
  int parts[3];
  for (int i = 0; i < 3; ++i) {
    const size_t dot = i < 2 ? text.find('.') : text.size();
    if (dot == std::string_view::npos || dot == 0) return std::nullopt;
    const std::string_view digits = text.substr(0, dot);
    if (digits.size() > 6 || digits.find_first_not_of("0123456789") != std::string_view::npos) return std::nullopt;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), parts[i]);
    if (error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
    text.remove_prefix(i < 2 ? dot + 1 : dot);
  }
  if (!text.empty()) return std::nullopt;
  return Version{parts[0], parts[1], parts[2]};
}

Version oldest_modelled() { return {3, 5, 5}; }
Version newest_modelled() { return {4, 7, 0}; }
Version default_version() { return newest_modelled(); }
std::string modelled_range() { return oldest_modelled().str() + " to " + newest_modelled().str(); }

std::string_view replica_wait_not_modelled(Version v) {
  // syncSlaves (#2669) and checkLockSyncedSlaves (#4139): CommandAsyncService.syncedEval at the tags.
  // 3.52.0 on is modelled (RedissonOptions::synced_eval); the eras before differ in ways
  // redisson-versions.md lists, and run without WAIT.
  if (v >= Version{3, 52, 0}) return "";
  if (v >= Version{3, 17, 0})
    return "with replicas, Redisson follows each lock script with WAIT (slavesSyncTimeout, 1 s) and, when no replica "
           "acknowledged, releases the lock and fails the acquire (checkLockSyncedSlaves, 3.17.0 on, true by default)";
  if (v >= Version{3, 12, 5})
    return "with replicas, Redisson follows each lock script with WAIT (up to 1 s) before answering (3.12.5 on)";
  return "";
}

namespace {

// The table (redisson-versions.md, with the reference's sections for the scripts), a function per
// family of behaviours. Each behaviour starts at the oldest modelled version, so applying any
// version sets every option it governs.

// RLock's scripts and the unlock latch.
std::vector<VersionedBehaviour> scripts_and_latch(Version first) {
  return {
      {"RLock acquire script",
       "rlock, multi, red",
       {
           {first, "hset when the key is missing", "", false, [](LockSpec& s) { s.rlock_scripts.acquire = "rlock_acquire_hset"; }},
           {{3, 12, 3}, "hincrby in both branches", "#2551", false,
            [](LockSpec& s) { s.rlock_scripts.acquire = "rlock_acquire_hincrby"; }},
           {{3, 19, 0}, "one condition: exists == 0 or hexists == 1", "", false,
            [](LockSpec& s) { s.rlock_scripts.acquire = "rlock_acquire_one_condition"; }},
       }},
      {"RLock unlock script",
       "rlock, multi, red",
       {
           {first, "publishes and answers 1 (silent)", "#2018", true,
            [](LockSpec& s) {
              s.rlock_scripts.unlock = "rlock_unlock_silent_missing";
              s.rlock_scripts.force_unlock = "rlock_force_unlock";
              s.rlock_scripts.publish_as_argv = false;
            }},
           {{3, 10, 6}, "answers nil: IllegalMonitorStateException", "", false,
            [](LockSpec& s) {
              s.rlock_scripts.unlock = "rlock_unlock";
              s.rlock_scripts.force_unlock = "rlock_force_unlock";
              s.rlock_scripts.publish_as_argv = false;
            }},
           {{3, 22, 0}, "publish (or spublish) passed as an ARGV, to forceUnlock too", "#5047", false,
            [](LockSpec& s) {
              s.rlock_scripts.unlock = "rlock_unlock_3_22";
              s.rlock_scripts.force_unlock = "rlock_force_unlock_3_22";
              s.rlock_scripts.publish_as_argv = true;
            }},
       }},
      {"unlock latch",
       "rlock, multi, red",
       {
           {first, "none: a resent unlock runs twice", "#4871", true, [](LockSpec& s) { s.redisson.unlock_latch = false; },
            "unlock_latch=false"},
           {{3, 24, 0}, "redisson_unlock_latch makes a resent unlock answer the first answer", "", false,
            [](LockSpec& s) { s.redisson.unlock_latch = true; }, "unlock_latch=true"},
       }},
      {"unlock latch deleted after the answer",
       "rlock, multi, red",
       {
           {first, "the request's latch", "", false, [](LockSpec& s) { s.redisson.latch_delete_names_client = false; }},
           {{3, 52, 0}, "a key named by the client's id: every latch lives out its PX", "#6844", true,
            [](LockSpec& s) { s.redisson.latch_delete_names_client = true; }},
           {{4, 3, 0}, "the request's latch", "", false, [](LockSpec& s) { s.redisson.latch_delete_names_client = false; }},
       }},
  };
}

// The watchdog's entry and timer, the lease an instance keeps, and a waiter's wake-up.
std::vector<VersionedBehaviour> renewal_and_waiting(Version first) {
  return {
      {"renewal entry after a re-entrant thread's last unlock",
       "rlock, fair, multi, red, rwlock",
       {
           {first, "the thread leaves it", "", false, [](LockSpec& s) { s.redisson.entry_leak = EntryLeak::None; }},
           {{3, 37, 0}, "a stale copy stays first; its renewal is told 0 and ends another thread's", "#6144", true,
            [](LockSpec& s) { s.redisson.entry_leak = EntryLeak::ByName; }},
           {{3, 44, 0}, "a stale copy without a lock name stays first: the lock is never renewed again", "#6144", true,
            [](LockSpec& s) { s.redisson.entry_leak = EntryLeak::NullName; }},
           {{3, 46, 0}, "the thread leaves it", "", false, [](LockSpec& s) { s.redisson.entry_leak = EntryLeak::None; }},
       }},
      {"unlock and renewal",
       "rlock, fair, multi, red, rwlock",
       {
           {first, "an unlock that timed out or failed leaves renewal running", "#1966", true,
            [](LockSpec& s) { s.redisson.unlock_cancels_renewal = UnlockCancelsRenewal::OnlyWhenAnswered; }},
           {{3, 10, 5}, "unlock cancels renewal whatever it was answered", "", false,
            [](LockSpec& s) { s.redisson.unlock_cancels_renewal = UnlockCancelsRenewal::Always; }},
           {{3, 12, 0}, "an unlock answered nil leaves the renewal entry", "#2515", true,
            [](LockSpec& s) { s.redisson.unlock_cancels_renewal = UnlockCancelsRenewal::NotOnNil; }},
           {{3, 12, 1}, "unlock cancels renewal whatever it was answered", "", false,
            [](LockSpec& s) { s.redisson.unlock_cancels_renewal = UnlockCancelsRenewal::Always; }},
       }},
      {"renewal answered 'not held'",
       "rlock, fair, multi, red, rwlock",
       {
           {first, "ends renewal", "", false,
            [](LockSpec& s) {
              s.redisson.renewal_ignores_not_held = false;
              s.redisson.not_held_drops_thread = false;
            }},
           {{3, 10, 5}, "is rescheduled forever", "#2037", true,
            [](LockSpec& s) {
              s.redisson.renewal_ignores_not_held = true;
              s.redisson.not_held_drops_thread = false;
            }},
           {{3, 10, 7}, "ends renewal", "", false,
            [](LockSpec& s) {
              s.redisson.renewal_ignores_not_held = false;
              s.redisson.not_held_drops_thread = false;
            }},
           {{3, 44, 0}, "drops one hold of the threads it asked for; renewal ends with the last", "", false,
            [](LockSpec& s) {
              s.redisson.renewal_ignores_not_held = false;
              s.redisson.not_held_drops_thread = true;
            }},
       }},
      {"a renewal that fails",
       "rlock, fair, multi, red, rwlock",
       {
           {first, "ends the watchdog for good and leaves its entry", "#3194 #3334", true,
            [](LockSpec& s) { s.redisson.watchdog_on_error = WatchdogOnError::StopKeepEntry; },
            "watchdog_on_error=stop-keep-entry"},
           {{3, 14, 0}, "ends the watchdog for good; the next lock() renews again", "#3194", true,
            [](LockSpec& s) { s.redisson.watchdog_on_error = WatchdogOnError::StopForGood; }, "watchdog_on_error=stop"},
           {{3, 44, 0}, "is rescheduled (the batched watchdog)", "", false,
            [](LockSpec& s) { s.redisson.watchdog_on_error = WatchdogOnError::KeepRenewing; }, "watchdog_on_error=keep"},
       }},
      {"renewal's lease and period",
       "rlock, fair, multi, red, rwlock",
       {
           {first, "the instance's internalLockLeaseTime: a lease re-entry's lease, every third of it", "", false,
            [](LockSpec& s) { s.redisson.renewal_at_watchdog_timeout = false; }},
           {{3, 44, 0}, "lockWatchdogTimeout, every third of it (the batched LockTask)", "", false,
            [](LockSpec& s) { s.redisson.renewal_at_watchdog_timeout = true; }},
       }},
      {"lease kept by the instance",
       "rlock, fair, multi, red, spin",
       {
           {first, "each acquire sets internalLockLeaseTime", "", false,
            [](LockSpec& s) { s.redisson.lease_memory = LeaseMemory::PerAcquire; }},
           {{3, 15, 0}, "a lease-less lock() PEXPIREs to the last explicit lease", "#4818", true,
            [](LockSpec& s) { s.redisson.lease_memory = LeaseMemory::StaleExplicit; }},
           {{3, 19, 2}, "any unlock resets the lease to the watchdog timeout", "#5623", true,
            [](LockSpec& s) { s.redisson.lease_memory = LeaseMemory::ResetOnUnlock; }},
           {{3, 27, 2}, "each acquire sets internalLockLeaseTime", "", false,
            [](LockSpec& s) { s.redisson.lease_memory = LeaseMemory::PerAcquire; }},
       }},
      {"waiter's wake-up",
       "rlock, fair, rwlock",
       {
           {first, "an unlock message between the latch check and the listener is lost", "#5761", true,
            [](LockSpec& s) { s.redisson.wakeup_lost_between_check_and_listen = true; }},
           {{3, 28, 0}, "the listener is added before the check", "", false,
            [](LockSpec& s) { s.redisson.wakeup_lost_between_check_and_listen = false; }},
       }},
  };
}

// How lock commands are sent and what a timeout does to them.
std::vector<VersionedBehaviour> commands(Version first) {
  return {
      {"command retries",
       "every Redisson lock",
       {
           {first, "retryAttempts 3, retryInterval 1500 ms", "", false,
            [](LockSpec& s) {
              s.redisson.commands.retry_attempts = 3;
              s.redisson.commands.retry_interval_ms = 1500;
              s.redisson.commands.retry_delay_max_ms = 0;
            }},
           {{3, 48, 0}, "retryAttempts 4, equal-jitter delays of 1-2 s", "", false,
            [](LockSpec& s) {
              s.redisson.commands.retry_attempts = 4;
              s.redisson.commands.retry_interval_ms = 1000;
              s.redisson.commands.retry_delay_max_ms = 2000;
            }},
       }},
      {"Lua scripts sent (useScriptCache)",
       "every Redisson lock",
       {
           {first, "EVAL with the script's text (useScriptCache false)", "", false,
            [](LockSpec& s) { s.redisson.commands.scripts = ScriptForm::Eval; }},
           {{3, 46, 0}, "EVALSHA; on NOSCRIPT, SCRIPT LOAD and EVALSHA again (useScriptCache true, #5507)", "", false,
            [](LockSpec& s) { s.redisson.commands.scripts = ScriptForm::EvalshaLoadEvalsha; }},
       }},
      {"WAIT for replicas",
       "every Redisson lock",
       {
           {first, "none: a lock script's answer comes without waiting for replicas", "", false,
            [](LockSpec& s) { s.redisson.synced_eval = false; }},
           {{3, 12, 5}, "WAIT after each lock script (#2669, #4139): not modelled before 3.52.0, run without it", "",
            false, [](LockSpec& s) { s.redisson.synced_eval = false; }},
           {{3, 52, 0},
            "with replicas, each lock script goes with WAIT N 1000; none acknowledged: NoSyncedSlavesException, the "
            "acquire undone by an unlock and tried again (checkLockSyncedSlaves)",
            "#4139 #6651", false, [](LockSpec& s) { s.redisson.synced_eval = true; }},
       }},
      {"acquire and unlock resent after a timeout",
       "rlock, fair, multi, red, rwlock",
       {
           {first, "yes, as every command (retryAttempts)", "", false,
            [](LockSpec& s) { s.redisson.lock_commands_resent = true; }},
           {{3, 37, 0}, "no: sent once, a timeout reaches the caller (evalWriteSyncedNoRetryAsync)", "", false,
            [](LockSpec& s) { s.redisson.lock_commands_resent = false; }},
       }},
      {"tryLock after a response timeout inside its wait loop",
       "fair",  // the others' acquireFailed sends nothing: only the answer (an exception or false) differs
       {
           {first, "throws without acquireFailed: a FairLock waiter's queue entry stays", "#5019", true,
            [](LockSpec& s) { s.redisson.loop_timeout_gives_up = false; }},
           {{4, 7, 0}, "acquireFailed, then false (PR #7223)", "", false,
            [](LockSpec& s) { s.redisson.loop_timeout_gives_up = true; }},
       }},
      {"FairLock acquireFailed resent after a timeout",
       "fair",
       {
           {first, "yes", "", false, [](LockSpec& s) { s.redisson.acquire_failed_resent = true; }},
           {{3, 37, 0}, "no: sent once", "", false, [](LockSpec& s) { s.redisson.acquire_failed_resent = false; }},
           {{4, 7, 0}, "yes (PR #7223)", "", false, [](LockSpec& s) { s.redisson.acquire_failed_resent = true; }},
       }},
  };
}

// FairLock's scripts and threadWaitTime.
std::vector<VersionedBehaviour> fair_lock(Version first) {
  return {
      {"FairLock scripts",
       "fair",
       {
           {first, "scores chained from the first waiter; nothing reduced on acquire", "#2099", true,
            [](LockSpec& s) { s.fair.variant = FairVariant::Head; }, "fair_variant=head"},
           {{3, 11, 1}, "scores from the last waiter; a queued waiter may be told a negative ttl", "#5503", true,
            [](LockSpec& s) { s.fair.variant = FairVariant::Tail; }, "fair_variant=tail"},
           {{3, 31, 0}, "the stale loop is nil-safe; still the negative ttl", "#5503", true,
            [](LockSpec& s) { s.fair.variant = FairVariant::Tail3_31; }, "fair_variant=tail-3.31"},
           {{3, 32, 0}, "a queued waiter is told max(0, pttl)", "", false,
            [](LockSpec& s) { s.fair.variant = FairVariant::Tail3_32; }, "fair_variant=tail-3.32"},
           {{3, 45, 0}, "a newcomer chains from the last waiter only when it has a score", "", false,
            [](LockSpec& s) { s.fair.variant = FairVariant::Tail3_45; }, "fair_variant=tail-3.45"},
       }},
      {"FairLock threadWaitTime",
       "fair",
       {
           {first, "5000 ms, whatever tryLock waits", "", false,
            [](LockSpec& s) {
              s.fair.thread_wait_ms = 5000;
              s.fair.try_wait_replaces_thread_wait = false;
            },
            "thread_wait_ms=5000,wait_replaces_thread_wait=false"},
           // The same value; from 3.11.1 every acquire lowers each waiter's timeout by it (PR #2100),
           // which is what prunes live waiters deep in the queue.
           {{3, 11, 1}, "5000 ms, taken off every waiter's timeout on each acquire", "#2883", true,
            [](LockSpec& s) {
              s.fair.thread_wait_ms = 5000;
              s.fair.try_wait_replaces_thread_wait = false;
            },
            "thread_wait_ms=5000,wait_replaces_thread_wait=false"},
           {{3, 13, 3}, "300 000 ms; a tryLock wait > 0 replaces it", "", false,
            [](LockSpec& s) {
              s.fair.thread_wait_ms = 300000;
              s.fair.try_wait_replaces_thread_wait = true;
            },
            "thread_wait_ms=300000,wait_replaces_thread_wait=true"},
       }},
  };
}

// ReadWriteLock's scripts, its read renewal and its read-side renewal entry.
std::vector<VersionedBehaviour> read_write_lock(Version first) {
  return {
      {"ReadWriteLock unlock of a missing lock",
       "rwlock",
       {
           {first, "silent", "", false, [](LockSpec& s) { s.rw.variant = RwVariant::Silent; }, "rwlock_variant=3.11"},
           {{3, 44, 0}, "nil: IllegalMonitorStateException", "", false, [](LockSpec& s) { s.rw.variant = RwVariant::Nil3_44; },
            "rwlock_variant=3.44"},
       }},
      {"ReadWriteLock read-lock renewal",
       "rwlock",
       {
           {first, "one script per lock: the hash and every reader's timeout keys, a crashed client's too", "#1458",
            true, [](LockSpec& s) { s.rw.read_renewal = ReadRenewal::PerLock; }, "rwlock_read_renewal=3.8"},
           {{3, 44, 0}, "batched; a field counting 2 fails it after the hash, so timeout keys lapse", "#6883 #1458", true,
            [](LockSpec& s) { s.rw.read_renewal = ReadRenewal::Batched3_44; }, "rwlock_read_renewal=3.44"},
           {{4, 0, 0}, "batched, fixed: the hash and every reader's timeout keys, a crashed client's too", "#1458", true,
            [](LockSpec& s) { s.rw.read_renewal = ReadRenewal::Batched4_0; }, "rwlock_read_renewal=4.0"},
           {{4, 4, 0}, "only this client's readers' timeout keys", "", false,
            [](LockSpec& s) { s.rw.read_renewal = ReadRenewal::OwnReaders4_4; }, "rwlock_read_renewal=4.4"},
       }},
      {"read-lock renewal entry after a re-entrant reader's last unlock",
       "rwlock",
       {
           {first, "the thread leaves it", "", false, [](LockSpec& s) { s.rw.read_entry_leak = EntryLeak::None; }},
           {{3, 37, 0}, "a stale copy stays first; its renewal is told 0 and ends another reader's", "#7251", true,
            [](LockSpec& s) { s.rw.read_entry_leak = EntryLeak::ByName; }},
           {{3, 44, 0}, "a stale copy without a lock name stays first: the read lock is never renewed again", "#7251",
            true, [](LockSpec& s) { s.rw.read_entry_leak = EntryLeak::NullName; }},
           {{4, 7, 0}, "the thread leaves it", "", false, [](LockSpec& s) { s.rw.read_entry_leak = EntryLeak::None; }},
       }},
  };
}

// MultiLock and RedLock.
std::vector<VersionedBehaviour> multi_lock(Version first) {
  return {
      {"MultiLock tryLock(-1, lease)",
       "multi, red",
       {
           {first, "sub-lease 2 x wait = -2 ms: each key deleted as taken", "#2172", true,
            [](LockSpec& s) { s.multi.negative_sub_lease = true; }},
           {{3, 11, 1}, "sub-lease = lease", "", false, [](LockSpec& s) { s.multi.negative_sub_lease = false; }},
       }},
      {"MultiLock lock() retry wait",
       "multi, red",
       {
           {first, "one random wait for every retry", "#4050", true, [](LockSpec& s) { s.multi.fixed_retry_wait = true; }},
           {{3, 17, 0}, "a new random wait per retry", "", false, [](LockSpec& s) { s.multi.fixed_retry_wait = false; }},
       }},
      {"MultiLock lock(lease, unit)",
       "multi, red",
       {
           {first, "converts the unit", "", false, [](LockSpec& s) { s.multi.lease_unit_ignored = false; }},
           {{3, 17, 0}, "reads the number as milliseconds", "#5484", true,
            [](LockSpec& s) { s.multi.lease_unit_ignored = true; }},
           {{3, 25, 1}, "converts the unit", "", false, [](LockSpec& s) { s.multi.lease_unit_ignored = false; }},
       }},
  };
}

std::vector<VersionedBehaviour> make_table() {
  const Version first = oldest_modelled();
  std::vector<VersionedBehaviour> table;
  for (auto family : {scripts_and_latch, renewal_and_waiting, commands, fair_lock, read_write_lock, multi_lock})
    for (VersionedBehaviour& b : family(first)) table.push_back(std::move(b));
  return table;
}

}  // namespace

const std::vector<VersionedBehaviour>& versioned_behaviours() {
  static const std::vector<VersionedBehaviour> table = make_table();
  return table;
}

const VersionStep& step_at(const VersionedBehaviour& behaviour, Version v) {
  LS_ASSERT(!behaviour.steps.empty());
  LS_ASSERT(behaviour.steps.front().since <= v);
  const VersionStep* at = &behaviour.steps.front();
  for (const VersionStep& step : behaviour.steps)
    if (step.since <= v) at = &step;
  return *at;
}

void apply_redisson_version(Version v, LockSpec& spec) {
  if (v < oldest_modelled() || v > newest_modelled())
    throw std::invalid_argument("Redisson " + v.str() + " is not modelled (modelled: " + modelled_range() + ")");
  if (!has_lock_type(v, spec.type)) {
    const model::LockType* t = model::find_lock_type(spec.type);
    throw std::invalid_argument("Redisson " + v.str() + " has no " + spec.type + " lock: it came in " +
                                std::string(t->since));
  }
  for (const VersionedBehaviour& behaviour : versioned_behaviours()) step_at(behaviour, v).apply(spec);
  spec.redisson_version = v.str();
}

bool has_lock_type(Version v, std::string_view type) {
  const model::LockType* t = model::find_lock_type(type);
  if (!t || t->since.empty()) return true;
  const std::optional<Version> since = parse_version(t->since);
  LS_ASSERT(since.has_value());
  return *since <= v;
}

LockSpec redisson_spec(Version v, const std::string& type, const std::string& name) {
  LockSpec spec;
  spec.type = type;
  spec.name = name;
  apply_redisson_version(v, spec);
  return spec;
}

Version modelled_version(const std::string& text) {
  const std::optional<Version> v = parse_version(text);
  if (!v) throw std::invalid_argument("'" + text + "' is not a Redisson version (expected X.Y.Z, e.g. 3.27.1)");
  if (*v < oldest_modelled() || *v > newest_modelled())
    throw std::invalid_argument("Redisson " + v->str() + " is not modelled (modelled: " + modelled_range() + ")");
  return *v;
}

std::string VersionRange::str() const {
  const std::string first = from == oldest_modelled() ? "up to " : from.str() + " - ";
  if (!until) return from == oldest_modelled() ? "every version" : from.str() + "+";
  Version last = *until;
  std::string last_text;
  if (last.patch > 0) {
    last_text = std::to_string(last.major) + "." + std::to_string(last.minor) + "." + std::to_string(last.patch - 1);
  } else if (last.minor > 0) {
    last_text = std::to_string(last.major) + "." + std::to_string(last.minor - 1) + ".x";
  } else {
    // A major's first release: the last line before it is the newest minor of the previous major
    // that the table knows ("3.52.x" before 4.0.0, not "3.x", which reads as the whole major).
    Version newest{last.major - 1, 0, 0};
    for (const VersionedBehaviour& b : versioned_behaviours())
      for (const VersionStep& s : b.steps)
        if (s.since.major == last.major - 1 && newest < s.since) newest = s.since;
    last_text = std::to_string(newest.major) + "." + std::to_string(newest.minor) + ".x";
  }
  if (last_text == from.str()) return last_text;
  return first + last_text;
}

bool names_issue(const VersionStep& step, std::string_view issue) {
  std::string_view rest = step.issue;
  while (!rest.empty()) {
    const size_t space = rest.find(' ');
    if (rest.substr(0, space) == issue) return true;
    rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
  }
  return false;
}

std::vector<VersionRange> affected_by(std::string_view issue) {
  std::vector<VersionRange> ranges;
  for (const VersionedBehaviour& behaviour : versioned_behaviours()) {
    for (size_t i = 0; i < behaviour.steps.size(); ++i) {
      const VersionStep& step = behaviour.steps[i];
      if (!step.bug || !names_issue(step, issue)) continue;
      std::optional<Version> until;
      if (i + 1 < behaviour.steps.size()) until = behaviour.steps[i + 1].since;
      // Adjacent steps of one bug (a fix that was partial) read as one range.
      if (!ranges.empty() && ranges.back().until == step.since) {
        ranges.back().until = until;
      } else {
        ranges.push_back({step.since, until});
      }
    }
  }
  return ranges;
}

std::string_view fixing_option(std::string_view issue) {
  std::string_view option;
  std::optional<Version> last;
  for (const VersionedBehaviour& behaviour : versioned_behaviours())
    for (size_t i = 0; i + 1 < behaviour.steps.size(); ++i) {
      const VersionStep& step = behaviour.steps[i];
      if (!step.bug || !names_issue(step, issue) || names_issue(behaviour.steps[i + 1], issue)) continue;
      if (!last || *last < behaviour.steps[i + 1].since) {
        last = behaviour.steps[i + 1].since;
        option = behaviour.steps[i + 1].option;
      }
    }
  return option;
}

std::vector<std::string> behaviour_keys(std::string_view issue) {
  std::vector<std::string> keys;
  for (const VersionedBehaviour& behaviour : versioned_behaviours()) {
    bool named = false;
    for (const VersionStep& step : behaviour.steps) named = named || (step.bug && names_issue(step, issue));
    if (!named) continue;
    for (const VersionStep& step : behaviour.steps) {
      std::string_view rest = step.option;
      while (!rest.empty()) {
        const size_t comma = rest.find(',');
        const std::string_view item = rest.substr(0, comma);
        const std::string key(item.substr(0, item.find('=')));
        if (std::find(keys.begin(), keys.end(), key) == keys.end()) keys.push_back(key);
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      }
    }
  }
  return keys;
}

bool affects(std::string_view issue, Version v) {
  for (const VersionRange& r : affected_by(issue))
    if (r.from <= v && (!r.until || v < *r.until)) return true;
  return false;
}

std::string interrupt_problem(const std::string& version) {
  if (version.empty()) return "";
  const std::optional<Version> v = parse_version(version);
  if (!v || *v >= kInterruptModelledFrom) return "";
  return "an interrupt is modelled for Redisson " + kInterruptModelledFrom.str() +
         " and later, whose sync calls meet it as 4.x's do; " + v->str() +
         "'s met it otherwise (up to 3.11.3 get() waited on through it; to 3.16.x lock() subscribed otherwise)";
}

}  // namespace locksim::client

#include "scenario/redisson_library.hpp"

#include <algorithm>

#include "model/lock_types.hpp"

namespace locksim::scenario {

namespace {

std::vector<LibraryRow> bugs() {
  return {
      // Behaviours that were bugs (the versions come from the version table by issue).
      {.issue = "#2018", .title = "unlock of an expired lock succeeds silently", .locks = "rlock",
       .story = "redisson/2018-unlock-expired-silent.yaml", .property = "reentrancy"},
      {.issue = "#4871", .title = "a resent unlock runs twice and frees a reentrant hold", .locks = "rlock",
       .story = "redisson/4871-resent-unlock-runs-twice.yaml", .property = "mutual_exclusion",
       .runs_as = "spin, fenced"},
      {.issue = "#3194", .title = "one failed renewal ends the watchdog; the lock expires while held", .locks = "rlock, fair, rwlock",
       .story = "redisson/3194-renewal-error-ends-watchdog.yaml", .property = "mutual_exclusion", .scales_with = "watchdog_ms",
       .runs_as = "fair, spin, fenced"},
      {.issue = "#3334", .title = "a failed renewal leaves its entry: the next lock() of that name on the client is not renewed either",
       .locks = "rlock, fair, rwlock", .story = "redisson/3194-failed-renewal-keeps-entry.yaml", .property = "watchdog",
       .scales_with = "watchdog_ms", .runs_as = "fair"},
      {.issue = "#1966", .title = "an unlock that times out leaves the watchdog renewing: the lock never expires",
       .locks = "rlock, fair, rwlock", .story = "redisson/1966-unlock-timeout-keeps-renewing.yaml", .property = "liveness",
       .scales_with = "watchdog_ms", .runs_as = "fair"},
      {.issue = "#2515", .title = "an unlock answered nil leaves the renewal entry: the next lock() is not renewed",
       .locks = "rlock, fair, rwlock", .story = "redisson/2515-unlock-nil-keeps-renewal-entry.yaml",
       .property = "mutual_exclusion", .scales_with = "watchdog_ms"},
      {.issue = "#4818", .title = "a reused instance's lease-less lock() expires at the last explicit lease", .locks = "rlock",
       .story = "redisson/4818-stale-explicit-lease.yaml", .property = "mutual_exclusion", .scales_with = "watchdog_ms",
       .runs_as = "spin"},
      {.issue = "#5761", .title = "an unlock message between the waiter's check and its listener is lost",
       .locks = "rlock, fair, rwlock", .story = "redisson/5761-wakeup-lost-before-listen.yaml", .property = "liveness",
       .runs_as = "fair, fenced"},
      {.issue = "#6883", .title = "the batched read renewal fails for a reader holding twice; the hash is freed under it",
       .locks = "rwlock", .story = "redisson/6883-reentrant-reader-stops-read-renewal.yaml", .property = "read_write",
       .scales_with = "watchdog_ms"},
      {.issue = "#1458", .title = "the read renewal keeps a crashed client's readers alive: writers wait on dead readers",
       .locks = "rwlock", .story = "redisson/1458-crashed-reader-kept-alive.yaml", .property = "liveness",
       .scales_with = "watchdog_ms"},
      {.issue = "#6144", .title = "a re-entrant thread's last unlock leaves it in the renewal entry: another thread's hold is not renewed",
       .locks = "rlock, fair, multi, red", .story = "redisson/6144-reentrant-unlock-leaves-stale-renewal-entry.yaml",
       .property = "mutual_exclusion", .scales_with = "watchdog_ms", .runs_as = "fair, multi, red, spin, fenced"},
      {.issue = "#7251", .title = "a re-entrant reader's last unlock leaves it in the read renewal entry: another reader is not renewed",
       .locks = "rwlock", .story = "redisson/7251-reentrant-reader-leaves-stale-renewal-entry.yaml", .property = "read_write",
       .scales_with = "watchdog_ms"},
      {.issue = "#2172", .title = "MultiLock tryLock(-1, lease): a -2 ms sub-lease deletes each key as it is taken",
       .locks = "multi, red", .story = "redisson/2172-multilock-trylock-minus-one.yaml", .property = "mutual_exclusion"},
      {.issue = "#5484", .title = "MultiLock lock(lease, unit) reads the lease as milliseconds", .locks = "multi, red",
       .story = "redisson/5484-multilock-lease-unit-ignored.yaml", .property = "mutual_exclusion"},
      {.issue = "#6844", .title = "the DEL after an answered unlock misses its latch, which lives out its PX",
       .locks = "rlock, multi, red",
       .not_modelled = "modelled (latch_delete_names_client; verify/unit/client/redisson_versions_test.cpp pins it), but no "
                       "property can see it: a latch's request id is never reused, so the leftover key changes no answer"},
      {.issue = "#5019", .title = "a response timeout inside tryLock's wait loop skips acquireFailed: a FairLock queue entry stays",
       .locks = "fair, nonreentrant-fair",
       .not_modelled = "modelled (loop_timeout_gives_up), but no one story tells every affected version from the fix: up "
                       "to 3.36.x the acquire is resent, so the loop times out only when an outage outlasts every resend, "
                       "and then 4.7.0's resent acquireFailed is lost as well; from 3.37.0 one lost message does it "
                       "(verify/stories/liveness/fair-trylock-timeout-in-loop-leaves-queue-entry.yaml, on 4.6.1, and its "
                       ".holds twin on 4.7.0)"},
      {.issue = "#2037", .title = "a renewal answered 'not held' is rescheduled forever", .locks = "rlock, fair, rwlock",
       .not_modelled = "modelled (renewal_ignores_not_held; verify/unit/client/redisson_versions_test.cpp pins it), but no "
                       "property can see it: the renew script checks ownership, so the extra renewals change no key"},
      {.issue = "#5623", .title = "any unlock resets the stored lease to the watchdog timeout", .locks = "rlock",
       .story = "redisson/5623-partial-unlock-resets-lease.yaml", .property = "watchdog", .runs_as = "spin"},
      {.issue = "#4050", .title = "MultiLock lock() uses one random wait for every retry", .locks = "multi, red",
       .not_modelled = "modelled (fixed_retry_wait; the unit test pins the rounds), but no property can see it: every "
                       "client takes the sub-locks in the same order, so a fixed wait only slows retries"},
      {.issue = "#2099", .title = "FairLock timeouts drift: nobody's score is reduced when a waiter acquires", .locks = "fair",
       .story = "redisson/2099-fair-scores-drift.yaml", .property = "fair_queue"},
      {.issue = "#5503", .title = "a queued FairLock waiter told a negative ttl is pruned and never woken", .locks = "fair",
       .story = "redisson/5503-fair-negative-ttl-never-woken.yaml", .property = "liveness"},
      {.issue = "#2883", .title = "threadWaitTime 5000 prunes live waiters deep in the FairLock queue", .locks = "fair",
       .story = "redisson/2883-fair-deep-waiters-pruned.yaml", .property = "fair_queue"},
  };
}

std::vector<LibraryRow> bugs_not_shown_yet() {
  return {
      // Bugs the model cannot show yet, and why.
      {.issue = "#6651", .title = "the NoSyncedSlaves retry makes a new requestId, so the latch does not deduplicate",
       .locks = "rlock",
       .not_modelled = "the simulated servers answer WAIT, but only Redisson 3.52.0 on (where it is fixed) sends "
                       "it in the model. By the code at the tags it could happen only on 3.24.x and 3.47.0 to 3.51.0 "
                       "(3.25.0 to 3.46.0 never retried: their exception text no longer matched the check), and on "
                       "Redis 7.0 3.48.0 to 3.51.0 send no WAIT at all (their probe strikes WAIT off when WAITAOF is "
                       "unknown); those eras' synced eval is not modelled",
       .versions = "3.24.0 - 3.51.x", .versions_from = {3, 24, 0}, .versions_until = {3, 52, 0}},
      {.issue = "#7272", .title = "an acquire interrupted while its answer is on its way starts a watchdog that renews for ever",
       .locks = "rlock, fair, rwlock, fenced", .story = "redisson/7272-interrupted-acquire-renewed-forever.yaml",
       .property = "liveness", .every_version = true, .open = true, .versions = "open",
       .mitigation = "take the lock with a lease (tryLock(wait, lease, unit)): no watchdog runs, so none is left "
                     "renewing, and the key the interrupted acquire took expires after its lease; or do not interrupt "
                     "a thread that may be waiting in lock()",
       .mitigation_story = "redisson/7272-interrupted-leased-acquire-expires.yaml", .mitigation_property = "liveness",
       .runs_as = "fair, fenced, nonreentrant, nonreentrant-fair", .story_from = client::kInterruptModelledFrom,
       .older = "the interrupt is modelled from 3.17.0; older sync calls met it otherwise (up to 3.11.3 get() waited "
                "on through it, so an interrupted lock() went on waiting)"},
      {.issue = "#1104", .title = "acquireFailed removes a FairLock waiter without compensating the others", .locks = "fair",
       .not_modelled = "before the modelled range (its acquireFailed script is not in scripts/)",
       .versions = "2.7.4/3.2.4 - 2.10.4/3.5.4", .before_range = true},
      {.issue = "#624", .title = "MultiLock sub-locks taken early expire before the last is taken", .locks = "multi, red",
       .not_modelled = "before the modelled range", .versions = "up to 2.3.x", .before_range = true},
      {.issue = "#597", .title = "the watchdog's plain PEXPIRE renews whoever holds the key", .locks = "rlock",
       .not_modelled = "before the modelled range", .versions = "up to 2.3.x", .before_range = true},
  };
}

std::vector<LibraryRow> hazards() {
  return {
      // Hazards of every version: the configuration, not a bug.
      {.issue = "#2665", .title = "a pause longer than the lease: the lock is lost while its holder runs on",
       .locks = "rlock, fair, multi, rwlock", .story = "pause-longer-than-lease-rlock.yaml", .property = "mutual_exclusion",
       .every_version = true,
       .mitigation = "fencing: the protected resource refuses a write whose token is older than one it has accepted, so "
                     "the paused holder's late write is turned away (no lease outlasts every pause)",
       .mitigation_story = "pause-longer-than-lease-token.yaml", .mitigation_property = "fencing",
       .mitigation_as = "fenced=fenced-pause-refused-by-token.yaml",
       .scales_with = "watchdog_ms", .runs_as = "spin, fenced, nonreentrant, nonreentrant-fair"},
      {.issue = "failover", .title = "failover to a replica that lags loses the lock (WAIT, #2669, narrows it)",
       .locks = "rlock, fair, multi, red, rwlock", .story = "failover-replication-lag.yaml", .property = "mutual_exclusion",
       .every_version = true,
       .mitigation = "let a lock count only once a replica has it (WAIT after each lock script, which Redisson "
                     "sends where there are replicas from 3.12.5; from 3.17.0 checkLockSyncedSlaves, on by default, "
                     "fails an acquire no replica acknowledged: keep it on): a replica that has the lock keeps it "
                     "across the failover. Fencing tokens from the same Redis help "
                     "only behind a resource that wants a greater token: the new master hands a token out again, which "
                     "a resource that accepts an equal one takes from both holders (token-failover-shared-token.yaml, "
                     "fenced-failover-equal-token.yaml)",
       .mitigation_story = "failover-replica-caught-up.yaml", .mitigation_property = "mutual_exclusion",
       .runs_as = "spin, fenced, nonreentrant, nonreentrant-fair"},
      // Found by locksim, in every modelled version; no Redisson issue filed that we know of.
      {.issue = "renew-lost", .title = "a restart that loses a thread's re-entrant hold stops the renewal of the client's next thread",
       .locks = "rlock, fair, multi", .story = "renewal-first-thread-lost-in-restart.yaml", .property = "watchdog",
       .every_version = true,
       .mitigation = "persistence that keeps the lock across a restart (appendonly yes, appendfsync everysec or always): "
                     "the first thread's hold survives, so the renewal entry still renews for a live hold",
       .mitigation_story = "renewal-first-thread-restart-aof.yaml", .mitigation_property = "watchdog",
       .runs_as = "spin, fenced"},
      {.issue = "spin-lease", .title = "a spin lock's threads share one lease: a lease-less hold gets another thread's lease and lapses",
       .locks = "spin", .story = "spin-stale-lease-lapses.yaml", .property = "watchdog", .every_version = true,
       .mitigation = "do not mix leased and lease-less acquires on one RSpinLock instance (an instance per use, or the "
                     "same lease on every acquire)",
       .mitigation_story = "spin-one-lease-per-instance.yaml", .mitigation_property = "watchdog"},
      {.issue = "fenced-lease", .title = "RFencedLock.lockAndGetToken(lease, unit) drops its lease: the watchdog holds the lock",
       .locks = "fenced", .story = "fenced-lock-lease-ignored.yaml", .property = "watchdog", .every_version = true,
       .mitigation = "tryLockAndGetToken(wait, lease, unit), which keeps its lease",
       .mitigation_story = "fenced-trylock-keeps-lease.yaml", .mitigation_property = "watchdog"},
      {.issue = "fence-rule", .title = "a resource that accepts an equal token lets two holders through after a failover",
       .locks = "fenced", .story = "fenced-failover-equal-token.yaml", .property = "fencing", .every_version = true,
       .mitigation = "accept only a token greater than the last one accepted (fence_rule: \">\"): the second holder's "
                     "write with an equal token is refused",
       .mitigation_story = "fenced-failover-strict-rule.yaml", .mitigation_property = "fencing"},
  };
}

}  // namespace

const std::vector<LibraryRow>& redisson_library() {
  static const std::vector<LibraryRow> rows = [] {
    std::vector<LibraryRow> all;
    for (auto part : {bugs, bugs_not_shown_yet, hazards})
      for (LibraryRow& row : part()) all.push_back(std::move(row));
    return all;
  }();
  return rows;
}

std::string_view why_not_shown(const LibraryRow& row, client::Version v) {
  if (row.story.empty()) return row.not_modelled;
  return v < row.story_from ? row.older : std::string_view();
}

bool expected_violated(const LibraryRow& row, client::Version v) {
  return row.every_version || client::affects(row.issue, v);
}

namespace {

// "rlock, fair" as {"rlock", "fair"}.
std::vector<std::string> type_list(std::string_view rest) {
  std::vector<std::string> out;
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    std::string_view type = rest.substr(0, comma);
    while (type.starts_with(' ')) type.remove_prefix(1);
    if (!type.empty()) out.emplace_back(type);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  return out;
}

bool contains(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

}  // namespace

bool concerns(const LibraryRow& row, const std::vector<std::string>& locks) {
  if (locks.empty()) return true;
  for (const std::string& type : type_list(row.locks))
    if (contains(locks, type)) return true;
  for (const std::string& type : runs_as(row))
    if (contains(locks, type)) return true;
  return false;
}

std::vector<std::string> runs_as(const LibraryRow& row) { return type_list(row.runs_as); }

std::string locks_text(const LibraryRow& row) {
  std::vector<std::string> all = type_list(row.locks);
  for (const std::string& type : runs_as(row))
    if (!contains(all, type)) all.push_back(type);
  std::string out;
  for (const std::string& type : all) out += (out.empty() ? "" : ", ") + type;
  return out;
}

std::string audited_as(const LibraryRow& row, const std::vector<std::string>& locks, const std::string& file_type) {
  if (locks.empty() || contains(locks, file_type)) return file_type;
  for (const model::LockType& t : model::lock_types()) {
    const std::string type(t.name);
    if (contains(locks, type) && contains(runs_as(row), type)) return type;
  }
  return file_type;
}

std::vector<client::VersionRange> ranges_of(const LibraryRow& row) {
  if (row.every_version || !row.versions.empty()) return {};
  return client::affected_by(row.issue);
}

std::string mitigation_story_for(const LibraryRow& row, const std::string& lock_type) {
  for (const std::string& pair : type_list(row.mitigation_as))
    if (const size_t eq = pair.find('='); eq != std::string::npos && pair.substr(0, eq) == lock_type) return pair.substr(eq + 1);
  return std::string(row.mitigation_story);
}

bool begins_after(const LibraryRow& row, client::Version v) {
  if (row.every_version) return false;
  const std::vector<client::VersionRange> ranges = ranges_of(row);
  return !ranges.empty() && std::all_of(ranges.begin(), ranges.end(), [&](const client::VersionRange& r) { return v < r.from; });
}

std::string affected_text(const LibraryRow& row) {
  if (!row.versions.empty()) return std::string(row.versions);
  if (row.every_version) return "every version";
  std::string out;
  for (const client::VersionRange& r : client::affected_by(row.issue)) out += (out.empty() ? "" : "; ") + r.str();
  return out.empty() ? "outside " + client::modelled_range() : out;
}

std::vector<std::string> audited_lock_types() {
  std::vector<std::string> out;
  for (const model::LockType& t : model::lock_types()) {
    if (!t.redisson) continue;
    const std::vector<std::string> one{std::string(t.name)};
    if (std::any_of(redisson_library().begin(), redisson_library().end(),
                    [&](const LibraryRow& row) { return concerns(row, one); }))
      out.push_back(one.front());
  }
  return out;
}

}  // namespace locksim::scenario

#pragma once
// Redisson versions as one knob: the table of every lock behaviour that changed across Redisson
// releases (redisson-versions.md), each as steps "from version V on, it behaves so". Applying a
// version sets every versioned option of every lock type; an option given explicitly afterwards
// still overrides it. A step that introduced a bug names its issue, so the versions a bug affects
// are read from this one table (the audit's rows and docs' version matrix use it).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "client/lock_spec.hpp"

namespace locksim::client {

struct Version {
  int major = 0, minor = 0, patch = 0;
  auto operator<=>(const Version&) const = default;
  std::string str() const;
};

// "3.27.1" -> the version; nullopt unless it is three non-negative integers joined by dots.
std::optional<Version> parse_version(std::string_view text);

// The range the model follows (older versions changed the scripts' layout: docs/redisson-versions.md).
Version oldest_modelled();
// The first version whose sync calls meet Thread.interrupt() as the interrupt fault acts it out
// (docs/scenario-format.md): CommandAsyncService.get() on a CompletableFuture that it cancels, and
// lock()'s waiting loop of lock(leaseTime, unit, interruptibly). Up to 3.11.3 get() waited on
// through an interrupt; from 3.11.4 to 3.16.x it threw without cancelling, and lock() and tryLock()
// subscribed otherwise.
inline constexpr Version kInterruptModelledFrom{3, 17, 0};
// Why a lock spec of `version` ("" for none: the default's) cannot be interrupted, "" when it can.
std::string interrupt_problem(const std::string& version);
Version newest_modelled();
// What a scenario or an exploration runs when it names no version: the newest modelled.
Version default_version();
// "3.5.5 to 4.7.0", for messages.
std::string modelled_range();

// One step of a behaviour: from `since` on (until the behaviour's next step) `apply` sets it.
// `issue` names the Redisson issue or pull request; `bug` marks a step whose behaviour was a bug.
// `option` is the lock option (a scenario's lock: keys, `--set`) that gives any version this step's
// behaviour alone, where one does: the audit offers a fix's option as a way out short of the upgrade.
struct VersionStep {
  Version since;
  std::string_view behaves;  // what the lock does from this version on, in a few words
  std::string_view issue;    // "#4871", several separated by spaces, or empty
  bool bug = false;
  void (*apply)(LockSpec&) = nullptr;
  std::string_view option{};  // "unlock_latch=true", several joined by commas; empty: no option selects it
};

struct VersionedBehaviour {
  std::string_view name;   // "unlock latch"
  std::string_view locks;  // which lock types it concerns: "rlock, fair, multi, red"
  std::vector<VersionStep> steps;  // ascending; the first is at oldest_modelled()
};

// The table: every behaviour whose step applies to some modelled version.
const std::vector<VersionedBehaviour>& versioned_behaviours();

// The step of `behaviour` that version `v` runs.
const VersionStep& step_at(const VersionedBehaviour& behaviour, Version v);

// A version's lock: `spec` with every versioned option set as Redisson `v` has it (type and name
// kept). Throws std::invalid_argument for a version outside modelled_range(), or one that has no
// lock of spec.type (has_lock_type).
void apply_redisson_version(Version v, LockSpec& spec);
LockSpec redisson_spec(Version v, const std::string& type = "rlock", const std::string& name = "lock");
// Whether Redisson `v` has the lock type `type` (model/lock_types.hpp's `since`); true for a type the
// table does not know, which the lock factory refuses.
bool has_lock_type(Version v, std::string_view type);

// What Redisson `v` does with replicas that no behaviour of the table models (the simulated servers
// have no WAIT), in words; "" before 3.12.5. A run that fails over shows a client that does not wait.
std::string_view replica_wait_not_modelled(Version v);

// Parses and checks `text` as a modelled version; the message names the modelled range.
Version modelled_version(const std::string& text);

// The versions a bug's steps (by issue) cover, as half-open ranges [from, until); until is nullopt
// where no modelled version fixes it. Empty when no step names the issue as a bug.
struct VersionRange {
  Version from;
  std::optional<Version> until;
  std::string str() const;  // "3.11.1 - 3.31.x", "3.13.3+"
};
std::vector<VersionRange> affected_by(std::string_view issue);
// Whether `step` names `issue` among its issues.
bool names_issue(const VersionStep& step, std::string_view issue);
bool affects(std::string_view issue, Version v);
// The option of the step that ends the issue's last range (the fix, as an option), or "" when that
// step has none or nothing fixes it.
std::string_view fixing_option(std::string_view issue);
// The option keys of every behaviour that names `issue` ("watchdog_on_error" for #3194): setting
// one of them changes whether the bug is there at all, not how a story about it is timed.
std::vector<std::string> behaviour_keys(std::string_view issue);

}  // namespace locksim::client

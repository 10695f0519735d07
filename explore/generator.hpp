#pragma once
// Random scenarios for exploration: RapidCheck generators of a world (latency, loss), 1..N clients,
// a workload per client (sessions of lock / try_lock with a wait and a lease, a re-entrant
// re-acquire, writes, work, unlocks) and a fault plan of the kinds the caller allows, all bounded so
// that one history stays small.
//
// What is generated is a Plan (plain data whose every part shrinks: RapidCheck's containers drop
// clients, sessions and faults; integers shrink towards their smallest value, so durations and times
// get shorter; flags shrink towards "no", so a session loses its re-entry or unlock) and turned into
// a Scenario by to_scenario, a pure function. Shrinking a Plan therefore gives smaller scenarios that
// still run.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "scenario/loader.hpp"
#include "scenario/scenario.hpp"

namespace locksim::explore {

// The fault kinds `--faults all` draws, in the scenario format's words: every kind but the opt-in ones
// (error_reply, reset), which a configuration names (world::FaultInfo::drawn_by_all).
const std::vector<std::string>& all_fault_kinds();

// What an `--against` configuration changes: lock options (later ones win) and scripts.
struct Variation {
  std::vector<scenario::LockOption> lock_options;
  std::vector<std::pair<std::string, std::string>> script_files;  // name -> path; path "stock": scripts/'s own
  bool operator==(const Variation&) const = default;
};

struct ExploreConfig {
  std::string lock_type = "rlock";  // a name of model/lock_types.hpp
  std::string lock_name = "orders";
  int clients_max = 5;              // 1..clients_max clients
  int threads_max = 1;              // each client's sessions run on 1..threads_max threads
  int ops_max = 20;                 // operations per client at most (sessions are cut there)
  int faults_max = 6;               // faults in one plan at most
  std::vector<std::string> faults;  // the kinds allowed (names of world::fault_kinds()); empty: none
  std::vector<std::string> properties = {"mutual_exclusion"};  // checked, each expected to hold
  int64_t horizon_ms = 60000;       // sessions and faults start within [0, horizon)
  int64_t work_ms_max = 45000;      // a session's work lasts 0..work_ms_max
  int64_t wait_ms_max = 20000;      // a tryLock waits 0..wait_ms_max (0: every tryLock is tryLock(0))
  bool leases = true;               // acquires may name a lease; false: every acquire is lease-less
  bool try_locks = true;            // acquires may be tryLock(wait); false: every acquire is lock()
  // A re-entered session may re-enter up to three times more, unlock all but once, work on holding,
  // and unlock last (#5623's shape: partial unlocks that touch the lease); off, no configuration's
  // cases change.
  bool partial_unlocks = false;
  int64_t world_loss_max = 0;       // world-wide message loss per thousand, drawn in [0, max]
  // Messages on a link may overtake one another (a scenario's world: reorder), in every case: a
  // reply and a pub/sub message racing (#5761).
  bool reorder = false;
  // Options of the lock in the scenario format's words (`lock:` keys, docs/scenario-format.md),
  // applied to every case: Redisson's defaults where none is given.
  std::vector<scenario::LockOption> lock_options;
  // A user's own Lua files in place of scripts of scripts/ (name -> path), as replace_scripts.
  std::vector<std::pair<std::string, std::string>> script_files;
  // Differential exploration: every case also runs under this variation of the configuration.
  std::optional<Variation> against;
  // The exploration's one reading of the script files, shared by its runs
  // (client/script_text_cache.hpp); null: each run reads them.
  std::shared_ptr<client::ScriptTexts> script_texts;
};

// The configuration `against` describes: `config` with the variation's options and scripts.
ExploreConfig varied(const ExploreConfig& config, const Variation& variation);

// The variation as --against writes it: "KEY=VALUE,...,script:NAME=FILE".
std::string variation_text(const Variation& variation);

// "KEY=VALUE,KEY=VALUE" (lock options) and "script:NAME=FILE|stock" items, as --against and --set
// take them. Throws std::invalid_argument saying what was expected.
Variation parse_variation(const std::string& text, const std::string& where);

struct SessionPlan {
  int64_t at_ms = 0;
  bool try_lock = false;
  int64_t wait_ms = 0;     // try_lock
  bool leased = false;     // with a lease (when the config allows leases)
  int64_t lease_ms = 100;
  bool reentrant = false;  // acquires a second time (and unlocks twice)
  int64_t work_ms = 0;
  int writes = 0;          // 0..2: before and after the work
  bool unlock = false;
  bool stray_unlock = false;  // an unlock before acquiring (not holding: must fail)
  bool write_side = false;    // rwlock: the session takes the write side (else the read side)
  int thread = 0;             // 0-based, below the config's threads_max
  // MultiLock and RedLock only (drawn last, so no other lock's cases change): a try_lock is
  // tryLock(-1, lease), Redisson's "no wait" (#2172); a lease is given in whole seconds (#5484).
  bool wait_minus_one = false;
  bool lease_in_seconds = false;
  // With --reorder and delay faults only (drawn last, so no other configuration's cases change): the
  // session starts `race_lead_ms` before another client's first release is due and its link is
  // slowed by `race_extra_ms` for 1..4 ms, from five one-way latencies after its start (each the
  // world's least plus `race_jitter_permille` of its span), so a refused attempt's reply can come
  // after the release's message (#5761's race). Five hops in (attempt, subscribe, the second
  // attempt's request) is where a lock() waiter's second attempt is answered; a window drawn in ms
  // from the start met it on one link in a hundred, and a slow link never.
  bool races_release = false;
  int64_t race_lead_ms = 5;
  int64_t race_jitter_permille = 500;
  int64_t race_for_ms = 1;
  int64_t race_extra_ms = 50;
  // With partial_unlocks only (drawn last): a re-entered session re-enters `deeper` times more
  // (#5623 needs two partial unlocks: the first resets the stored lease, the second PEXPIREs to
  // it), unlocks all but once after its work, works `partial_work_ms` more, then unlocks last when
  // the session unlocks (else it keeps the last hold).
  bool partial = false;
  int64_t partial_work_ms = 0;
  int deeper = 0;
  bool operator==(const SessionPlan&) const = default;
};

struct ClientPlan {
  std::vector<SessionPlan> sessions;
  int64_t clock_offset_ms = 0;
  bool operator==(const ClientPlan&) const = default;
};

struct FaultPlan {
  int kind = 0;  // index into the config's fault kinds
  int client = 0;
  int64_t at_ms = 0;
  int64_t for_ms = 100;
  int64_t extra_ms = 1;
  int64_t per_thousand = 1000;
  int64_t jump_ms = 1;
  bool backward = false;
  int64_t lag_ms = 0;
  bool aof = false;
  // interrupt: which thread, 0-based below threads_max (drawn last, and only where interrupts are
  // drawn, so that no other configuration's cases change)
  int thread = 0;
  bool operator==(const FaultPlan&) const = default;
};

struct Plan {
  uint64_t world_seed = 1;
  int64_t latency_min_ms = 1;
  int64_t latency_span_ms = 2;
  int64_t loss_per_thousand = 0;
  std::vector<ClientPlan> clients;
  std::vector<FaultPlan> faults;
  // Never drawn: every acquire's lease outlasts the run (a day). The hazard experiment sets it to
  // take away a lock's TTL where there is no watchdog to take its place (hazards.hpp).
  bool endless_leases = false;
  bool operator==(const Plan&) const = default;
};

// The kind of a planned fault among the config's (nullptr when the config allows none).
const world::FaultInfo* fault_of(const FaultPlan& fault, const ExploreConfig& config);

// Whether the world of `plan` leaves nothing to chance: one latency for every message, no loss but
// total loss. Two configurations then see the same network whatever each sends, so a verdict that
// differs between them is the configurations' doing (with chance, one extra message shifts every
// later draw and verdicts differ either way).
bool leaves_nothing_to_chance(const Plan& plan, const ExploreConfig& config);
// `plan` with chance taken out: the shortest latency for every message, no loss, a loss fault
// losing every message.
Plan without_chance(const Plan& plan, const ExploreConfig& config);

// Throws std::invalid_argument for a config that cannot generate (unknown lock type, fault kind or
// property, bounds out of range).
void validate(const ExploreConfig& config);

// Validates `config` (throwing as validate() does) before it generates.
rc::Gen<Plan> plan_gen(const ExploreConfig& config);

// The scenario a plan describes: clients A, B, ..., the timeline sorted by time (steps at one time in
// client order, faults after operations), run_ms a minute past the last thing asked for, and every
// configured property expected to hold.
scenario::Scenario to_scenario(const Plan& plan, const ExploreConfig& config);

rc::Gen<scenario::Scenario> scenario_gen(const ExploreConfig& config);

// The plan of one seed (RapidCheck's Random seeded with it, at full size). `config` has passed
// validate(): checking it builds locks and reads scripts, which would cost more than the case.
Plan generate_plan(const ExploreConfig& config, uint64_t seed);

// The generated case for one seed (RapidCheck's Random seeded with it, at full size): the same seed
// and config give the same scenario and the same shrinks.
rc::Shrinkable<scenario::Scenario> generate_case(const ExploreConfig& config, uint64_t seed);

}  // namespace locksim::explore

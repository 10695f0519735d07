#pragma once
// Scenario: one situation from a scenario file (docs/scenario-format.md): a world, a lock, clients,
// a timeline of operations and faults at exact virtual times, and what the run should show.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "client/redisson_version.hpp"
#include "model/checkers.hpp"
#include "world/choice_scheduler.hpp"
#include "world/time_limits.hpp"
#include "world/world.hpp"

namespace locksim::scenario {

struct ClientDecl {
  std::string name;
  int64_t clock_offset_ms = 0;
  int64_t drift_ppm = 0;
};

struct TimelineEntry {
  int64_t at_ms = 0;
  int line = 0;           // 1-based line in the file, for messages
  int server_column = 1;  // where `server:` is on that line, for messages
  // Exactly one of op / fault is set.
  std::optional<world::OpSpec> op{};
  std::string client{};   // the op's client
  int64_t thread = 1;     // and thread
  std::optional<world::Fault> fault{};
};

// Pins the outcome of one operation: the nth (1-based) `op` of `client`'s `thread`.
struct OpExpectation {
  std::string client;
  int64_t thread = 1;
  std::string op;  // lock, try_lock, unlock, force_unlock, work, write
  int nth = 1;
  std::string result;  // ok, fail, unknown
  std::optional<int64_t> value;  // and, when given, the Ok's value (is_locked / is_held: 1 or 0)
  int line = 0;
};

// What the scenario says about running on a live Redis (locksim run --backend live).
struct LiveNotes {
  // Properties whose verdict may differ on a live server for a real reason, and that reason.
  std::vector<std::string> differs;
  std::string why;
  bool time_scale = true;  // false: --time-scale would change what the scenario shows
  int line = 0;
};

struct Scenario {
  std::string file;
  std::string name;
  std::string about;
  uint64_t seed = 1;
  world::WorldOptions world;
  client::LockSpec lock = client::redisson_spec(client::default_version());  // lock.redisson: another
  int64_t default_lease_ms = -1;  // lock.lease_ms: used by acquires that name no lease
  std::vector<std::pair<std::string, std::string>> script_files;  // role -> user's Lua file
  std::vector<ClientDecl> clients;
  std::vector<TimelineEntry> timeline;
  int64_t run_ms = 0;
  // Whether the file gave run_ms: a live run then lasts that long; one whose run_ms is the default
  // ends as soon as the world has settled (scenario/runner.hpp).
  bool run_ms_given = false;
  std::vector<std::pair<std::string, std::string>> expect;  // property -> holds | violated, in file order
  std::vector<OpExpectation> expect_ops;
  model::CheckerOptions checker_options;
  LiveNotes live;
  // `bounded:`: the bounds `locksim check --exhaustive` searches within (docs/exhaustive.md), and
  // with `choices`, the one schedule of them that `locksim run` replays (a counterexample's).
  std::optional<world::ScheduleBounds> bounded;
  std::vector<uint32_t> choices;
  // What each non-default choice of `choices` was, in words, as the search that wrote it saw it. A
  // replay whose deviations come out otherwise (the choice points of this locksim differ from the
  // writer's) is an error, never a run of some other schedule. Absent: not checked.
  std::optional<std::vector<std::string>> deviations;
};

// The bounds on what a file writes (world/time_limits.hpp says why).
using world::kDurationMsMax;
using world::kRunMsMax;

// A minute past the last thing the timeline asks for: a thread's steps run one after another, so
// its work and waits add up; a lasting fault ends after its for_ms. What run_ms is when not given.
// Saturates rather than overflows (a loaded scenario's times are bounded; a built one's may not be).
int64_t default_run_ms(const std::vector<TimelineEntry>& timeline);

}  // namespace locksim::scenario

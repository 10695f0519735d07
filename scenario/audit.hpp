#pragma once
// `locksim audit`, the part that runs: every story of the Redisson library
// (scenario/redisson_library.hpp) as one version with the user's options, what each comes to, and the
// advice that follows: the version to upgrade to, the options that take a bug away short of it (each
// tried on the stories), and for what no version avoids, the mitigation and the scenario that shows
// it working. report/audit_report.* writes it for people; the data here says nothing in prose.
//
// Options change a story, not what its verdict means. The options that switch the bug's own
// behaviour (client::behaviour_keys: watchdog_on_error for #3194) may take it away or bring it back,
// and the story then says so. Every other option is configuration the story must still be able to
// show the bug under: a story written against the watchdog's lease has its times scaled with
// `watchdog_ms` (LibraryRow::scales_with), and before the options count, the story so adapted must
// still be violated on a version the table says has the bug and hold on the one that fixed it. When
// it is not, the options are refused for that story (it runs without them) and the reason is kept.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "client/redisson_version.hpp"
#include "scenario/loader.hpp"
#include "scenario/redisson_library.hpp"
#include "scenario/runner.hpp"

namespace locksim::scenario {

struct AuditRequest {
  client::Version version;
  std::vector<std::string> locks;    // the lock types in use; empty: every type
  std::vector<LockOption> options;   // the configuration in use (--set), on every story it applies to
  std::string library;               // the scenarios folder the stories are read from
};

// What a story came to on the audited version, against what the version table says of it.
enum class Reading : uint8_t {
  Affected,             // violated, and the table says the version has the bug
  Hazard,               // violated, and no version avoids it
  Fixed,                // holds, and the table says the bug was fixed by this version
  NotYet,               // holds, and the table says the bug begins in a later version
  ViolatedWhereFixed,   // violated, where the table says fixed (the options in use bring it back)
  HoldsWhereAffected,   // holds, where the table says affected (the options in use take it away)
  HazardHolds,          // a hazard's story holds: not shown
  Unknown,              // the run could not judge (an error, an unknown verdict)
};

struct StoryRun {
  const LibraryRow* row = nullptr;
  std::string file;          // the library's story file
  std::string file_lock_type;  // the lock type its file names
  std::string lock_type;       // the lock type it ran as: the file's, or one of the row's runs_as
  Scenario scenario;         // the story as it ran: version, options, scaled times, the row's property
  ScenarioResult result;
  double seconds = 0;        // wall clock
  bool table_affected = false;           // the version table's word for this version (a hazard: true)
  bool begins_later = false;             // the table's bug begins after this version
  std::vector<LockOption> applied;       // the user's options it ran with
  std::vector<LockOption> not_for_lock;  // the user's options its lock type does not take
  std::vector<LockOption> refused;       // options it takes but ran without, because of `refusal`
  std::string refusal;                   // why: the adapted story no longer told the versions apart
  double scaled = 1;                     // its times were multiplied by this (scales_with)

  model::Validity verdict() const;
  Reading reading() const;
  // Whether the verdict is what the version table says (the self-check).
  bool agrees() const;
};

// A fix's option tried on every bug story of the audit.
struct OptionFix {
  std::string option;                      // "unlock_latch=true"
  std::vector<const LibraryRow*> removes;  // violated as audited, holds with the option
  std::vector<const LibraryRow*> brings;   // holds as audited, violated with the option
};

// The first version from the audited one on that none of the version table's bugs of the audited
// lock types affects.
struct UpgradeAdvice {
  std::optional<client::Version> to;     // nullopt: the audited version is already such a version
  std::vector<const LibraryRow*> fixes;  // the rows with a story it fixes
  std::vector<const LibraryRow*> also;   // modelled rows without a story it fixes too
};
UpgradeAdvice upgrade_advice(client::Version version, const std::vector<std::string>& locks);

// A mitigation's story (LibraryRow::mitigation_story), run as the audited version where its lock is
// one of Redisson's, judged by the property the mitigation keeps.
struct MitigationRun {
  const LibraryRow* row = nullptr;
  std::string file;
  Scenario scenario;  // as it ran
  ScenarioResult result;
  double seconds = 0;
  bool shown() const;  // the property held
};

struct Audit {
  AuditRequest request;
  std::vector<StoryRun> stories;        // in the library's order
  std::vector<MitigationRun> mitigations;
  UpgradeAdvice upgrade;
  std::vector<OptionFix> option_fixes;  // the fixes' options that take away at least one bug, tried
  std::vector<const LibraryRow*> unshown;  // the rows in use without a story
  // The rows whose story's lock type the audited version does not have (a lock that came later).
  std::vector<const LibraryRow*> absent;
};

// Runs the audit. `progress` is told each story before it runs. Throws std::invalid_argument for an
// option none of the audited lock types takes (the loader's words), ScenarioError for a story that
// does not load.
Audit audit_version(const AuditRequest& request,
                    const std::function<void(size_t done, size_t total, std::string_view issue)>& progress = {});

// One row's story as version `v` with `options`, nothing adapted, its lock as `as_type` (one of the
// row's runs_as; "" the file's): the matrix and the tests.
StoryRun run_story(const LibraryRow& row, client::Version v, const std::string& library,
                   const std::vector<LockOption>& options = {}, const std::string& as_type = "");

// The versions where a modelled behaviour changes, and the newest modelled: the matrix's columns
// and the versions an upgrade can go to.
std::vector<client::Version> behaviour_versions();

// What the story's run leaves out of its version, in words ("" nothing): a story that fails over
// runs without the WAIT that Redisson sends where there are replicas (client::replica_wait_not_modelled),
// so its verdict is that of a client that does not wait (checkLockSyncedSlaves = false, no replica).
std::string left_out(const StoryRun& run);

// "4871" for #4871, "failover": the name of a row's story in an audit, and its report folder.
std::string story_name(const LibraryRow& row);

}  // namespace locksim::scenario

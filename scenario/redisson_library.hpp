#pragma once
// The Redisson library: one story per row of redisson-versions.md's "behaviours that were bugs" and
// "hazards in every version", each a scenario file under scenarios/ that a property judges. Which
// versions a bug affects is not written here: it is read from the version table by the row's issue
// (client/redisson_version.hpp), so the story is expected violated exactly there. A hazard is
// expected violated on every version. A row the model cannot show says why instead of a story.
#include <string>
#include <string_view>
#include <vector>

#include "client/redisson_version.hpp"

namespace locksim::scenario {

struct LibraryRow {
  std::string_view issue{};     // "#4871" (the version table's bug steps); a hazard's or an unfixed bug's too
  std::string_view title{};     // what goes wrong, in a few words
  std::string_view locks{};     // the lock types it concerns
  std::string_view story{};     // the scenario file, relative to the scenarios folder; "" when not modelled
  std::string_view property{};  // the property the story is judged by
  bool every_version = false; // a hazard (or an unfixed bug): violated whatever the version
  bool open = false;          // ... an unfixed bug, not a hazard: no version avoids it yet
  std::string_view not_modelled{};  // why there is no story
  std::string_view versions{};      // a row outside the version table: the versions it concerns
  // ... and, where they are a range the audit can weigh, that range: [from, until), until {} open.
  client::Version versions_from{}, versions_until{};
  bool before_range = false;        // ... all of them older than the modelled range
  // What keeps the harm away where no version does (a hazard, a bug still open), and a scenario of
  // the library that shows it working: the property that holds there thanks to it ("" none).
  std::string_view mitigation{};
  std::string_view mitigation_story{};
  std::string_view mitigation_property{};
  // A mitigation story of the lock type the row's story is audited as, where that type has its own
  // ("fenced=fenced-pause-refused-by-token.yaml"; several joined by commas); else mitigation_story.
  std::string_view mitigation_as{};
  // The lock option the story's times are proportional to ("watchdog_ms": a pause, a fault, a wait
  // set against the watchdog's lease); `--set` of it scales the story's times with it.
  std::string_view scales_with{};
  // The lock types besides its file's whose clients share the code the story shows (some may be in
  // `locks` too): the story runs as each of them unchanged but for its lock's type (an audit of one
  // runs it so; the library's tests check it on every version that has the type).
  std::string_view runs_as{};
  // The first version the story can run on, where what it acts out is modelled from a version on
  // (an interrupt: client::kInterruptModelledFrom); older versions list the row as not shown, with
  // `older` for why.
  client::Version story_from{};
  std::string_view older{};
};

const std::vector<LibraryRow>& redisson_library();

// Why the row is not shown by a story on `v` ("" when it is).
std::string_view why_not_shown(const LibraryRow& row, client::Version v);
// Whether the row's story is expected violated on `v`.
bool expected_violated(const LibraryRow& row, client::Version v);
// "up to 3.23.x", "3.11.1 - 3.31.x; 3.44.0+", or "every version".
std::string affected_text(const LibraryRow& row);
// Whether the row concerns one of `locks` (every row when it is empty).
bool concerns(const LibraryRow& row, const std::vector<std::string>& locks);
// The mitigation story an audit run as `lock_type` shows: the row's mitigation_as for that type, or
// its mitigation_story.
std::string mitigation_story_for(const LibraryRow& row, const std::string& lock_type);
// The row's `runs_as` as a list.
std::vector<std::string> runs_as(const LibraryRow& row);
// Every lock type the row concerns, its `locks` then the rest of its `runs_as`: "rlock, spin, fenced".
std::string locks_text(const LibraryRow& row);
// The lock type an audit of `locks` runs the row's story as: the file's own (`file_type`) when `locks`
// is empty or names it, else the first of `locks` in the row's `runs_as`, else the file's.
std::string audited_as(const LibraryRow& row, const std::vector<std::string>& locks, const std::string& file_type);
// The Redisson lock types some row concerns, in the lock-type table's order: the ones an audit can
// speak for.
std::vector<std::string> audited_lock_types();
// The version table's ranges of the row's bug (empty for a hazard and a row outside the table).
std::vector<client::VersionRange> ranges_of(const LibraryRow& row);
// Whether the row's bug begins after `v`: every version it affects is newer (false for a hazard,
// or a row with no modelled range).
bool begins_after(const LibraryRow& row, client::Version v);

}  // namespace locksim::scenario

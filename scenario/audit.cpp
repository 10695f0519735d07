#include "scenario/audit.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <set>
#include <sstream>
#include <stdexcept>

#include "model/lock_types.hpp"
#include "scenario/time_scale.hpp"

namespace locksim::scenario {

using client::Version;

namespace {

bool is_redisson(const std::string& type) {
  const model::LockType* t = model::find_lock_type(type);
  return t && t->redisson;
}

// The value of the option a story's times are proportional to, as the scenario has it.
int64_t timed_value(const Scenario& s, std::string_view key) {
  if (key == "watchdog_ms") return s.lock.redisson.watchdog_timeout_ms;
  throw std::logic_error("the audit cannot scale a story with '" + std::string(key) + "'");
}

// "k=v,k=v" (a version step's option) as options.
std::vector<LockOption> parse_options(std::string_view text) {
  std::vector<LockOption> out;
  while (!text.empty()) {
    const size_t comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    const size_t eq = item.find('=');
    out.push_back({std::string(item.substr(0, eq)), eq == std::string_view::npos ? "" : std::string(item.substr(eq + 1))});
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
  }
  return out;
}

// The row's story as version `v` with `options`; its times scaled when the options set the one the
// story is timed by. Judged by the row's property alone, expected as the version table says (the
// file's own expectations are the default version's).
Scenario story_as(const LibraryRow& row, const std::string& path, const std::string& type, Version v,
                  const std::vector<LockOption>& options, bool table_affected, double* factor) {
  Scenario s = load_scenario(path, v.str(), type);
  double f = 1;
  if (!options.empty()) {
    const int64_t own = row.scales_with.empty() ? 0 : timed_value(s, row.scales_with);
    apply_lock_options(options, "--set", s);
    if (own > 0) f = static_cast<double>(timed_value(s, row.scales_with)) / static_cast<double>(own);
  }
  if (f != 1) s = scale_story_times(s, f);
  if (factor) *factor = f;
  s.name = std::filesystem::path(path).stem().string();
  s.expect = {{std::string(row.property), table_affected ? "violated" : "holds"}};
  s.expect_ops.clear();
  return s;
}

ScenarioResult timed_run(const Scenario& s, double& seconds) {
  const auto started = std::chrono::steady_clock::now();
  ScenarioResult result = run_scenario(s);
  seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return result;
}

model::Validity verdict_of(const ScenarioResult& result, std::string_view property) {
  if (result.error) return model::Validity::Unknown;
  for (const auto& p : result.properties)
    if (p.property == property) return p.verdict.valid;
  return model::Validity::Unknown;
}

// Whether an option can be set on a lock of `type` as Redisson `v` runs it (the loader's checks).
std::optional<std::string> refusal_for(const LockOption& option, const std::string& type, Version v) {
  Scenario trial;
  trial.lock = client::redisson_spec(v, type, "lock");
  try {
    apply_lock_options({option}, "--set", trial);
  } catch (const std::invalid_argument& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

// The version that ends the range of `row` holding `v`, if any.
std::optional<Version> fix_after(const LibraryRow& row, Version v) {
  for (const client::VersionRange& r : ranges_of(row))
    if (r.from <= v && (!r.until || v < *r.until)) return r.until;
  return std::nullopt;
}

// The first Redisson version that has locks of `type`.
Version first_with(const std::string& type) {
  const model::LockType* t = model::find_lock_type(type);
  return t && !t->since.empty() ? client::parse_version(t->since).value() : client::oldest_modelled();
}

// Whether the story, adapted to the timing options, still tells a version with the bug from one
// without it; "" when it does, else why not.
std::string probe(const LibraryRow& row, const std::string& path, const std::string& type, Version v,
                  bool table_affected, const std::vector<LockOption>& timing) {
  const std::vector<client::VersionRange> ranges = ranges_of(row);
  // The first version with the bug that also has the lock type (a type may come after a bug began).
  Version with_bug = v;
  if (!table_affected)
    for (const client::VersionRange& r : ranges) {
      const Version first = std::max(r.from, first_with(type));
      if (!r.until || first < *r.until) {
        with_bug = first;
        break;
      }
    }
  std::optional<Version> without_bug;
  if (!row.every_version) without_bug = table_affected ? fix_after(row, v) : std::optional<Version>(v);
  double f = 1, seconds = 0;
  const std::string label = row.issue.starts_with('#') ? std::string(row.issue) : "the hazard";
  auto story = [&] {
    std::ostringstream out;
    out << "its story";
    if (f != 1) out << ", its times scaled x" << std::setprecision(3) << f << ",";
    return out.str();
  };
  const Scenario bad = story_as(row, path, type, with_bug, timing, true, &f);
  if (verdict_of(timed_run(bad, seconds), row.property) != model::Validity::No)
    return "with it " + story() + " no longer shows " + label + " on " + with_bug.str() + ", which has it";
  if (without_bug) {
    const Scenario good = story_as(row, path, type, *without_bug, timing, false, &f);
    if (verdict_of(timed_run(good, seconds), row.property) != model::Validity::Yes)
      return "with it " + story() + " no longer holds on " + without_bug->str() + ", which has " + label + " fixed";
  }
  return {};
}

}  // namespace

model::Validity StoryRun::verdict() const { return verdict_of(result, row->property); }

bool MitigationRun::shown() const { return verdict_of(result, row->mitigation_property) == model::Validity::Yes; }

Reading StoryRun::reading() const {
  const model::Validity v = verdict();
  if (v == model::Validity::Unknown) return Reading::Unknown;
  const bool violated = v == model::Validity::No;
  if (row->every_version) return violated ? Reading::Hazard : Reading::HazardHolds;
  if (violated) return table_affected ? Reading::Affected : Reading::ViolatedWhereFixed;
  if (table_affected) return Reading::HoldsWhereAffected;
  return begins_later ? Reading::NotYet : Reading::Fixed;
}

bool StoryRun::agrees() const {
  const model::Validity v = verdict();
  return v != model::Validity::Unknown && (v == model::Validity::No) == table_affected;
}

std::vector<Version> behaviour_versions() {
  std::set<Version> versions;
  for (const auto& b : client::versioned_behaviours())
    for (const auto& step : b.steps) versions.insert(step.since);
  versions.insert(client::newest_modelled());
  return {versions.begin(), versions.end()};
}

std::string story_name(const LibraryRow& row) {
  return std::string(row.issue.starts_with('#') ? row.issue.substr(1) : row.issue);
}

std::string left_out(const StoryRun& run) {
  const std::vector<world::Fault> faults = faults_of(run.scenario);
  if (std::none_of(faults.begin(), faults.end(), [](const world::Fault& f) { return f.kind == world::FaultKind::Failover; }))
    return "";
  const std::optional<Version> v = client::parse_version(run.scenario.lock.redisson_version);
  const std::string_view waits = v ? client::replica_wait_not_modelled(*v) : std::string_view();
  if (waits.empty()) return "";
  return "its story fails over to a replica, and " + std::string(waits) +
         ": locksim does not model WAIT, so the verdict is that of a client that does not wait";
}

UpgradeAdvice upgrade_advice(Version v, const std::vector<std::string>& locks) {
  // The table's bugs of these lock types that some version fixes; one that no modelled version
  // fixes is no reason to move.
  std::vector<const LibraryRow*> bugs;
  for (const LibraryRow& row : redisson_library()) {
    const std::vector<client::VersionRange> ranges = ranges_of(row);
    if (concerns(row, locks) && !ranges.empty() && ranges.back().until) bugs.push_back(&row);
  }
  auto clean = [&](Version c) {
    return std::none_of(bugs.begin(), bugs.end(), [&](const LibraryRow* row) { return client::affects(row->issue, c); });
  };
  UpgradeAdvice advice;
  if (clean(v)) return advice;
  for (const Version c : behaviour_versions()) {
    if (c <= v || !clean(c)) continue;
    advice.to = c;
    for (const LibraryRow* row : bugs)
      if (client::affects(row->issue, v)) (row->story.empty() ? advice.also : advice.fixes).push_back(row);
    break;
  }
  return advice;
}

StoryRun run_story(const LibraryRow& row, Version v, const std::string& library, const std::vector<LockOption>& options,
                   const std::string& as_type) {
  StoryRun run;
  run.row = &row;
  run.file = library + "/" + std::string(row.story);
  run.table_affected = expected_violated(row, v);
  run.begins_later = begins_after(row, v);
  run.applied = options;
  run.file_lock_type = load_scenario(run.file).lock.type;
  run.scenario = story_as(row, run.file, as_type, v, {}, run.table_affected, nullptr);
  run.lock_type = run.scenario.lock.type;
  if (!options.empty()) apply_lock_options(options, "--set", run.scenario);
  run.result = timed_run(run.scenario, run.seconds);
  return run;
}

namespace {

// A row's story as the audit runs it, not yet run: its lock type, the user's options sorted into
// the bug's own switches (applied as given) and timing (applied when the adapted story still tells
// the versions apart), its times scaled. `takes[i]`: the lock types request.options[i] applies to.
StoryRun prepared_story(const LibraryRow& row, const std::string& file_lock_type, const AuditRequest& request,
                        const std::vector<std::set<std::string>>& takes) {
  const Version v = request.version;
  StoryRun run;
  run.row = &row;
  run.file = request.library + "/" + std::string(row.story);
  run.table_affected = expected_violated(row, v);
  run.begins_later = begins_after(row, v);
  run.file_lock_type = file_lock_type;
  const std::string type = audited_as(row, request.locks, file_lock_type);
  run.lock_type = type;
  const std::vector<std::string> behaviour = client::behaviour_keys(row.issue);
  std::vector<LockOption> switches, timing;
  for (size_t i = 0; i < request.options.size(); ++i) {
    const LockOption& o = request.options[i];
    if (!takes[i].count(type)) run.not_for_lock.push_back(o);
    else if (std::find(behaviour.begin(), behaviour.end(), o.key) != behaviour.end()) switches.push_back(o);
    else timing.push_back(o);
  }
  if (!timing.empty()) {
    run.refusal = probe(row, run.file, type, v, run.table_affected, timing);
    if (!run.refusal.empty()) run.refused = timing;
  }
  run.applied = switches;
  if (run.refusal.empty()) run.applied.insert(run.applied.end(), timing.begin(), timing.end());
  run.scenario = story_as(row, run.file, type, v, run.applied, run.table_affected, &run.scaled);
  run.scenario.name = story_name(row);
  return run;
}

// Two values of one key (3.12.0: watchdog_on_error=keep and =stop) are one choice: a value that
// takes away no more and brings back no less than another of its key is not offered.
std::vector<OptionFix> one_value_per_key(std::vector<OptionFix> fixes) {
  const auto key_of = [](const std::string& option) { return option.substr(0, option.find('=')); };
  const auto within = [](const std::vector<const LibraryRow*>& a, const std::vector<const LibraryRow*>& b) {
    return std::all_of(a.begin(), a.end(), [&](const LibraryRow* r) { return std::find(b.begin(), b.end(), r) != b.end(); });
  };
  std::vector<OptionFix> kept;
  for (const OptionFix& f : fixes) {
    const bool dominated = std::any_of(fixes.begin(), fixes.end(), [&](const OptionFix& g) {
      return &g != &f && key_of(g.option) == key_of(f.option) && within(f.removes, g.removes) && within(g.brings, f.brings) &&
             (g.removes.size() > f.removes.size() || g.brings.size() < f.brings.size() || &g < &f);
    });
    if (!dominated) kept.push_back(f);
  }
  return kept;
}

}  // namespace

Audit audit_version(const AuditRequest& request,
                    const std::function<void(size_t, size_t, std::string_view)>& progress) {
  const Version v = request.version;
  Audit audit;
  audit.request = request;
  audit.upgrade = upgrade_advice(v, request.locks);

  // Which of the lock types in use each option applies to; one that applies to none is a mistake.
  std::vector<std::string> types = request.locks;
  if (types.empty())
    for (const std::string& t : audited_lock_types())
      if (client::has_lock_type(v, t)) types.push_back(t);  // a lock the version has not takes no option
  std::vector<std::set<std::string>> takes(request.options.size());
  for (const LockOption& o : request.options) {
    // Options that would make each story another one, not the same one under the user's configuration.
    if (o.key == "redisson")
      throw std::invalid_argument("--set redisson=" + o.value + ": the version audited is --redisson's");
    if (o.key == "lease_ms")
      throw std::invalid_argument("--set lease_ms=" + o.value +
                                  ": a lease on every acquire the stories make without one turns each story into "
                                  "another (no watchdog, the lease's own hazard), so the audit does not take it; the "
                                  "stories whose acquires name a lease keep theirs");
  }
  for (size_t i = 0; i < request.options.size(); ++i) {
    std::string first_refusal;
    for (const std::string& type : types) {
      const std::optional<std::string> refusal = refusal_for(request.options[i], type, v);
      if (!refusal) takes[i].insert(type);
      else if (first_refusal.empty()) first_refusal = *refusal;
    }
    if (takes[i].empty()) throw std::invalid_argument(first_refusal);
  }

  // The rows with a story whose lock the version has, each with its file's lock type (read once).
  std::vector<std::pair<const LibraryRow*, std::string>> rows;
  for (const LibraryRow& row : redisson_library()) {
    if (!concerns(row, request.locks)) continue;
    if (!why_not_shown(row, v).empty()) {
      audit.unshown.push_back(&row);
      continue;
    }
    std::string file_type = load_scenario(request.library + "/" + std::string(row.story)).lock.type;
    if (client::has_lock_type(v, audited_as(row, request.locks, file_type))) rows.emplace_back(&row, std::move(file_type));
    else audit.absent.push_back(&row);
  }
  for (size_t n = 0; n < rows.size(); ++n) {
    if (progress) progress(n, rows.size(), rows[n].first->issue);
    StoryRun run = prepared_story(*rows[n].first, rows[n].second, request, takes);
    run.result = timed_run(run.scenario, run.seconds);
    audit.stories.push_back(std::move(run));
  }

  for (const auto& [row, file_type] : rows) {
    if (row->mitigation_story.empty()) continue;
    MitigationRun m;
    m.row = row;
    m.file = request.library + "/" + mitigation_story_for(*row, audited_as(*row, request.locks, file_type));
    const bool redisson = is_redisson(load_scenario(m.file).lock.type);
    m.scenario = load_scenario(m.file, redisson ? v.str() : "");
    m.scenario.expect = {{std::string(row->mitigation_property), "holds"}};
    m.scenario.expect_ops.clear();
    m.result = timed_run(m.scenario, m.seconds);
    audit.mitigations.push_back(std::move(m));
  }

  // Each fix's option, tried on every bug story as it ran: what it takes away and what it brings.
  std::vector<std::string> candidates;
  for (const StoryRun& run : audit.stories) {
    const std::string option(client::fixing_option(run.row->issue));
    if (run.reading() == Reading::Affected && !option.empty() &&
        std::find(candidates.begin(), candidates.end(), option) == candidates.end())
      candidates.push_back(option);
  }
  for (const std::string& option : candidates) {
    OptionFix fix{option, {}, {}};
    for (const StoryRun& run : audit.stories) {
      if (run.row->every_version) continue;
      Scenario s = run.scenario;
      try {
        apply_lock_options(parse_options(option), "--set", s);
      } catch (const std::invalid_argument&) {
        continue;  // an option of another lock type
      }
      double seconds = 0;
      const model::Validity with = verdict_of(timed_run(s, seconds), run.row->property);
      if (run.verdict() == model::Validity::No && with == model::Validity::Yes) fix.removes.push_back(run.row);
      if (run.verdict() == model::Validity::Yes && with == model::Validity::No) fix.brings.push_back(run.row);
    }
    if (!fix.removes.empty()) audit.option_fixes.push_back(std::move(fix));
  }
  audit.option_fixes = one_value_per_key(std::move(audit.option_fixes));
  return audit;
}

}  // namespace locksim::scenario

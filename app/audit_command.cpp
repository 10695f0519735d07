#include "app/audit_command.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <set>
#include <sstream>

#include "app/run_command.hpp"
#include "base/share_dir.hpp"
#include "client/redisson_version.hpp"
#include "model/lock_types.hpp"
#include "report/report.hpp"
#include "scenario/redisson_library.hpp"
#include "scenario/runner.hpp"

namespace locksim::app {

using client::Version;
using scenario::LibraryRow;
using scenario::ScenarioResult;

namespace {

struct RowRun {
  const LibraryRow* row;
  bool expected_violated;
  ScenarioResult result;
  double seconds = 0;  // wall clock, for junit.xml and index.html
  model::Validity verdict() const {
    for (const auto& p : result.properties)
      if (p.property == row->property) return p.verdict.valid;
    return model::Validity::Unknown;
  }
  bool agrees() const { return !result.error && result.passed(); }
};

// The Redisson library is locksim's own, installed beside it (base/share_dir.hpp): a scenarios/ in the
// folder the audit runs from is the user's and none of its business.
std::string root_of(const std::string& scenarios) {
  if (!scenarios.empty()) return scenarios;
  if (const auto installed = base::find_share_folder("scenarios")) return *installed;
  std::string looked;
  for (const std::string& dir : base::share_dirs()) looked += (looked.empty() ? "" : ", ") + dir + "/scenarios";
  throw std::runtime_error("the Redisson library is not beside locksim (looked in " +
                           (looked.empty() ? std::string("nothing: /proc/self/exe cannot be read") : looked) +
                           "); install locksim with `make install` or run the build tree's build/locksim");
}

// The row's story as version `v`, judged by the row's property alone: expected violated where the
// version table says the version is affected. The file's own expectations are the default
// version's, so they are replaced.
RowRun run_row(const LibraryRow& row, Version v, const std::string& root, const std::vector<scenario::LockOption>& options) {
  RowRun run{&row, scenario::expected_violated(row, v), {}};
  const std::string path = root + "/" + std::string(row.story);
  try {
    scenario::Scenario s = scenario::load_scenario(path, v.str());
    if (!options.empty()) scenario::apply_lock_options(options, "--set", s);
    s.name = std::filesystem::path(path).stem().string();
    s.expect = {{std::string(row.property), run.expected_violated ? "violated" : "holds"}};
    s.expect_ops.clear();
    const auto started = std::chrono::steady_clock::now();
    run.result = scenario::run_scenario(s);
    run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  } catch (const std::exception& e) {  // a story that does not load, or a --set the loader refuses
    run.result.file = path;
    run.result.name = std::string(row.story);
    run.result.error = e.what();
    run.result.bad_input = true;
  }
  return run;
}

bool in_use(const LibraryRow& row, const std::vector<std::string>& locks) {
  if (locks.empty()) return true;
  std::stringstream in{std::string(row.locks)};
  for (std::string type; std::getline(in >> std::ws, type, ',');)
    if (std::find(locks.begin(), locks.end(), type) != locks.end()) return true;
  return false;
}

// "#4871 a resent unlock runs twice ..."; a hazard without an issue is its title alone.
std::string label(const LibraryRow& row) {
  return row.issue.starts_with('#') ? std::string(row.issue) + " " + std::string(row.title) : std::string(row.title);
}

std::string verdict_word(const RowRun& r) {
  if (r.result.error) return "error";
  return std::string(model::to_string(r.verdict()));
}

// One markdown table of rows run on one version.
void table(std::ostream& out, const std::vector<const RowRun*>& runs, const AuditOptions& o, bool links) {
  out << "| row | versions affected | on " << o.redisson << " | "
      << (o.lock_options.empty() ? "as the table says" : "as the version alone") << " | replay | timeline |\n";
  out << "| --- | --- | --- | --- | --- | --- |\n";
  for (const RowRun* r : runs) {
    const std::string folder = report::slug(r->result.name);
    const std::string timeline = folder + "/timeline.html";
    out << "| " << label(*r->row) << " (" << r->row->locks << ") | " << scenario::affected_text(*r->row)
        << " | " << verdict_word(*r) << " (" << r->row->property << ") | " << (r->agrees() ? "yes" : "NO") << " | `locksim run --redisson "
        << o.redisson << " " << r->result.file << "` | " << (links ? "[timeline](" + timeline + ")" : o.out + "/" + timeline)
        << " |\n";
  }
  // A story's verdict may rest on a call that never returned: named under the table, as `run` does.
  bool said = false;
  for (const RowRun* r : runs) {
    if (r->result.pending.empty()) continue;
    out << (said ? "" : "\nStill waiting when the run ended:\n\n") << "- " << label(*r->row) << ": "
        << r->result.pending.describe() << "\n";
    said = true;
  }
}

void write_audit(std::ostream& out, const std::vector<RowRun>& runs, const AuditOptions& o, bool links) {
  std::vector<const RowRun*> affected, fixed, hazards;
  for (const RowRun& r : runs) (r.row->every_version ? hazards : r.expected_violated ? affected : fixed).push_back(&r);
  out << "# Redisson " << o.redisson << ": what it risks\n\n";
  out << "Each row's story (scenarios/" << "redisson/ and scenarios/) ran as Redisson " << o.redisson;
  if (!o.lock_options.empty()) {
    out << " with";
    for (const auto& opt : o.lock_options) out << " " << opt.key << "=" << opt.value;
  }
  out << "; the versions affected come from locksim's version table.\n\n";
  if (links) out << "`index.html` beside this file has every story's verdict with the checker's explanation.\n\n";
  out << "## Bugs that affect " << o.redisson << " (" << affected.size() << ")\n\n";
  if (affected.empty()) out << "None of the modelled bugs.\n";
  else table(out, affected, o, links);
  out << "\n## Hazards no version avoids (" << hazards.size() << ")\n\n";
  if (!hazards.empty()) table(out, hazards, o, links);
  out << "\n## Bugs fixed in or before " << o.redisson << " (" << fixed.size() << ")\n\n";
  if (!fixed.empty()) table(out, fixed, o, links);
  out << "\n## Not modelled\n\n";
  for (const LibraryRow& row : scenario::redisson_library())
    if (row.story.empty() && in_use(row, o.locks))
      out << "- " << label(row) << " (" << scenario::affected_text(row) << "): " << row.not_modelled << "\n";
}

}  // namespace

int run_audit(const AuditOptions& o, std::ostream& out, std::ostream& err) {
  Version v;
  try {
    v = client::modelled_version(o.redisson);
  } catch (const std::invalid_argument& e) {
    err << "locksim audit: --redisson " << o.redisson << ": " << e.what() << "\n";
    return 2;
  }
  for (const std::string& type : o.locks) {
    const model::LockType* t = model::find_lock_type(type);
    if (!t || !t->redisson) {
      err << "locksim audit: --lock " << type << ": expected one of Redisson's lock types (rlock, fair, multi, red, rwlock)\n";
      return 2;
    }
  }
  std::string root;
  try {
    root = root_of(o.scenarios);
  } catch (const std::runtime_error& e) {
    err << "locksim audit: " << e.what() << "\n";
    return 2;
  }
  std::vector<RowRun> runs;
  const auto& library = scenario::redisson_library();
  for (size_t i = 0; i < library.size(); ++i) {
    const LibraryRow& row = library[i];
    if (row.story.empty() || !in_use(row, o.locks)) continue;
    if (o.progress) err << "\r[" << i + 1 << "/" << library.size() << "] " << row.issue << "\x1b[K" << std::flush;
    runs.push_back(run_row(row, v, root, o.lock_options));
  }
  if (o.progress) err << "\r\x1b[K" << std::flush;
  for (const RowRun& r : runs) {
    if (r.result.bad_input) {
      err << "locksim audit: " << *r.result.error << "\n";
      return 2;
    }
  }
  write_audit(out, runs, o, false);
  std::vector<ScenarioResult> results;
  report::RunInfo info;
  info.title = "locksim audit --redisson " + o.redisson;
  for (const RowRun& r : runs) {
    results.push_back(r.result);
    info.seconds.push_back(r.seconds);
    info.labels.push_back(label(*r.row) + " (" + std::string(r.row->locks) + "; affects " + scenario::affected_text(*r.row) + ")");
  }
  if (!o.locks.empty()) {
    std::string locks;
    for (const std::string& type : o.locks) locks += (locks.empty() ? "" : ", ") + type;
    info.facts.emplace_back("--lock", locks);
  }
  for (const auto& opt : o.lock_options) info.facts.emplace_back("--set", opt.key + "=" + opt.value);
  try {
    report::write_reports(o.out, results, info);
    std::ofstream summary(std::filesystem::path(o.out) / "summary.md");
    write_audit(summary, runs, o, true);
    if (!summary) throw std::runtime_error(o.out + "/summary.md: cannot write");
  } catch (const std::exception& e) {
    err << "locksim audit: " << e.what() << "\n";
    return 2;
  }
  const bool all_agree = std::all_of(runs.begin(), runs.end(), [](const RowRun& r) { return r.agrees(); });
  const char* differ = o.lock_options.empty() ? "SOME VERDICTS DIFFER from the version table (a fault in locksim)"
                                               : "SOME VERDICTS DIFFER from the version alone: your --set options change them";
  out << "\n" << runs.size() << " stories, " << (all_agree ? "every verdict as the version table says" : differ)
      << "; reports in " << o.out << "/\n";
  return all_agree ? 0 : 1;
}

int print_matrix(const std::string& scenarios, std::ostream& out, std::ostream& err) {
  std::set<Version> versions;
  for (const auto& b : client::versioned_behaviours())
    for (const auto& step : b.steps) versions.insert(step.since);
  versions.insert(client::newest_modelled());
  std::string root;
  try {
    root = root_of(scenarios);
  } catch (const std::runtime_error& e) {
    err << "locksim audit: " << e.what() << "\n";
    return 2;
  }
  out << "# Redisson version matrix\n\n"
      << "Generated by `locksim audit --matrix` (do not edit by hand): each row's story from the Redisson library\n"
      << "run as each version where a modelled behaviour changes. x: the property is violated, o: it holds;\n"
      << "`!` marks a verdict that differs from the version table (none should).\n\n";
  out << "| row | property | affected |";
  for (const Version& v : versions) out << " " << v.str() << " |";
  out << "\n| --- | --- | --- |";
  for (size_t i = 0; i < versions.size(); ++i) out << " --- |";
  out << "\n";
  bool all_agree = true;
  for (const LibraryRow& row : scenario::redisson_library()) {
    if (row.story.empty()) continue;
    out << "| " << label(row) << " | " << row.property << " | " << scenario::affected_text(row) << " |";
    for (const Version& v : versions) {
      const RowRun r = run_row(row, v, root, {});
      if (r.result.bad_input) {
        err << "locksim audit: " << *r.result.error << "\n";
        return 2;
      }
      all_agree = all_agree && r.agrees();
      out << " " << (r.verdict() == model::Validity::No ? "x" : r.verdict() == model::Validity::Yes ? "o" : "?")
          << (r.agrees() ? "" : "!") << " |";
    }
    out << "\n";
  }
  out << "\nNot modelled:\n\n";
  for (const LibraryRow& row : scenario::redisson_library())
    if (row.story.empty()) out << "- " << label(row) << " (" << scenario::affected_text(row) << "): " << row.not_modelled << "\n";
  return all_agree ? 0 : 1;
}

}  // namespace locksim::app

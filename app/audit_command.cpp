#include "app/audit_command.hpp"

#include <algorithm>
#include <ostream>
#include <stdexcept>

#include "base/share_dir.hpp"
#include "client/redisson_version.hpp"
#include "model/lock_types.hpp"
#include "report/audit_report.hpp"
#include "scenario/audit.hpp"
#include "scenario/loader.hpp"

namespace locksim::app {

using client::Version;
using scenario::LibraryRow;

namespace {

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

// "#4871 a resent unlock runs twice ..."; a hazard without an issue is its title alone.
std::string label(const LibraryRow& row) {
  return row.issue.starts_with('#') ? std::string(row.issue) + " " + std::string(row.title) : std::string(row.title);
}

}  // namespace

int run_audit(const AuditOptions& o, std::ostream& out, std::ostream& err) {
  scenario::AuditRequest request;
  try {
    request.version = client::modelled_version(o.redisson);
  } catch (const std::invalid_argument& e) {
    err << "locksim audit: --redisson " << o.redisson << ": " << e.what() << "\n";
    return 2;
  }
  for (const std::string& type : o.locks) {
    const model::LockType* t = model::find_lock_type(type);
    if (!t || !t->redisson) {
      std::string names;
      for (const model::LockType& r : model::lock_types())
        if (r.redisson) names += std::string(names.empty() ? "" : ", ") + std::string(r.name);
      err << "locksim audit: --lock " << type << ": expected one of Redisson's lock types (" << names << ")\n";
      return 2;
    }
    const std::vector<std::string> audited = scenario::audited_lock_types();
    if (std::find(audited.begin(), audited.end(), type) == audited.end()) {
      std::string list;
      for (const std::string& a : audited) list += (list.empty() ? "" : ", ") + a;
      err << "locksim audit: --lock " << type << ": no story of the library is written for the " << type
          << " lock, so an audit of it would say nothing (it audits " << list << "). Its client shares RLock's watchdog, unlock and waiting code: --lock rlock tells the bugs of that "
             "code. docs/lock-types.md lists the "
          << type << " lock's own findings\n";
      return 2;
    }
    if (!client::has_lock_type(request.version, type)) {
      err << "locksim audit: --lock " << type << ": Redisson " << request.version.str() << " has no " << type
          << " lock (it came in " << t->since << ")\n";
      return 2;
    }
  }
  if (o.self_check && !o.lock_options.empty()) {
    err << "locksim audit: --self-check compares the stories with locksim's version table, which knows nothing of "
           "--set options: run it without them\n";
    return 2;
  }
  request.locks = o.locks;
  request.options = o.lock_options;
  scenario::Audit audit;
  try {
    request.library = root_of(o.scenarios);
    audit = scenario::audit_version(request, [&](size_t done, size_t total, std::string_view issue) {
      if (o.progress) err << "\r[" << done + 1 << "/" << total << "] " << issue << "\x1b[K" << std::flush;
    });
  } catch (const std::exception& e) {  // a story that does not load, an option no lock takes
    if (o.progress) err << "\r\x1b[K" << std::flush;
    err << "locksim audit: " << e.what() << "\n";
    return 2;
  }
  if (o.progress) err << "\r\x1b[K" << std::flush;
  try {
    report::write_audit_reports(audit, o.out);
  } catch (const std::exception& e) {
    err << "locksim audit: " << e.what() << "\n";
    return 2;
  }
  if (o.format == "md") out << report::audit_markdown(audit, o.out, false);
  else report::write_audit_text(audit, o.out, o.style, out);
  if (o.self_check) return report::write_self_check(audit, o.style, out) ? 0 : 1;
  // Without --set a story at odds with the table is locksim's fault, and says so even unasked.
  if (o.lock_options.empty() &&
      !std::all_of(audit.stories.begin(), audit.stories.end(), [](const scenario::StoryRun& r) { return r.agrees(); }))
    err << "locksim audit: some stories disagree with locksim's version table (a fault in locksim): see --self-check\n";
  const bool affected = std::any_of(audit.stories.begin(), audit.stories.end(), [](const scenario::StoryRun& r) {
    return !r.row->every_version && r.verdict() == model::Validity::No;
  });
  return affected ? 1 : 0;
}

int print_matrix(const std::string& scenarios, std::ostream& out, std::ostream& err) {
  std::string root;
  try {
    root = root_of(scenarios);
  } catch (const std::runtime_error& e) {
    err << "locksim audit: " << e.what() << "\n";
    return 2;
  }
  const std::vector<Version> versions = scenario::behaviour_versions();
  out << "# Redisson version matrix\n\n"
      << "Generated by `locksim audit --matrix` (do not edit by hand): each row's story from the Redisson library\n"
      << "run as each version where a modelled behaviour changes (a column stands for its version up to the\n"
      << "next column's). x: the property is violated, o: it holds;\n"
      << "`!` marks a verdict that differs from the version table (none should); -: the version has no such lock;\n"
      << "`.`: the story acts out what is modelled from a later version on (an interrupt: from 3.17.0).\n"
      << "An \"as\" line runs the row's story as another lock type whose client shares the code it shows.\n"
      << "`*` marks a story that fails over to a replica, run as a version that with replicas waits for one\n"
      << "(WAIT, from 3.12.5, inside the 3.12.3 column; from 3.17.0 an acquire no replica acknowledged is\n"
      << "released and fails) but that locksim models without WAIT (before 3.52.0): those cells show a\n"
      << "client that does not wait (syncSlaves off, checkLockSyncedSlaves = false). From 3.52.0 WAIT and\n"
      << "checkLockSyncedSlaves are modelled, and the story's own settings apply.\n\n";
  out << "| row | property | affected |";
  for (const Version& v : versions) out << " " << v.str() << " |";
  out << "\n| --- | --- | --- |";
  for (size_t i = 0; i < versions.size(); ++i) out << " --- |";
  out << "\n";
  bool all_agree = true;
  for (const LibraryRow& row : scenario::redisson_library()) {
    if (row.story.empty()) continue;
    std::vector<std::string> types{""};  // the file's own type, then each it also runs as
    for (const std::string& t : scenario::runs_as(row)) types.push_back(t);
    std::string own;
    try {
      own = scenario::load_scenario(root + "/" + std::string(row.story)).lock.type;
    } catch (const std::exception& e) {
      err << "locksim audit: " << e.what() << "\n";
      return 2;
    }
    for (const std::string& type : types) {
      out << "| " << (type.empty() ? label(row) : "&nbsp;&nbsp;as " + type) << " | " << row.property << " | "
          << (type.empty() ? scenario::affected_text(row) : "") << " |";
      for (const Version& v : versions) {
        scenario::StoryRun r;
        try {
          if (!client::has_lock_type(v, type.empty() ? own : type)) {
            out << " - |";
            continue;
          }
          if (v < row.story_from) {
            out << " . |";
            continue;
          }
          r = scenario::run_story(row, v, root, {}, type);
        } catch (const std::exception& e) {
          err << "locksim audit: " << e.what() << "\n";
          return 2;
        }
        all_agree = all_agree && r.agrees();
        out << " " << (r.verdict() == model::Validity::No ? "x" : r.verdict() == model::Validity::Yes ? "o" : "?")
            << (r.agrees() ? "" : "!") << (scenario::left_out(r).empty() ? "" : "*") << " |";
      }
      out << "\n";
    }
  }
  out << "\nNot shown by a story (modelled but seen by no property, not modelled, or before the range):\n\n";
  for (const LibraryRow& row : scenario::redisson_library())
    if (row.story.empty()) out << "- " << label(row) << " (" << scenario::affected_text(row) << "): " << row.not_modelled << "\n";
  return all_agree ? 0 : 1;
}

}  // namespace locksim::app

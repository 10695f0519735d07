#include "report/audit_report.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "client/redisson_version.hpp"
#include "model/lock_types.hpp"
#include "report/report.hpp"
#include "scenario/redisson_library.hpp"
#include "scenario/writer.hpp"

namespace locksim::report {

using scenario::Audit;
using scenario::LibraryRow;
using scenario::MitigationRun;
using scenario::Reading;
using scenario::StoryRun;

namespace {

// "#4871 a resent unlock runs twice ..."; a hazard without an issue is its title alone.
std::string label(const LibraryRow& row) {
  return row.issue.starts_with('#') ? std::string(row.issue) + " " + std::string(row.title) : std::string(row.title);
}

std::string issue_of(const LibraryRow& row) {
  return row.issue.starts_with('#') ? std::string(row.issue) : std::string(row.issue);
}

std::string joined(const std::vector<std::string>& words, const char* sep = ", ") {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : sep) + w;
  return out;
}

std::string issues(const std::vector<const LibraryRow*>& rows) {
  std::vector<std::string> out;
  for (const LibraryRow* row : rows) out.push_back(issue_of(*row));
  return joined(out);
}

std::string options_text(const std::vector<scenario::LockOption>& options) {
  std::vector<std::string> out;
  for (const auto& o : options) out.push_back(o.key + "=" + o.value);
  return joined(out, ",");
}

std::string version(const Audit& a) { return a.request.version.str(); }

// The lock types audited: those asked for, or every one the library speaks for that the version has.
std::string locks_text(const Audit& a) {
  if (!a.request.locks.empty()) return joined(a.request.locks);
  std::vector<std::string> types;
  for (const std::string& t : scenario::audited_lock_types())
    if (client::has_lock_type(a.request.version, t)) types.push_back(t);
  return joined(types);
}

// The command line that ran the audit, for a replay's note.
std::string command_of(const Audit& a) {
  std::string out = "locksim audit --redisson " + version(a);
  if (!a.request.locks.empty()) out += " --lock " + joined(a.request.locks, ",");
  if (!a.request.options.empty()) out += " --set " + options_text(a.request.options);
  return out;
}

bool violated(const StoryRun& r) { return r.verdict() == model::Validity::No; }

// Affected first (what to act on), then what no version avoids, then what is fine.
int rank(const StoryRun& r) {
  switch (r.reading()) {
    case Reading::Affected:
    case Reading::ViolatedWhereFixed: return 0;
    case Reading::Hazard: return 1;
    case Reading::Unknown:
    case Reading::HazardHolds: return 2;
    case Reading::HoldsWhereAffected: return 3;
    case Reading::Fixed: return 4;
    case Reading::NotYet: return 5;
  }
  return 6;
}

std::vector<const StoryRun*> in_order(const Audit& a) {
  std::vector<const StoryRun*> out;
  for (const StoryRun& r : a.stories) out.push_back(&r);
  std::stable_sort(out.begin(), out.end(), [](const StoryRun* x, const StoryRun* y) { return rank(*x) < rank(*y); });
  return out;
}

// What a reader must know about one story's run beside its verdict: options that did or did not
// reach it, and a verdict the version alone would not give.
std::vector<std::string> notes_of(const StoryRun& r, bool options) {
  std::vector<std::string> notes;
  switch (r.reading()) {
    case Reading::ViolatedWhereFixed:
      if (r.begins_later)
        notes.push_back(options ? "your --set options bring it in (the version alone is older than the bug)"
                                : "locksim's version table says the bug came later: a fault in locksim (--self-check)");
      else
        notes.push_back(options ? "your --set options bring it back (the version alone has it fixed)"
                                : "locksim's version table says it is fixed here: a fault in locksim (--self-check)");
      break;
    case Reading::HoldsWhereAffected:
      notes.push_back(options ? "your --set options take it away (the version alone has it)"
                              : "locksim's version table says the version has it: a fault in locksim (--self-check)");
      break;
    case Reading::HazardHolds: notes.push_back("its story did not show it: a fault in locksim (--self-check)"); break;
    case Reading::Unknown:
      notes.push_back(r.result.error ? "the run stopped: " + *r.result.error : "its verdict is unknown");
      break;
    default: break;
  }
  if (const std::string caveat = scenario::left_out(r); !caveat.empty()) notes.push_back(caveat);
  if (r.lock_type != r.file_lock_type)
    notes.push_back("its story, written for " + r.file_lock_type + ", ran as a " + r.lock_type + " lock, whose client shares the code it shows");
  if (r.scaled != 1) {
    std::ostringstream s;
    s << "its story's times scaled x" << std::setprecision(3) << r.scaled << " with " << r.row->scales_with
      << ", which they are set against";
    notes.push_back(s.str());
  }
  if (!r.refused.empty())
    notes.push_back("--set " + options_text(r.refused) + " not applied: " + r.refusal + "; it ran without " +
                    (r.refused.size() == 1 ? "it" : "them"));
  return notes;
}

// The fix's version for a row's range that holds the audited version, or of its last range.
std::string fix_version(const LibraryRow& row) {
  const std::vector<client::VersionRange> ranges = scenario::ranges_of(row);
  return ranges.empty() || !ranges.back().until ? std::string() : ranges.back().until->str();
}

std::string headline(const Audit& a) {
  int affected = 0, bugs = 0, hazards = 0, open = 0;
  for (const StoryRun& r : a.stories) {
    if (r.row->every_version) {
      (r.row->open ? open : hazards) += violated(r);
      continue;
    }
    ++bugs;
    affected += violated(r);
  }
  std::ostringstream out;
  out << "Redisson " << version(a) << " (" << locks_text(a) << "): ";
  if (bugs == 0)
    out << "no story of a modelled bug concerns " << (a.request.locks.size() == 1 ? "this lock" : "these locks");
  else
    out << affected << " of the " << bugs << " modelled bugs affect" << (affected == 1 ? "s" : "") << " it";
  if (!a.request.options.empty()) out << " with --set " << options_text(a.request.options);
  out << "; " << hazards << (hazards == 1 ? " hazard" : " hazards");
  if (open > 0) out << " and " << open << (open == 1 ? " open bug" : " open bugs");
  out << " no version avoids.";
  return out.str();
}

model::Validity verdict_of(const MitigationRun& m) {
  for (const auto& p : m.result.properties)
    if (p.property == m.row->mitigation_property) return p.verdict.valid;
  return model::Validity::Unknown;
}

std::string mitigation_folder(const MitigationRun& m) { return slug(std::filesystem::path(m.file).stem().string()); }

const MitigationRun* mitigation_of(const Audit& a, const LibraryRow& row) {
  for (const MitigationRun& m : a.mitigations)
    if (m.row == &row) return &m;
  return nullptr;
}

// What no version avoids, with each mitigation and the story that shows it: the hazards, then the
// open bugs (a story's, then those no story shows yet).
std::vector<AdviceSection> mitigation_advice(const Audit& a) {
  AdviceSection mitigate{"No version avoids these: mitigate them", {}, "mitigate"};
  // Open bugs are no hazards: a version may fix them. Those a story shows, then those none does yet.
  AdviceSection open{"Open, no version fixes these yet: mitigate them too", {}, "mitigate"};
  auto mitigation = [](const LibraryRow& row) {
    return row.mitigation.empty() ? std::string() : " Mitigation: " + std::string(row.mitigation) + ".";
  };
  for (const StoryRun& r : a.stories) {
    if (!r.row->every_version) continue;
    AdviceItem item{label(*r.row) + "." + mitigation(*r.row), "", {}, ""};
    if (const MitigationRun* m = mitigation_of(a, *r.row)) {
      const std::string folder = mitigation_folder(*m);
      // A mitigation shown with another kind of lock (a plain token lock) says which.
      const std::string on = m->result.redisson.empty() ? " with a " + m->scenario.lock.type + " lock, not Redisson's"
                                                        : " on " + m->result.redisson;
      const std::string shown = m->shown() ? "shown working" : "not shown: " + std::string(m->row->mitigation_property) +
                                                               " did not hold in its scenario";
      item.links.push_back({shown + on + ": " + folder, folder + "/timeline.html"});
      item.command = shown + on + ": locksim run " + folder;
    }
    (r.row->open ? open : mitigate).items.push_back(item);
  }
  std::vector<AdviceSection> out;
  if (!mitigate.items.empty()) out.push_back(mitigate);
  for (const LibraryRow* row : a.unshown)
    if (row->every_version)
      open.items.push_back({label(*row) + " (" + std::string(row->versions) + ", not modelled on " + version(a) + ": " +
                                std::string(scenario::why_not_shown(*row, a.request.version)) + ")." + mitigation(*row),
                            "", {}, ""});
  if (!open.items.empty()) out.push_back(open);
  return out;
}

}  // namespace

Outcome audit_outcome(const StoryRun& run) {
  switch (run.reading()) {
    case Reading::Affected:
    case Reading::ViolatedWhereFixed: return Outcome::Affected;
    case Reading::Hazard: return Outcome::Hazard;
    case Reading::Fixed: return Outcome::Fixed;
    case Reading::NotYet: return Outcome::NotYet;
    case Reading::HoldsWhereAffected: return Outcome::NotAffected;
    case Reading::HazardHolds: return Outcome::MissedViolation;
    case Reading::Unknown: return run.result.error ? Outcome::Error : Outcome::Fail;
  }
  return Outcome::Fail;
}

std::vector<AdviceSection> audit_advice(const Audit& a) {
  std::vector<AdviceSection> out;
  const bool options = !a.request.options.empty();

  AdviceSection act{"What to do", {}, "act"};
  if (a.upgrade.to) {
    std::string text = "Upgrade to " + a.upgrade.to->str() + ": it fixes ";
    if (a.upgrade.fixes.empty()) {
      text += issues(a.upgrade.also) + ", which locksim models but no story shows";
    } else {
      text += issues(a.upgrade.fixes);
      if (!a.upgrade.also.empty()) text += " (and " + issues(a.upgrade.also) + ", which locksim models but no story shows)";
    }
    act.items.push_back({text + ".", "", {}, ""});
  } else {
    act.items.push_back({"No upgrade needed: none of the modelled bugs of " + locks_text(a) +
                             " that a later version fixes affects " + version(a) + ".",
                         "", {}, ""});
    act.kind = "good";
  }
  std::vector<const LibraryRow*> back, away;
  for (const StoryRun& r : a.stories) {
    if (r.reading() == Reading::ViolatedWhereFixed) back.push_back(r.row);
    if (r.reading() == Reading::HoldsWhereAffected) away.push_back(r.row);
  }
  if (options && !back.empty()) {
    act.items.push_back(
        {"Your --set options bring back " + issues(back) + ", which no upgrade takes away: drop them.", "", {}, ""});
    act.kind = "act";
  }
  if (options && !away.empty())
    act.items.push_back({"Your --set options take away " + issues(away) + " on " + version(a) + ".", "", {}, ""});
  std::vector<std::string> unweighed;
  // Only those whose range holds the audited version or the upgrade it advises: #6651 (3.24.0 -
  // 3.51.x) is no word for 4.7.0, but is one for 3.23.0 told to go to 3.46.0.
  const auto holds = [](const LibraryRow& row, client::Version v) {
    return !row.every_version && !row.before_range && !row.versions.empty() && row.versions_from <= v &&
           (row.versions_until == client::Version{} || v < row.versions_until);
  };
  for (const LibraryRow* row : a.unshown) {
    if (holds(*row, a.request.version))
      unweighed.push_back(issue_of(*row) + " (" + std::string(row->versions) + ")");
    else if (a.upgrade.to && holds(*row, *a.upgrade.to))
      unweighed.push_back(issue_of(*row) + " (" + std::string(row->versions) + ", which " + a.upgrade.to->str() + " has)");
  }
  if (!unweighed.empty())
    act.items.push_back({"Known, not modelled, so not weighed here: " + joined(unweighed) + ".", "", {}, ""});
  out.push_back(act);

  if (!a.option_fixes.empty()) {
    AdviceSection fixes{a.upgrade.to ? "Short of the upgrade" : "Options", {}, "act"};
    for (const scenario::OptionFix& f : a.option_fixes) {
      // The version whose behaviour the option stands for (the step it names), not each removed
      // bug's own fix: keep (3.44.0's) also takes away #3334, which 3.14.0 fixed otherwise.
      std::vector<std::string> from;
      for (const client::VersionedBehaviour& b : client::versioned_behaviours())
        for (const client::VersionStep& s : b.steps)
          if (s.option == f.option && std::find(from.begin(), from.end(), s.since.str()) == from.end())
            from.push_back(s.since.str());
      if (from.empty())
        for (const LibraryRow* row : f.removes)
          if (const std::string v = fix_version(*row); !v.empty() && std::find(from.begin(), from.end(), v) == from.end())
            from.push_back(v);
      std::string text = "The fix of " + joined(from) + " alone takes away " + issues(f.removes) + " (" +
                         (f.removes.size() == 1 ? "its story holds" : "their stories hold") + " with it" +
                         (f.brings.empty() ? "" : "; it brings " + issues(f.brings) + " back") + "):";
      fixes.items.push_back({text, "--set " + f.option, {}, ""});
    }
    out.push_back(fixes);
  }

  for (AdviceSection& section : mitigation_advice(a)) out.push_back(std::move(section));
  return out;
}

void write_audit_text(const Audit& a, const std::string& out_dir, const TextStyle& style, std::ostream& out) {
  const bool options = !a.request.options.empty();
  out << wrap_text("", headline(a), "  ", style.width) << "\n";
  for (const AdviceSection& section : audit_advice(a)) {
    const Tone tone = section.kind == "act" ? Tone::Red : section.kind == "mitigate" ? Tone::Amber : Tone::Green;
    out << paint(section.heading, tone, style) << "\n";
    for (const AdviceItem& item : section.items) {
      out << wrap_text("  ", item.text, "    ", style.width);
      if (!item.code.empty()) out << wrap_text("    ", paint(item.code, Tone::Bold, style), "      ", style.width);
      if (!item.command.empty()) out << wrap_text("    ", item.command, "      ", style.width);
    }
    out << "\n";
  }

  const std::string on = "on " + version(a);
  std::vector<std::vector<TextCell>> rows;
  std::vector<std::pair<std::string, std::string>> notes;
  for (const StoryRun* r : in_order(a)) {
    const Outcome o = audit_outcome(*r);
    const Tone tone = o == Outcome::Affected                                  ? Tone::Red
                      : o == Outcome::Hazard                                  ? Tone::Amber
                      : o == Outcome::Fixed || o == Outcome::NotAffected || o == Outcome::NotYet ? Tone::Green
                                                                              : Tone::Red;
    const std::vector<std::string> n = notes_of(*r, options);
    for (const std::string& note : n) notes.emplace_back(issue_of(*r->row), note);
    rows.push_back({{issue_of(*r->row), Tone::Plain},
                    {std::string(outcome_word(o)) + (n.empty() ? "" : "*"), tone},
                    {scenario::affected_text(*r->row), Tone::Plain},
                    {std::string(r->row->title) + " (" + scenario::locks_text(*r->row) + ")", Tone::Plain},
                    {"locksim run " + r->scenario.name, Tone::Dim}});
  }
  if (rows.empty()) {
    // A lock type newer than every catalogued bug (the non-reentrant locks) has no story to run.
    out << wrap_text("", "No story of the library concerns " + locks_text(a) + ".", "  ", style.width);
  } else {
    out << wrap_text("", "Each story, run " + on + (options ? " with --set " + options_text(a.request.options) : "") +
                             " (replay one: cd " + out_dir + " && locksim run <issue>):",
                     "  ", style.width);
    out << text_table({"issue", on, "versions affected", "what goes wrong", "replay"}, rows, 3, style, "  ", 24);
  }
  for (const auto& [issue, note] : notes) out << wrap_text("  * " + issue + ": ", note, "      ", style.width);

  bool said = false;
  for (const StoryRun* r : in_order(a)) {
    if (r->result.pending.empty()) continue;
    if (!said) out << "\nStill waiting when the story ended (a verdict may rest on how it would end):\n";
    said = true;
    out << wrap_text("  " + issue_of(*r->row) + ": ", r->result.pending.describe(), "      ", style.width);
  }
  if (!a.unshown.empty()) {
    out << "\nNot shown by a story:\n";
    for (const LibraryRow* row : a.unshown)
      out << wrap_text("  ", label(*row) + " (" + scenario::affected_text(*row) + "): " +
                                 std::string(scenario::why_not_shown(*row, a.request.version)),
                       "      ", style.width);
  }
  if (!a.absent.empty()) {
    out << "\nNot in Redisson " << version(a) << " (its lock came later):\n";
    for (const LibraryRow* row : a.absent) out << wrap_text("  ", label(*row) + " (" + scenario::locks_text(*row) + ")", "      ", style.width);
  }
  out << "\n"
      << wrap_text("", "Reports in " + out_dir + "/: index.html (this advice, and each story's verdict with the "
                   "checker's explanation and its timeline), summary.md, results.json, junit.xml.",
                   "", style.width);
}

std::string audit_markdown(const Audit& a, const std::string& out_dir, bool links) {
  const bool options = !a.request.options.empty();
  std::ostringstream md;
  md << "# Redisson " << version(a) << ": what to do\n\n" << headline(a) << "\n\n";
  md << "`" << command_of(a) << "`: each story of locksim's Redisson library ran as " << version(a)
     << "; which versions a bug affects comes from locksim's version table.\n\n";
  for (const AdviceSection& section : audit_advice(a)) {
    md << "## " << section.heading << "\n\n";
    for (const AdviceItem& item : section.items) {
      md << "- " << item.text << (item.code.empty() ? "" : " `" + item.code + "`");
      for (const IndexLink& link : item.links)
        md << " (" << (links ? "[" + link.label + "](" + link.href + ")" : link.label + ": " + out_dir + "/" + link.href) << ")";
      if (!item.command.empty()) md << " `" << item.command.substr(item.command.find("locksim run")) << "`";
      md << "\n";
    }
    md << "\n";
  }
  md << "## Each story on " << version(a) << "\n\n";
  md << "| issue | on " << version(a) << " | versions affected | what goes wrong | property | replay (in " << out_dir
     << "/) | timeline |\n| --- | --- | --- | --- | --- | --- | --- |\n";
  for (const StoryRun* r : in_order(a)) {
    const std::string folder = slug(r->scenario.name);
    const std::vector<std::string> notes = notes_of(*r, options);
    md << "| " << issue_of(*r->row) << " | " << outcome_label(audit_outcome(*r)) << " | " << scenario::affected_text(*r->row)
       << " | " << r->row->title << " (" << scenario::locks_text(*r->row) << ")" << (notes.empty() ? "" : ": " + joined(notes, "; "))
       << " | " << r->row->property << " | `locksim run " << r->scenario.name << "` | "
       << (links ? "[timeline](" + folder + "/timeline.html)" : out_dir + "/" + folder + "/timeline.html") << " |\n";
  }
  bool said = false;
  for (const StoryRun* r : in_order(a)) {
    if (r->result.pending.empty()) continue;
    md << (said ? "" : "\nStill waiting when the story ended:\n\n") << "- " << issue_of(*r->row) << ": "
       << r->result.pending.describe() << "\n";
    said = true;
  }
  if (!a.unshown.empty()) {
    md << "\n## Not shown by a story\n\n";
    for (const LibraryRow* row : a.unshown)
      md << "- " << label(*row) << " (" << scenario::affected_text(*row) << "): " << scenario::why_not_shown(*row, a.request.version)
         << "\n";
  }
  if (!a.absent.empty()) {
    md << "\n## Not in Redisson " << version(a) << " (its lock came later)\n\n";
    for (const LibraryRow* row : a.absent) md << "- " << label(*row) << " (" << scenario::locks_text(*row) << ")\n";
  }
  return md.str();
}

void write_audit_reports(const Audit& a, const std::string& dir) {
  std::vector<scenario::ScenarioResult> results;
  RunInfo info;
  info.title = command_of(a);
  info.summary = headline(a);
  info.advice = audit_advice(a);
  info.expected_heading = "versions affected";
  info.failed_label = "affected only";
  const bool options = !a.request.options.empty();
  for (const StoryRun* r : in_order(a)) {
    results.push_back(r->result);
    info.seconds.push_back(r->seconds);
    info.labels.push_back(label(*r->row) + " (" + scenario::locks_text(*r->row) + ")");
    const std::vector<std::string> notes = notes_of(*r, options);
    info.readings.push_back(RowReading{audit_outcome(*r), scenario::affected_text(*r->row),
                                       notes.empty() ? "" : joined(notes, "; ") + ".", false});
  }
  for (const MitigationRun& m : a.mitigations) {
    results.push_back(m.result);
    results.back().name = mitigation_folder(m);
    info.seconds.push_back(m.seconds);
    info.labels.push_back("the mitigation of " + label(*m.row) + ": " + m.result.about);
    info.readings.push_back(RowReading{m.shown() ? Outcome::Mitigated : Outcome::Fail, "holds, as its mitigation",
                                       m.shown() ? "" : "The mitigation did not hold here.", false});
  }
  if (!a.request.locks.empty()) info.facts.emplace_back("--lock", joined(a.request.locks));
  for (const auto& opt : a.request.options) info.facts.emplace_back("--set", opt.key + "=" + opt.value);
  write_reports(dir, results, info);

  std::ofstream summary(std::filesystem::path(dir) / "summary.md", std::ios::binary);
  summary << audit_markdown(a, dir, true);
  if (!summary) throw std::runtime_error(dir + "/summary.md: cannot write");

  // Each story as it ran, expecting what the audit saw: `locksim run <folder>` in the report folder
  // replays it, options and scaled times included.
  auto write_story = [&](scenario::Scenario s, const std::string& folder, const std::string& property,
                         model::Validity seen, const std::string& written_for) {
    const std::string as = written_for.empty() || written_for == s.lock.type
                               ? ""
                               : " (its story written for " + written_for + ", run as " + s.lock.type + ")";
    s.about = "As `" + command_of(a) + "` ran it" + as + ". " + s.about;
    if (seen != model::Validity::Unknown) s.expect = {{property, seen == model::Validity::No ? "violated" : "holds"}};
    s.file.clear();
    scenario::write_scenario_file(s, (std::filesystem::path(dir) / folder / "story.yaml").string());
  };
  for (const StoryRun& r : a.stories)
    write_story(r.scenario, slug(r.scenario.name), std::string(r.row->property), r.verdict(), r.file_lock_type);
  for (const MitigationRun& m : a.mitigations) {
    scenario::Scenario s = m.scenario;
    s.name = mitigation_folder(m);
    write_story(s, s.name, std::string(m.row->mitigation_property), verdict_of(m), "");
  }
}

bool write_self_check(const Audit& a, const TextStyle& style, std::ostream& out) {
  std::vector<std::vector<TextCell>> rows;
  bool all = true;
  auto stem = [](std::string_view path) { return std::filesystem::path(path).stem().string(); };
  for (const StoryRun& r : a.stories) {
    const bool agrees = r.agrees();
    all = all && agrees;
    rows.push_back({{issue_of(*r.row), Tone::Plain},
                    {r.table_affected ? "violated" : "holds", Tone::Plain},
                    {std::string(model::to_string(r.verdict())), Tone::Plain},
                    {agrees ? "yes" : "NO", agrees ? Tone::Green : Tone::Red},
                    {stem(r.row->story) + " (" + std::string(r.row->property) + ")", Tone::Dim}});
  }
  for (const MitigationRun& m : a.mitigations) {
    all = all && m.shown();
    rows.push_back({{issue_of(*m.row) + "'s mitigation", Tone::Plain},
                    {"holds", Tone::Plain},
                    {std::string(model::to_string(verdict_of(m))), Tone::Plain},
                    {m.shown() ? "yes" : "NO", m.shown() ? Tone::Green : Tone::Red},
                    {stem(m.row->mitigation_story) + " (" + std::string(m.row->mitigation_property) + ")", Tone::Dim}});
  }
  out << "\nSelf-check: each story's verdict against what locksim's version table says of " << version(a) << "\n";
  out << text_table({"row", "table says", "observed", "agrees", "story (property)"}, rows, 4, style, "  ", 20);
  out << (all ? "Every verdict as the version table says.\n"
              : "SOME VERDICTS DIFFER from the version table: a fault in locksim's model or table.\n");
  return all;
}

}  // namespace locksim::report

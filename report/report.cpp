#include "report/report.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <fstream>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <sstream>

#include "report/markup.hpp"
#include "report/outcome.hpp"
#include "report/run_index.hpp"
#include "report/timeline.hpp"
#include "report/verdict_json.hpp"

namespace locksim::report {

using scenario::ScenarioResult;
namespace {

// What write_reports writes: in the folder, and in each scenario's own folder within it.
constexpr const char* kIndexHtml = "index.html";
constexpr const char* kSummaryMd = "summary.md";
constexpr const char* kResultsJson = "results.json";
constexpr const char* kJunitXml = "junit.xml";
constexpr const char* kHistoryJsonl = "history.jsonl";
constexpr const char* kTimelineTxt = "timeline.txt";
constexpr const char* kTimelineHtml = "timeline.html";

struct Row {
  std::string scenario, lock, check, expected, observed;
  Outcome outcome;
  std::string detail;
};

// "rlock, Redisson 3.52.0": the lock type, and the version a Redisson lock ran as.
std::string lock_label(const ScenarioResult& r) {
  if (r.lock_type.empty()) return "-";
  return r.redisson.empty() ? r.lock_type : r.lock_type + ", Redisson " + r.redisson;
}

std::vector<Row> rows_of(const ScenarioResult& r) {
  std::vector<Row> rows;
  if (r.skipped) {
    rows.push_back({r.name, lock_label(r), "(skipped)", "-", "-", Outcome::Skipped, *r.skipped});
    return rows;
  }
  if (r.error) {
    const char* what = r.bad_input ? "(bad file)" : r.interrupted ? "(interrupted)" : r.setup_error ? "(setup)" : "(run)";
    rows.push_back({r.name, lock_label(r), what, "-", "error", Outcome::Error, *r.error});
    return rows;
  }
  for (const auto& p : r.properties) {
    std::string detail = p.verdict.explanation;
    if (!p.may_differ.empty()) detail = "may differ live, so not held to the expectation: " + p.may_differ + " " + detail;
    const std::string observed(model::to_string(p.verdict.valid));
    rows.push_back({r.name, lock_label(r), p.property, p.expected.empty() ? "-" : p.expected, observed,
                    outcome_of(p.expected, observed, p.passed), detail});
  }
  for (const auto& pin : r.pins) {
    const std::string what = "op " + pin.pin.client + ":" + std::to_string(pin.pin.thread) + " " + pin.pin.op + " #" +
                             std::to_string(pin.pin.nth);
    const std::string expected = pin.pin.value && pin.pin.result == "ok" ? "ok " + std::to_string(*pin.pin.value) : pin.pin.result;
    rows.push_back({r.name, lock_label(r), what, expected, pin.observed, pin.passed ? Outcome::Pass : Outcome::Fail, ""});
  }
  if (rows.empty()) rows.push_back({r.name, lock_label(r), "(no expectations)", "-", "-", Outcome::Seen, ""});
  return rows;
}

// `text` after `lead`, wrapped into lines of at most kTerminalColumns (each further line indented two
// spaces more than `lead` itself is), at most `max_lines` of them, the last then cut with "...": a
// long list of waiters must not flood the table (results.json has them all).
constexpr size_t kTerminalColumns = 100;
std::string wrapped(const std::string& lead, const std::string& text, size_t max_lines) {
  const std::string indent(std::min(lead.find_first_not_of(' '), lead.size()) + 2, ' ');
  std::vector<std::string> lines{lead};
  bool fresh = true;  // the last line has no word yet
  for (size_t at = 0; at < text.size();) {
    const size_t space = std::min(text.find(' ', at), text.size());
    const std::string word = text.substr(at, space - at);
    at = space + 1;
    if (fresh || lines.back().size() + 1 + word.size() <= kTerminalColumns) {
      lines.back() += (fresh ? "" : " ") + word;
      fresh = false;
      continue;
    }
    if (lines.size() == max_lines) {
      // Cut at a word, so that " ..." still fits.
      std::string& last = lines.back();
      while (last.size() + 4 > kTerminalColumns && last.rfind(' ') > indent.size()) last.erase(last.rfind(' '));
      last += " ...";
      break;
    }
    lines.push_back(indent + word);
  }
  std::string out;
  for (const std::string& line : lines) out += line + "\n";
  return out;
}

// Whether the scenario got a folder of its own (history and timelines): it ran, at least in part.
bool has_folder(const ScenarioResult& r) { return !(r.bad_input || r.skipped || (r.setup_error && r.history.size() == 0)); }

std::string md_cell(const std::string& s) {
  std::string out;
  for (const char c : s) out += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
  return out;
}

void write_file(const std::filesystem::path& path, const std::function<void(std::ostream&)>& write) {
  std::ofstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error(path.string() + ": cannot write");
  write(file);
  file.flush();
  if (!file) throw std::runtime_error(path.string() + ": write failed");
}

void write_file(const std::filesystem::path& path, const std::string& content) {
  write_file(path, [&](std::ostream& out) { out << content; });
}

// A file written elsewhere (a streamed history) moved to `to`: renamed, or copied then removed
// where a rename cannot cross file systems.
void move_file(const std::filesystem::path& from, const std::filesystem::path& to) {
  std::error_code ec;
  std::filesystem::rename(from, to, ec);
  if (!ec) return;
  std::filesystem::copy_file(from, to, std::filesystem::copy_options::overwrite_existing, ec);
  if (ec) throw std::runtime_error(to.string() + ": cannot move " + from.string() + " there (" + ec.message() + ")");
  std::filesystem::remove(from, ec);
}

// Scenarios, and rows by outcome. A check is a row with an expectation; a skipped one is neither
// passed nor failed (JUnit counts it among the tests, as skipped).
struct Counts {
  int scenarios = 0, checks = 0, passed = 0, failed = 0, bad = 0, skipped = 0, setup = 0, observed = 0;
  int pending = 0;  // scenarios with operations still under way at the end
};

// The result's rows as the run judged them, or as an audit reads them.
std::vector<Row> rows_of(const ScenarioResult& r, const RunInfo& info, size_t i) {
  std::vector<Row> rows = rows_of(r);
  if (i >= info.readings.size() || !info.readings[i] || r.error || r.skipped) return rows;
  const RowReading& reading = *info.readings[i];
  for (Row& row : rows) {
    if (reading.outcome) row.outcome = *reading.outcome;
    if (!reading.expected.empty()) row.expected = reading.before_expected ? reading.expected + " " + row.expected : reading.expected;
    if (!reading.note.empty()) row.detail = reading.note + (row.detail.empty() ? "" : " " + row.detail);
  }
  return rows;
}

Counts count(const std::vector<ScenarioResult>& results, const RunInfo& info = {}) {
  Counts c;
  for (size_t i = 0; i < results.size(); ++i) {
    const ScenarioResult& r = results[i];
    ++c.scenarios;
    if (r.bad_input) ++c.bad;
    if (r.skipped) ++c.skipped;
    if (r.setup_error) ++c.setup;
    if (!r.pending.empty()) ++c.pending;
    for (const auto& row : rows_of(r, info, i)) {
      if (row.outcome == Outcome::Seen) {
        ++c.observed;
        continue;
      }
      ++c.checks;
      if (is_failure(row.outcome)) ++c.failed;
      else if (row.outcome != Outcome::Skipped) ++c.passed;
    }
  }
  return c;
}

std::string summary_line(const Counts& c) {
  std::ostringstream out;
  out << c.scenarios << " scenarios, " << c.checks << " checks: " << c.passed << " passed, " << c.failed << " failed";
  if (c.observed) out << ", " << c.observed << " verdicts observed (no expectation)";
  if (c.bad) out << " (" << c.bad << " bad scenario file" << (c.bad > 1 ? "s" : "") << ")";
  if (c.setup) out << " (" << c.setup << " could not set up its servers)";
  if (c.skipped) out << " (" << c.skipped << " skipped)";
  if (c.pending)
    out << " (" << c.pending << " scenario" << (c.pending > 1 ? "s" : "") << " with operations pending at the end)";
  return out.str();
}

std::map<const ScenarioResult*, std::string> folders(const std::vector<ScenarioResult>& results) {
  std::map<const ScenarioResult*, std::string> names;
  std::map<std::string, int> used;
  for (const auto& r : results) {
    std::string name = slug(r.name);
    if (used[name]++ > 0) name.append("-").append(std::to_string(used[name]));
    names[&r] = name;
  }
  return names;
}

// "under 1 ms", "12 ms", "3.25 s", "61.3 s"
std::string seconds_text(double seconds) {
  std::ostringstream out;
  if (seconds < 0.0005) out << "under 1 ms";
  else if (seconds < 1) out << static_cast<int>(seconds * 1000 + 0.5) << " ms";
  else out << std::fixed << std::setprecision(seconds < 10 ? 2 : 1) << seconds << " s";
  return out.str();
}

// "fake", or "live, --time-scale 0.1"; the Redisson versions the locks ran as.
std::vector<std::pair<std::string, std::string>> facts_of(const std::vector<ScenarioResult>& results, const RunInfo& info) {
  std::vector<std::pair<std::string, std::string>> facts;
  std::set<std::string> backends, versions;
  double seconds = 0;
  for (const auto& r : results) {
    std::ostringstream backend;
    backend << r.backend;
    if (r.time_scale != 1.0) backend << ", --time-scale " << r.time_scale;
    backends.insert(backend.str());
    if (!r.redisson.empty()) versions.insert(r.redisson);
  }
  auto joined = [](const std::set<std::string>& words) {
    std::string text;
    for (const auto& w : words) text += (text.empty() ? "" : ", ") + w;
    return text;
  };
  if (!backends.empty()) facts.emplace_back("backend", joined(backends));
  if (!versions.empty()) facts.emplace_back("Redisson", joined(versions));
  facts.emplace_back("scenarios", std::to_string(results.size()));
  for (const double s : info.seconds) seconds += s;
  if (!info.seconds.empty()) facts.emplace_back("took", seconds_text(seconds));
  for (const auto& fact : info.facts) facts.push_back(fact);
  return facts;
}

IndexPage index_of(const std::vector<ScenarioResult>& results, const RunInfo& info,
                   const std::map<const ScenarioResult*, std::string>& folder_of) {
  IndexPage page;
  page.title = info.title;
  page.facts = facts_of(results, info);
  page.summary = info.summary.empty() ? summary_line(count(results, info)) : info.summary;
  page.advice = info.advice;
  page.expected_heading = info.expected_heading;
  page.failed_label = info.failed_label;
  for (size_t i = 0; i < results.size(); ++i) {
    const ScenarioResult& r = results[i];
    std::vector<IndexLink> links;
    if (has_folder(r)) {
      const std::string folder = folder_of.at(&r);
      links = {{"history", folder + "/history.jsonl"}};
      if (!r.history_file) links.insert(links.begin(), {"timeline", folder + "/timeline.html"});
    }
    std::string note = has_folder(r) ? "seed " + std::to_string(r.seed) : "";  // what did not run has no seed
    if (i < info.seconds.size() && has_folder(r)) note += ", " + seconds_text(info.seconds[i]);
    if (!r.faults.empty()) note += (note.empty() ? "faults: " : "; faults: ") + r.faults;
    if (r.ended_early_ms) note += "; ended at " + std::to_string(*r.ended_early_ms / 1000) + " s: every client idle";
    const std::string label = i < info.labels.size() ? info.labels[i] : "";
    // Two scenarios of one name are told apart by their folders (the page groups rows by name).
    const std::string& folder = folder_of.at(&r);
    const std::string name = folder == slug(r.name) ? r.name : r.name + " (" + folder + ")";
    const std::string pending = r.pending.empty() ? "" : r.pending.describe();
    for (Row& row : rows_of(r, info, i))
      page.rows.push_back({name, label.empty() ? r.about : label, r.lock_type, row.lock, row.check, row.expected,
                           row.observed, row.outcome, row.detail, links, note, pending});
  }
  return page;
}

std::string markdown_summary(const std::vector<ScenarioResult>& results, const RunInfo& info,
                             const std::map<const ScenarioResult*, std::string>& folder_of) {
  std::ostringstream md;
  md << "# " << info.title << "\n\n" << (info.summary.empty() ? summary_line(count(results, info)) : info.summary) << "\n\n";
  md << "`index.html` beside this file is the same table as a page, with filters.\n\n";
  md << "| scenario | lock | faults | property | expected | observed | result | seed | explanation | files |\n";
  md << "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
  for (size_t i = 0; i < results.size(); ++i) {
    const ScenarioResult& r = results[i];
    const std::string history = has_folder(r) ? "[history](" + folder_of.at(&r) + "/history.jsonl)" : "";
    const std::string files = !has_folder(r)   ? "-"
                              : r.history_file ? history + " (streamed: no timeline)"
                                               : "[timeline](" + folder_of.at(&r) + "/timeline.html) " + history;
    for (const auto& row : rows_of(r, info, i)) {
      const std::string result(outcome_label(row.outcome));
      md << "| " << md_cell(row.scenario) << " | " << md_cell(row.lock) << " | " << md_cell(r.faults.empty() ? "-" : r.faults)
         << " | " << md_cell(row.check) << " | " << md_cell(row.expected) << " | " << md_cell(row.observed) << " | "
         << (is_failure(row.outcome) ? "**" + result + "**" : result) << " | " << r.seed << " | "
         << (row.detail.empty() ? "-" : md_cell(row.detail)) << " | " << files << " |\n";
    }
  }
  bool pending = false;
  for (const auto& r : results) {
    if (r.pending.empty()) continue;
    if (!pending) md << "\nOperations still pending when the run ended:\n\n";
    pending = true;
    md << "- " << md_cell(r.name) << ": " << md_cell(r.pending.describe()) << "\n";
  }
  if (!results.empty())
    md << "\nBackend: " << results.front().backend
       << (results.front().time_scale != 1.0 ? ", --time-scale " + std::to_string(results.front().time_scale) : "")
       << ".\n";
  md << "\nPer scenario: `<name>/history.jsonl`, `<name>/timeline.txt`, `<name>/timeline.html`.\n";
  return md.str();
}

std::string junit_xml(const std::vector<ScenarioResult>& results, const RunInfo& info) {
  const Counts counts = count(results, info);
  auto time_attr = [](double seconds) {
    std::ostringstream t;
    t << " time=\"" << std::fixed << std::setprecision(3) << seconds << "\"";
    return t.str();
  };
  double total = 0;
  for (const double s : info.seconds) total += s;
  std::ostringstream xml;
  xml << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  xml << "<testsuites name=\"locksim\" tests=\"" << counts.checks << "\" failures=\""
      << counts.failed - counts.bad - counts.setup << "\" errors=\"" << counts.bad + counts.setup << "\" skipped=\""
      << counts.skipped << "\"" << (info.seconds.empty() ? "" : time_attr(total)) << ">\n";
  for (size_t i = 0; i < results.size(); ++i) {
    const ScenarioResult& r = results[i];
    auto rows = rows_of(r, info, i);
    std::erase_if(rows, [](const Row& row) { return row.outcome == Outcome::Seen; });  // nothing expected: no test
    int failures = 0;
    for (const auto& row : rows) failures += is_failure(row.outcome) ? 1 : 0;
    const bool error = r.bad_input || r.setup_error;
    // The scenario's seconds on its suite; its checks share that one run, so each case gets an even
    // share (the cases add up to the suite, as CI tools sum them).
    const bool timed = i < info.seconds.size();
    const double seconds = timed ? info.seconds[i] : 0;
    const std::string case_time = timed ? time_attr(rows.empty() ? 0 : seconds / static_cast<double>(rows.size())) : "";
    xml << "  <testsuite name=\"" << escape_markup(r.name) << "\" tests=\"" << rows.size() << "\" failures=\""
        << (error ? 0 : failures) << "\" errors=\"" << (error ? 1 : 0) << "\" skipped=\"" << (r.skipped ? 1 : 0) << "\""
        << (timed ? time_attr(seconds) : "") << ">\n";
    for (const auto& row : rows) {
      xml << "    <testcase classname=\"" << escape_markup(r.name) << "\" name=\"" << escape_markup(row.check) << "\""
          << case_time;
      if (row.outcome == Outcome::Skipped) {
        xml << "><skipped message=\"" << escape_markup(row.detail) << "\"/></testcase>\n";
        continue;
      }
      if (!is_failure(row.outcome)) {
        xml << "/>\n";
        continue;
      }
      xml << ">\n";
      const char* tag = error ? "error" : "failure";
      xml << "      <" << tag << " message=\"" << escape_markup(std::string(outcome_label(row.outcome))) << ": expected "
          << escape_markup(row.expected) << ", observed " << escape_markup(row.observed) << "\">" << escape_markup(row.detail)
          << "</" << tag << ">\n";
      xml << "    </testcase>\n";
    }
    xml << "  </testsuite>\n";
  }
  xml << "</testsuites>\n";
  return xml.str();
}

}  // namespace

std::string slug(const std::string& name) {
  std::string out;
  for (const char c : name) out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '-';
  return out.empty() ? "scenario" : out;
}

void print_table(std::ostream& out, const std::vector<ScenarioResult>& results) {
  std::vector<std::vector<Row>> rows;  // by scenario: its pending operations follow its rows
  for (const auto& r : results) rows.push_back(rows_of(r));
  size_t w[5] = {8, 4, 8, 8, 8};
  for (const auto& of : rows)
    for (const auto& row : of) {
      w[0] = std::max(w[0], row.scenario.size());
      w[1] = std::max(w[1], row.lock.size());
      w[2] = std::max(w[2], row.check.size());
    }
  w[0] = std::min<size_t>(w[0], 44);
  auto cell = [](const std::string& s, size_t width) {
    std::string t = s.size() > width ? s.substr(0, width - 1) + "~" : s;
    return t + std::string(width - t.size(), ' ');
  };
  out << cell("scenario", w[0]) << "  " << cell("lock", w[1]) << "  " << cell("property", w[2]) << "  "
      << cell("expected", w[3]) << "  " << cell("observed", w[4]) << "  result\n";
  out << std::string(w[0] + w[1] + w[2] + w[3] + w[4] + 16, '-') << "\n";
  for (size_t i = 0; i < results.size(); ++i) {
    for (const auto& row : rows[i]) {
      out << cell(row.scenario, w[0]) << "  " << cell(row.lock, w[1]) << "  " << cell(row.check, w[2]) << "  "
          << cell(row.expected, w[3]) << "  " << cell(row.observed, w[4]) << "  " << outcome_word(row.outcome) << "\n";
      const bool tell = is_failure(row.outcome) || row.outcome == Outcome::Skipped ||
                        (row.outcome == Outcome::Seen && row.observed != "holds");
      if (tell && !row.detail.empty()) out << "    " << row.detail << "\n";
    }
    // Said whatever the verdicts: a verdict that rests on how a waiting call ends is no settled one.
    if (!results[i].pending.empty()) out << wrapped("    pending: ", results[i].pending.describe(), 3);
  }
  // A long summary breaks before one of its parenthesised counts, not inside it.
  std::string summary = summary_line(count(results));
  for (size_t cut; summary.size() > kTerminalColumns && (cut = summary.rfind(" (", kTerminalColumns)) != std::string::npos &&
                   cut > 2;) {
    out << summary.substr(0, cut) << "\n";
    summary = "  " + summary.substr(cut + 1);
  }
  out << summary << "\n";
}

void write_reports(const std::string& dir, const std::vector<ScenarioResult>& results, const RunInfo& info) {
  const std::filesystem::path root(dir);
  std::error_code ec;
  std::filesystem::create_directories(root, ec);
  if (ec) throw std::runtime_error(dir + ": cannot create the report folder (" + ec.message() + ")");
  const auto folder_of = folders(results);
  const Counts counts = count(results, info);

  write_file(root / kIndexHtml, render_run_index(index_of(results, info, folder_of)));
  write_file(root / kSummaryMd, markdown_summary(results, info, folder_of));

  nlohmann::ordered_json json;
  json["scenarios"] = counts.scenarios;
  json["checks"] = counts.checks;
  json["passed"] = counts.passed;
  json["failed"] = counts.failed;
  json["bad_files"] = counts.bad;
  json["setup_errors"] = counts.setup;
  json["skipped"] = counts.skipped;
  json["scenarios_with_pending"] = counts.pending;
  json["results"] = nlohmann::ordered_json::array();
  for (size_t i = 0; i < results.size(); ++i) {
    const ScenarioResult& r = results[i];
    nlohmann::ordered_json s;
    s["name"] = r.name;
    s["file"] = r.file;
    s["lock"] = r.lock_type;
    if (!r.redisson.empty()) s["redisson"] = r.redisson;
    s["seed"] = r.seed;
    s["faults"] = r.faults;
    s["backend"] = r.backend;
    s["time_scale"] = r.time_scale;
    s["passed"] = r.passed();
    if (r.error) s["error"] = *r.error;
    if (r.setup_error) s["setup_error"] = true;
    if (r.interrupted) s["interrupted"] = true;
    if (r.skipped) s["skipped"] = *r.skipped;
    if (r.ended_early_ms) s["ended_early_ms"] = *r.ended_early_ms;  // live: the world settled before run_ms
    s["folder"] = folder_of.at(&r);
    // Always there, empty when nothing was left waiting, so that a reader need not tell "none" from
    // "not said".
    s["pending"] = nlohmann::ordered_json::array();
    for (const model::PendingOp& p : r.pending.ops)
      s["pending"].push_back({{"event", p.invoke}, {"op", p.op}, {"owner", p.owner}, {"f", p.f}, {"lock", p.lock},
                              {"since_ms", p.since_ms}, {"wait_ms", p.wait_ms}, {"open_ms", r.pending.end_ms - p.since_ms}});
    s["checks"] = nlohmann::ordered_json::array();
    for (const auto& row : rows_of(r, info, i)) {
      if (r.error || r.skipped) break;
      s["checks"].push_back({{"property", row.check}, {"expected", row.expected}, {"observed", row.observed},
                             {"passed", !is_failure(row.outcome)}, {"explanation", row.detail}});
      if (i < info.readings.size() && info.readings[i]) s["checks"].back()["reads"] = outcome_label(row.outcome);
    }
    for (size_t i = 0; i < r.properties.size(); ++i) {
      s["checks"][i]["anomaly"] = r.properties[i].verdict.anomaly;
      s["checks"][i]["witness"] = r.properties[i].verdict.witness;
      s["checks"][i]["evidence"] = evidence_json(r.properties[i].verdict);
      if (r.properties[i].expected.empty()) s["checks"][i]["observed_only"] = true;
      if (!r.properties[i].may_differ.empty()) s["checks"][i]["may_differ_live"] = r.properties[i].may_differ;
    }
    json["results"].push_back(std::move(s));
  }
  write_file(root / kResultsJson, json.dump(2) + "\n");

  write_file(root / kJunitXml, junit_xml(results, info));

  for (const auto& r : results) {
    if (!has_folder(r)) continue;
    const std::filesystem::path folder = root / folder_of.at(&r);
    std::filesystem::create_directories(folder, ec);
    if (ec) throw std::runtime_error(folder.string() + ": cannot create (" + ec.message() + ")");
    if (r.history_file) {
      // Streamed: the run wrote the history as it went; it moves here, and a history too long to hold
      // gets no timeline (one would hold it whole).
      move_file(*r.history_file, folder / kHistoryJsonl);
      for (const char* stale : {kTimelineHtml, kTimelineTxt}) std::filesystem::remove(folder / stale, ec);
      continue;
    }
    write_file(folder / kHistoryJsonl, [&](std::ostream& out) { r.history.write_jsonl(out); });
    TimelineInput input;
    input.title = r.name;
    input.about = r.about;
    input.lock = r.lock_name;
    input.lock_type = r.lock_type;
    input.redisson = r.redisson;
    input.clients = r.clients;
    input.history = &r.history;
    input.real_time = r.backend == "live";
    input.thread_wait_ms = r.thread_wait_ms;
    for (const auto& p : r.properties) {
      input.verdicts.push_back(p.verdict);
      input.expected.push_back(p.expected);
      input.met.push_back(p.passed);
    }
    write_file(folder / kTimelineTxt, [&](std::ostream& out) { write_timeline_text(input, out); });
    write_file(folder / kTimelineHtml, [&](std::ostream& out) { write_timeline_html(input, out); });
  }
}

void remove_reports(const std::string& dir, const std::string& name) {
  const std::filesystem::path root(dir);
  std::error_code ec;
  for (const char* file : {kIndexHtml, kSummaryMd, kResultsJson, kJunitXml}) std::filesystem::remove(root / file, ec);
  const std::filesystem::path folder = root / slug(name);
  for (const char* file : {kHistoryJsonl, kTimelineTxt, kTimelineHtml}) std::filesystem::remove(folder / file, ec);
  std::filesystem::remove(folder, ec);  // only if empty
}

}  // namespace locksim::report

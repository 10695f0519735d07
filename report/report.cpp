#include "report/report.hpp"

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "report/markup.hpp"
#include "report/timeline.hpp"
#include "report/verdict_json.hpp"

namespace locksim::report {

using scenario::ScenarioResult;
namespace {

struct Row {
  std::string scenario, lock, check, expected, observed;
  bool passed;
  std::string detail;
  bool observe = false;  // a verdict the file expected nothing of (observe mode)
  std::string result() const { return observe ? "seen" : passed ? "pass" : "FAIL"; }
};

// "rlock, Redisson 3.52.0": the lock type, and the version a Redisson lock ran as.
std::string lock_label(const ScenarioResult& r) {
  if (r.lock_type.empty()) return "-";
  return r.redisson.empty() ? r.lock_type : r.lock_type + ", Redisson " + r.redisson;
}

std::vector<Row> rows_of(const ScenarioResult& r) {
  std::vector<Row> rows;
  if (r.skipped) {
    rows.push_back({r.name, lock_label(r), "(skipped)", "-", "skipped", true, *r.skipped});
    return rows;
  }
  if (r.error) {
    const char* what = r.bad_input ? "(bad file)" : r.interrupted ? "(interrupted)" : r.setup_error ? "(setup)" : "(run)";
    rows.push_back({r.name, lock_label(r), what, "-", "error", false, *r.error});
    return rows;
  }
  for (const auto& p : r.properties) {
    std::string detail = p.verdict.explanation;
    if (!p.may_differ.empty()) detail = "may differ live, so not held to the expectation: " + p.may_differ + " " + detail;
    rows.push_back({r.name, lock_label(r), p.property, p.expected.empty() ? "-" : p.expected,
                    std::string(model::to_string(p.verdict.valid)), p.passed, detail, p.expected.empty()});
  }
  for (const auto& pin : r.pins) {
    const std::string what = "op " + pin.pin.client + ":" + std::to_string(pin.pin.thread) + " " + pin.pin.op + " #" +
                             std::to_string(pin.pin.nth);
    const std::string expected = pin.pin.value && pin.pin.result == "ok" ? "ok " + std::to_string(*pin.pin.value) : pin.pin.result;
    rows.push_back({r.name, lock_label(r), what, expected, pin.observed, pin.passed, ""});
  }
  if (rows.empty()) rows.push_back({r.name, lock_label(r), "(no expectations)", "-", "-", true, ""});
  return rows;
}

std::string md_cell(const std::string& s) {
  std::string out;
  for (const char c : s) out += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
  return out;
}

void write_file(const std::filesystem::path& path, const std::string& content) {
  std::ofstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error(path.string() + ": cannot write");
  file << content;
  if (!file) throw std::runtime_error(path.string() + ": write failed");
}

struct Counts {
  int scenarios = 0, checks = 0, passed = 0, failed = 0, bad = 0, skipped = 0, setup = 0, observed = 0;
};

Counts count(const std::vector<ScenarioResult>& results) {
  Counts c;
  for (const auto& r : results) {
    ++c.scenarios;
    if (r.bad_input) ++c.bad;
    if (r.skipped) ++c.skipped;
    if (r.setup_error) ++c.setup;
    for (const auto& row : rows_of(r)) {
      if (row.observe) {
        ++c.observed;
        continue;
      }
      ++c.checks;
      (row.passed ? c.passed : c.failed)++;
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

}  // namespace

std::string slug(const std::string& name) {
  std::string out;
  for (const char c : name) out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '-';
  return out.empty() ? "scenario" : out;
}

void print_table(std::ostream& out, const std::vector<ScenarioResult>& results) {
  std::vector<Row> rows;
  for (const auto& r : results)
    for (auto& row : rows_of(r)) rows.push_back(std::move(row));
  size_t w[5] = {8, 4, 8, 8, 8};
  for (const auto& row : rows) {
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
  for (const auto& row : rows) {
    out << cell(row.scenario, w[0]) << "  " << cell(row.lock, w[1]) << "  " << cell(row.check, w[2]) << "  "
        << cell(row.expected, w[3]) << "  " << cell(row.observed, w[4]) << "  " << row.result() << "\n";
    const bool tell = !row.passed || (row.observe && row.observed != "holds");
    if (tell && !row.detail.empty()) out << "    " << row.detail << "\n";
  }
  out << summary_line(count(results)) << "\n";
}

void write_reports(const std::string& dir, const std::vector<ScenarioResult>& results) {
  const std::filesystem::path root(dir);
  std::error_code ec;
  std::filesystem::create_directories(root, ec);
  if (ec) throw std::runtime_error(dir + ": cannot create the report folder (" + ec.message() + ")");
  const auto folder_of = folders(results);
  const Counts counts = count(results);

  std::ostringstream md;
  md << "# locksim run\n\n" << summary_line(counts) << "\n\n";
  md << "| scenario | lock | faults | property | expected | observed | result | seed |\n";
  md << "| --- | --- | --- | --- | --- | --- | --- | --- |\n";
  for (const auto& r : results)
    for (const auto& row : rows_of(r))
      md << "| " << md_cell(row.scenario) << " | " << md_cell(row.lock) << " | " << md_cell(r.faults.empty() ? "-" : r.faults)
         << " | " << md_cell(row.check) << " | " << row.expected << " | " << row.observed << " | "
         << (row.observe ? "seen" : row.passed ? "pass" : "**FAIL**") << " | " << r.seed << " |\n";
  bool notes = false;
  for (const auto& r : results) {
    const std::optional<std::string>& why = r.skipped ? r.skipped : r.error;
    if (!why) continue;
    if (!notes) md << "\n## Errors and skipped scenarios\n\n";
    notes = true;
    md << "- " << md_cell(r.name) << ": " << (r.skipped ? "skipped: " : "") << md_cell(*why) << "\n";
  }
  if (!results.empty())
    md << "\nBackend: " << results.front().backend
       << (results.front().time_scale != 1.0 ? ", --time-scale " + std::to_string(results.front().time_scale) : "")
       << ".\n";
  md << "\nPer scenario: `<name>/history.jsonl`, `<name>/timeline.txt`, `<name>/timeline.html`.\n";
  write_file(root / "summary.md", md.str());

  nlohmann::ordered_json json;
  json["scenarios"] = counts.scenarios;
  json["checks"] = counts.checks;
  json["passed"] = counts.passed;
  json["failed"] = counts.failed;
  json["bad_files"] = counts.bad;
  json["setup_errors"] = counts.setup;
  json["skipped"] = counts.skipped;
  json["results"] = nlohmann::ordered_json::array();
  for (const auto& r : results) {
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
    s["folder"] = folder_of.at(&r);
    s["checks"] = nlohmann::ordered_json::array();
    for (const auto& row : rows_of(r)) {
      if (r.error || r.skipped) break;
      s["checks"].push_back({{"property", row.check}, {"expected", row.expected}, {"observed", row.observed},
                             {"passed", row.passed}, {"explanation", row.detail}});
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
  write_file(root / "results.json", json.dump(2) + "\n");

  std::ostringstream xml;
  xml << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  xml << "<testsuites name=\"locksim\" tests=\"" << counts.checks << "\" failures=\""
      << counts.failed - counts.bad - counts.setup << "\" errors=\"" << counts.bad + counts.setup << "\" skipped=\""
      << counts.skipped << "\">\n";
  for (const auto& r : results) {
    auto rows = rows_of(r);
    std::erase_if(rows, [](const Row& row) { return row.observe; });
    int failures = 0;
    for (const auto& row : rows) failures += row.passed ? 0 : 1;
    const bool error = r.bad_input || r.setup_error;
    xml << "  <testsuite name=\"" << escape_markup(r.name) << "\" tests=\"" << rows.size() << "\" failures=\""
        << (error ? 0 : failures) << "\" errors=\"" << (error ? 1 : 0) << "\" skipped=\"" << (r.skipped ? 1 : 0) << "\">\n";
    for (const auto& row : rows) {
      if (row.observe) continue;  // a verdict nothing was expected of is no test
      xml << "    <testcase classname=\"" << escape_markup(r.name) << "\" name=\"" << escape_markup(row.check) << "\"";
      if (r.skipped) {
        xml << "><skipped message=\"" << escape_markup(*r.skipped) << "\"/></testcase>\n";
        continue;
      }
      if (row.passed) {
        xml << "/>\n";
        continue;
      }
      xml << ">\n";
      const char* tag = error ? "error" : "failure";
      xml << "      <" << tag << " message=\"expected " << escape_markup(row.expected) << ", observed "
          << escape_markup(row.observed) << "\">" << escape_markup(row.detail) << "</" << tag << ">\n";
      xml << "    </testcase>\n";
    }
    xml << "  </testsuite>\n";
  }
  xml << "</testsuites>\n";
  write_file(root / "junit.xml", xml.str());

  for (const auto& r : results) {
    if (r.bad_input || r.skipped || (r.setup_error && r.history.size() == 0)) continue;
    const std::filesystem::path folder = root / folder_of.at(&r);
    std::filesystem::create_directories(folder, ec);
    if (ec) throw std::runtime_error(folder.string() + ": cannot create (" + ec.message() + ")");
    write_file(folder / "history.jsonl", r.history.to_jsonl());
    TimelineInput input;
    input.title = r.name;
    input.about = r.about;
    input.lock = r.lock_name;
    input.lock_type = r.lock_type;
    input.redisson = r.redisson;
    input.clients = r.clients;
    input.history = &r.history;
    input.real_time = r.backend == "live";
    for (const auto& p : r.properties) {
      input.verdicts.push_back(p.verdict);
      input.expected.push_back(p.expected);
    }
    write_file(folder / "timeline.txt", render_timeline_text(input));
    write_file(folder / "timeline.html", render_timeline_html(input));
  }
}

}  // namespace locksim::report

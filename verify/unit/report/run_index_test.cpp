// The run index and the report files around it: index.html has a row per scenario and property
// with relative links, escapes every name, reads an expected violation apart from a regression and
// a skipped scenario as skipped; summary.md carries the explanation and the links; junit.xml times
// every case and skips what was skipped; the terminal never says "skipped pass".
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <unistd.h>

#include "app/explore_command.hpp"
#include "report/outcome.hpp"
#include "report/report.hpp"
#include "report/run_index.hpp"
#include "scenario/runner.hpp"

namespace locksim::report {
namespace {

const std::string kSource = LOCKSIM_SOURCE_DIR;

// The <tr> of each row, in order.
std::vector<std::string> rows_of(const std::string& html) {
  std::vector<std::string> rows;
  for (size_t at = html.find("<tr class=\"row "); at != std::string::npos; at = html.find("<tr class=\"row ", at + 1))
    rows.push_back(html.substr(at, html.find("</tr>", at) - at));
  return rows;
}

// Each scenario's <tbody>: its heading (name, links, note) and its rows.
std::vector<std::string> groups_of(const std::string& html) {
  std::vector<std::string> groups;
  for (size_t at = html.find("<tbody class=\"scenario\""); at != std::string::npos;
       at = html.find("<tbody class=\"scenario\"", at + 1))
    groups.push_back(html.substr(at, html.find("</tbody>", at) - at));
  return groups;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

long matches(const std::string& text, const std::string& pattern) {
  const std::regex re(pattern);
  return std::distance(std::sregex_iterator(text.begin(), text.end(), re), std::sregex_iterator());
}

IndexRow row(std::string scenario, std::string lock, std::string expected, std::string observed, Outcome outcome) {
  IndexRow r;
  r.scenario = std::move(scenario);
  r.lock = std::move(lock);
  r.property = "mutual_exclusion";
  r.expected = std::move(expected);
  r.observed = std::move(observed);
  r.outcome = outcome;
  return r;
}

TEST(Outcome, AViolationReadsByWhetherItWasExpected) {
  EXPECT_EQ(outcome_of("violated", "violated", true), Outcome::ExpectedViolation);
  EXPECT_EQ(outcome_of("holds", "violated", false), Outcome::UnexpectedViolation);
  EXPECT_EQ(outcome_of("violated", "holds", false), Outcome::MissedViolation);
  EXPECT_EQ(outcome_of("holds", "holds", true), Outcome::Pass);
  EXPECT_EQ(outcome_of("holds", "unknown", false), Outcome::Fail);
  EXPECT_EQ(outcome_of("", "violated", true), Outcome::Seen);
  EXPECT_NE(outcome_label(Outcome::ExpectedViolation), outcome_label(Outcome::UnexpectedViolation));
  EXPECT_NE(outcome_class(Outcome::ExpectedViolation), outcome_class(Outcome::UnexpectedViolation));
  EXPECT_FALSE(is_failure(Outcome::ExpectedViolation));
  EXPECT_TRUE(is_failure(Outcome::UnexpectedViolation));
  EXPECT_FALSE(is_failure(Outcome::Skipped));
  EXPECT_EQ(outcome_word(Outcome::Skipped), "skipped");
}

TEST(RunIndex, HasARowPerEntryWithItsLinksAndOutcome) {
  IndexPage page;
  page.title = "locksim run";
  page.facts = {{"backend", "fake"}, {"Redisson", "3.52.0"}};
  page.summary = "3 scenarios, 3 checks";
  IndexRow expected = row("lease-expires", "rlock", "violated", "violated", Outcome::ExpectedViolation);
  expected.explanation = "Let A:1 hold orders from 1 ms. Then B:1 acquired it.";
  expected.links = {{"timeline", "lease-expires/timeline.html"}, {"history", "lease-expires/history.jsonl"}};
  IndexRow regression = row("watchdog-broke", "fair", "holds", "violated", Outcome::UnexpectedViolation);
  IndexRow skipped = row("restart-aof", "rlock", "-", "-", Outcome::Skipped);
  skipped.explanation = "does not allow --time-scale";
  page.rows = {expected, regression, skipped};
  const std::string html = render_run_index(page);

  const auto rows = rows_of(html);
  ASSERT_EQ(rows.size(), 3u);
  const auto groups = groups_of(html);
  ASSERT_EQ(groups.size(), 3u) << "a heading per scenario";
  EXPECT_TRUE(has(groups[0], "href=\"lease-expires/timeline.html\"")) << groups[0];
  EXPECT_TRUE(has(groups[0], "href=\"lease-expires/history.jsonl\"")) << groups[0];
  EXPECT_TRUE(has(groups[0], rows[0])) << "the row under its scenario's heading";
  EXPECT_TRUE(has(rows[0], "Let A:1 hold orders from 1 ms. Then B:1 acquired it.")) << rows[0];
  // An expected violation is no failure and says so; an unexpected one is, in other words and colours.
  EXPECT_TRUE(has(rows[0], "is-expected") && has(rows[0], "data-failed=\"0\"") && has(rows[0], "pass: violation expected"))
      << rows[0];
  EXPECT_TRUE(has(rows[1], "is-unexpected") && has(rows[1], "data-failed=\"1\"") && has(rows[1], "FAIL: unexpected violation"))
      << rows[1];
  EXPECT_TRUE(has(rows[0], "data-violated=\"1\"") && has(rows[1], "data-violated=\"1\"") && has(rows[2], "data-violated=\"0\""));
  EXPECT_TRUE(has(rows[2], "is-skipped") && has(rows[2], ">skipped<") && has(rows[2], "does not allow --time-scale")) << rows[2];
  EXPECT_FALSE(has(rows[2], "pass")) << rows[2];
  EXPECT_FALSE(has(groups[2], "href=")) << "a skipped scenario has no files: " << groups[2];
  // The header says what ran and counts the outcomes; the lock filter offers each lock type once.
  EXPECT_TRUE(has(html, "backend: <b>fake</b>")) << html;
  EXPECT_TRUE(has(html, "Redisson: <b>3.52.0</b>"));
  EXPECT_TRUE(has(html, "1 FAIL: unexpected violation"));
  EXPECT_TRUE(has(html, "<option value=\"fair\">fair</option><option value=\"rlock\">rlock</option>")) << html;
  EXPECT_TRUE(has(html, "id=\"f-failed\"") && has(html, "id=\"f-violated\""));
}

TEST(RunIndex, IsSelfContainedAndEscapesEveryName) {
  IndexPage page;
  page.title = "run <1>";
  page.facts = {{"backend", "a&b"}};
  IndexRow r = row("<script>alert(1)</script>", "rlock\"x", "holds", "holds", Outcome::Pass);
  r.about = "A's \"lock\" & B's";
  r.explanation = "</td><td>broken";
  r.links = {{"time<line>", "a\"b/timeline.html"}};
  page.rows = {r};
  const std::string html = render_run_index(page);
  EXPECT_FALSE(has(html, "<script>alert")) << html;
  EXPECT_TRUE(has(html, "&lt;script&gt;alert(1)&lt;/script&gt;"));
  EXPECT_TRUE(has(html, "&lt;/td&gt;&lt;td&gt;broken"));
  EXPECT_TRUE(has(html, "data-lock=\"rlock&quot;x\""));
  EXPECT_TRUE(has(html, "href=\"a&quot;b/timeline.html\""));
  EXPECT_TRUE(has(html, "A&#39;s &quot;lock&quot; &amp; B&#39;s"));
  EXPECT_TRUE(has(html, "<title>run &lt;1&gt;</title>"));
  EXPECT_TRUE(has(html, "backend: <b>a&amp;b</b>"));
  // Exactly one inline script and style, nothing fetched.
  EXPECT_EQ(matches(html, "<script"), 1);
  EXPECT_TRUE(has(html, "<style>"));
  for (const char* fetch : {"src=", "http://", "https://", "<link", "@import"}) EXPECT_FALSE(has(html, fetch)) << fetch;
}

TEST(RunIndex, AnEmptyRunSaysSo) {
  IndexPage page;
  page.title = "locksim run";
  const std::string html = render_run_index(page);
  EXPECT_TRUE(rows_of(html).empty());
  EXPECT_TRUE(has(html, "Nothing ran."));
}

// The reports of a real run: one library scenario whose violation is expected, the same run with
// its expectation turned around (a regression), and a skipped scenario.
class RunReports : public ::testing::Test {
 protected:
  void SetUp() override {
    out_ = (std::filesystem::temp_directory_path() / ("locksim-index-" + std::to_string(::getpid()))).string();
    std::filesystem::remove_all(out_);
    scenario::ScenarioResult expected = scenario::run_scenario_file(kSource + "/scenarios/explicit-lease-no-renewal.yaml");
    ASSERT_TRUE(expected.passed());
    scenario::ScenarioResult regression = expected;
    regression.name = "explicit-lease-regressed";
    for (auto& p : regression.properties)
      if (p.property == "mutual_exclusion") p.expected = "holds", p.passed = false;
    scenario::ScenarioResult skipped;
    skipped.name = "redis-restart-aof";
    skipped.lock_type = "rlock";
    skipped.skipped = "the scenario does not allow --time-scale";
    results_ = {expected, regression, skipped};
    info_.seconds = {0.25, 0.5, 0};
    write_reports(out_, results_, info_);
  }
  void TearDown() override { std::filesystem::remove_all(out_); }
  std::string read(const std::string& name) const {
    std::ifstream file(out_ + "/" + name);
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
  }
  std::string out_;
  std::vector<scenario::ScenarioResult> results_;
  RunInfo info_;
};

TEST_F(RunReports, IndexHtmlHasEveryRowAndLinksThatExist) {
  const std::string html = read("index.html");
  const auto rows = rows_of(html);
  size_t expected_rows = 1;  // the skipped scenario
  for (const auto& r : results_) expected_rows += r.properties.size() + r.pins.size();
  ASSERT_EQ(rows.size(), expected_rows) << html;
  int violations_expected = 0, unexpected = 0, skipped = 0;
  for (const std::string& r : rows) {
    violations_expected += has(r, "is-expected");
    unexpected += has(r, "is-unexpected");
    skipped += has(r, "is-skipped");
  }
  const std::regex href("href=\"([^\"]+)\"");
  int links = 0;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), href); it != std::sregex_iterator(); ++it, ++links) {
    const std::string link = (*it)[1];
    EXPECT_FALSE(link.starts_with("/")) << "relative links only: " << link;
    EXPECT_TRUE(std::filesystem::exists(out_ + "/" + link)) << link;
  }
  EXPECT_EQ(links, 4) << "timeline and history of the two scenarios that ran";
  EXPECT_EQ(groups_of(html).size(), 3u);
  EXPECT_EQ(violations_expected, 1);
  EXPECT_EQ(unexpected, 1);
  EXPECT_EQ(skipped, 1);
  EXPECT_TRUE(has(html, "href=\"explicit-lease-no-renewal/timeline.html\""));
  EXPECT_TRUE(has(html, "href=\"explicit-lease-regressed/history.jsonl\""));
  EXPECT_TRUE(has(html, "seed 1, 250 ms")) << "each scenario's seed and time";
  // The checker's explanation of the violation is on the page.
  const std::string& explanation = results_[0].properties[0].verdict.explanation;
  ASSERT_FALSE(explanation.empty());
  EXPECT_TRUE(has(html, explanation.substr(0, 40)));
}

TEST_F(RunReports, SummaryMdHasTheExplanationAndRelativeLinks) {
  const std::string md = read("summary.md");
  EXPECT_TRUE(has(md, "| explanation | files |")) << md;
  EXPECT_TRUE(has(md, "[timeline](explicit-lease-no-renewal/timeline.html)")) << md;
  EXPECT_TRUE(has(md, "[history](explicit-lease-no-renewal/history.jsonl)")) << md;
  EXPECT_TRUE(has(md, "| pass: violation expected |")) << md;
  EXPECT_TRUE(has(md, "| **FAIL: unexpected violation** |")) << md;
  EXPECT_TRUE(has(md, "| skipped |")) << md;
  EXPECT_FALSE(has(md, "skipped | pass")) << md;
  EXPECT_TRUE(has(md, "the scenario does not allow --time-scale"));
  for (const auto& p : results_[0].properties) EXPECT_TRUE(has(md, p.verdict.explanation.substr(0, 40))) << p.property;
}

TEST_F(RunReports, JunitTimesEveryCaseAndSkipsTheSkipped) {
  const std::string xml = read("junit.xml");
  const std::regex testcase("<testcase [^>]*>");
  int cases = 0;
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), testcase); it != std::sregex_iterator(); ++it, ++cases)
    EXPECT_TRUE(std::regex_search(it->str(), std::regex(" time=\"[0-9]+\\.[0-9]{3}\""))) << it->str();
  EXPECT_GT(cases, 3);
  EXPECT_TRUE(has(xml, "<testsuite name=\"explicit-lease-no-renewal\" tests=\"")) << xml;
  EXPECT_TRUE(std::regex_search(xml, std::regex("<testsuite name=\"explicit-lease-no-renewal\"[^>]* time=\"0.250\"")));
  EXPECT_TRUE(std::regex_search(xml, std::regex("<testsuites [^>]* time=\"0.750\"")));
  EXPECT_TRUE(std::regex_search(
      xml, std::regex("<testcase classname=\"redis-restart-aof\" name=\"\\(skipped\\)\"[^>]*><skipped message=\"the scenario "
                      "does not allow --time-scale\"/></testcase>")))
      << xml;
  EXPECT_EQ(matches(xml, "<failure "), 1)
      << "the regression, and only it, fails";
}

TEST_F(RunReports, TheTableNeverSaysSkippedPass) {
  std::ostringstream table;
  print_table(table, results_);
  EXPECT_FALSE(has(table.str(), "skipped  pass")) << table.str();
  EXPECT_TRUE(std::regex_search(table.str(), std::regex("redis-restart-aof +rlock +\\(skipped\\) +- +- +skipped\n")))
      << table.str();
  EXPECT_TRUE(has(table.str(), "    the scenario does not allow --time-scale\n")) << "why it was skipped";
}

// Explore's page: #2018's finding (seed 1, Redisson 3.10.5 against 3.10.6: the unlock of a missing
// key answers 1) is a failed row linking to both sides' shrunk scenario and timeline, with its seed
// count.
TEST(ExploreIndex, AFindingIsARowWithItsReplayFiles) {
  const auto dir = std::filesystem::temp_directory_path() / ("locksim-explore-index-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  app::ExploreOptions o;
  o.config.lock_type = "rlock";
  o.config.faults = {"crash", "pause", "delay"};
  o.config.properties = {"mutual_exclusion", "reentrancy", "watchdog", "liveness"};
  o.config.lock_options = {{"redisson", "3.10.5"}};
  o.config.against = explore::Variation{{{"redisson", "3.10.6"}}, {}};
  o.seed_first = o.seed_last = 1;
  o.cases_dir = (dir / "cases").string();
  std::ostringstream out, err;
  ASSERT_EQ(app::run_explore(o, out, err), 1) << out.str() << err.str();
  std::ifstream file(dir / "cases" / "index.html");
  ASSERT_TRUE(file) << "no index.html: " << out.str();
  std::ostringstream text;
  text << file.rdbuf();
  const std::string html = text.str();
  const auto rows = rows_of(html);
  ASSERT_EQ(rows.size(), 1u) << html;
  // A differential finding differs: it is not a test that failed.
  EXPECT_TRUE(has(rows[0], "is-differs") && has(rows[0], "reentrancy (unlock-by-non-holder)")) << rows[0];
  EXPECT_FALSE(has(rows[0], "unexpected violation")) << rows[0];
  const auto groups = groups_of(html);
  ASSERT_EQ(groups.size(), 1u);
  for (const char* file_name : {"seed-1.yaml", "seed-1.html", "seed-1-against.yaml", "seed-1-against.html"}) {
    EXPECT_TRUE(has(groups[0], std::string("href=\"") + file_name + "\"")) << file_name << "\n" << groups[0];
    EXPECT_TRUE(std::filesystem::exists(dir / "cases" / file_name)) << file_name;
  }
  EXPECT_TRUE(has(groups[0], "1 seed (first 1)")) << groups[0];
  EXPECT_TRUE(has(html, "--against: <b>redisson=3.10.6</b>")) << html;
  std::filesystem::remove_all(dir);
}

// Without a finding, explore leaves the working directory alone.
TEST(ExploreIndex, NoFindingWritesNoPage) {
  const auto dir = std::filesystem::temp_directory_path() / ("locksim-explore-clean-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  app::ExploreOptions o;
  o.config.lock_type = "rlock";
  o.seed_first = 1;
  o.seed_last = 3;
  o.cases_dir = (dir / "cases").string();
  std::ostringstream out, err;
  ASSERT_EQ(app::run_explore(o, out, err), 0) << out.str() << err.str();
  EXPECT_FALSE(std::filesystem::exists(dir / "cases")) << out.str();
}

}  // namespace
}  // namespace locksim::report

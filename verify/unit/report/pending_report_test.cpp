// Operations still waiting when the run ended, in every report of it (DESIGN.md, Properties: "An
// operation still waiting when the run ends is reported as pending"). The fixture
// verify/scenario/pending-lock-waiter.yaml: A holds orders with the watchdog for good, B's lock() at
// 100 ms is still waiting at 20 s. Its twin asks with a 1 s tryLock instead, which fails at 1.1 s:
// nothing is pending there, and no report says anything more than before.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <unistd.h>

#include "report/report.hpp"
#include "report/run_index.hpp"
#include "report/timeline.hpp"
#include "report/timeline_layout.hpp"
#include "scenario/loader.hpp"
#include "scenario/runner.hpp"

namespace locksim::report {
namespace {

const std::string kFixture = std::string(LOCKSIM_SOURCE_DIR) + "/verify/scenario/pending-lock-waiter.yaml";
const std::string kSentence = "1 lock() call still waiting at the end (B:1 since 100 ms)";

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string read(const std::filesystem::path& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// Each scenario's <tbody> in index.html, by its name.
std::string group_of(const std::string& html, const std::string& name) {
  for (size_t at = html.find("<tbody class=\"scenario\""); at != std::string::npos;
       at = html.find("<tbody class=\"scenario\"", at + 1)) {
    const std::string group = html.substr(at, html.find("</tbody>", at) - at);
    if (has(group, "<span class=\"name\">" + name + "</span>")) return group;
  }
  return "";
}

// A client thread's lane in a timeline page: from its group up to the next lane's.
std::string lane_markup(const std::string& html, const std::string& lane) {
  const size_t at = html.find("data-lane=\"" + lane + "\"");
  if (at == std::string::npos) return "";
  return html.substr(at, html.find("<g class=\"lane", at) - at);
}

class PendingReports : public ::testing::Test {
 protected:
  void SetUp() override {
    out_ = std::filesystem::temp_directory_path() / ("locksim-pending-" + std::to_string(::getpid()));
    std::filesystem::remove_all(out_);
    const scenario::Scenario waiting = scenario::load_scenario(kFixture);
    scenario::Scenario twin = waiting;
    twin.name = "waiter-twin";
    twin.about = "A holds orders for good; B's 1 s tryLock gives up at 1.1 s.";
    ASSERT_EQ(twin.timeline.size(), 2u);
    twin.timeline[1].op = world::OpSpec::try_lock("orders", 1000);
    results_ = {scenario::run_scenario(waiting), scenario::run_scenario(twin)};
    ASSERT_FALSE(results_[0].error) << *results_[0].error;
    ASSERT_FALSE(results_[1].error) << *results_[1].error;
    write_reports(out_.string(), results_);
  }
  void TearDown() override { std::filesystem::remove_all(out_); }
  std::filesystem::path out_;
  std::vector<scenario::ScenarioResult> results_;
};

TEST_F(PendingReports, TheTableNamesThemAfterTheScenarioAndTheSummaryCountsIt) {
  std::ostringstream table;
  print_table(table, results_);
  const std::string text = table.str();
  // The line follows the waiting scenario's last row (its op pin), before the twin's first.
  const size_t note = text.find("\n    pending: " + kSentence + "\n");
  ASSERT_NE(note, std::string::npos) << text;
  const std::string before = text.substr(text.rfind('\n', note - 1) + 1, note - text.rfind('\n', note - 1) - 1);
  EXPECT_TRUE(std::regex_match(before, std::regex("pending-lock-waiter +rlock, Redisson [0-9.]+ +op A:1 lock #1 .*"))) << before;
  EXPECT_TRUE(text.substr(note + kSentence.size() + 15).starts_with("waiter-twin ")) << text;
  EXPECT_EQ(text.find("    pending: ", note + 2), std::string::npos) << "one note, for the one scenario: " << text;
  EXPECT_TRUE(has(text, " (1 scenario with operations pending at the end)\n")) << text;

  std::ostringstream twin;
  print_table(twin, {results_[1]});
  EXPECT_FALSE(has(twin.str(), "pending")) << twin.str();
}

TEST_F(PendingReports, ResultsJsonHasAPendingArrayForEveryScenario) {
  const auto json = nlohmann::json::parse(read(out_ / "results.json"));
  EXPECT_EQ(json["scenarios_with_pending"], 1);
  const auto& waiting = json["results"][0];
  ASSERT_EQ(waiting["name"], "pending-lock-waiter");
  ASSERT_TRUE(waiting["pending"].is_array());
  ASSERT_EQ(waiting["pending"].size(), 1u) << waiting["pending"].dump();
  const auto& op = waiting["pending"][0];
  EXPECT_EQ(op["owner"], "B:1");
  EXPECT_EQ(op["f"], "lock");
  EXPECT_EQ(op["lock"], "orders");
  EXPECT_EQ(op["since_ms"], 100);
  EXPECT_EQ(op["wait_ms"], -1) << "lock() waits for ever";
  EXPECT_EQ(op["open_ms"], 19900);
  // Its event is B's lock() in the history beside it, and so is its op id.
  const model::Event& invoke = results_[0].history[op["event"].get<size_t>()];
  EXPECT_EQ(invoke.kind, model::EventKind::Invoke);
  EXPECT_EQ(invoke.owner(), "B:1");
  EXPECT_EQ(invoke.f.str(), "lock");
  EXPECT_EQ(op["op"], invoke.op);

  const auto& twin = json["results"][1];
  ASSERT_EQ(twin["name"], "waiter-twin");
  ASSERT_TRUE(twin.contains("pending")) << "present when empty, so that readers can rely on it";
  EXPECT_EQ(twin["pending"], nlohmann::json::array());
}

TEST_F(PendingReports, IndexHtmlMarksTheScenarioAndOnlyIt) {
  const std::string html = read(out_ / "index.html");
  const std::string waiting = group_of(html, "pending-lock-waiter");
  const std::string twin = group_of(html, "waiter-twin");
  ASSERT_NE(waiting, "") << html;
  ASSERT_NE(twin, "") << html;
  EXPECT_TRUE(has(waiting, "<div class=\"pending\"><span class=\"badge pending\">pending</span> " + kSentence + "</div>"))
      << waiting;
  EXPECT_TRUE(has(waiting, "data-pending=\"1\"")) << waiting;
  EXPECT_FALSE(has(waiting, "data-pending=\"0\"")) << "every row of the scenario is marked: " << waiting;
  EXPECT_FALSE(has(twin, "class=\"pending\"")) << twin;
  EXPECT_FALSE(has(twin, "data-pending=\"1\"")) << twin;
  EXPECT_TRUE(has(html, "<span class=\"chip pending\">1 scenario with pending operations</span>")) << html;
  EXPECT_TRUE(has(html, "id=\"f-pending\"")) << "no filter for them";

  // The twin's run alone: no badge, no count, no filter that could only empty the page.
  const auto alone = out_ / "alone";
  write_reports(alone.string(), {results_[1]});
  std::string quiet = read(alone / "index.html");
  quiet.resize(quiet.find("<script>"));  // the page's script knows of the filter, whether or not it is offered
  for (const char* part : {"class=\"pending\"", "chip pending", "f-pending", "data-pending=\"1\"", "pending operations"})
    EXPECT_FALSE(has(quiet, part)) << part;
  EXPECT_EQ(nlohmann::json::parse(read(alone / "results.json"))["scenarios_with_pending"], 0);
  EXPECT_FALSE(has(read(alone / "summary.md"), "pending")) << read(alone / "summary.md");
}

TEST_F(PendingReports, SummaryMdListsThem) {
  const std::string md = read(out_ / "summary.md");
  EXPECT_TRUE(has(md, "\nOperations still pending when the run ended:\n\n- pending-lock-waiter: " + kSentence + "\n")) << md;
  EXPECT_FALSE(has(md, "- waiter-twin")) << md;
}

TEST_F(PendingReports, TheTimelineDrawsTheOpenWaitToTheEndAndOpensOnIt) {
  const std::string html = read(out_ / "pending-lock-waiter" / "timeline.html");
  // The header names it, with a link that selects B's lock() on the plot.
  const size_t event = results_[0].pending.ops.at(0).invoke;
  const std::string n = std::to_string(event);
  EXPECT_TRUE(has(html, "<b>pending at the end:</b> " + kSentence)) << "no note in the header";
  EXPECT_TRUE(has(html, "<a href=\"#select=" + n + "\" data-select=\"" + n + "\">B:1 lock() orders #" + n + "</a>"));
  // B's wait runs from its invoke to the run's end, and its arrow sits at the end.
  const std::string b = lane_markup(html, "B:1");
  ASSERT_NE(b, "");
  const std::regex wait("<rect [^>]*data-t0=\"100\" data-t1=\"20000\"[^>]*class=\"op wait open pending\"[^>]*data-ev=\"" + n + "\"");
  EXPECT_TRUE(std::regex_search(b, wait)) << b;
  EXPECT_TRUE(std::regex_search(b, std::regex("<g transform=\"[^\"]*\" data-t0=\"20000\"[^>]*class=\"mark pending-end\" data-ev=\"" + n + "\"")))
      << b;
  EXPECT_TRUE(has(b, "pending: still waiting when the run ended, after 19900 ms")) << b;
  EXPECT_TRUE(has(html, "data-for=\".op.pending,.mark.pending-end\"")) << "no legend entry";
  // The fitted view holds the whole wait: it runs to the run's end.
  EXPECT_TRUE(std::regex_search(html, std::regex("data-view0=\"([0-9]|[1-9][0-9])\" data-view1=\"20000\""))) << "the view";

  const std::string text = read(out_ / "pending-lock-waiter" / "timeline.txt");
  EXPECT_TRUE(has(text, "\npending at the end: " + kSentence + " [invoked: #" + n + "]\n")) << text;

  // The twin's pages say nothing of it.
  const std::string twin = read(out_ / "waiter-twin" / "timeline.html");
  ASSERT_FALSE(twin.empty());
  // (The legend has an entry for it on every page; the page's script shows it where the plot has one.)
  const std::string plot = twin.substr(twin.find("<svg id=\"plot\""));
  EXPECT_FALSE(has(twin, "pending at the end"));
  for (const char* part : {"class=\"mark pending-end\"", "open pending", "still waiting at the end"})
    EXPECT_FALSE(has(plot, part)) << part;
  EXPECT_FALSE(has(read(out_ / "waiter-twin" / "timeline.txt"), "pending at the end"));
}

// A wait that opens late in a long run still pulls the fitted view to the run's end, while a run
// with nothing pending keeps opening on its last event.
TEST(PendingTimeline, TheFittedViewNeverHidesAnOpenWait) {
  const auto event = [](int64_t t, model::EventKind kind, const char* process, int64_t op, const char* f) {
    model::Event e;
    e.at_ms = t;
    e.kind = kind;
    e.process = process;
    e.thread = 1;
    e.op = op;
    e.f = f;
    e.lock = "orders";
    return e;
  };
  model::Event end;
  end.at_ms = 60000;
  end.kind = model::EventKind::End;
  end.process = "world";
  // A holds orders from 1 s to 2 s; B asks at 1.5 s. `answered`: B gets it at 2.1 s.
  const auto history = [&](bool answered) {
    model::History h;
    h.add(event(1000, model::EventKind::Invoke, "A", 1, "lock"));
    h.add(event(1010, model::EventKind::Ok, "A", 1, "lock"));
    h.add(event(1500, model::EventKind::Invoke, "B", 2, "lock"));
    h.add(event(2000, model::EventKind::Invoke, "A", 3, "unlock"));
    h.add(event(2010, model::EventKind::Ok, "A", 3, "unlock"));
    if (answered) h.add(event(2100, model::EventKind::Ok, "B", 2, "lock"));
    h.add(end);
    return h;
  };
  const model::History waiting = history(false);
  TimelineInput in;
  in.history = &waiting;
  const timeline::Layout L(in);
  ASSERT_EQ(L.pending.ops.size(), 1u);
  EXPECT_LE(L.view.first, 1500) << "from before B's invoke";
  EXPECT_EQ(L.view.second, 60000) << "to the run's end, where B is still waiting";

  const model::History answered = history(true);
  in.history = &answered;
  const timeline::Layout closed(in);
  EXPECT_TRUE(closed.pending.empty());
  EXPECT_GT(closed.view.second, 2100);
  EXPECT_LE(closed.view.second, 2300) << "nothing open: the view ends near the last event";
}

// However many are waiting, the table's note keeps within 100 columns and three lines, and so does
// the summary line that counts the scenario.
TEST(PendingTable, ALongListIsWrappedAndCut) {
  scenario::ScenarioResult r;
  r.name = "many-waiters";
  r.lock_type = "fair";
  for (int i = 0; i < 40; ++i)
    r.pending.ops.push_back({.op = i + 1, .owner = "C" + std::to_string(i) + ":1", .f = "lock", .lock = "orders",
                             .invoke = i * 3, .since_ms = 1000 + i * 250});
  r.pending.end_ms = 60000;
  std::ostringstream table;
  print_table(table, {r});
  std::vector<std::string> lines;
  std::istringstream in(table.str());
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  size_t note = 0;
  while (note < lines.size() && !lines[note].starts_with("    pending: 40 lock() calls still waiting at the end (C0:1 since 1000 ms,"))
    ++note;
  ASSERT_LT(note + 3, lines.size()) << table.str();
  EXPECT_TRUE(lines[note + 1].starts_with("      since ")) << "continued under the note: " << table.str();
  EXPECT_TRUE(lines[note + 2].ends_with(" ...")) << "cut after three lines: " << table.str();
  ASSERT_EQ(lines.size(), note + 5) << table.str();
  EXPECT_TRUE(lines[note + 3].starts_with("1 scenarios, ")) << "then the summary: " << table.str();
  EXPECT_EQ(lines[note + 4], "  (1 scenario with operations pending at the end)") << "broken before a count: " << table.str();
  for (const std::string& line : lines) EXPECT_LE(line.size(), 100u) << line;
}

}  // namespace
}  // namespace locksim::report

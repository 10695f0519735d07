// The timelines of a run: the HTML has a lane per client thread and per server, the violation in a
// red box with the checker's words, nothing fetched from the network, every name escaped; the text
// has a line per event. With LOCKSIM_TIMELINE_OUT set, one test writes its HTML there (for the
// Chromium check, verify/scenario/timeline_chromium.sh).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include "report/markup.hpp"
#include "report/timeline.hpp"
#include "model/checkers.hpp"
#include "sim/simulation.hpp"

namespace locksim::report {
namespace {



using client::LockSpec;
using world::OpSpec;
using world::World;
using world::WorldOptions;

OpSpec lock_op(const std::string& lock, int64_t lease_ms = -1) { return OpSpec::lock_op(lock, lease_ms); }
OpSpec try_lock_op(const std::string& lock, int64_t wait_ms, int64_t lease_ms = -1) {
  return OpSpec::try_lock(lock, wait_ms, lease_ms);
}
OpSpec unlock_op(const std::string& lock) { return OpSpec::unlock(lock); }
OpSpec work_op(int64_t ms) { return OpSpec::work(ms); }

struct StoryRun {
  std::unique_ptr<sim::Simulation> sim;
  TimelineInput input;
};

StoryRun make_run(const std::string& lock, const std::vector<std::string>& clients) {
  StoryRun run;
  run.sim = std::make_unique<sim::Simulation>(WorldOptions{});
  LockSpec spec;
  spec.type = "rlock";
  spec.name = lock;
  run.sim->world.add_lock(spec);
  for (const auto& c : clients) run.sim->world.add_client(c);
  run.input.lock = lock;
  run.input.clients = clients;
  return run;
}

void judge(StoryRun& run) {
  run.input.history = &run.sim->world.history();
  run.input.verdicts = model::run_checkers(run.sim->world.history(), {"mutual_exclusion", "watchdog", "liveness"});
}

// WorldStories.AnExplicitLeaseShorterThanTheWorkBreaksMutualExclusion, with a third client waiting.
StoryRun explicit_lease_story(const std::string& lock = "orders", const std::string& third = "C") {
  StoryRun run = make_run(lock, {"A", "B", third});
  World& w = run.sim->world;
  w.op(0, "A", 1, lock_op(lock, 10000));
  w.op(0, "A", 1, work_op(20000));
  w.op(0, "A", 1, unlock_op(lock));
  w.op(1000, "B", 1, try_lock_op(lock, 15000));
  w.op(2000, third, 1, lock_op(lock));
  w.op(2000, third, 1, unlock_op(lock));
  w.inject(4000, {.kind = world::FaultKind::Pause, .client = third, .for_ms = 3000});
  w.run_until(30000);
  run.input.title = "explicit lease shorter than the work";
  run.input.about = "A takes " + lock + " with a 10 s lease and works 20 s; B's tryLock gets it when the lease runs out.";
  judge(run);
  return run;
}

// The story the screenshot shows: a watchdog holder paused past its lease, a second client taking
// the lock, a third waiting through a partition, and a restart without persistence.
StoryRun showcase_story() {
  StoryRun run = make_run("orders", {"A", "B", "C"});
  World& w = run.sim->world;
  w.op(0, "A", 1, lock_op("orders"));
  w.op(0, "A", 1, work_op(5000));
  w.inject(3000, {.kind = world::FaultKind::Pause, .client = "A", .for_ms = 40000});
  w.op(0, "A", 1, unlock_op("orders"));
  w.op(500, "B", 1, try_lock_op("orders", 60000));
  w.op(500, "B", 1, work_op(8000));
  w.op(500, "B", 1, unlock_op("orders"));
  w.op(1000, "C", 1, lock_op("orders"));
  w.op(1000, "C", 1, work_op(4000));
  w.op(1000, "C", 1, unlock_op("orders"));
  w.inject(20000, {.kind = world::FaultKind::Partition, .client = "C", .for_ms = 6000});
  w.inject(47000, {.kind = world::FaultKind::RedisRestart, .persistence = world::Persistence::None});
  w.op(50000, "B", 1, lock_op("orders"));
  w.op(50000, "B", 1, work_op(3000));
  w.op(50000, "B", 1, unlock_op("orders"));
  w.run_until(60000);
  run.input.title = "a paused watchdog holder";
  run.input.about =
      "A holds orders with the watchdog and is paused for 40 s; its key expires, B and then C take the lock, "
      "and A wakes up believing it still holds it. C is partitioned for 6 s; the server restarts without persistence.";
  judge(run);
  return run;
}

size_t count(const std::string& haystack, const std::string& needle) {
  size_t n = 0;
  for (size_t at = haystack.find(needle); at != std::string::npos; at = haystack.find(needle, at + needle.size())) ++n;
  return n;
}

// The element nesting of the markup from `from` on: every start tag closed in order (self-closing
// and HTML void elements aside). Returns "" or what is wrong.
std::string nesting_problem(const std::string& html, size_t from) {
  std::vector<std::string> open;
  for (size_t i = html.find('<', from); i != std::string::npos; i = html.find('<', i + 1)) {
    if (html.compare(i, 9, "<!DOCTYPE") == 0) continue;
    const size_t end = html.find('>', i);
    if (end == std::string::npos) return "unterminated tag at " + std::to_string(i);
    const std::string tag = html.substr(i + 1, end - i - 1);
    if (tag.empty()) return "empty tag at " + std::to_string(i);
    if (tag.find('<') != std::string::npos) return "'<' inside a tag at " + std::to_string(i);
    const bool closing = tag[0] == '/';
    const std::string name = tag.substr(closing ? 1 : 0, tag.find_first_of(" />", 1) - (closing ? 1 : 0));
    if (name == "meta" || name == "br" || tag.back() == '/') {
      i = end;
      continue;
    }
    if (!closing) open.push_back(name);
    else if (open.empty() || open.back() != name) return "</" + name + "> closes <" + (open.empty() ? "" : open.back()) + ">";
    else open.pop_back();
    if (name == "style" || name == "script") {  // their content is not markup
      if (!closing) i = html.find("</" + name + ">", end) - 1;
      continue;
    }
    i = end;
  }
  return open.empty() ? "" : "<" + open.back() + "> never closed";
}

TEST(Timeline, TheHtmlHasALaneForEveryClientThreadAndTheServer) {
  StoryRun run = explicit_lease_story();
  const std::string html = render_timeline_html(run.input);
  for (const char* lane : {"A:1", "B:1", "C:1", "redis0"})
    EXPECT_NE(html.find("class=\"lane" + std::string(lane[0] == 'r' ? " server" : "") + "\" data-lane=\"" + lane + "\""),
              std::string::npos) << lane;
  EXPECT_EQ(count(html, "data-lane="), 4u);
  EXPECT_NE(html.find("class=\"hold"), std::string::npos) << "no believed-holding bar";
  EXPECT_NE(html.find("class=\"op wait"), std::string::npos) << "no wait bar";
  EXPECT_NE(html.find("class=\"key"), std::string::npos) << "no key bar";
  EXPECT_NE(html.find("class=\"fault pause"), std::string::npos) << "no pause span";
  EXPECT_NE(html.find("virtual time (ms)"), std::string::npos);
  EXPECT_EQ(nesting_problem(html, 0), "");
}

TEST(Timeline, AViolationIsARedBoxWithTheCheckersExplanationAndRingedWitnesses) {
  StoryRun run = explicit_lease_story();
  const model::Verdict* broken = nullptr;
  for (const auto& v : run.input.verdicts)
    if (v.valid == model::Validity::No) broken = &v;
  ASSERT_NE(broken, nullptr) << "the story should break mutual exclusion";
  const std::string html = render_timeline_html(run.input);
  const size_t box = html.find("<section class=\"violations\"");
  ASSERT_NE(box, std::string::npos);
  const size_t box_end = html.find("</section>", box);
  const std::string in_box = html.substr(box, box_end - box);
  EXPECT_NE(in_box.find("jump to first violation"), std::string::npos);
  EXPECT_NE(in_box.find(broken->anomaly), std::string::npos);
  // The explanation as the checker wrote it, escaped for HTML ("A:1's" and the like).
  EXPECT_NE(in_box.find(escape_markup(broken->explanation)), std::string::npos) << broken->explanation;
  EXPECT_LT(box, html.find("<svg id=\"plot\"")) << "the box comes before the plot";
  for (int64_t i : broken->witness)
    EXPECT_NE(html.find("class=\"witness\" data-violation=\"0\" data-ev=\"" + std::to_string(i) + "\""), std::string::npos) << i;
  EXPECT_NE(html.find("class=\"overlap\""), std::string::npos) << "the overlapping holds are not marked";
}

TEST(Timeline, ARunWithoutViolationsHasNoRedBox) {
  StoryRun run = make_run("orders", {"A"});
  run.sim->world.op(0, "A", 1, lock_op("orders"));
  run.sim->world.op(0, "A", 1, unlock_op("orders"));
  run.sim->world.run_until(1000);
  judge(run);
  const std::string html = render_timeline_html(run.input);
  EXPECT_EQ(html.find("class=\"violations\""), std::string::npos);
  EXPECT_EQ(html.find("class=\"witness\""), std::string::npos);
  EXPECT_NE(html.find("data-lane=\"A:1\""), std::string::npos);
}

TEST(Timeline, TheHtmlFetchesNothingFromTheNetwork) {
  StoryRun run = showcase_story();
  const std::string html = render_timeline_html(run.input);
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("//cdn"), std::string::npos);
  EXPECT_EQ(html.find(" src="), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("@import"), std::string::npos);
  EXPECT_EQ(nesting_problem(html, 0), "");
}

TEST(Timeline, NamesAndTextsAreEscaped) {
  const std::string nasty = "C<&\">";
  StoryRun run = explicit_lease_story("or<d&\"ers'>", nasty);
  run.input.title = "<script>alert(1)</script>";
  const std::string html = render_timeline_html(run.input);
  EXPECT_EQ(html.find(nasty), std::string::npos) << "a raw name reached the markup";
  EXPECT_EQ(html.find("or<d&"), std::string::npos);
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("data-lane=\"C&lt;&amp;&quot;&gt;:1\""), std::string::npos);
  EXPECT_NE(html.find("or&lt;d&amp;&quot;ers&#39;&gt;"), std::string::npos);
  EXPECT_EQ(nesting_problem(html, 0), "");

  // Bytes that are not UTF-8 and control characters come out visible, not raw.
  model::History h;
  model::Event e;
  e.kind = model::EventKind::Fail;
  e.process = "A";
  e.thread = 1;
  e.f = "unlock";
  e.text = std::string("bad \xff byte, bell \x07, fine \xc3\xa9");
  h.add(e);
  TimelineInput in;
  in.history = &h;
  const std::string raw = render_timeline_html(in);
  EXPECT_EQ(raw.find('\xff'), std::string::npos);
  EXPECT_EQ(raw.find('\x07'), std::string::npos);
  EXPECT_NE(raw.find("bad \\xff byte, bell \\x07, fine \xc3\xa9"), std::string::npos);
}

TEST(Timeline, TheTextHasALinePerEventInFixedColumns) {
  StoryRun run = explicit_lease_story();
  const model::History& h = *run.input.history;
  const std::string text = render_timeline_text(run.input);
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  size_t header = 0;
  while (header < lines.size() && lines[header].find("| details") == std::string::npos) ++header;
  ASSERT_LT(header, lines.size()) << text;
  ASSERT_EQ(lines.size() - header - 1, h.size()) << text;
  const std::string& head = lines[header];
  for (const char* column : {"| A ", "| B ", "| C ", "| redis0 "}) EXPECT_NE(head.find(column), std::string::npos) << column;
  const size_t b_column = head.find("| B ");
  for (size_t i = 0; i < h.size(); ++i) {
    const std::string& line = lines[header + 1 + i];
    const model::Event& e = h[i];
    EXPECT_EQ(line.substr(0, 9), std::string(9 - std::to_string(e.at_ms).size(), ' ') + std::to_string(e.at_ms)) << line;
    EXPECT_EQ(line.substr(b_column, 2), "| ") << "columns drift: " << line;
    if (e.process == "B") {
      EXPECT_NE(line.substr(b_column + 2, 1), " ") << "B's event not in B's column: " << line;
    }
  }
  const model::Verdict* broken = nullptr;
  for (const auto& v : run.input.verdicts)
    if (v.valid == model::Validity::No) broken = &v;
  ASSERT_NE(broken, nullptr);
  EXPECT_NE(text.find("VIOLATION mutual_exclusion"), std::string::npos) << text;
  EXPECT_NE(text.find(broken->explanation), std::string::npos);
  for (int64_t i : broken->witness) EXPECT_NE(text.find(" " + std::to_string(i) + "!"), std::string::npos) << i;
}

// verify/scenario/timeline_chromium.sh sets LOCKSIM_TIMELINE_OUT and opens the file in Chromium.
TEST(Timeline, WritesTheShowcaseWhereLocksimTimelineOutSays) {
  const char* out = std::getenv("LOCKSIM_TIMELINE_OUT");
  if (!out || !*out) GTEST_SKIP() << "LOCKSIM_TIMELINE_OUT is not set";
  StoryRun run = showcase_story();
  std::ofstream file(out, std::ios::binary);
  ASSERT_TRUE(file) << out;
  file << render_timeline_html(run.input);
  ASSERT_TRUE(file.good()) << out;
  const std::string text_path = std::string(out) + ".txt";
  std::ofstream text(text_path, std::ios::binary);
  text << render_timeline_text(run.input);
}

}  // namespace
}  // namespace locksim::report

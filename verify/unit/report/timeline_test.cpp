// The timelines of a run: the HTML has a lane per client thread and per server, the violation in a
// red box with the checker's words, nothing fetched from the network, every name escaped; the text
// has a line per event. The page opens on the span where something happens, bars end at a crash, a
// FairLock's queue has a lane of its own, and the top says whether the verdicts met the scenario's
// expectations. A history of real clients (`locksim serve`) shows each client's commands on its lane;
// the axis reads in seconds; the legend has an entry, coloured by the page's own stylesheet, for
// every fault; locksim's own words are explained where the page uses them. With
// LOCKSIM_TIMELINE_OUT set, four tests write their HTML there (the showcase, a FairLock scenario
// beside it as <out>.fair.html, a run that ends with a lock() still waiting as <out>.pending.html
// and a serve history as <out>.serve.html) for the Chromium check, verify/scenario/timeline_chromium.sh.
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include "model/checkers.hpp"
#include "model/events.hpp"
#include "report/markup.hpp"
#include "report/timeline.hpp"
#include "model/fault_events.hpp"
#include "report/timeline_assets.hpp"
#include "report/timeline_layout.hpp"
#include "scenario/loader.hpp"
#include "scenario/runner.hpp"
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
  // The story shows the bug of a paused watchdog holder; the rest holds (as judge's checkers order them).
  run.input.expected = {"violated", "holds", "holds"};
  run.input.met = {true, true, true};  // as the checkers find it (judge)
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

// The plot alone: the legend draws a swatch of every mark with the plot's own classes.
std::string plot_of(const std::string& html) {
  const size_t at = html.find("<svg id=\"plot\"");
  return at == std::string::npos ? std::string() : html.substr(at, html.find("<g id=\"rings\">", at) - at);
}

TEST(Timeline, TheHtmlHasALaneForEveryClientThreadAndTheServer) {
  StoryRun run = explicit_lease_story();
  const std::string html = render_timeline_html(run.input);
  for (const char* lane : {"A:1", "B:1", "C:1", "redis0"})
    EXPECT_NE(html.find("class=\"lane" + std::string(lane[0] == 'r' ? " server" : "") + "\" data-lane=\"" + lane + "\""),
              std::string::npos) << lane;
  EXPECT_EQ(count(html, "data-lane="), 4u);
  EXPECT_NE(plot_of(html).find("class=\"hold"), std::string::npos) << "no believed-holding bar";
  EXPECT_NE(plot_of(html).find("class=\"op wait"), std::string::npos) << "no wait bar";
  EXPECT_NE(plot_of(html).find("class=\"key"), std::string::npos) << "no key bar";
  EXPECT_NE(plot_of(html).find("class=\"fault pause"), std::string::npos) << "no pause span";
  EXPECT_NE(html.find("virtual time (s)"), std::string::npos);
  EXPECT_EQ(nesting_problem(html, 0), "");
}

TEST(Timeline, AViolationIsARedBoxWithTheCheckersExplanationAndRingedWitnesses) {
  StoryRun run = explicit_lease_story();
  const model::Verdict* broken = nullptr;
  for (const auto& v : run.input.verdicts)
    if (v.valid == model::Validity::No) broken = &v;
  ASSERT_NE(broken, nullptr) << "the story should break mutual exclusion";
  const std::string html = render_timeline_html(run.input);
  const size_t box = html.find("<section class=\"violations");
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
  EXPECT_NE(plot_of(html).find("class=\"overlap\""), std::string::npos) << "the overlapping holds are not marked";
}

TEST(Timeline, ARunWithoutViolationsHasNoRedBox) {
  StoryRun run = make_run("orders", {"A"});
  run.sim->world.op(0, "A", 1, lock_op("orders"));
  run.sim->world.op(0, "A", 1, unlock_op("orders"));
  run.sim->world.run_until(1000);
  judge(run);
  const std::string html = render_timeline_html(run.input);
  EXPECT_EQ(html.find("class=\"violations\""), std::string::npos);
  EXPECT_EQ(plot_of(html).find("class=\"witness\""), std::string::npos);
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

// A renewal answered with an error says so, as a timeout does not: "no reply" was both.
TEST(Timeline, ARenewalsAnswerIsNamedAnErrorATimeoutOrAReply) {
  EXPECT_EQ(timeline::renewal_answer(model::renew_event(1, "orders", 1, "")), "renewed");
  EXPECT_EQ(timeline::renewal_answer(model::renew_event(1, "orders", 0, "")), "refused");
  EXPECT_EQ(timeline::renewal_answer(model::renew_event(1, "orders", -1, "timeout")), "no reply");
  EXPECT_EQ(timeline::renewal_answer(model::renew_event(1, "orders", -1, "-ERR user_script:1: boom")),
            "error -ERR user_script:1: boom");
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

// A scenario of the library, run as `locksim run` runs it, with its TimelineInput filled as
// report/report.cpp fills it (and threadWaitTime, as app/explore_command.cpp does).
struct ScenarioRun {
  scenario::ScenarioResult result;
  TimelineInput input;
};

ScenarioRun run_library_scenario(const std::string& file) {
  const scenario::Scenario s = scenario::load_scenario(std::string(LOCKSIM_SOURCE_DIR) + "/scenarios/" + file);
  ScenarioRun run{scenario::run_scenario(s), {}};
  EXPECT_FALSE(run.result.error) << *run.result.error;
  TimelineInput& in = run.input;
  in.title = run.result.name;
  in.about = run.result.about;
  in.lock = run.result.lock_name;
  in.lock_type = run.result.lock_type;
  in.redisson = run.result.redisson;
  in.clients = run.result.clients;
  in.history = &run.result.history;
  if (s.lock.type == "fair") in.thread_wait_ms = s.lock.fair.thread_wait_ms;
  for (const auto& p : run.result.properties) {
    in.verdicts.push_back(p.verdict);
    in.expected.push_back(p.expected);
    in.met.push_back(p.passed);
  }
  return run;
}

// The markup of one lane's group.
std::string lane_markup(const std::string& html, const std::string& lane) {
  const size_t at = html.find("data-lane=\"" + lane + "\"");
  if (at == std::string::npos) return "";
  return html.substr(at, html.find("<g class=\"lane", at) - at);
}

// The value of `attribute` in the first element of `markup` whose start tag contains `part`.
std::string attribute_of(const std::string& markup, const std::string& part, const std::string& attribute) {
  const size_t found = markup.find(part);
  if (found == std::string::npos) return "(no " + part + ")";
  const size_t at = markup.rfind('<', found), end = markup.find('>', found);
  const size_t a = markup.find(" " + attribute + "=\"", at);
  if (a == std::string::npos || a > end) return "(no " + attribute + ")";
  const size_t from = a + attribute.size() + 3;
  return markup.substr(from, markup.find('"', from) - from);
}

TEST(Timeline, ThePageOpensOnTheSpanWhereSomethingHappens) {
  // Everything happens between 1 s and 2 s; the run goes on to 60 s.
  model::History h;
  for (int64_t t : {1000, 1500, 2000}) {
    model::Event e;
    e.at_ms = t;
    e.kind = t == 1000 ? model::EventKind::Invoke : model::EventKind::Ok;
    e.process = "A";
    e.thread = 1;
    e.op = 1;
    e.f = "work";
    h.add(e);
  }
  model::Event end;
  end.at_ms = 60000;
  end.kind = model::EventKind::End;
  end.process = "world";
  h.add(end);
  TimelineInput in;
  in.history = &h;
  const timeline::Layout L(in);
  EXPECT_LT(L.view.first, 1000);
  EXPECT_GE(L.view.first, 900) << "a little margin, not the run from 0";
  EXPECT_GT(L.view.second, 2000);
  EXPECT_LE(L.view.second, 2100) << "the span ends near the last event, not at the run's end";
  EXPECT_EQ(L.end_ms, 60000) << "the whole run is still there, a click away";
  const std::string html = render_timeline_html(in);
  EXPECT_NE(html.find("data-view0=\"" + std::to_string(L.view.first) + "\" data-view1=\"" + std::to_string(L.view.second) + "\""),
            std::string::npos);
  EXPECT_NE(html.find("id=\"zoom-all\""), std::string::npos) << "no button for the whole run";
  EXPECT_EQ(html.find("data-lane=\"world\""), std::string::npos) << "the world has only its End: no empty lane";
  EXPECT_NE(plot_of(html).find("class=\"run-end\""), std::string::npos) << "the run's end is drawn";

  // A run whose events fill most of it opens on all of it.
  StoryRun busy = showcase_story();
  const timeline::Layout whole(busy.input);
  EXPECT_EQ(whole.view, (std::pair<int64_t, int64_t>(0, whole.end_ms)));
}

TEST(Timeline, TheTokenScenarioOpensOnItsFirstSeconds) {
  // The issue's example: everything in the first 2 s of a 64.5 s run.
  ScenarioRun run = run_library_scenario("token-compare-and-delete.yaml");
  const timeline::Layout L(run.input);
  int64_t last = 0;
  for (const model::Event& e : run.result.history.events())
    if (e.kind != model::EventKind::End) last = std::max(last, e.at_ms);
  EXPECT_GE(L.view.second, last);
  EXPECT_LT(L.view.second - L.view.first, L.end_ms / 4) << L.view.first << ".." << L.view.second << " of " << L.end_ms;
}

TEST(Timeline, BarsOfACrashedClientEndAtTheCrash) {
  StoryRun run = make_run("orders", {"A", "B"});
  World& w = run.sim->world;
  w.op(0, "A", 1, lock_op("orders"));
  w.op(0, "A", 1, work_op(3000));
  w.op(0, "A", 1, unlock_op("orders"));
  w.op(100, "B", 1, lock_op("orders"));  // waits behind A's hold
  w.inject(500, {.kind = world::FaultKind::Crash, .client = "B"});
  w.inject(1000, {.kind = world::FaultKind::Crash, .client = "A"});  // while it holds
  w.run_until(20000);
  judge(run);
  const std::string html = render_timeline_html(run.input);
  const std::string b = lane_markup(html, "B:1");
  ASSERT_NE(b, "");
  EXPECT_EQ(attribute_of(b, "class=\"op wait", "data-t1"), "500") << "B's wait should end at its crash";
  const std::string a = lane_markup(html, "A:1");
  EXPECT_EQ(attribute_of(a, "class=\"hold", "data-t1"), "1000") << "A's hold should end at its crash";
  EXPECT_NE(b.find("its client crashed at 500 ms"), std::string::npos);
}

TEST(Timeline, AFairLocksQueueHasALaneWithPlacesScoresAndPrunes) {
  // scenarios/fair-crashed-waiter-head.yaml: B queues behind A's 30 s watchdog lease and crashes; C
  // (queued behind B) and D after it. C prunes B once B's score (enqueue + ~29.9 s + 5 s) has passed,
  // at ~35 s, and takes the lock; D gets it after C.
  ScenarioRun run = run_library_scenario("fair-crashed-waiter-head.yaml");
  ASSERT_EQ(run.input.thread_wait_ms, 5000);
  const timeline::Layout L(run.input);
  ASSERT_EQ(L.queues.size(), 1u);
  const timeline::QueueTrack& q = L.queues[0];
  EXPECT_EQ(q.lock, "orders");
  EXPECT_EQ(q.waiters, (std::vector<std::string>{"B:1", "C:1", "D:1"})) << "rows in order of enqueue";
  const auto stay_of = [&](const std::string& owner) -> const timeline::QueueStay* {
    for (const auto& s : q.stays)
      if (s.owner == owner) return &s;
    return nullptr;
  };
  const timeline::QueueStay* b = stay_of("B:1");
  const timeline::QueueStay* c = stay_of("C:1");
  const timeline::QueueStay* d = stay_of("D:1");
  ASSERT_TRUE(b && c && d);
  EXPECT_NEAR(static_cast<double>(b->from_ms), 100, 10);
  EXPECT_EQ(b->places.front().second, 1) << "B queued first";
  EXPECT_EQ(c->places.front().second, 2);
  EXPECT_EQ(d->places.front().second, 3);

  // B's score: its acquire was told to wait for A's lease (~29.9 s); + threadWaitTime.
  ASSERT_FALSE(b->scores.empty());
  EXPECT_NEAR(static_cast<double>(b->scores.back().score_ms), 35100, 200);
  EXPECT_EQ(b->how, timeline::QueueStay::End::Pruned);
  EXPECT_GE(b->to_ms, b->scores.back().score_ms) << "pruned only once its score had passed";
  EXPECT_NEAR(static_cast<double>(b->to_ms), 35100, 1000);
  ASSERT_GE(b->end, 0);
  EXPECT_EQ(run.result.history[static_cast<size_t>(b->end)].owner(), "C:1") << "C's script pruned B";

  // C's script prunes B and takes the lock in one run; D moves up to 1st, and is granted after C.
  EXPECT_EQ(c->how, timeline::QueueStay::End::Granted);
  EXPECT_EQ(c->end, b->end);
  EXPECT_EQ(d->places.back().second, 1);
  EXPECT_EQ(d->how, timeline::QueueStay::End::Granted);
  EXPECT_GE(d->to_ms, c->to_ms);
  EXPECT_FALSE(c->wakeups.empty() && d->wakeups.empty()) << "no wake-up for C or D";

  const std::string html = render_timeline_html(run.input);
  const std::string lane = lane_markup(html, "queue orders");
  ASSERT_NE(lane, "") << "no queue lane";
  EXPECT_EQ(attribute_of(lane, "class=\"mark qpruned\"", "data-ev"), std::to_string(b->end));
  EXPECT_NE(lane.find("1st</text>"), std::string::npos);
  EXPECT_NE(lane.find("2nd</text>"), std::string::npos);
  EXPECT_NE(lane.find("class=\"mark score"), std::string::npos);
  EXPECT_EQ(nesting_problem(html, 0), "");

  // Without threadWaitTime the page marks the wait each waiter was told, and says so.
  run.input.thread_wait_ms = -1;
  const std::string told = render_timeline_html(run.input);
  EXPECT_NE(plot_of(told).find("class=\"mark score told"), std::string::npos);
  EXPECT_NE(told.find("threadWaitTime, not known to this page"), std::string::npos);
}

TEST(Timeline, TheTopSaysWhetherTheVerdictsMetTheScenariosExpectations) {
  // fair-crashed-waiter-head expects fair_queue violated (the bug it shows), the rest to hold.
  ScenarioRun run = run_library_scenario("fair-crashed-waiter-head.yaml");
  size_t fair = run.input.verdicts.size();
  for (size_t i = 0; i < run.input.verdicts.size(); ++i)
    if (run.input.verdicts[i].property == "fair_queue") fair = i;
  ASSERT_LT(fair, run.input.verdicts.size());
  ASSERT_EQ(run.input.verdicts[fair].valid, model::Validity::No);
  // The page without its stylesheet and script.
  const auto page = [&] {
    const std::string all = render_timeline_html(run.input);
    const size_t body = all.find("<body>");
    return all.substr(body, all.find("<script>") - body);
  };
  std::string html = page();
  EXPECT_NE(html.find("1 violation of fair_queue (blocked-by-evicted) \u2014 expected (the scenario shows this bug)"),
            std::string::npos);
  EXPECT_NE(html.find("The verdicts met the scenario&#39;s expectations"), std::string::npos);
  EXPECT_NE(html.find("<section class=\"violations expected\""), std::string::npos) << "an expected violation reads calm";
  EXPECT_NE(html.find("mutual_exclusion holds, as expected"), std::string::npos);
  EXPECT_EQ(html.find("unexpected"), std::string::npos);

  // Had the scenario expected fair_queue to hold, the same run is an unexpected violation, in red.
  run.input.expected[fair] = "holds";
  run.input.met[fair] = false;  // what the runner judges of a violation expected to hold
  html = page();
  EXPECT_NE(html.find("fair_queue violated (blocked-by-evicted), expected to hold \u2014 an unexpected violation"),
            std::string::npos);
  EXPECT_NE(html.find("<section class=\"violations unexpected\""), std::string::npos);
  const size_t expecting = run.input.verdicts.size() - static_cast<size_t>(std::count(run.input.expected.begin(), run.input.expected.end(), ""));
  EXPECT_NE(html.find("1 of " + std::to_string(expecting) + " verdicts did not meet the scenario&#39;s expectations"), std::string::npos);
  EXPECT_NE(render_timeline_text(run.input).find("expected to hold \u2014 an unexpected violation"), std::string::npos);

  // A run that expects nothing only observes.
  run.input.expected.clear();
  html = page();
  EXPECT_NE(html.find("Observed: the run expects no verdict"), std::string::npos);
  EXPECT_NE(html.find("<section class=\"violations observed\""), std::string::npos);
  EXPECT_EQ(html.find("unexpected"), std::string::npos);
}

TEST(Timeline, WitnessNumbersLinkToTheirEvents) {
  StoryRun run = explicit_lease_story();
  const std::string html = render_timeline_html(run.input);
  const model::Verdict* broken = nullptr;
  for (const auto& v : run.input.verdicts)
    if (v.valid == model::Validity::No) broken = &v;
  ASSERT_NE(broken, nullptr);
  for (int64_t i : broken->witness) {
    const std::string n = std::to_string(i);
    EXPECT_NE(html.find("<a href=\"#select=" + n + "\" data-select=\"" + n + "\">#" + n + "</a>"), std::string::npos) << n;
  }
  EXPECT_NE(html.find("id=\"panel\""), std::string::npos) << "no side panel";
}

// Two redis-py clients on `locksim serve` (examples/redis-py-lock.py), as serve recorded them: the
// server ran every command, and nothing else is known of the clients.
const char* const kServeHistory = R"({"i":0,"t":0,"type":"key","p":"redis0","lock":"counter","f":"created"}
{"i":1,"t":0,"type":"exec","p":"redis0","lock":"counter","f":"resource_write","text":"A SET counter 0","reply":"+OK","client":"A"}
{"i":2,"t":0,"type":"key","p":"redis0","lock":"orders","f":"created"}
{"i":3,"t":0,"type":"exec","p":"redis0","lock":"orders","text":"A SET orders t-a PX 30000 NX","reply":"+OK","after":"t-a","client":"A","ttl":30000}
{"i":4,"t":0,"type":"exec","p":"redis0","lock":"counter","f":"resource_read","text":"A GET counter","reply":"\"0\"","client":"A"}
{"i":5,"t":31000,"type":"key","p":"redis0","lock":"orders","f":"expired","value":1700000030000}
{"i":6,"t":31000,"type":"key","p":"redis0","lock":"orders","f":"created"}
{"i":7,"t":31000,"type":"exec","p":"redis0","lock":"orders","text":"B SET orders t-b PX 30000 NX","reply":"+OK","after":"t-b","client":"B","ttl":30000}
{"i":8,"t":31000,"type":"exec","p":"redis0","lock":"counter","f":"resource_read","text":"B GET counter","reply":"\"0\"","client":"B"}
{"i":9,"t":31000,"type":"exec","p":"redis0","lock":"counter","f":"resource_write","value":1,"text":"B SET counter 1","reply":"+OK","client":"B"}
{"i":10,"t":31000,"type":"exec","p":"redis0","lock":"orders","text":"B EVALSHA c3f8 1 orders t-b","reply":"-NOSCRIPT No matching script. Please use EVAL.","before":"t-b","after":"t-b","client":"B","ttl":30000}
{"i":11,"t":31000,"type":"exec","p":"redis0","lock":"counter","f":"resource_write","value":1,"text":"A SET counter 1","reply":"+OK","client":"A"}
{"i":12,"t":31000,"type":"end","p":"world"}
)";

struct ServeRun {
  model::History history;
  TimelineInput input;
};

ServeRun serve_run() {
  ServeRun run{model::History::from_jsonl(kServeHistory), {}};
  run.input.title = "serve";
  run.input.clients = {"A", "B"};
  run.input.lock = "orders";
  run.input.history = &run.history;
  run.input.verdicts = model::run_checkers(run.history, {"resource"});
  return run;
}

std::string lane_of(const std::string& html, const std::string& id) {
  const size_t at = html.find("data-lane=\"" + id + "\"");
  if (at == std::string::npos) return {};
  return html.substr(at, html.find("</g><g class=\"lane", at) - at);
}

TEST(Timeline, AServeHistorysClientsShowTheCommandsTheySent) {
  const ServeRun run = serve_run();
  const std::string html = render_timeline_html(run.input);
  const std::string a = lane_of(html, "A"), b = lane_of(html, "B");
  ASSERT_FALSE(a.empty() || b.empty()) << html;
  // A sent 4 commands, B 4, one of them answered NOSCRIPT; each is a tick on its own lane.
  EXPECT_EQ(count(a, "class=\"mark sent\""), 4u) << a;
  EXPECT_EQ(count(b, "class=\"mark sent\""), 3u) << b;
  EXPECT_EQ(count(b, "class=\"mark sent error\""), 1u) << b;
  EXPECT_NE(b.find("B EVALSHA c3f8 1 orders t-b"), std::string::npos) << "the command in its tip";
  EXPECT_NE(html.find(">commands</text>"), std::string::npos) << "the lane's row says what it shows";
  // A run of locksim's own clients draws their operations, not every command again.
  StoryRun own = explicit_lease_story();
  EXPECT_EQ(count(plot_of(render_timeline_html(own.input)), "class=\"mark sent"), 0u);
}

TEST(Timeline, TheAxisReadsInSecondsWithMillisecondsOnHover) {
  const ServeRun run = serve_run();
  const std::string html = render_timeline_html(run.input);
  EXPECT_NE(html.find("data-tip=\"0 ms\">0 s</text>"), std::string::npos) << "the first tick";
  EXPECT_NE(html.find("data-tip=\"30000 ms\">30 s</text>"), std::string::npos) << "a tick at 30 s";
  EXPECT_NE(html.find("0 to 31 s (31000 ms) of virtual time"), std::string::npos);
}

TEST(Timeline, TheLegendHasAnEntryForEveryFaultInTheStylesheetsColour) {
  const std::string html = render_timeline_html(serve_run().input);
  const std::string css(kTimelineCss);
  for (const model::FaultEventInfo& f : model::fault_events()) {
    if (f.ends || f.loses_keys || !(f.timed || f.forever || f.open)) continue;
    const std::string cls = ".fault." + std::string(f.name);
    EXPECT_NE(html.find("data-for=\"" + cls + "\""), std::string::npos) << f.name << " has no legend entry";
    EXPECT_NE(html.find("class=\"fault " + std::string(f.name) + "\""), std::string::npos) << f.name << "'s swatch";
    // Its colour comes from a rule of the one stylesheet, for the plot and the swatch alike.
    EXPECT_TRUE(std::regex_search(css, std::regex("\\" + cls + "[,{]"))) << cls << " has no colour of its own";
  }
  EXPECT_NE(html.find("data-for=\".server-fault\""), std::string::npos);
  EXPECT_NE(html.find("data-for=\".mark.fault-point\""), std::string::npos);
  for (const char* line : {".run-end", ".witness-line", ".key.unknown"})
    EXPECT_NE(html.find("data-for=\"" + std::string(line) + "\""), std::string::npos) << line << ": a line style";
}

TEST(Timeline, LocksimsOwnWordsAreExplainedOnThePageAndInTheGlossary) {
  std::ifstream file(std::string(LOCKSIM_SOURCE_DIR) + "/docs/glossary.md");
  std::ostringstream glossary;
  glossary << file.rdbuf();
  for (const timeline::PageWord& w : timeline::page_words())
    EXPECT_NE(glossary.str().find("**" + std::string(w.term)), std::string::npos) << w.term << " is not in docs/glossary.md";
  // The story says "article 000" and "the ideal"; its owners are written B:1.
  ScenarioRun run = run_library_scenario("fair-crashed-waiter-head.yaml");
  const std::string html = render_timeline_html(run.input);
  const size_t words = html.find("<p class=\"words\" id=\"words\">");
  ASSERT_NE(words, std::string::npos);
  const std::string said = html.substr(words, html.find("</p>", words) - words);
  for (const char* word : {"<b>article 000</b>: one of the five seed articles", "<b>the ideal</b>: the fair queue",
                           "</b>: an owner, client ", "<b>threadWaitTime</b>"})
    EXPECT_NE(said.find(word), std::string::npos) << word << "\n" << said;
  EXPECT_EQ(render_timeline_html(serve_run().input).find("<b>article"), std::string::npos) << "only the words a page uses";
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

// ... and a FairLock scenario's beside it, for the queue lane.
TEST(Timeline, WritesAFairLockScenarioBesideTheShowcase) {
  const char* out = std::getenv("LOCKSIM_TIMELINE_OUT");
  if (!out || !*out) GTEST_SKIP() << "LOCKSIM_TIMELINE_OUT is not set";
  ScenarioRun run = run_library_scenario("fair-crashed-waiter-head.yaml");
  const std::string path = std::string(out) + ".fair.html";
  std::ofstream file(path, std::ios::binary);
  ASSERT_TRUE(file) << path;
  file << render_timeline_html(run.input);
  ASSERT_TRUE(file.good()) << path;
}

// ... and one whose run ends with B's lock() still waiting (verify/scenario/pending-lock-waiter.yaml),
// for the open wait at the right edge of the view the page opens on.
TEST(Timeline, WritesAPendingWaitBesideTheShowcase) {
  const char* out = std::getenv("LOCKSIM_TIMELINE_OUT");
  if (!out || !*out) GTEST_SKIP() << "LOCKSIM_TIMELINE_OUT is not set";
  ScenarioRun run = run_library_scenario("../verify/scenario/pending-lock-waiter.yaml");
  ASSERT_EQ(run.result.pending.ops.size(), 1u);
  const std::string path = std::string(out) + ".pending.html";
  std::ofstream file(path, std::ios::binary);
  ASSERT_TRUE(file) << path;
  file << render_timeline_html(run.input);
  ASSERT_TRUE(file.good()) << path;
}

// ... and a serve history's, for the clients' lanes of commands.
TEST(Timeline, WritesAServeHistoryBesideTheShowcase) {
  const char* out = std::getenv("LOCKSIM_TIMELINE_OUT");
  if (!out || !*out) GTEST_SKIP() << "LOCKSIM_TIMELINE_OUT is not set";
  const ServeRun run = serve_run();
  const std::string path = std::string(out) + ".serve.html";
  std::ofstream file(path, std::ios::binary);
  ASSERT_TRUE(file) << path;
  file << render_timeline_html(run.input);
  ASSERT_TRUE(file.good()) << path;
}

}  // namespace
}  // namespace locksim::report

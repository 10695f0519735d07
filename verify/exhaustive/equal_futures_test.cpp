// The world's fingerprint (World::describe, issue 38) keeps a bounded search honest only if two
// states it takes for one have the same future. Here, on small RLock worlds under random schedules:
// wherever two runs reach states with equal fingerprints by different prefixes of choices, the
// second is run again with the first one's remaining choices, and both futures (the history from
// there, times relative to it) must be the same, byte for byte.
//
// That the test can fail: the same search with a weakened fingerprint (the agenda, a server, its
// keys or a client left out) finds pairs whose futures differ. And a lock that cannot describe itself
// (a polling lock) gives no whole fingerprint, so a search never takes one of its states for another.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "base/sha1.hpp"
#include "base/state_writer.hpp"
#include "scenario/loader.hpp"
#include "scenario/runner.hpp"
#include "world/world.hpp"

namespace locksim {
namespace {

const std::string kDir = std::string(LOCKSIM_SOURCE_DIR) + "/verify/exhaustive/";
const std::string kExamples = std::string(LOCKSIM_SOURCE_DIR) + "/examples/exhaustive/";

// One state a run passed through: its fingerprint and where the run was then.
struct Cut {
  std::string fingerprint;  // of what the world wrote (with what the bounds had left)
  std::string text;         // that, kept only where asked
  bool whole = false;
  size_t choices = 0;   // choice points met before it
  std::map<int64_t, int64_t> ops;  // how the description renumbered the ops it names
  int64_t now = 0;
  int64_t history = 0;  // events recorded before it
};

struct Run {
  std::optional<std::string> error;  // the run stopped (a schedule that does not fit: it diverged)
  std::vector<uint32_t> choices;     // every choice taken, defaults included
  std::vector<Cut> cuts;
  model::History history;
  bool settled = false;  // it ended when the world settled, before run_ms
};

world::ScheduleBounds unbounded(const scenario::Scenario& s) {
  world::ScheduleBounds b = *s.bounded;
  b.cost_max = -1;
  b.depth = 1'000'000;
  return b;
}

std::string fingerprint(const std::string& text, const std::string& left_out, bool without_aof_phase);

// Runs `s` with `list`, then (with a seed) random choices past it, fingerprinting every state
// (without the groups named `left_out`), and keeping what the state at `keep` wrote.
Run run(const scenario::Scenario& s, const std::vector<uint32_t>& list, uint64_t seed, const std::string& left_out = "",
        size_t keep = SIZE_MAX, bool without_aof_phase = false) {
  world::ChoiceScheduler chooser(unbounded(s), list);
  if (seed) chooser.draw_past_list(seed);
  Run r;
  scenario::Backend backend;
  backend.scheduler = &chooser;
  backend.observe_steps = [&](const world::World& w) {
    StateWriter out;
    Cut cut;
    cut.whole = w.describe(out);
    out.begin("bounds");
    chooser.describe(out);
    out.end();
    cut.fingerprint = fingerprint(out.text(), left_out, without_aof_phase);
    if (r.cuts.size() == keep) cut.text = out.text();
    cut.choices = chooser.choices().size();
    cut.ops = out.ids("op");
    cut.now = w.now();
    cut.history = w.history_size();
    r.cuts.push_back(std::move(cut));
  };
  scenario::ScenarioResult result = scenario::run_scenario(s, backend);
  r.error = result.error;
  for (const world::ChoiceRecord& c : chooser.choices()) r.choices.push_back(c.taken);
  r.history = std::move(result.history);
  r.settled = r.history.size() > 0 && r.history.end_ms() < s.run_ms;
  return r;
}

// The history from `cut` on, times and indices relative to it; a send before it is "before". An
// op is named as the state named it, or, one the state did not name, by its first appearance after
// those: an op's id acts only as a name, and the fingerprint renumbers them.
std::string future(const model::History& h, const Cut& cut) {
  std::ostringstream out;
  std::map<int64_t, int64_t> ops = cut.ops;
  for (size_t i = static_cast<size_t>(cut.history); i < h.size(); ++i) {
    model::Event e = h[i];
    if (e.op != 0) e.op = ops.try_emplace(e.op, static_cast<int64_t>(ops.size())).first->second + 1;
    e.index -= cut.history;
    e.at_ms -= cut.now;
    if (e.sent_ms >= 0) e.sent_ms -= cut.now;
    // A key's expiry is recorded on the server's clock (epoch + run time): relative too.
    if (e.kind == model::EventKind::Key && e.value > 0) e.value -= cut.now;
    // Where in the history a request was sent is the history's, not the world's: one sent before
    // the cut (or at it, nothing recorded since) is "before".
    if (e.sent_index >= 0) e.sent_index = e.sent_index > cut.history ? e.sent_index - cut.history : -2;
    // How long before run_ms the world settled: the one thing a run's end says about its time.
    if (e.kind == model::EventKind::End) e.text = Atom();
    model::write_event_jsonl(out, e);
    out << '\n';
  }
  return out.str();
}

// The fingerprint without the time left to run_ms, so that states reached at different times can
// be taken for one (the world's own keeps it: a run cut at run_ms has another future). A run of a
// bounded search ends when the world settles, which these do long before run_ms; their ends are
// compared without the note that says when. Coarser than the world's, so where it is sound, the
// world's is too. With `left_out`, every group of that name is left out as well (a weakened
// fingerprint, to show the test can fail).
//
// `without_aof_phase` leaves out where in its second each server is too. That phase says when the
// AOF is next written, which only a restart from it reads: for a world with no server fault, it
// tells no two futures apart.
std::string fingerprint(const std::string& text, const std::string& left_out, bool without_aof_phase) {
  std::string kept;
  std::istringstream in(text);
  std::string line;
  int skipping = -1;  // the indentation of the group being left out
  while (std::getline(in, line)) {
    const size_t first = line.find_first_not_of(' ');
    if (first == std::string::npos) {  // a line of a value that spans lines
      if (skipping < 0) kept += line + '\n';
      continue;
    }
    const int indent = static_cast<int>(first);
    if (skipping >= 0) {
      if (indent == skipping && line.substr(static_cast<size_t>(indent)) == "}") skipping = -1;
      continue;
    }
    if (!left_out.empty() && line.substr(static_cast<size_t>(indent)) == left_out + " {") {
      skipping = indent;
      continue;
    }
    if (indent == 0 && line.starts_with("left ")) continue;
    if (without_aof_phase && line.substr(first).starts_with("second_phase ")) continue;
    kept += line + '\n';
  }
  return sha1_hex(kept);
}

constexpr size_t kChecked = SIZE_MAX;  // a state whose pair has been checked

struct Tally {
  int pairs = 0;            // pairs of states taken for one, reached by different prefixes
  int other_times = 0;      // of them, reached at different times
  int differing = 0;        // futures that differed
  int not_whole = 0;        // states with no whole fingerprint
  int unsettled = 0;        // pairs not compared: a run went on to run_ms
  uint64_t runs = 0;
  int64_t latest = 0;       // the latest time a pair was reached at
  std::string first_difference;
};

// Random schedules of `s` (seeds 1..seeds); each state whose fingerprint an earlier run reached by
// another prefix is checked, at most `max_pairs` of them.
Tally check(const scenario::Scenario& s, uint64_t seeds, int max_pairs, const std::string& left_out = "",
            bool without_aof_phase = false) {
  Tally t;
  std::vector<Run> runs;
  std::map<std::string, std::pair<size_t, size_t>> seen;  // fingerprint -> (run, cut)
  for (uint64_t seed = 1; seed <= seeds && t.pairs < max_pairs; ++seed) {
    runs.push_back(run(s, {}, seed, left_out, SIZE_MAX, without_aof_phase));
    ++t.runs;
    EXPECT_FALSE(runs.back().error) << *runs.back().error;
    const size_t b = runs.size() - 1;
    for (size_t j = 0; j < runs[b].cuts.size() && t.pairs < max_pairs; ++j) {
      const Cut& cut_b = runs[b].cuts[j];
      if (!cut_b.whole) {
        ++t.not_whole;
        continue;
      }
      const auto [it, fresh] = seen.try_emplace(cut_b.fingerprint, b, j);
      if (fresh) continue;
      const auto [a, i] = it->second;
      if (a == kChecked) continue;  // each state once: pairs spread over many states
      const Cut cut_a = runs[a].cuts[i];
      const std::vector<uint32_t> prefix_a(runs[a].choices.begin(), runs[a].choices.begin() + static_cast<long>(cut_a.choices));
      std::vector<uint32_t> list(runs[b].choices.begin(), runs[b].choices.begin() + static_cast<long>(cut_b.choices));
      if (list == prefix_a && cut_a.now == cut_b.now && cut_a.history == cut_b.history) continue;  // one prefix
      // b's prefix, then a's choices from its cut on: the same schedule ahead.
      list.insert(list.end(), runs[a].choices.begin() + static_cast<long>(cut_a.choices), runs[a].choices.end());
      it->second.first = kChecked;
      const Run again = run(s, list, 0);
      // The fingerprint here leaves out the time left to run_ms: only runs that settled before it
      // are compared (one cut at run_ms is another future, which the world's own tells apart).
      if (!again.error && (!runs[a].settled || !again.settled)) {
        ++t.unsettled;
        continue;
      }
      ++t.pairs;
      const std::string mine = future(runs[a].history, cut_a), theirs = future(again.history, cut_b);
      if (cut_a.now != cut_b.now) ++t.other_times;
      t.latest = std::max(t.latest, std::max(cut_a.now, cut_b.now));
      if (!again.error && mine == theirs) continue;
      ++t.differing;
      if (t.first_difference.empty())
        t.first_difference = "seed " + std::to_string(a + 1) + " at " + std::to_string(cut_a.now) + " ms and seed " +
                             std::to_string(b + 1) + " at " + std::to_string(cut_b.now) + " ms\n--- state\n" +
                             run(s, {}, a + 1, left_out, i, without_aof_phase).cuts[i].text + "--- one future\n" + mine + "--- the other\n" +
                             theirs + again.error.value_or("");
    }
  }
  return t;
}

scenario::Scenario load(const std::string& path) { return scenario::load_scenario(path); }

// rlock-2x2 has no liveness to claim here: only the world's future is compared.
TEST(EqualFutures, RLockTwoByTwo) {
  const Tally t = check(load(kExamples + "rlock-2x2.yaml"), 2000, 300);
  EXPECT_EQ(t.differing, 0) << t.first_difference;
  EXPECT_EQ(t.not_whole, 0);
  EXPECT_GE(t.pairs, 200) << "too few states reached twice to test anything";
  EXPECT_GT(t.latest, 30'000) << "every pair was reached early in the runs";
}

// States reached at different times taken for one: every time relative to now is tested
// (fingerprint/rlock-2x2-timeshift.yaml says why that world has many). It has no server fault, so
// the AOF's phase is left out too.
TEST(EqualFutures, RLockTwoByTwoAtOtherTimes) {
  const Tally t = check(load(kDir + "fingerprint/rlock-2x2-timeshift.yaml"), 3000, 600, "", true);
  EXPECT_EQ(t.differing, 0) << t.first_difference;
  EXPECT_GE(t.other_times, 100) << "too few states reached at two times to test anything";
}

// Lost messages: requests time out and are sent again (Redisson's retries).
TEST(EqualFutures, RLockTwoByTwoWithLosses) {
  scenario::Scenario s = load(kExamples + "rlock-2x2.yaml");
  s.world.active_expire_every_ms = 1;
  s.bounded->lost_max = 3;
  const Tally t = check(s, 3000, 600);
  EXPECT_EQ(t.differing, 0) << t.first_difference;
  EXPECT_GE(t.pairs, 200);
}

// The small RLock worlds of the exhaustive tests: a crash right after a send, a renewal sent again
// after NOSCRIPT, a late tryLock.
TEST(EqualFutures, SmallRLockWorlds) {
  for (const char* file : {"liveness-crash-right-after-send.yaml", "renewal-resent-after-noscript.yaml", "rlock-late-trylock.yaml"}) {
    const Tally t = check(load(kDir + file), 300, 60);
    EXPECT_EQ(t.differing, 0) << file << "\n" << t.first_difference;
    EXPECT_GE(t.pairs, 30) << file;
  }
}

// The test has teeth: leave out what is on the agenda, a server, its keys or a client, and states
// with different futures are taken for one. (Leaving out a smaller part of a client, its locks'
// members, its threads or calls, is not caught on these worlds: there, what is in flight and on the
// servers implies them. Their parts stay in: what these worlds do not tell apart, others may.)
TEST(EqualFutures, WeakenedFingerprintsAreCaught) {
  const std::vector<scenario::Scenario> worlds = {load(kExamples + "rlock-2x2.yaml"),
                                                  load(kDir + "fingerprint/rlock-2x2-timeshift.yaml")};
  for (const char* part : {"agenda", "server", "key", "client"}) {
    int differing = 0;
    for (const scenario::Scenario& s : worlds) differing += check(s, 2000, 300, part, true).differing;
    EXPECT_GT(differing, 0) << "without " << part;
  }
}

// FairLocks: the waiter queue and its timeouts on the server, each waiter's state in its lock.
TEST(EqualFutures, FairLockTwoWaiters) {
  for (const std::string& file : {kExamples + "fair-2-waiters-3.32.yaml", kExamples + "fair-2-waiters-3.13.yaml"}) {
    const Tally t = check(load(file), 600, 200);
    EXPECT_EQ(t.differing, 0) << file << "\n" << t.first_difference;
    EXPECT_EQ(t.not_whole, 0) << file;
    EXPECT_GE(t.pairs, 30) << file;
  }
}

// A lock that keeps state the fingerprint does not cover yet (a polling lock's) gives no whole
// state, so a search never takes one of its states for another.
TEST(EqualFutures, APollingLockStateIsNeverWhole) {
  const Tally t = check(load(kDir + "expected-and-untested.yaml"), 20, 1000);
  EXPECT_EQ(t.pairs, 0);
  EXPECT_GT(t.not_whole, 0);
}

}  // namespace
}  // namespace locksim

#include "app/exhaustive_command.hpp"

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <ostream>
#include <sstream>

#include "app/cli_values.hpp"
#include "app/exhaustive_bounds.hpp"
#include "app/interrupt.hpp"
#include "base/sha1.hpp"
#include "explore/estimate.hpp"
#include "explore/exhaustive.hpp"
#include "explore/how_far_judged.hpp"
#include "model/checkers.hpp"
#include "model/lock_types.hpp"
#include "report/report.hpp"
#include "scenario/loader.hpp"
#include "scenario/writer.hpp"

namespace locksim::app {
namespace {

using explore::HowFarJudged;
using explore::how_far_judged;
using explore::PropertyCounts;
using explore::schedules_text;

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary);
  file << text;
  if (!file) throw std::runtime_error("cannot write " + path.string());
}


}  // namespace

namespace {

// One `check --exhaustive`: the scenario and the search's options read from the command line, the
// search run, and what it found said and written. run_exhaustive makes one and runs its steps.
class ExhaustiveRun {
 public:
  ExhaustiveRun(const ExhaustiveCommandOptions& o, std::ostream& out, std::ostream& err) : o_(o), out_(out), err_(err) {}

  // The scenario loaded, the bounds and properties read: 0, or 2 said on err.
  int prepare() {
    try {
      s_ = scenario::load_scenario(o_.scenario);
    } catch (const scenario::ScenarioError& e) {
      return bad(e.what());
    }
    if (const int b = read_bounds(); b != 0) return b;
    if (const int b = read_properties(); b != 0) return b;
    if (o_.shard) {
      const auto shard = parse_shard(*o_.shard);
      if (!shard) return bad("--shard " + *o_.shard + ": expected I/N, e.g. 0/4");
      // Refused before anything is said of the search.
      if (shard->count < 1 || shard->index < 0 || shard->index >= shard->count)
        return bad("--shard I/N needs 0 <= I < N, not " + std::to_string(shard->index) + "/" + std::to_string(shard->count));
      search_.shard = shard->index;
      search_.shards = shard->count;
    }
    search_.shortest = !o_.first;
    search_.max_schedules = o_.max_schedules;
    search_.max_seconds = o_.max_seconds;
    search_.stop = [] { return stop_requested(); };
    search_.progress = [this](const explore::ExhaustiveProgress& p) { show_progress(p); };
    // Bounds that cannot run are refused before anything is said of them.
    try {
      world::ChoiceScheduler(search_.bounds, {});
    } catch (const std::invalid_argument& e) {
      return bad(e.what());
    }
    return 0;
  }

  // The search (and --random's schedules), then exhaustive.json: 0, or 2 said on err.
  // --estimate: the search's size from random schedules, nothing judged.
  int estimate() {
    out_ << "estimate: " << s_.name << " (" << s_.lock.type << ", " << s_.clients.size() << " clients, "
         << s_.timeline.size() << " steps)\nbounds: " << bounds_text(search_.bounds) << "\n";
    try {
      const explore::StateSpaceEstimate e = [&] {
        const StopOnSignal stop({SIGINT});
        return explore::estimate_state_space(s_, search_, o_.estimate);
      }();
      out_ << explore::describe(e);
      if (stop_requested()) {
        err_ << "locksim check --exhaustive: interrupted after " << e.samples << " schedules\n";
        return 130;
      }
      return 0;
    } catch (const std::exception& e) {
      return bad(e.what());
    }
  }

  int run() {
    std::string names;
    for (const auto& [name, value] : properties_)
      names += (names.empty() ? "" : ", ") + name + (value == "violated" ? " (expected violated)" : "");
    names_ = names;
    out_ << "exhaustive: " << s_.name << " (" << s_.lock.type << ", " << s_.clients.size() << " clients, "
         << s_.timeline.size() << " steps), judging " << names_ << "\n";
    out_ << "bounds: " << bounds_text(search_.bounds);
    if (search_.shards > 1) out_ << "; shard " << search_.shard << "/" << search_.shards;
    out_ << "\n";

    s_.world.script_texts = std::make_shared<client::ScriptTexts>();  // the search's and --random's one reading
    {
      const StopOnSignal stop({SIGINT});
      try {
        r_ = explore::search_exhaustive(s_, search_);
      } catch (const std::invalid_argument& e) {
        return bad(e.what());
      }
      // The random schedules run under the same Ctrl-C and within what --max-seconds leaves of its time.
      if (o_.random > 0 && r_.stopped != "interrupted") run_random();
    }
    std::error_code ec;
    std::filesystem::create_directories(o_.out, ec);
    return write_json();
  }

  // What the search found: the exit code.
  int report() {
    out_ << "the default schedule has ";
    for (size_t k = 0; k < world::kChoiceKinds; ++k)
      out_ << (k == 0 ? "" : k + 1 == world::kChoiceKinds ? " and " : ", ") << r_.default_points[k] << " "
           << world::choice_kind_name(static_cast<world::ChoiceKind>(k));
    out_ << " choice points\n";
    if (r_.error) {
      out_ << "ERROR: a schedule could not run: " << *r_.error << "\n  choices: [";
      for (size_t i = 0; i < r_.error_choices.size(); ++i) out_ << (i ? ", " : "") << r_.error_choices[i];
      out_ << "]\n" << totals() << "\n";
      return 1;
    }
    if (r_.counterexample) return report_counterexample();
    return report_no_counterexample();
  }

 private:
  int bad(const std::string& what) {
    err_ << "locksim check --exhaustive: " << what << "\n";
    return 2;
  }

  // The file's bounded: with the command line's options over it.
  int read_bounds() {
    try {
      search_.bounds = search_bounds(o_, s_);
    } catch (const std::invalid_argument& e) {
      return bad(e.what());
    }
    return 0;
  }

  // What is judged: --properties (each expected to hold) with --expect, else the file's expect,
  // else every property that applies to the lock.
  int read_properties() {
    for (const std::string& p : o_.properties) properties_.emplace_back(p, "holds");
    if (properties_.empty() && o_.expect.empty()) properties_ = s_.expect;
    for (const std::string& item : o_.expect) {
      const auto eq = item.find('=');
      const std::string value = eq == std::string::npos ? "" : item.substr(eq + 1);
      if (eq == std::string::npos || (value != "holds" && value != "violated"))
        return bad("--expect " + item + ": expected PROPERTY=holds or PROPERTY=violated");
      const std::string name = item.substr(0, eq);
      auto it = std::find_if(properties_.begin(), properties_.end(), [&](const auto& p) { return p.first == name; });
      if (it == properties_.end()) properties_.emplace_back(name, value);
      else it->second = value;
    }
    if (properties_.empty())
      for (const std::string& p : model::applicable_properties(s_.lock.type)) properties_.emplace_back(p, "holds");
    for (const auto& [name, value] : properties_)
      if (const std::string problem = model::applicability_problem(name, s_.lock.type); !problem.empty()) return bad(problem);
    search_.properties = properties_;
    return 0;
  }

  // A line every 10 s, or every second with --progress.
  void show_progress(const explore::ExhaustiveProgress& p) {
    const auto now = std::chrono::steady_clock::now();
    if (!o_.progress && now - last_progress_ < std::chrono::seconds(10)) return;
    last_progress_ = now;
    err_ << std::fixed << std::setprecision(1) << "exhaustive: " << p.seconds << " s, "
         << (search_.shortest ? "level " + std::to_string(p.level) : std::string("one pass")) << " ("
         << 100 * p.level_done << "% of it; " << p.schedules << " schedules judged in it), " << p.runs << " runs, frontier "
         << p.frontier;
    if (p.level_done > 0.01) err_ << ", level done in ~" << p.level_seconds * (1 - p.level_done) / p.level_done << " s at this pace";
    err_ << "\n";
  }

  void run_random() {
    const double left = o_.max_seconds > 0 ? std::max(o_.max_seconds - r_.seconds, 1e-3) : 0;
    const explore::RandomSearchResult rr = explore::search_random(s_, search_, o_.random, left);
    random_interrupted_ = rr.stopped == "interrupted";
    out_ << std::fixed << std::setprecision(3) << "random schedules of the same world: ";
    if (rr.seed) out_ << "the first violation (" << rr.property << ") at schedule " << rr.seed << ", after " << rr.seconds << " s";
    else out_ << "no violation in " << rr.runs << " schedules, " << rr.seconds << " s";
    if (!rr.stopped.empty()) out_ << " (stopped: " << rr.stopped << ")";
    if (r_.counterexample) out_ << "; the enumeration's first counterexample came after " << r_.seconds << " s";
    else out_ << "; the enumeration found none in " << r_.seconds << " s";
    if (r_.counterexample && rr.seed && r_.seconds > 0)
      out_ << std::setprecision(2) << " (random/enumeration time: " << rr.seconds / r_.seconds << ")";
    out_ << "\n";
  }

  // exhaustive.json, naming the search so that `locksim merge` can tell its shards: 0, or 2.
  int write_json() {
    try {
      std::string what = s_.name + "; " + bounds_text(search_.bounds) + (search_.shortest ? "" : "; --first") + "; judging";
      for (const auto& [name, value] : properties_) what += " " + name + "=" + value;
      // The world itself, as a replay would write it, with the user's own scripts by their content, not
      // their paths: shards of a file (or script) edited in between are not one search, and shards run
      // from two checkouts are.
      scenario::Scenario world = s_;
      for (auto& [role, path] : world.script_files) {
        std::ifstream script(path, std::ios::binary);
        std::ostringstream text;
        text << script.rdbuf();
        path = "content " + sha1_hex(text.str());
      }
      what += "; world " + sha1_hex(scenario::write_scenario(world)).substr(0, 16);
      write_text(std::filesystem::path(o_.out) / "exhaustive.json", explore::exhaustive_json(r_, search_, what) + "\n");
    } catch (const std::exception& e) {
      return bad(e.what());
    }
    return 0;
  }

  std::string totals() const {
    std::ostringstream totals;
    totals << std::fixed << std::setprecision(1) << r_.schedules << " schedules, " << r_.runs << " runs, " << r_.states
           << " states (choice points), " << r_.pruned << " orders pruned, " << r_.cut << " cut at the depth bound; "
           << r_.seconds << " s";
    if (r_.seconds > 0) totals << " (" << std::setprecision(0) << static_cast<double>(r_.runs) / r_.seconds << " runs/s)";
    return totals.str();
  }

  int report_counterexample() {
    const explore::Counterexample& c = *r_.counterexample;
    const auto expected =
        std::find_if(properties_.begin(), properties_.end(), [&](const auto& p) { return p.first == c.property; });
    const bool as_expected = expected != properties_.end() && expected->second == "violated";
    const std::filesystem::path dir(o_.out);
    const std::string file = (dir / "counterexample.yaml").string();
    try {
      scenario::write_scenario_file(c.scenario, file);
      report::RunInfo info;
      info.title = "locksim check --exhaustive " + o_.scenario;
      info.facts = {{"bounds", bounds_text(search_.bounds)}, {"schedules before it", std::to_string(r_.schedules)}};
      scenario::ScenarioResult shown = c.run;
      shown.file = file;
      report::write_reports(o_.out, {shown}, info);
    } catch (const std::exception& e) {
      return bad(e.what());
    }
    print_counterexample(c, as_expected);
    out_ << "  replay:   locksim run " << file << "\n";
    out_ << "  timeline: " << (dir / report::slug(c.scenario.name) / "timeline.html").string() << "\n";
    // The search ends at its first counterexample: what else it claims, it claims of the schedules
    // before it only.
    if (as_expected && (properties_.size() > 1 || !s_.expect_ops.empty()))
      out_ << "  the search stopped here: the other claims were judged in the " << schedules_text(r_.schedules)
           << " up to this one, not in every schedule within the bounds\n";
    // And a property expected to hold that those schedules could not judge was not tested at all.
    std::vector<PropertyCounts> counts;
    for (size_t i = 0; i < properties_.size(); ++i)
      if (properties_[i].second != "violated") counts.push_back({properties_[i].first, r_.unknown[i], r_.nothing_to_judge[i]});
    const HowFarJudged judged = how_far_judged(counts, r_.schedules);
    if (as_expected) out_ << judged.lines;
    out_ << totals() << "\n";
    if (random_interrupted_) return 130;
    return as_expected && !judged.unjudged ? 0 : 1;
  }

  // What the counterexample violates, its deviations, explanation and faults.
  void print_counterexample(const explore::Counterexample& c, bool as_expected) {
    const model::Verdict* v = nullptr;
    for (const auto& p : c.run.properties)
      if (p.property == c.property) v = &p.verdict;
    out_ << (as_expected ? "COUNTEREXAMPLE (expected): " : "COUNTEREXAMPLE: ");
    if (c.pin)
      out_ << c.pin->pin.client << "'s " << c.pin->pin.op << " #" << c.pin->pin.nth << " came out " << c.pin->observed
           << ", not " << c.pin->pin.result << " as expect.ops pins it";
    else
      out_ << c.property << " violated";
    if (v && !v->anomaly.empty()) out_ << " (" << v->anomaly << ")";
    out_ << " with " << c.cost << " deviation" << (c.cost == 1 ? "" : "s") << " from the default schedule"
         << (!search_.shortest     ? " (--first: not necessarily the fewest)\n"
             : search_.shards > 1 ? ", the fewest in this shard's part of the tree (`locksim merge` of every shard gives "
                                    "the fewest of all)\n"
                                  : ", the fewest any schedule needs\n");
    for (const auto& rec : c.records)
      if (!rec.what.empty()) out_ << "  - " << rec.what << "\n";
    if (v && !c.pin) out_ << "  " << v->explanation << "\n";
    for (const model::Event& e : c.run.history.events())
      if (e.kind == model::EventKind::Fault && e.f != "resume" && e.f != "heal")
        out_ << "  fault: " << e.f << " of " << e.process << " at " << e.at_ms << " ms"
             << (e.for_ms > 0 ? " for " + std::to_string(e.for_ms) + " ms" : "") << "\n";
  }

  int report_no_counterexample() {
    // An earlier search's counterexample and its reports, left in the same folder, would stand beside
    // this "holds" as if found.
    std::error_code ec;
    std::filesystem::remove(std::filesystem::path(o_.out) / "counterexample.yaml", ec);
    report::remove_reports(o_.out, s_.name);
    bool expected_violation_missing = false;
    for (const auto& [name, value] : properties_) expected_violation_missing = expected_violation_missing || value == "violated";
    std::vector<PropertyCounts> counts;
    for (size_t i = 0; i < properties_.size(); ++i) counts.push_back({properties_[i].first, r_.unknown[i], r_.nothing_to_judge[i]});
    const HowFarJudged judged = how_far_judged(counts, r_.schedules);
    print_verdict(expected_violation_missing, judged);
    out_ << totals() << "\n";
    if (r_.level >= 0 && r_.leaves != r_.judged_at_level_end && search_.shards == 1)
      out_ << "WARNING: level " << r_.level << " has " << r_.leaves << " schedules where " << r_.judged_at_level_end
           << " were judged: some schedule did not run the same way twice (please report it)\n";
    if (r_.stopped == "interrupted" || random_interrupted_) return 130;
    return r_.complete && r_.schedules > 0 && !expected_violation_missing && !judged.unjudged ? 0 : 1;
  }

  // HOLDS, NOT FOUND, NOT ALL JUDGED, NOTHING JUDGED or INCOMPLETE, with how far each property was judged.
  void print_verdict(bool expected_violation_missing, const HowFarJudged& judged) {
    // A shard speaks for its part of the tree only.
    const std::string part = search_.shards > 1 ? " of shard " + std::to_string(search_.shard) + "/" +
                                                      std::to_string(search_.shards) +
                                                      "'s part (`locksim merge` of every shard speaks for all)"
                                                : "";
    if (r_.complete && r_.schedules == 0) {
      // Only a shard can have no schedule: the split left its part of the tree empty.
      out_ << "NOTHING JUDGED: shard " << search_.shard << "/" << search_.shards << "'s part of the tree has no schedule "
           << "within the bounds (fewer shards give each a part; `locksim merge` of every shard still speaks for all)\n";
    } else if (r_.complete) {
      // A schedule whose verdict is unknown was not judged: no "holds" is said of it.
      out_ << (expected_violation_missing ? "NOT FOUND: no schedule within the bounds" + part + " violates "
               : judged.unjudged          ? "NOT ALL JUDGED: no counterexample within the bounds" + part + " for "
                                          : "HOLDS for every schedule within the bounds" + part + ": ")
           << names_;
      if (!s_.expect_ops.empty())
        out_ << ", and "
             << (s_.expect_ops.size() == 1 ? std::string("the outcome") : "the " + std::to_string(s_.expect_ops.size()) + " outcomes")
             << " expect.ops pins";
      out_ << "\n" << judged.lines;
    } else {
      out_ << "INCOMPLETE (" << r_.stopped << "): no counterexample in what ran" << part << "; ";
      if (!search_.shortest) out_ << "the " << r_.schedules << " schedules run hold (--first: in depth-first order, not by deviations)\n";
      else if (r_.level >= 0) out_ << "every schedule with at most " << r_.level << " deviation" << (r_.level == 1 ? "" : "s") << " holds\n";
      else out_ << "not even the default schedule's level finished\n";
      out_ << judged.lines;
    }
  }

  const ExhaustiveCommandOptions& o_;
  std::ostream& out_;
  std::ostream& err_;
  scenario::Scenario s_;
  explore::ExhaustiveOptions search_;
  std::vector<std::pair<std::string, std::string>> properties_;  // each with holds or violated
  std::string names_;                                            // the properties, as the first line says them
  explore::ExhaustiveResult r_;
  bool random_interrupted_ = false;
  std::chrono::steady_clock::time_point last_progress_ = std::chrono::steady_clock::now();
};

}  // namespace

int run_exhaustive(const ExhaustiveCommandOptions& o, std::ostream& out, std::ostream& err) {
  ExhaustiveRun search(o, out, err);
  if (const int bad = search.prepare(); bad != 0) return bad;
  if (o.estimate > 0) return search.estimate();
  if (const int bad = search.run(); bad != 0) return bad;
  return search.report();
}

}  // namespace locksim::app

#include "app/explore_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "app/explore_findings.hpp"
#include "app/interrupt.hpp"
#include "model/lock_types.hpp"
#include "report/markup.hpp"
#include "report/run_index.hpp"
#include "report/timeline.hpp"
#include "scenario/writer.hpp"

namespace locksim::app {

using explore::CaseResult;
using explore::explore_case;
using explore::regenerate_command;
using explore::validate;
using report::escape_markup;
using report::render_timeline_html;
using report::TimelineInput;
using scenario::Scenario;

namespace {

// An abort in the middle of a case names its seed.
std::atomic<uint64_t> g_current_seed{0};
std::atomic<bool> g_running{false};

extern "C" void on_abort(int) {
  if (!g_running.load()) return;
  char buf[160];
  const char prefix[] = "\nlocksim explore: aborted (--emit DIR writes its scenario) while running seed ";
  std::memcpy(buf, prefix, sizeof prefix - 1);
  size_t n = sizeof prefix - 1;
  char digits[24];
  size_t d = 0;
  uint64_t v = g_current_seed.load();
  do {
    digits[d++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v && d < sizeof digits);
  while (d) buf[n++] = digits[--d];
  buf[n++] = '\n';
  [[maybe_unused]] const ssize_t w = ::write(2, buf, n);
}

std::string duration_text(double seconds) {
  std::ostringstream o;
  if (seconds < 90) o << static_cast<int64_t>(seconds + 0.5) << "s";
  else if (seconds < 5400) o << static_cast<int64_t>(seconds / 60 + 0.5) << "m";
  else o << std::fixed << std::setprecision(1) << seconds / 3600 << "h";
  return o.str();
}

// The exploration a shard's file belongs to: the command that generates its cases, with its seed
// range in place of one seed, and the options that change what its lines say (shrinking, hazards).
std::string exploration_of(const ExploreOptions& o) {
  std::string command = explore::regenerate_command(o.config, 0);
  command.resize(command.rfind(" --seed "));
  command += " --seeds " + std::to_string(o.seed_first) + ".." + std::to_string(o.seed_last);
  if (!o.shrink.enabled) command += " --no-shrink";
  else command += " --shrink-runs " + std::to_string(o.shrink.runs_max);
  if (o.shrink.enabled && o.shrink.keep_anomaly) command += " --keep-anomaly";
  if (o.show_hazards) command += " --show-hazards";
  return command;
}

// One explore run: its seeds, what it has tallied so far, and what it writes. run_explore makes one,
// prepares it, runs its seeds and reports.
class Exploration {
 public:
  Exploration(const ExploreOptions& o, std::ostream& out, std::ostream& err) : o_(o), out_(out), err_(err) {}

  // The configuration checked, the seeds listed and the results file opened: 0, or 2 said on err.
  int prepare() {
    try {
      validate(o_.config);
    } catch (const std::invalid_argument& e) {
      err_ << "locksim explore: " << e.what() << "\n";
      return 2;
    }
    if (o_.seed_last < o_.seed_first) {
      err_ << "locksim explore: the seed range is empty\n";
      return 2;
    }
    // Every seed runs the same script text, read once.
    config_ = o_.config;
    if (!config_.script_texts) config_.script_texts = std::make_shared<client::ScriptTexts>();
    if (o_.shard_count < 1 || o_.shard_index < 0 || o_.shard_index >= o_.shard_count) {
      err_ << "locksim explore: --shard I/N needs 0 <= I < N\n";
      return 2;
    }
    for (uint64_t seed = o_.seed_first, i = 0;; ++seed, ++i) {
      if (i % static_cast<uint64_t>(o_.shard_count) == static_cast<uint64_t>(o_.shard_index)) seeds_.push_back(seed);
      if (seed == o_.seed_last) break;
    }
    // A shard with no seed would judge nothing and exit 0: a job of a fan-out that tested nothing.
    if (seeds_.empty()) {
      err_ << "locksim explore: --shard " << o_.shard_index << "/" << o_.shard_count << " over seeds " << o_.seed_first
           << ".." << o_.seed_last << " leaves this shard no seed: split them into at most "
           << o_.seed_last - o_.seed_first + 1 << " shards\n";
      return 2;
    }
    shrink_ = o_.shrink;
    shrink_.hazards = shrink_.hazards || o_.show_hazards;  // shown, so shrunk
    return open_results();
  }

  // Runs the seeds until the last or Ctrl-C: 0, or 2 when a generated case could not be written.
  int run_seeds() {
    const StopOnSignal stop({SIGINT, SIGTERM});
    const auto old_abrt = std::signal(SIGABRT, on_abort);
    g_running.store(true);
    started_ = last_progress_ = std::chrono::steady_clock::now();
    int code = 0;
    for (const uint64_t seed : seeds_) {
      if (stop_requested()) {
        interrupted_ = true;
        break;
      }
      g_current_seed.store(seed);
      if (!emit(seed)) {
        code = 2;
        break;
      }
      tally(explore_case(config_, seed, shrink_), seed);
      show_progress();
    }
    g_running.store(false);
    std::signal(SIGABRT, old_abrt);
    if (code == 0 && o_.progress) err_ << "\r\x1b[K" << std::flush;
    elapsed_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
    return code;
  }

  // What the run found, on out and in the files asked for: the exit code.
  int report() {
    print_findings();
    print_hazards_and_no_verdicts();
    write_results_tail();
    if (!o_.junit.empty()) write_junit();
    // index.html beside the counterexamples, when there is a finding or an error to show (hazards alone
    // are no reason to write into the working directory; with a finding, they are listed too).
    if (o_.write_cases && (!finding_order_.empty() || !error_rows_.empty())) write_index();
    print_totals();
    if (found_ || errors_) return 1;
    return interrupted_ ? 130 : 0;
  }

 private:
  int open_results() {
    if (o_.out.empty()) return 0;
    const std::filesystem::path p(o_.out);
    if (std::filesystem::is_directory(p)) {
      err_ << "locksim explore: --out " << o_.out << " is a folder: --out names a file, which gets one JSON line per case "
           << "(the counterexamples' files go to --cases)\n";
      return 2;
    }
    std::error_code made;
    if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path(), made);
    results_.open(p, std::ios::binary | std::ios::trunc);
    if (!results_) {
      err_ << "locksim explore: --out " << o_.out << ": cannot write it" << (made ? " (" + made.message() + ")" : "") << "\n";
      return 2;
    }
    // A shard's file says which shard of which exploration it is, so that merge can tell a shard
    // missing, given twice or of another exploration. One run's file has no such line, nor has a merge's.
    if (o_.shard_count > 1)
      results_ << nlohmann::ordered_json{{"shard", o_.shard_index}, {"shards", o_.shard_count}, {"exploration", exploration_of(o_)}}
                      .dump()
               << "\n";
    return 0;
  }

  // --emit: the generated case, before it runs. False when it could not be written (said on err).
  bool emit(uint64_t seed) {
    if (o_.emit_dir.empty()) return true;
    Scenario generated = generate_case(o_.config, seed).value();
    generated.name = "explore-" + o_.config.lock_type + "-seed-" + std::to_string(seed) + "-generated";
    generated.about = "Generated by `" + regenerate_command(o_.config, seed) + "` (not shrunk).";
    try {
      write_scenario_file(generated, (std::filesystem::path(o_.emit_dir) / ("seed-" + std::to_string(seed) + ".yaml")).string());
    } catch (const std::exception& e) {
      err_ << "locksim explore: " << e.what() << "\n";
      return false;
    }
    return true;
  }

  // One case's result into the counts and groups (and, for a new finding, its files and lines).
  void tally(CaseResult r, uint64_t seed) {
    ++done_;
    for (const auto& [property, verdict] : r.verdicts) {
      auto it = std::find_if(unjudged_.begin(), unjudged_.end(), [&](const auto& u) { return u.first == property; });
      if (it == unjudged_.end()) it = unjudged_.insert(unjudged_.end(), {property, 0});
      if (verdict == model::to_string(model::Validity::Unknown)) ++it->second;
    }
    if (r.error) {
      tally_error(r, seed);
    } else if (!r.no_verdict.empty()) {
      ++unverdicted_;
      add_to(no_verdict_groups_, no_verdict_order_, no_verdict_key(r), r);
    } else if (r.hazard && !o_.show_hazards) {
      ++hazardous_;
      add_to(hazard_groups_, hazard_order_, std::string(r.hazard->name), r);
    } else if (!r.violated.empty()) {
      ++found_;
      if (add_to(findings_, finding_order_, r.signature.id, r)) announce_finding(findings_[r.signature.id], seed);
    }
    if (results_) {
      results_ << case_json_line(r);
      results_.flush();
    }
  }

  // Counts one more seed of group `key`; true when it is the group's first.
  static bool add_to(std::map<std::string, Group>& groups, std::vector<std::string>& order, const std::string& key,
                     const CaseResult& r) {
    Group& g = groups[key];
    if (g.seeds++ != 0) return false;
    order.push_back(key);
    g.first = r;
    return true;
  }

  void tally_error(const CaseResult& r, uint64_t seed) {
    ++errors_;
    if (o_.progress) err_ << "\r\x1b[K";
    out_ << "ERROR seed=" << seed << ": " << *r.error << "\n  regenerate: " << regenerate_command(o_.config, seed) << "\n";
    junit_errors_ << "  <testcase classname=\"explore." << escape_markup(o_.config.lock_type) << "\" name=\"seed-" << seed
                  << "\"><error message=\"" << escape_markup(*r.error) << "\"/></testcase>\n";
    report::IndexRow row;
    row.scenario = "seed " + std::to_string(seed);
    row.lock = o_.config.lock_type;
    row.property = "(run)";
    row.expected = "-";
    row.observed = "error";
    row.outcome = report::Outcome::Error;
    row.explanation = *r.error + " (regenerate: " + regenerate_command(o_.config, seed) + ")";
    error_rows_.push_back(std::move(row));
  }

  // A new finding: its counterexample written (unless --cases none) and its lines printed.
  void announce_finding(Group& g, uint64_t seed) {
    const CaseResult& r = g.first;
    if (o_.write_cases) g.files = write_counterexample(r, seed);
    const CaseFiles& files = g.files;
    if (o_.progress) err_ << "\r\x1b[K";
    out_ << "FINDING " << r.signature.id << " seed=" << seed << ": " << finding_title(r, o_.config) << ", shrunk from "
         << r.steps << " to " << r.shrunk_steps << " steps in " << r.shrink_runs << " runs\n"
         << "  steps: " << r.signature.shape << "\n";
    if (r.hazard) out_ << "  hazard: " << r.hazard->name << ": " << r.hazard->reason << "\n";
    if (!r.sides.empty()) out_ << "  sides: " << r.sides << "\n";
    if (!r.found_anomaly.empty() && r.found_anomaly != r.anomaly)
      out_ << "  found as: " << r.found_anomaly << " (the shrink kept the property; --keep-anomaly keeps the anomaly too)\n";
    out_ << "  " << r.explanation << "\n";
    if (files.timeline.empty()) return;
    const bool differential = !files.timeline_against.empty();
    const char* mine = r.side == "against" ? "holds" : "violated";
    const char* theirs = r.side == "against" ? "violated" : "holds";
    out_ << "  timeline: " << files.timeline << (differential ? std::string(" (") + mine + ")" : "") << "\n";
    if (differential) out_ << "  timeline: " << files.timeline_against << " (--against: " << theirs << ")\n";
    out_ << "  replay:   locksim run " << files.scenario << "\n";
    if (differential) out_ << "  replay:   locksim run " << files.scenario_against << "\n";
  }

  // The shrunk case (and its --against twin) as scenario files and timelines; what was written.
  CaseFiles write_counterexample(const CaseResult& r, uint64_t seed) {
    CaseFiles files;
    const std::filesystem::path dir(o_.cases_dir);
    const std::string stem = (dir / ("seed-" + std::to_string(seed))).string();
    try {
      std::filesystem::create_directories(dir);
      const bool differential = o_.config.against.has_value();
      write_case(r.shrunk, r.shrunk_run, stem + ".yaml", stem + ".html", differential);
      files.scenario = stem + ".yaml";
      files.timeline = stem + ".html";
      if (o_.config.against) {
        write_case(r.shrunk_against, r.shrunk_against_run, stem + "-against.yaml", stem + "-against.html", true);
        files.scenario_against = stem + "-against.yaml";
        files.timeline_against = stem + "-against.html";
      }
    } catch (const std::exception& e) {
      err_ << "locksim explore: " << e.what() << "\n";
    }
    return files;
  }

  void show_progress() {
    const auto now = std::chrono::steady_clock::now();
    if (!o_.progress || now - last_progress_ <= std::chrono::milliseconds(250)) return;
    last_progress_ = now;
    const double elapsed = std::chrono::duration<double>(now - started_).count();
    const double rate = done_ / std::max(elapsed, 1e-9);
    err_ << "\rexplore: " << done_ << "/" << seeds_.size() << " cases, " << static_cast<int64_t>(rate) << "/s, "
         << plural(findings_.size(), "finding") << ", ETA " << duration_text((seeds_.size() - done_) / std::max(rate, 1e-9))
         << "\x1b[K" << std::flush;
  }

  // Findings of one kind (property, anomaly, which side) together, the kinds in order of their first
  // seed; within a kind the findings with most seeds first, a few of them (--out has them all).
  void print_findings() {
    if (finding_order_.empty()) return;
    std::vector<std::string> kinds;
    std::map<std::string, std::vector<const Group*>> by_kind;
    for (const std::string& id : finding_order_) {
      const Group& g = findings_[id];
      const std::string kind = finding_title(g.first, o_.config);
      if (by_kind[kind].empty()) kinds.push_back(kind);
      by_kind[kind].push_back(&g);
    }
    out_ << plural(found_, "seed") << ", " << plural(findings_.size(), "distinct finding") << " of "
         << plural(kinds.size(), "kind") << ":\n";
    constexpr size_t kShown = 5;
    for (const std::string& kind : kinds) {
      std::vector<const Group*>& groups = by_kind[kind];
      std::stable_sort(groups.begin(), groups.end(), [](const Group* a, const Group* b) { return a->seeds > b->seeds; });
      size_t seeds = 0;
      for (const Group* g : groups) seeds += g->seeds;
      out_ << "  " << kind << ": " << plural(seeds, "seed") << ", " << plural(groups.size(), "finding") << "\n";
      for (size_t i = 0; i < groups.size() && i < kShown; ++i)
        out_ << "    " << groups[i]->first.signature.id << "  " << plural(groups[i]->seeds, "seed") << " (first "
             << groups[i]->first.seed << "): " << groups[i]->first.signature.shape << "\n";
      if (groups.size() > kShown)
        out_ << "    and " << plural(groups.size() - kShown, "more finding") << (o_.out.empty() ? "" : " (in " + o_.out + ")")
             << "\n";
    }
  }

  void print_hazards_and_no_verdicts() {
    if (!hazard_order_.empty()) {
      out_ << plural(hazardous_, "seed") << " violated only through a hazard of the configuration (not findings; "
           << "--show-hazards reports them):\n";
      for (const std::string& name : hazard_order_) {
        const Group& g = hazard_groups_[name];
        out_ << "  " << name << "  " << plural(g.seeds, "seed") << " (first " << g.first.seed << "): " << g.first.hazard->reason
             << "\n";
        if (!g.first.sides.empty()) out_ << "    seed " << g.first.seed << ": " << g.first.sides << "\n";
      }
    }
    if (!no_verdict_order_.empty()) {
      out_ << plural(unverdicted_, "seed") << " violated under one configuration with no verdict under the other (its "
           << "acquires still waiting at the end): not findings:\n";
      for (const std::string& key : no_verdict_order_) {
        const Group& g = no_verdict_groups_[key];
        out_ << "  " << plural(g.seeds, "seed") << " (first " << g.first.seed << "): " << finding_title(g.first, o_.config)
             << "\n    " << g.first.sides << "\n";
      }
    }
  }

  void write_results_tail() {
    if (!results_) return;
    for (const std::string& id : finding_order_) results_ << finding_json(findings_[id], GroupKind::Finding).dump() << "\n";
    for (const std::string& name : hazard_order_)
      results_ << finding_json(hazard_groups_[name], GroupKind::Hazard).dump() << "\n";
    for (const std::string& key : no_verdict_order_)
      results_ << finding_json(no_verdict_groups_[key], GroupKind::NoVerdict).dump() << "\n";
  }

  // A test case per finding (failed), per hazard and no-verdict group (skipped), per error, and one
  // for the cases as a whole.
  void write_junit() {
    const std::string classname = "explore." + escape_markup(o_.config.lock_type);
    std::ostringstream cases;
    for (const std::string& id : finding_order_) {
      const Group& g = findings_[id];
      cases << "  <testcase classname=\"" << classname << "\" name=\"finding-" << id << "\"><failure message=\""
            << escape_markup(plural(g.seeds, "seed") + ": " + finding_title(g.first, o_.config)) << "\">"
            << escape_markup(g.first.signature.shape + "\n" + g.first.explanation +
                             (g.files.scenario.empty() ? "" : "\nreplay: locksim run " + g.files.scenario))
            << "</failure></testcase>\n";
    }
    for (const std::string& name : hazard_order_) {
      const Group& g = hazard_groups_[name];
      cases << "  <testcase classname=\"" << classname << "\" name=\"hazard-" << name << "\"><skipped message=\""
            << escape_markup(plural(g.seeds, "seed") + ": " + std::string(g.first.hazard->reason)) << "\"/></testcase>\n";
    }
    for (const std::string& key : no_verdict_order_) {
      const Group& g = no_verdict_groups_[key];
      cases << "  <testcase classname=\"" << classname << "\" name=\"no-verdict-" << escape_markup(key)
            << "\"><skipped message=\"" << escape_markup(plural(g.seeds, "seed") + ": " + g.first.sides) << "\"/></testcase>\n";
    }
    cases << "  <testcase classname=\"" << classname << "\" name=\"cases\" time=\"" << std::fixed << std::setprecision(3)
          << elapsed_ << "\">"
          << (found_ ? "<failure message=\"" +
                           escape_markup(plural(findings_.size(), "distinct finding") + " in " + plural(found_, "seed")) + "\"/>"
                     : std::string())
          << "</testcase>\n";
    const size_t tests = finding_order_.size() + hazard_order_.size() + no_verdict_order_.size() + 1 + errors_;
    std::ostringstream xml;
    xml << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite name=\"locksim explore\" tests=\"" << tests
        << "\" failures=\"" << finding_order_.size() + (found_ ? 1 : 0) << "\" errors=\"" << errors_ << "\" skipped=\""
        << hazard_order_.size() + no_verdict_order_.size() << "\" time=\"" << std::fixed << std::setprecision(3) << elapsed_
        << "\">\n"
        << cases.str() << junit_errors_.str() << "</testsuite>\n";
    try {
      write_text(o_.junit, xml.str());
    } catch (const std::exception& e) {
      err_ << "locksim explore: " << e.what() << "\n";
    }
  }

  void write_index() {
    report::IndexPage page;
    page.title = "locksim explore --lock " + o_.config.lock_type;
    page.facts = index_facts();
    page.summary = plural(findings_.size(), "distinct finding") + " in " + plural(found_, "seed") + ", " +
                   plural(hazardous_, "seed") + " violated through a hazard of the configuration, " +
                   (o_.config.against ? plural(unverdicted_, "seed") + " with no verdict on one side, " : std::string()) +
                   plural(errors_, "error");
    for (const std::string& id : finding_order_) page.rows.push_back(finding_row(findings_[id], GroupKind::Finding, o_));
    for (const std::string& name : hazard_order_)
      page.rows.push_back(finding_row(hazard_groups_[name], GroupKind::Hazard, o_));
    for (const std::string& key : no_verdict_order_)
      page.rows.push_back(finding_row(no_verdict_groups_[key], GroupKind::NoVerdict, o_));
    for (auto& row : error_rows_) page.rows.push_back(std::move(row));
    try {
      std::filesystem::create_directories(o_.cases_dir);
      // Shards often share one cases folder: each writes its own page rather than racing for one.
      const std::string name = o_.shard_count > 1 ? "index-shard-" + std::to_string(o_.shard_index) + ".html" : "index.html";
      const std::string index = (std::filesystem::path(o_.cases_dir) / name).string();
      write_text(index, report::render_run_index(page));
      out_ << "index: " << index << "\n";
    } catch (const std::exception& e) {
      err_ << "locksim explore: " << e.what() << "\n";
    }
  }

  // The index page's facts: what was explored, and how long it took.
  std::vector<std::pair<std::string, std::string>> index_facts() const {
    std::vector<std::pair<std::string, std::string>> facts = {
        {"lock", o_.config.lock_type},
        {"properties", joined(o_.config.properties)},
        {"faults", joined(o_.config.faults)},
        {"seeds", std::to_string(o_.seed_first) + ".." + std::to_string(o_.seed_last) +
                      (o_.shard_count > 1 ? ", shard " + std::to_string(o_.shard_index) + "/" + std::to_string(o_.shard_count)
                                          : "")},
        {"cases run", std::to_string(done_) + (interrupted_ ? " (interrupted)" : "")}};
    if (!o_.config.lock_options.empty()) {
      std::vector<std::string> set;
      for (const auto& opt : o_.config.lock_options) set.push_back(opt.key + "=" + opt.value);
      facts.emplace_back("--set", joined(set));
    }
    if (o_.config.against) facts.emplace_back("--against", explore::variation_text(*o_.config.against));
    std::ostringstream took;
    took << std::fixed << std::setprecision(1) << elapsed_ << " s";
    facts.emplace_back("took", took.str());
    return facts;
  }

  void print_totals() {
    std::string untested;
    for (const auto& [property, n] : unjudged_)
      if (n > 0) untested += (untested.empty() ? "" : ", ") + property + " in " + std::to_string(n);
    if (!untested.empty())
      out_ << "not judged in every case (unknown: nothing to judge, or not told; the findings above do not cover those): "
           << untested << " of " << plural(done_, "case") << "\n";
    out_ << "explore: " << done_ << " of " << seeds_.size() << " cases (seeds " << o_.seed_first << ".." << o_.seed_last;
    if (o_.shard_count > 1) out_ << ", shard " << o_.shard_index << "/" << o_.shard_count;
    out_ << "), " << plural(findings_.size(), "finding") << " in " << plural(found_, "seed");
    if (hazardous_) out_ << ", " << plural(hazardous_, "seed") << " a known hazard";
    if (unverdicted_) out_ << ", " << plural(unverdicted_, "seed") << " with no verdict on one side";
    if (errors_) out_ << ", " << plural(errors_, "error");
    out_ << ", " << std::fixed << std::setprecision(1) << elapsed_ << " s ("
         << static_cast<int64_t>(done_ / std::max(elapsed_, 1e-9)) << " cases/s)" << (interrupted_ ? ", interrupted" : "")
         << "\n";
  }

  const ExploreOptions& o_;
  std::ostream& out_;
  std::ostream& err_;
  explore::ExploreConfig config_;  // o_.config with the script texts every seed shares
  explore::ShrinkOptions shrink_;
  std::vector<uint64_t> seeds_;
  std::ofstream results_;
  std::chrono::steady_clock::time_point started_, last_progress_;
  double elapsed_ = 0;
  size_t done_ = 0, found_ = 0, hazardous_ = 0, unverdicted_ = 0, errors_ = 0;
  bool interrupted_ = false;
  std::map<std::string, Group> findings_;           // by signature id
  std::map<std::string, Group> hazard_groups_;      // by hazard name
  std::map<std::string, Group> no_verdict_groups_;  // by no_verdict_key
  std::vector<std::string> finding_order_, hazard_order_, no_verdict_order_;
  std::ostringstream junit_errors_;
  std::vector<report::IndexRow> error_rows_;  // cases that could not run, for index.html
  // Per property, in the order judged: the cases whose verdict was unknown (nothing to judge, such
  // as nobody queued; or not told). "0 findings" says nothing of them.
  std::vector<std::pair<std::string, uint64_t>> unjudged_;
};

}  // namespace

int run_explore(const ExploreOptions& o, std::ostream& out, std::ostream& err) {
  Exploration exploration(o, out, err);
  if (const int bad = exploration.prepare(); bad != 0) return bad;
  if (const int bad = exploration.run_seeds(); bad != 0) return bad;
  return exploration.report();
}

}  // namespace locksim::app

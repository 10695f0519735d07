#include "app/exhaustive_command.hpp"

#include <atomic>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <map>
#include <set>

#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>

#include "app/cli_values.hpp"
#include "base/sha1.hpp"
#include "explore/exhaustive.hpp"
#include "model/checkers.hpp"
#include "model/lock_types.hpp"
#include "report/report.hpp"
#include "scenario/loader.hpp"
#include "scenario/writer.hpp"
#include "world/fault_param_reader.hpp"

namespace locksim::app {
namespace {

std::atomic<bool> g_stop{false};
extern "C" void on_exhaustive_interrupt(int) { g_stop.store(true); }

// KIND[=MS][@CLIENT][:COUNT]: "crash", "pause=20000:1", "crash@A:2".
world::ScheduleBounds::FaultBudget parse_fault(const std::string& text, const scenario::Scenario& s) {
  std::string rest = text;
  world::ScheduleBounds::FaultBudget budget{{}, 1};
  const auto fail = [&](const std::string& why) {
    throw std::invalid_argument("--faults " + text + ": " + why + " (expected KIND[=MS][@CLIENT][:COUNT], e.g. crash:1,pause=15000:1)");
  };
  if (const auto colon = rest.rfind(':'); colon != std::string::npos) {
    const auto count = parse_integer(rest.substr(colon + 1));
    if (!count) fail("the count is not a number");
    if (*count < 1) fail("the count is at least 1");
    if (*count > std::numeric_limits<int>::max()) fail("the count is at most " + std::to_string(std::numeric_limits<int>::max()));
    budget.count = static_cast<int>(*count);
    rest = rest.substr(0, colon);
  }
  if (const auto at = rest.find('@'); at != std::string::npos) {
    budget.fault.client = rest.substr(at + 1);
    rest = rest.substr(0, at);
    if (std::none_of(s.clients.begin(), s.clients.end(), [&](const auto& c) { return c.name == budget.fault.client; }))
      fail("no client named '" + budget.fault.client + "'");
  }
  std::string ms;
  if (const auto eq = rest.find('='); eq != std::string::npos) {
    ms = rest.substr(eq + 1);
    rest = rest.substr(0, eq);
  }
  const world::FaultInfo* info = world::find_fault(rest);
  if (!info) fail("unknown fault '" + rest + "' (expected " + world::fault_list() + ")");
  budget.fault.kind = info->kind;
  if (info->on_server) fail("a server's fault goes in the file's bounded.faults, with its parameters");
  for (const world::FaultParam p : info->params)
    if (p != world::FaultParam::ForMs) fail(std::string(info->name) + " takes parameters: put it in the file's bounded.faults");
  if (info->lasts()) {
    if (ms.empty()) fail(std::string(info->name) + " lasts: give its duration, " + std::string(info->name) + "=MS");
    if (const std::string problem = world::read_fault_param(budget.fault, world::FaultParam::ForMs, ms); !problem.empty())
      fail(problem);
  } else if (!ms.empty()) {
    fail(std::string(info->name) + " takes no duration");
  }
  return budget;
}

std::string bounds_text(const world::ScheduleBounds& b) {
  std::ostringstream out;
  out << "latencies {";
  for (size_t i = 0; i < b.latencies.size(); ++i) out << (i ? ", " : "") << b.latencies[i];
  out << "} ms";
  if (b.latencies.size() > 1) out << " (slow messages " << (b.slow_max < 0 ? "any number" : "at most " + std::to_string(b.slow_max)) << ")";
  out << ", messages lost at most " << b.lost_max << ", faults ";
  if (b.faults.empty()) out << "none";
  for (size_t i = 0; i < b.faults.size(); ++i) {
    const world::Fault& f = b.faults[i].fault;
    out << (i ? ", " : "") << world::fault_name(f);
    if (world::fault_info(f.kind).lasts()) out << " " << f.for_ms << " ms";
    if (!f.client.empty()) out << " of " << f.client;
    out << " x" << b.faults[i].count;
  }
  if (!b.clock_offsets.empty()) {
    out << ", clock offsets {";
    for (size_t i = 0; i < b.clock_offsets.size(); ++i) out << (i ? ", " : "") << b.clock_offsets[i];
    out << "} ms";
  }
  out << ", depth " << b.depth << ", reduction " << (b.reduce ? "on" : "off");
  return out.str();
}

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream file(path, std::ios::binary);
  file << text;
  if (!file) throw std::runtime_error("cannot write " + path.string());
}

// "1 schedule", "3 schedules".
std::string schedules(uint64_t n) { return std::to_string(n) + (n == 1 ? " schedule" : " schedules"); }

// How far each property was judged, over the schedules a search (or a merge of shards) ran without
// a counterexample, or before the one it expected: a line for each property not judged in every one, and whether any keeps the
// search from saying "holds": a schedule whose verdict could not be told, or a property that no
// schedule had anything to judge for (it was never tested). Schedules with nothing to judge hold
// the property vacuously; the line says how many schedules did test it.
struct PropertyCounts {
  std::string name;
  uint64_t unknown = 0;
  uint64_t nothing_to_judge = 0;
};
struct Judged {
  std::string lines;
  bool unjudged = false;
};
Judged judged_in(const std::vector<PropertyCounts>& counts, uint64_t total) {
  Judged j;
  for (const PropertyCounts& c : counts) {
    if (c.unknown > 0) {
      j.lines += "  but " + c.name + " could not be judged in " + schedules(c.unknown) + " (unknown)\n";
      j.unjudged = true;
    }
    if (c.nothing_to_judge == 0 || total == 0) continue;
    if (c.nothing_to_judge + c.unknown >= total) {
      j.lines += "  but " + c.name + " had nothing to judge in " +
                 (c.unknown > 0 ? "the other " + std::to_string(c.nothing_to_judge)
                  : total == 1  ? std::string("the one schedule")
                                : "any of the " + schedules(total)) +
                 " (unknown): it was never tested\n";
      j.unjudged = true;
    } else {
      j.lines += "  " + c.name + " had nothing to judge in " + std::to_string(c.nothing_to_judge) + " of the " +
                 schedules(total) + "; the other " + std::to_string(total - c.nothing_to_judge - c.unknown) +
                 " tested it\n";
    }
  }
  return j;
}

}  // namespace

int run_exhaustive(const ExhaustiveCommandOptions& o, std::ostream& out, std::ostream& err) {
  const auto bad = [&](const std::string& what) {
    err << "locksim check --exhaustive: " << what << "\n";
    return 2;
  };
  scenario::Scenario s;
  try {
    s = scenario::load_scenario(o.scenario);
  } catch (const scenario::ScenarioError& e) {
    return bad(e.what());
  }
  explore::ExhaustiveOptions search;
  search.bounds = s.bounded.value_or(world::ScheduleBounds{});
  if (!o.latencies.empty()) search.bounds.latencies = o.latencies;
  if (!o.clock_offsets.empty()) search.bounds.clock_offsets = o.clock_offsets;
  if (o.slow_max) search.bounds.slow_max = *o.slow_max;
  if (o.lost_max) search.bounds.lost_max = *o.lost_max;
  if (o.depth) search.bounds.depth = *o.depth;
  if (o.no_reduce) search.bounds.reduce = false;
  if (o.no_faults) search.bounds.faults.clear();
  try {
    if (!o.faults.empty()) {
      search.bounds.faults.clear();
      for (const std::string& f : o.faults) search.bounds.faults.push_back(parse_fault(f, s));
    }
  } catch (const std::invalid_argument& e) {
    return bad(e.what());
  }

  // What is judged: --properties (each expected to hold) with --expect, else the file's expect,
  // else every property that applies to the lock.
  std::vector<std::pair<std::string, std::string>> properties;
  for (const std::string& p : o.properties) properties.emplace_back(p, "holds");
  if (properties.empty() && o.expect.empty()) properties = s.expect;
  for (const std::string& item : o.expect) {
    const auto eq = item.find('=');
    const std::string value = eq == std::string::npos ? "" : item.substr(eq + 1);
    if (eq == std::string::npos || (value != "holds" && value != "violated"))
      return bad("--expect " + item + ": expected PROPERTY=holds or PROPERTY=violated");
    const std::string name = item.substr(0, eq);
    auto it = std::find_if(properties.begin(), properties.end(), [&](const auto& p) { return p.first == name; });
    if (it == properties.end()) properties.emplace_back(name, value);
    else it->second = value;
  }
  if (properties.empty())
    for (const std::string& p : model::applicable_properties(s.lock.type)) properties.emplace_back(p, "holds");
  for (const auto& [name, value] : properties)
    if (const std::string problem = model::applicability_problem(name, s.lock.type); !problem.empty()) return bad(problem);
  search.properties = properties;

  if (o.shard) {
    const auto shard = parse_shard(*o.shard);
    if (!shard) return bad("--shard " + *o.shard + ": expected I/N, e.g. 0/4");
    // Refused before anything is said of the search.
    if (shard->count < 1 || shard->index < 0 || shard->index >= shard->count)
      return bad("--shard I/N needs 0 <= I < N, not " + std::to_string(shard->index) + "/" + std::to_string(shard->count));
    search.shard = shard->index;
    search.shards = shard->count;
  }
  search.shortest = !o.first;
  search.max_schedules = o.max_schedules;
  search.max_seconds = o.max_seconds;
  g_stop.store(false);
  search.stop = [] { return g_stop.load(); };
  auto last = std::chrono::steady_clock::now();
  search.progress = [&](const explore::ExhaustiveProgress& p) {
    const auto now = std::chrono::steady_clock::now();
    if (!o.progress && now - last < std::chrono::seconds(10)) return;
    last = now;
    err << std::fixed << std::setprecision(1) << "exhaustive: " << p.seconds << " s, "
        << (search.shortest ? "level " + std::to_string(p.level) : std::string("one pass")) << " ("
        << 100 * p.level_done << "% of it; " << p.schedules << " schedules judged in it), " << p.runs
        << " runs, frontier " << p.frontier;
    if (p.level_done > 0.01) err << ", level done in ~" << p.level_seconds * (1 - p.level_done) / p.level_done << " s at this pace";
    err << "\n";
  };

  std::string names;
  for (const auto& [name, value] : properties) names += (names.empty() ? "" : ", ") + name + (value == "violated" ? " (expected violated)" : "");
  // Bounds that cannot run are refused before anything is said of them.
  try {
    world::ChoiceScheduler(search.bounds, {});
  } catch (const std::invalid_argument& e) {
    return bad(e.what());
  }
  out << "exhaustive: " << s.name << " (" << s.lock.type << ", " << s.clients.size() << " clients, " << s.timeline.size()
      << " steps), judging " << names << "\n";
  out << "bounds: " << bounds_text(search.bounds);
  if (search.shards > 1) out << "; shard " << search.shard << "/" << search.shards;
  out << "\n";

  s.world.script_texts = std::make_shared<client::ScriptTexts>();  // the search's and --random's one reading
  explore::ExhaustiveResult r;
  const auto old_int = std::signal(SIGINT, on_exhaustive_interrupt);
  try {
    r = explore::search_exhaustive(s, search);
  } catch (const std::invalid_argument& e) {
    std::signal(SIGINT, old_int);
    return bad(e.what());
  }

  // The random schedules run under the same Ctrl-C and within what --max-seconds leaves of its time.
  bool random_interrupted = false;
  if (o.random > 0 && r.stopped != "interrupted") {
    const double left = o.max_seconds > 0 ? std::max(o.max_seconds - r.seconds, 1e-3) : 0;
    const explore::RandomSearchResult rr = explore::search_random(s, search, o.random, left);
    random_interrupted = rr.stopped == "interrupted";
    out << std::fixed << std::setprecision(3) << "random schedules of the same world: ";
    if (rr.seed) out << "the first violation (" << rr.property << ") at schedule " << rr.seed << ", after " << rr.seconds << " s";
    else out << "no violation in " << rr.runs << " schedules, " << rr.seconds << " s";
    if (!rr.stopped.empty()) out << " (stopped: " << rr.stopped << ")";
    if (r.counterexample) out << "; the enumeration's first counterexample came after " << r.seconds << " s";
    else out << "; the enumeration found none in " << r.seconds << " s";
    if (r.counterexample && rr.seed && r.seconds > 0) out << std::setprecision(2) << " (random/enumeration time: " << rr.seconds / r.seconds << ")";
    out << "\n";
  }
  std::signal(SIGINT, old_int);
  std::error_code ec;
  std::filesystem::create_directories(o.out, ec);
  const std::filesystem::path dir(o.out);
  try {
    std::string what = s.name + "; " + bounds_text(search.bounds) + (search.shortest ? "" : "; --first") + "; judging";
    for (const auto& [name, value] : properties) what += " " + name + "=" + value;
    // The world itself, as a replay would write it, with the user's own scripts by their content, not
    // their paths: shards of a file (or script) edited in between are not one search, and shards run
    // from two checkouts are.
    scenario::Scenario world = s;
    for (auto& [role, path] : world.script_files) {
      std::ifstream script(path, std::ios::binary);
      std::ostringstream text;
      text << script.rdbuf();
      path = "content " + sha1_hex(text.str());
    }
    what += "; world " + sha1_hex(scenario::write_scenario(world)).substr(0, 16);
    write_text(dir / "exhaustive.json", explore::exhaustive_json(r, search, what) + "\n");
  } catch (const std::exception& e) {
    return bad(e.what());
  }
  out << "the default schedule has ";
  for (size_t k = 0; k < world::kChoiceKinds; ++k)
    out << (k == 0 ? "" : k + 1 == world::kChoiceKinds ? " and " : ", ") << r.default_points[k] << " "
        << world::choice_kind_name(static_cast<world::ChoiceKind>(k));
  out << " choice points\n";
  std::ostringstream totals;
  totals << std::fixed << std::setprecision(1) << r.schedules << " schedules, " << r.runs << " runs, " << r.states
         << " states (choice points), " << r.pruned << " orders pruned, " << r.cut << " cut at the depth bound; " << r.seconds
         << " s";
  if (r.seconds > 0) totals << " (" << std::setprecision(0) << static_cast<double>(r.runs) / r.seconds << " runs/s)";

  if (r.error) {
    out << "ERROR: a schedule could not run: " << *r.error << "\n  choices: [";
    for (size_t i = 0; i < r.error_choices.size(); ++i) out << (i ? ", " : "") << r.error_choices[i];
    out << "]\n" << totals.str() << "\n";
    return 1;
  }
  if (r.counterexample) {
    const explore::Counterexample& c = *r.counterexample;
    const auto expected = std::find_if(properties.begin(), properties.end(), [&](const auto& p) { return p.first == c.property; });
    const bool as_expected = expected != properties.end() && expected->second == "violated";
    const std::string file = (dir / "counterexample.yaml").string();
    try {
      scenario::write_scenario_file(c.scenario, file);
      report::RunInfo info;
      info.title = "locksim check --exhaustive " + o.scenario;
      info.facts = {{"bounds", bounds_text(search.bounds)}, {"schedules before it", std::to_string(r.schedules)}};
      scenario::ScenarioResult shown = c.run;
      shown.file = file;
      report::write_reports(o.out, {shown}, info);
    } catch (const std::exception& e) {
      return bad(e.what());
    }
    const model::Verdict* v = nullptr;
    for (const auto& p : c.run.properties)
      if (p.property == c.property) v = &p.verdict;
    out << (as_expected ? "COUNTEREXAMPLE (expected): " : "COUNTEREXAMPLE: ");
    if (c.pin)
      out << c.pin->pin.client << "'s " << c.pin->pin.op << " #" << c.pin->pin.nth << " came out " << c.pin->observed
          << ", not " << c.pin->pin.result << " as expect.ops pins it";
    else
      out << c.property << " violated";
    if (v && !v->anomaly.empty()) out << " (" << v->anomaly << ")";
    out << " with " << c.cost << " deviation" << (c.cost == 1 ? "" : "s") << " from the default schedule"
        << (!search.shortest     ? " (--first: not necessarily the fewest)\n"
            : search.shards > 1 ? ", the fewest in this shard's part of the tree (`locksim merge` of every shard gives "
                                  "the fewest of all)\n"
                                : ", the fewest any schedule needs\n");
    for (const auto& rec : c.records)
      if (!rec.what.empty()) out << "  - " << rec.what << "\n";
    if (v && !c.pin) out << "  " << v->explanation << "\n";
    for (const model::Event& e : c.run.history.events())
      if (e.kind == model::EventKind::Fault && e.f != "resume" && e.f != "heal")
        out << "  fault: " << e.f << " of " << e.process << " at " << e.at_ms << " ms"
            << (e.for_ms > 0 ? " for " + std::to_string(e.for_ms) + " ms" : "") << "\n";
    out << "  replay:   locksim run " << file << "\n";
    out << "  timeline: " << (dir / report::slug(c.scenario.name) / "timeline.html").string() << "\n";
    // The search ends at its first counterexample: what else it claims, it claims of the schedules
    // before it only.
    if (as_expected && (properties.size() > 1 || !s.expect_ops.empty()))
      out << "  the search stopped here: the other claims were judged in the " << schedules(r.schedules)
          << " up to this one, not in every schedule within the bounds\n";
    // And a property expected to hold that those schedules could not judge was not tested at all.
    std::vector<PropertyCounts> counts;
    for (size_t i = 0; i < properties.size(); ++i)
      if (properties[i].second != "violated") counts.push_back({properties[i].first, r.unknown[i], r.nothing_to_judge[i]});
    const Judged judged = judged_in(counts, r.schedules);
    if (as_expected) out << judged.lines;
    out << totals.str() << "\n";
    if (random_interrupted) return 130;
    return as_expected && !judged.unjudged ? 0 : 1;
  }
  // An earlier search's counterexample and its reports, left in the same folder, would stand beside
  // this "holds" as if found.
  std::filesystem::remove(dir / "counterexample.yaml", ec);
  report::remove_reports(o.out, s.name);
  bool expected_violation_missing = false;
  for (const auto& [name, value] : properties) expected_violation_missing = expected_violation_missing || value == "violated";
  // A shard speaks for its part of the tree only.
  const std::string part = search.shards > 1 ? " of shard " + std::to_string(search.shard) + "/" + std::to_string(search.shards) +
                                                   "'s part (`locksim merge` of every shard speaks for all)"
                                             : "";
  std::vector<PropertyCounts> counts;
  for (size_t i = 0; i < properties.size(); ++i) counts.push_back({properties[i].first, r.unknown[i], r.nothing_to_judge[i]});
  const Judged judged = judged_in(counts, r.schedules);
  const bool unjudged = judged.unjudged;
  if (r.complete && r.schedules == 0) {
    // Only a shard can have no schedule: the split left its part of the tree empty.
    out << "NOTHING JUDGED: shard " << search.shard << "/" << search.shards << "'s part of the tree has no schedule "
        << "within the bounds (fewer shards give each a part; `locksim merge` of every shard still speaks for all)\n";
  } else if (r.complete) {
    // A schedule whose verdict is unknown was not judged: no "holds" is said of it.
    out << (expected_violation_missing ? "NOT FOUND: no schedule within the bounds" + part + " violates "
            : unjudged                 ? "NOT ALL JUDGED: no counterexample within the bounds" + part + " for "
                                       : "HOLDS for every schedule within the bounds" + part + ": ")
        << names;
    if (!s.expect_ops.empty())
      out << ", and " << (s.expect_ops.size() == 1 ? std::string("the outcome") : "the " + std::to_string(s.expect_ops.size()) + " outcomes")
          << " expect.ops pins";
    out << "\n" << judged.lines;
  } else {
    out << "INCOMPLETE (" << r.stopped << "): no counterexample in what ran" << part << "; ";
    if (!search.shortest) out << "the " << r.schedules << " schedules run hold (--first: in depth-first order, not by deviations)\n";
    else if (r.level >= 0) out << "every schedule with at most " << r.level << " deviation" << (r.level == 1 ? "" : "s") << " holds\n";
    else out << "not even the default schedule's level finished\n";
    out << judged.lines;
  }
  out << totals.str() << "\n";
  if (r.level >= 0 && r.leaves != r.judged_at_level_end && search.shards == 1)
    out << "WARNING: level " << r.level << " has " << r.leaves << " schedules where " << r.judged_at_level_end
        << " were judged: some schedule did not run the same way twice (please report it)\n";
  if (r.stopped == "interrupted" || random_interrupted) return 130;
  return r.complete && r.schedules > 0 && !expected_violation_missing && !unjudged ? 0 : 1;
}

bool is_exhaustive_json(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  const auto j = nlohmann::json::parse(text.str(), nullptr, false);
  return !j.is_discarded() && j.is_object() && j.contains("shards") && j.contains("schedules");
}

int run_merge_exhaustive(const std::vector<std::string>& inputs, const std::string& out_path, std::ostream& out,
                         std::ostream& err) {
  nlohmann::ordered_json total, expect, unknown = nlohmann::ordered_json::object(),
                                        nothing_to_judge = nlohmann::ordered_json::object();
  std::set<int64_t> seen;
  int64_t shards = -1;
  int64_t deepest_level = -1, stopped_level = std::numeric_limits<int64_t>::max();
  // Every shard's counterexample counts: one of a property expected to hold (or of a pinned
  // outcome) makes the search's outcome unexpected, whichever is shorter. And a counterexample is
  // the shortest of all only if every shard without one searched every level below it.
  nlohmann::ordered_json unexpected_c, expected_c;
  std::map<int64_t, int64_t> finished;  // per shard, every level up to this one searched to its end
  std::string search;
  bool first_pass = false;  // --first shards: their counterexamples are not the shortest
  for (const std::string& input : inputs) {
    std::ifstream file(input, std::ios::binary);
    std::stringstream text;
    text << file.rdbuf();
    const auto j = nlohmann::json::parse(text.str(), nullptr, false);
    if (!file || j.is_discarded() || !j.is_object() || !j.contains("shards") || !j.contains("shard")) {
      err << "locksim merge: " << input << ": not the exhaustive.json of a `check --exhaustive` run\n";
      return 2;
    }
    const int64_t n = j["shards"].get<int64_t>(), i = j["shard"].get<int64_t>();
    if (shards >= 0 && n != shards) {
      err << "locksim merge: " << input << ": shard " << i << " of " << n << ", but the others are of " << shards << "\n";
      return 2;
    }
    const std::string this_search = j.value("search", std::string());
    if (shards >= 0 && this_search != search) {
      err << "locksim merge: " << input << ": a shard of another search (" << this_search << "), not of " << search << "\n";
      return 2;
    }
    search = this_search;
    shards = n;
    if (!seen.insert(i).second) {
      err << "locksim merge: " << input << ": shard " << i << " is given twice\n";
      return 2;
    }
    // The search's identity names --first, so every shard agrees on it.
    first_pass = !j.value("shortest", true);
    if (total.empty()) {
      expect = j.value("expect", nlohmann::ordered_json::object());
      total = {{"search", search}, {"shards", n}, {"schedules", 0}, {"runs", 0}, {"states", 0}, {"pruned", 0}, {"cut", 0},
               {"level", j["level"]}, {"complete", true}, {"shortest", !first_pass}, {"stopped", ""}, {"seconds", 0.0},
               {"counterexample", nullptr}};
    }
    for (const char* key : {"schedules", "runs", "states", "pruned", "cut"})
      total[key] = total[key].get<uint64_t>() + j[key].get<uint64_t>();
    // A complete shard ran every schedule of its part, at whatever level; one stopped early, every
    // one with at most its level's deviations. So the search's level is the least of the stopped
    // shards', or, when none stopped, the deepest any shard needed (the single search's).
    if (j["complete"].get<bool>()) deepest_level = std::max(deepest_level, j["level"].get<int64_t>());
    else stopped_level = std::min(stopped_level, j["level"].get<int64_t>());
    total["complete"] = total["complete"].get<bool>() && j["complete"].get<bool>();
    if (!j["stopped"].get<std::string>().empty()) total["stopped"] = j["stopped"];
    total["seconds"] = total["seconds"].get<double>() + j["seconds"].get<double>();
    const nlohmann::ordered_json shard_unknown = j.value("unknown", nlohmann::ordered_json::object());
    for (const auto& [name, n] : shard_unknown.items()) unknown[name] = unknown.value(name, uint64_t{0}) + n.get<uint64_t>();
    const nlohmann::ordered_json shard_nothing = j.value("nothing_to_judge", nlohmann::ordered_json::object());
    for (const auto& [name, n] : shard_nothing.items())
      nothing_to_judge[name] = nothing_to_judge.value(name, uint64_t{0}) + n.get<uint64_t>();
    const auto& c = j["counterexample"];
    if (c.is_object()) {
      const bool looked_for = j.value("expect", nlohmann::ordered_json::object()).value(c["property"].get<std::string>(), std::string()) == "violated";
      auto& kept = looked_for ? expected_c : unexpected_c;
      if (kept.is_null() || c["cost"].get<int64_t>() < kept["cost"].get<int64_t>()) {
        kept = c;
        kept["shard"] = i;
      }
    }
    finished[i] = j["complete"].get<bool>() ? std::numeric_limits<int64_t>::max()
                  : c.is_object()           ? c["cost"].get<int64_t>() - 1
                                            : j["level"].get<int64_t>();
  }
  if (static_cast<int64_t>(seen.size()) != shards) {
    err << "locksim merge: " << seen.size() << " of " << shards << " shards given; missing:";
    for (int64_t i = 0; i < shards; ++i)
      if (!seen.count(i)) err << " " << i;
    err << "\n";
    return 2;
  }
  total["level"] = total["complete"].get<bool>() ? deepest_level : stopped_level;
  total["counterexample"] = !unexpected_c.is_null() ? unexpected_c : expected_c;
  total["expect"] = expect;
  total["unknown"] = unknown;
  total["nothing_to_judge"] = nothing_to_judge;
  std::ofstream file(out_path, std::ios::binary);
  file << total.dump() << "\n";
  if (!file) {
    err << "locksim merge: cannot write " << out_path << "\n";
    return 2;
  }
  out << total["schedules"] << " schedules, " << total["runs"] << " runs, " << total["states"] << " states, "
      << total["pruned"] << " orders pruned over " << shards << " shards ("
      << (total["complete"].get<bool>() ? "complete" : "not complete") << ")";
  if (total["counterexample"].is_object()) {
    const int64_t cost = total["counterexample"]["cost"].get<int64_t>(), in = total["counterexample"]["shard"].get<int64_t>();
    bool others_searched = true;
    for (const auto& [shard, level] : finished) others_searched = others_searched && (shard == in || level >= cost - 1);
    const bool shortest = !first_pass && others_searched;
    out << (shortest ? "; the shortest counterexample: " : "; a counterexample: ")
        << total["counterexample"]["property"].get<std::string>() << ", " << cost << (cost == 1 ? " deviation" : " deviations")
        << ", in shard " << in;
    if (first_pass) out << " (--first: not necessarily the fewest)";
    else if (!others_searched) out << " (not necessarily the fewest: another shard stopped before searching every schedule with fewer)";
  }
  out << "\n";
  // The exit code one search would give: 0 when what was expected came out (a counterexample of a
  // property expected violated; else every schedule holding, and none expected violated).
  const auto& c = total["counterexample"];
  // How far each claim was judged, as one search says it: not beside an unexpected counterexample;
  // beside an expected one, for the properties expected to hold (judged in the schedules before it).
  std::vector<PropertyCounts> counts;
  for (const auto& [name, value] : expect.items())
    if (value != "violated" || !c.is_object())
      counts.push_back({name, unknown.value(name, uint64_t{0}), nothing_to_judge.value(name, uint64_t{0})});
  const Judged judged = judged_in(counts, total["schedules"].get<uint64_t>());
  if (unexpected_c.is_null()) out << judged.lines;
  const bool unjudged = judged.unjudged;
  bool violated_expected = false;
  for (const auto& [name, value] : expect.items()) violated_expected = violated_expected || value == "violated";
  if (!unexpected_c.is_null()) return 1;
  if (c.is_object()) return unjudged ? 1 : 0;
  return total["complete"].get<bool>() && !violated_expected && !unjudged ? 0 : 1;
}

}  // namespace locksim::app

#include "app/check_command.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "client/script_files.hpp"
#include "model/anomaly.hpp"
#include "model/checkers.hpp"
#include "model/lock_types.hpp"
#include "model/pending.hpp"
#include "model/protected_resource.hpp"
#include "model/stream_judging.hpp"
#include "report/report.hpp"

namespace locksim::app {
namespace {

// locksim's own lock scripts, by name: the files of its scripts folder (empty when it cannot be
// found, and then no history is told as locksim's).
std::set<std::string> lock_script_names() {
  std::set<std::string> names;
  try {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(client::default_scripts_dir(), ec))
      if (entry.path().extension() == ".lua") names.insert(entry.path().stem().string());
  } catch (const std::exception&) {
  }
  return names;
}

// The lock script an Exec event of locksim's own clients ran, or "": they record a script by its
// file's name after the client's ("reader A rlock_acquire_hincrby orders ..."), which no Redis
// command shares (evalsha_ro is a command, not a file of scripts/).
std::string lock_script_of(const model::Event& e, const std::set<std::string>& scripts) {
  const std::string_view text = e.text.view();
  const std::string_view client = e.client.view();
  if (client.empty() || text.size() <= client.size() || !text.starts_with(client) || text[client.size()] != ' ')
    return "";
  const std::string_view rest = text.substr(client.size() + 1);
  const std::string word(rest.substr(0, rest.find(' ')));
  return scripts.count(word) ? word : "";
}

// What a history shows, read event by event: whether it has the inputs for mutual exclusion
// (beliefs: Hold events) and for resource (the protected resource's reads and writes), its clients
// in order of appearance, the first of locksim's own lock scripts it ran, if any, and the lock type
// its End names (a run's).
struct Shown {
  bool beliefs = false, resource = false, ops = false;
  int64_t events = 0;
  std::vector<std::string> clients;
  std::string script;
  std::string lock_type;
  std::set<std::string> scripts = lock_script_names();

  void see(const model::Event& e) {
    ++events;
    beliefs = beliefs || e.kind == model::EventKind::Hold;
    ops = ops || e.kind == model::EventKind::Invoke;
    resource = resource || (e.kind == model::EventKind::Exec && (e.f == model::kResourceRead || e.f == model::kResourceWrite));
    if (script.empty() && e.kind == model::EventKind::Exec) script = lock_script_of(e, scripts);
    if (e.kind == model::EventKind::End && !e.f.empty()) lock_type = e.f;
    const std::string who = e.kind == model::EventKind::Exec ? e.client : e.process;
    if (who.empty() || who == "world" || who.rfind("redis", 0) == 0) return;
    if (std::find(clients.begin(), clients.end(), who) == clients.end()) clients.push_back(who);
  }
  std::vector<std::string> judgeable() const {
    std::vector<std::string> names;
    if (beliefs) names.emplace_back(model::property::kMutualExclusion);
    if (resource) names.emplace_back(model::property::kResource);
    return names;
  }
};

// The lock the history is judged as: the one its run recorded, else --lock's (it may be ""). A
// --lock that says otherwise than the history would judge it as a lock it is not (a
// ReadWriteLock's readers as an RLock's holders: "violated"), so it is refused. nullopt, with the
// message written, when the history cannot be judged so.
std::optional<std::string> lock_type_to_judge(const CheckOptions& options, const Shown& shown, std::ostream& err) {
  if (shown.lock_type.empty()) return options.lock_type;
  if (!model::find_lock_type(shown.lock_type)) {
    err << "locksim check: " << options.history << " says its clients ran a lock of type '" << shown.lock_type
        << "', which this locksim does not know (" << model::lock_type_list() << ")\n";
    return std::nullopt;
  }
  if (!options.lock_type.empty() && options.lock_type != shown.lock_type) {
    err << "locksim check: " << options.history << " was recorded by a run of a " << shown.lock_type
        << " lock, not a " << options.lock_type << " one: judged as another lock, its verdicts would not be true; "
        << "drop --lock (the history names its lock)\n";
    return std::nullopt;
  }
  return shown.lock_type;
}

// The properties to judge: those named, else those the history has the inputs for (with --lock,
// every one that applies to that lock); and those --expect names. Empty, with the message
// written, when there are none or the history cannot be judged as asked.
std::vector<std::string> properties_to_judge(const CheckOptions& options, const Shown& shown,
                                             const std::map<std::string, std::string>& expected, std::ostream& err) {
  if (shown.events == 0) {
    err << "locksim check: " << options.history << " has no events: there is nothing to judge\n";
    return {};
  }
  // A lock's verdicts depend on how it works (readers share a ReadWriteLock; a token lock has no
  // watchdog): judged as a generic lock, such a history could be called violated when it is not.
  if (options.lock_type.empty() && !shown.script.empty()) {
    err << "locksim check: " << options.history << " was recorded by locksim's own clients (they ran the script "
        << shown.script << "), and what each property means depends on the lock they ran, which the history does not name "
        << "(its run did not finish, or an older locksim recorded it): say which with --lock TYPE (" << model::lock_type_list()
        << ")\n";
    return {};
  }
  // With --lock, a history of client operations (a run's) gets every property of that lock; one
  // without (serve's) what it has the inputs for, as without --lock: a property with no input
  // would hold untested.
  std::vector<std::string> names = options.properties;
  if (names.empty() && !options.lock_type.empty() && shown.ops) {
    names = model::applicable_properties(options.lock_type);
    if (shown.resource) names.emplace_back(model::property::kResource);
  } else if (names.empty()) {
    names = shown.judgeable();
  }
  for (const auto& [property, value] : expected)
    if (std::find(names.begin(), names.end(), property) == names.end()) names.push_back(property);
  if (names.empty()) {
    err << "locksim check: " << options.history
        << " has nothing to judge: no client noted a hold (LOCKSIM.NOTE acquired <lock>) and no protected\n"
           "resource was read and written (serve --resource KEY); name --properties to judge anyway\n";
    return {};
  }
  for (const std::string& name : names)
    if (const std::string problem = model::lock_problem(name, options.lock_type); !problem.empty()) {
      err << "locksim check: " << problem << "\n";
      return {};
    }
  return names;
}

scenario::ScenarioResult result_of(const CheckOptions& options, const Shown& shown, std::vector<model::Verdict> verdicts,
                                   const std::map<std::string, std::string>& expected) {
  scenario::ScenarioResult result;
  result.file = options.history;
  // A history.jsonl is named for its folder (reports/serve/history.jsonl: "serve").
  const std::filesystem::path path(options.history);
  result.name = !options.name.empty()                                      ? options.name
                : path.stem() == "history" && path.has_parent_path() ? path.parent_path().filename().string()
                                                                          : path.stem().string();
  result.about = "a recorded history, judged by locksim check";
  result.backend = "serve";
  result.clients = shown.clients;
  result.lock_type = options.lock_type;
  for (model::Verdict& v : verdicts) {
    scenario::PropertyResult p;
    p.property = v.property;
    const auto it = expected.find(v.property);
    if (it != expected.end()) p.expected = it->second;
    const bool holds = v.valid == model::Validity::Yes;
    const bool violated = v.valid == model::Validity::No;
    p.passed = p.expected.empty() ? holds : (p.expected == "holds" ? holds : violated);
    p.verdict = std::move(v);
    result.properties.push_back(std::move(p));
  }
  return result;
}

// --stream: the history judged as it streams (model/stream_judging.hpp), read twice from its file,
// never held whole; the verdicts and their explanations, no reports.
int run_check_streaming(const CheckOptions& options, const std::map<std::string, std::string>& expected,
                        std::ostream& out, std::ostream& err) {
  const auto open = model::file_readings(options.history);
  // A long history takes a while to read three times: say how far it is (a line that rewrites
  // itself on a terminal, else one every 10 s for a log).
  auto last = std::chrono::steady_clock::now();
  bool shown_progress = false;
  const auto progress = [&](const std::string& reading, int64_t read, int64_t events) {
    const auto now = std::chrono::steady_clock::now();
    if (now - last < (options.progress ? std::chrono::milliseconds(250) : std::chrono::milliseconds(10'000))) return;
    last = now;
    shown_progress = true;
    std::string line = "locksim check --stream: " + reading + ", " + std::to_string(read) + " events";
    if (events > 0) line += " of " + std::to_string(events) + " (" + std::to_string(read * 100 / events) + "%)";
    if (options.progress) err << "\r" << line << "\x1b[K" << std::flush;
    else err << line << "\n";
  };
  // A terminal's progress line goes before anything else is said.
  const auto clear_progress = [&] {
    if (options.progress && shown_progress) err << "\r\x1b[K" << std::flush;
    shown_progress = false;
  };
  Shown shown;
  CheckOptions judged = options;  // with the lock the history is judged as
  std::vector<model::Verdict> verdicts;
  std::vector<std::string> names;
  model::PendingOps pending;
  try {
    const model::EventReading read = open();
    int64_t seen = 0;
    // The first reading also finds what was still waiting at the end, so that the table says so.
    pending = model::pending_operations([&]() -> std::optional<model::Event> {
      std::optional<model::Event> e = read();
      if (!e) return e;
      shown.see(*e);
      if (++seen % 4096 == 0) progress("reading 1 of 3 (what it records)", seen, -1);
      return e;
    });
    clear_progress();
    const std::optional<std::string> lock_type = lock_type_to_judge(options, shown, err);
    if (!lock_type) return 2;
    judged.lock_type = *lock_type;
    names = properties_to_judge(judged, shown, expected, err);
    if (names.empty()) return 2;
    model::CheckerOptions checker_options;
    checker_options.lock_type = judged.lock_type;
    verdicts = model::judge_stream(open, names, checker_options, nullptr, 4096, model::standard_checkers(),
                                   [&](int64_t read, int64_t events) {
                                     progress(events < 0 ? "reading 2 of 3 (learning)" : "reading 3 of 3 (judging)",
                                              read, events < 0 ? seen : events);
                                   });
    clear_progress();
  } catch (const std::invalid_argument& e) {
    clear_progress();
    err << "locksim check: " << e.what() << " (expected " << model::property_list(model::property_names()) << ")\n";
    return 2;
  } catch (const std::exception& e) {
    clear_progress();
    err << "locksim check: " << options.history << ": " << e.what() << "\n";
    return 2;
  }
  scenario::ScenarioResult result = result_of(judged, shown, std::move(verdicts), expected);
  result.pending = std::move(pending);
  report::print_table(out, {result});
  for (const auto& p : result.properties) out << "\n" << p.property << ": " << p.verdict.explanation << "\n";
  out << "\n(--stream: judged as it streamed; no reports or timeline are written)\n";
  return result.passed() ? 0 : 1;
}

}  // namespace

int run_check(const CheckOptions& options, std::ostream& out, std::ostream& err) {
  if (!options.lock_type.empty() && !model::find_lock_type(options.lock_type)) {
    err << "locksim check: --lock " << options.lock_type << ": expected " << model::lock_type_list() << "\n";
    return 2;
  }
  std::map<std::string, std::string> expected;
  for (const std::string& item : options.expect) {
    const auto eq = item.find('=');
    const std::string value = eq == std::string::npos ? "" : item.substr(eq + 1);
    if (eq == std::string::npos || (value != "holds" && value != "violated")) {
      err << "locksim check: --expect " << item << ": expected PROPERTY=holds or PROPERTY=violated\n";
      return 2;
    }
    expected[item.substr(0, eq)] = value;
  }
  if (options.stream) return run_check_streaming(options, expected, out, err);
  std::ifstream in(options.history, std::ios::binary);
  if (!in) {
    err << "locksim check: cannot read " << options.history << "\n";
    return 2;
  }
  // Read line by line: a recorded history can be long, and its text is not kept beside it.
  model::History history;
  Shown shown;
  try {
    model::HistoryReader reader(in);
    while (auto e = reader.next()) {
      shown.see(*e);
      history.add(std::move(*e));
    }
  } catch (const std::exception& e) {
    err << "locksim check: " << options.history << ": " << e.what() << "\n";
    return 2;
  }
  const std::optional<std::string> lock_type = lock_type_to_judge(options, shown, err);
  if (!lock_type) return 2;
  CheckOptions judged = options;  // with the lock the history is judged as
  judged.lock_type = *lock_type;
  const std::vector<std::string> names = properties_to_judge(judged, shown, expected, err);
  if (names.empty()) return 2;
  std::vector<model::Verdict> verdicts;
  try {
    model::CheckerOptions checker_options;
    checker_options.lock_type = judged.lock_type;
    verdicts = model::run_checkers(history, names, checker_options);
  } catch (const std::invalid_argument& e) {
    err << "locksim check: " << e.what() << " (expected " << model::property_list(model::property_names()) << ")\n";
    return 2;
  }
  scenario::ScenarioResult result = result_of(judged, shown, std::move(verdicts), expected);
  result.pending = model::pending_operations(history);
  result.history = std::move(history);
  report::print_table(out, {result});
  try {
    report::RunInfo info;
    info.title = "locksim check " + options.history;
    report::write_reports(options.out, {result}, info);
  } catch (const std::exception& e) {
    err << "locksim check: " << e.what() << "\n";
    return 2;
  }
  // The table explains what failed or was only observed; a verdict as expected is explained here.
  for (const auto& p : result.properties)
    if (p.passed && !p.expected.empty()) out << "\n" << p.property << ": " << p.verdict.explanation << "\n";
  out << "\nreports: " << options.out << "/summary.md; timeline: " << options.out << "/" << report::slug(result.name)
      << "/timeline.html\n";
  return result.passed() ? 0 : 1;
}

}  // namespace locksim::app

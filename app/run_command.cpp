#include "app/run_command.hpp"

#include <chrono>
#include <csignal>
#include <filesystem>
#include <functional>
#include <optional>
#include <ostream>

#include "app/interrupt.hpp"
#include "base/share_dir.hpp"
#include "client/redisson_version.hpp"
#include "client/script_files.hpp"
#include "report/report.hpp"
#include "scenario/loader.hpp"
#include "scenario/runner.hpp"
#include "live/redis_process.hpp"

namespace locksim::app {

using report::print_table;
using report::write_reports;
using scenario::Backend;
using scenario::find_scenario_files;
using scenario::run_scenario_file;
using scenario::ScenarioResult;
namespace {

// Without a terminal, a live run says how far it is every this many seconds.
constexpr int64_t kProgressEveryS = 10;

// HOST:PORT, or [IPv6]:PORT.
std::optional<live::Address> parse_address(const std::string& text) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0) return std::nullopt;
  const std::string port = text.substr(colon + 1);
  if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  const int n = std::stoi(port);
  if (n < 1 || n > 65535) return std::nullopt;
  std::string host = text.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  return live::Address{host, n};
}

// The scenario files the paths name (./scenarios when none): false when there are none, said on err.
bool find_files(const RunOptions& options, std::vector<std::string>& files, std::ostream& err) {
  std::vector<std::string> paths = options.paths;
  if (paths.empty()) {
    if (!std::filesystem::is_directory("scenarios")) {
      const auto installed = base::find_share_folder("scenarios");
      err << "locksim run: no scenarios/ here: name scenario files or folders, e.g. locksim run "
          << (installed ? *installed : std::string("PREFIX/share/locksim/scenarios")) << "\n";
      return false;
    }
    paths = {"scenarios"};
  }
  try {
    // Every scenario needs the lock scripts: a missing folder is said once, here, not per file.
    client::default_scripts_dir();
    files = find_scenario_files(paths);
  } catch (const std::exception& e) {
    err << "locksim run: " << e.what() << "\n";
    return false;
  }
  if (files.empty()) {
    err << "locksim run: no scenario files (*.yaml) found\n";
    return false;
  }
  return true;
}

// --backend live and the servers it is given: false when they do not go together, said on err.
bool read_live(const RunOptions& options, Backend& backend, std::ostream& err) {
  if (options.backend == "live") {
    live::LiveOptions live;
    for (const std::string& text : options.redis) {
      const auto address = parse_address(text);
      if (!address) {
        err << "locksim run: --redis " << text << ": expected HOST:PORT, e.g. 127.0.0.1:6379\n";
        return false;
      }
      live.servers.push_back(*address);
    }
    if (options.redis.empty() && (!options.password.empty() || options.flush)) {
      err << "locksim run: --password and --flush apply to the servers --redis names (locksim's own have neither)\n";
      return false;
    }
    live.password = options.password;
    live.flush = options.flush;
    backend.live = live;
  } else if (options.backend != "fake") {
    err << "locksim run: --backend " << options.backend << ": expected fake or live\n";
    return false;
  } else if (!options.redis.empty() || !options.password.empty() || options.flush) {
    err << "locksim run: --redis, --password and --flush apply to --backend live\n";
    return false;
  }
  return true;
}

// What every scenario runs on: the backend, its time scale and Redisson version. False when the
// options are wrong (said on err), or --stream's report folder cannot be made.
bool read_backend(const RunOptions& options, Backend& backend, std::ostream& err) {
  if (!read_live(options, backend, err)) return false;
  if (!(options.time_scale > 0 && options.time_scale <= 1)) {
    err << "locksim run: --time-scale " << options.time_scale << ": expected a factor in (0, 1]\n";
    return false;
  }
  backend.time_scale = options.time_scale;
  if (!options.redisson.empty()) {
    try {
      client::modelled_version(options.redisson);
    } catch (const std::invalid_argument& e) {
      err << "locksim run: --redisson " << options.redisson << ": " << e.what() << "\n";
      return false;
    }
    backend.redisson = options.redisson;
  }
  if (options.stream) {
    std::error_code ec;
    std::filesystem::create_directories(options.out, ec);
    if (ec) {
      err << "locksim run: " << options.out << ": cannot create (" << ec.message() << ")\n";
      return false;
    }
  }
  return true;
}

// A live run takes real time: how far it is, on a line that rewrites itself on a terminal, else a
// line every kProgressEveryS seconds, for a log.
std::function<void(int64_t, int64_t)> live_progress(std::ostream& err, const std::string& which, bool terminal) {
  return [&err, which, terminal](int64_t now_ms, int64_t end_ms) {
    const int64_t end_s = (end_ms + 999) / 1000;
    if (terminal)
      err << "\r" << which << " (live) " << now_ms / 1000 << " s of " << end_s << " s\x1b[K" << std::flush;
    else if (now_ms % (kProgressEveryS * 1000) == 0 && now_ms < end_ms)
      err << which << " (live) " << now_ms / 1000 << " s of " << end_s << " s\n";
  };
}

// The files run in order until the last or Ctrl-C; what an interruption left unrun is listed too,
// as skipped, so the reports say what is missing.
std::vector<ScenarioResult> run_files(const std::vector<std::string>& files, Backend backend, const RunOptions& options,
                                      report::RunInfo& info, std::ostream& err) {
  std::vector<ScenarioResult> results;
  results.reserve(files.size());
  for (size_t i = 0; i < files.size() && !stop_requested(); ++i) {
    const std::string which = "[" + std::to_string(i + 1) + "/" + std::to_string(files.size()) + "] " + files[i];
    if (options.progress) err << "\r" << which << "\x1b[K" << std::flush;
    // A live run says which scenario it is on, even without a terminal.
    if (backend.live && !options.progress) err << which << " (live)\n";
    if (backend.live) backend.progress = live_progress(err, which, options.progress);
    // Streamed: each history goes to a file of its own in the report folder until the reports move
    // it into its scenario's folder.
    if (options.stream)
      backend.stream_to = (std::filesystem::path(options.out) / (".streaming-" + std::to_string(i + 1) + ".jsonl")).string();
    const auto started = std::chrono::steady_clock::now();
    results.push_back(run_scenario_file(files[i], backend));
    info.seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    if (const auto early = results.back().ended_early_ms)
      err << (options.progress ? "\r" : "") << which << " (live) ended at " << *early / 1000
          << " s: every client idle, nothing scheduled (the file gives no run_ms)" << (options.progress ? "\x1b[K\n" : "\n");
  }
  for (size_t i = results.size(); i < files.size(); ++i) {
    ScenarioResult r;
    r.file = files[i];
    r.name = std::filesystem::path(files[i]).stem().string();
    r.backend = backend.live ? "live" : "fake";
    r.skipped = "not run: the run was interrupted";
    results.push_back(std::move(r));
    info.seconds.push_back(0);
  }
  return results;
}

// The reports written: false when they could not be (said on err, with where streamed histories are).
bool write_all(const RunOptions& options, const std::vector<ScenarioResult>& results, const report::RunInfo& info,
               std::ostream& out, std::ostream& err) {
  try {
    write_reports(options.out, results, info);
    out << "reports: " << options.out << "/index.html (open this), summary.md, results.json, junit.xml, "
        << (options.stream ? "<scenario>/history.jsonl\n" : "<scenario>/timeline.html\n");
  } catch (const std::exception& e) {
    err << "locksim run: " << e.what() << "\n";
    // Streamed histories not yet moved into their scenario's folder stay where the run wrote them.
    for (const auto& r : results)
      if (r.history_file && std::filesystem::exists(*r.history_file))
        err << "locksim run: " << r.name << "'s history is in " << *r.history_file << "\n";
    return false;
  }
  return true;
}

// 2 a bad file, 1 an expectation not met (or nothing judged), else 0.
int exit_code(const std::vector<ScenarioResult>& results, std::ostream& err) {
  bool bad = false, failed = false, all_skipped = !results.empty();
  for (const auto& r : results) {
    bad = bad || r.bad_input || r.setup_error;
    failed = failed || !r.passed();
    all_skipped = all_skipped && r.skipped.has_value();
  }
  if (bad) return 2;
  // A run that judged nothing met no expectation: exit 0 would pass a CI job that tested nothing.
  if (all_skipped) {
    err << "locksim run: every scenario was skipped (the table says why): nothing was judged\n";
    return 1;
  }
  return failed ? 1 : 0;
}

}  // namespace

int run_scenarios(const RunOptions& options, std::ostream& out, std::ostream& err) {
  std::vector<std::string> files;
  if (!find_files(options, files, err)) return 2;
  Backend backend;
  if (!read_backend(options, backend, err)) return 2;
  report::RunInfo info;  // the wall-clock seconds of each scenario (for junit.xml and index.html)
  std::vector<ScenarioResult> results;
  {
    // The first Ctrl-C ends the scenario running now (its servers stopped, its history and the
    // reports written); a second one kills every server locksim started and exits at once.
    const StopOnSignal stop({SIGINT, SIGTERM}, StopOnSignal::Live::Yes);
    results = run_files(files, backend, options, info, err);
  }
  const bool interrupted = stop_requested();
  if (options.progress) err << "\r\x1b[K" << std::flush;
  if (interrupted) err << "locksim run: interrupted; the reports list the scenarios it did not run as skipped\n";
  print_table(out, results);
  if (!write_all(options, results, info, out, err)) return 2;
  if (interrupted) return 128 + (stop_signal() ? stop_signal() : SIGINT);
  return exit_code(results, err);
}

}  // namespace locksim::app

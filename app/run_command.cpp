#include "app/run_command.hpp"

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <optional>
#include <ostream>

#include "base/share_dir.hpp"
#include "client/redisson_version.hpp"
#include "client/script_files.hpp"
#include "report/report.hpp"
#include "scenario/loader.hpp"
#include "scenario/runner.hpp"
#include "live/interrupt.hpp"
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

volatile std::sig_atomic_t g_interrupts = 0;
volatile std::sig_atomic_t g_signal = 0;

// The first Ctrl-C ends the scenario running now (its servers stopped, its history and the reports
// written); a second one kills every server locksim started and exits at once.
void on_run_interrupt(int signal) {
  g_signal = signal;
  g_interrupts = g_interrupts + 1;
  if (g_interrupts > 1) {
    live::kill_started_servers();
    ::_exit(128 + signal);
  }
  live::request_interrupt();
}

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

}  // namespace

int run_scenarios(const RunOptions& options, std::ostream& out, std::ostream& err) {
  std::vector<std::string> paths = options.paths;
  if (paths.empty()) {
    if (!std::filesystem::is_directory("scenarios")) {
      const auto installed = base::find_share_folder("scenarios");
      err << "locksim run: no scenarios/ here: name scenario files or folders, e.g. locksim run "
          << (installed ? *installed : std::string("PREFIX/share/locksim/scenarios")) << "\n";
      return 2;
    }
    paths = {"scenarios"};
  }
  std::vector<std::string> files;
  try {
    // Every scenario needs the lock scripts: a missing folder is said once, here, not per file.
    client::default_scripts_dir();
    files = find_scenario_files(paths);
  } catch (const std::exception& e) {
    err << "locksim run: " << e.what() << "\n";
    return 2;
  }
  if (files.empty()) {
    err << "locksim run: no scenario files (*.yaml) found\n";
    return 2;
  }
  Backend backend;
  if (options.backend == "live") {
    live::LiveOptions live;
    for (const std::string& text : options.redis) {
      const auto address = parse_address(text);
      if (!address) {
        err << "locksim run: --redis " << text << ": expected HOST:PORT, e.g. 127.0.0.1:6379\n";
        return 2;
      }
      live.servers.push_back(*address);
    }
    if (options.redis.empty() && (!options.password.empty() || options.flush)) {
      err << "locksim run: --password and --flush apply to the servers --redis names (locksim's own have neither)\n";
      return 2;
    }
    live.password = options.password;
    live.flush = options.flush;
    backend.live = live;
  } else if (options.backend != "fake") {
    err << "locksim run: --backend " << options.backend << ": expected fake or live\n";
    return 2;
  } else if (!options.redis.empty() || !options.password.empty() || options.flush) {
    err << "locksim run: --redis, --password and --flush apply to --backend live\n";
    return 2;
  }
  if (!(options.time_scale > 0 && options.time_scale <= 1)) {
    err << "locksim run: --time-scale " << options.time_scale << ": expected a factor in (0, 1]\n";
    return 2;
  }
  backend.time_scale = options.time_scale;
  if (!options.redisson.empty()) {
    try {
      client::modelled_version(options.redisson);
    } catch (const std::invalid_argument& e) {
      err << "locksim run: --redisson " << options.redisson << ": " << e.what() << "\n";
      return 2;
    }
    backend.redisson = options.redisson;
  }
  if (options.stream) {
    std::error_code ec;
    std::filesystem::create_directories(options.out, ec);
    if (ec) {
      err << "locksim run: " << options.out << ": cannot create (" << ec.message() << ")\n";
      return 2;
    }
  }
  const auto old_int = std::signal(SIGINT, on_run_interrupt);
  const auto old_term = std::signal(SIGTERM, on_run_interrupt);
  std::vector<ScenarioResult> results;
  results.reserve(files.size());
  report::RunInfo info;  // the wall-clock seconds of each scenario (for junit.xml and index.html)
  for (size_t i = 0; i < files.size() && !live::interrupt_requested(); ++i) {
    const std::string which = "[" + std::to_string(i + 1) + "/" + std::to_string(files.size()) + "] " + files[i];
    if (options.progress) err << "\r" << which << "\x1b[K" << std::flush;
    // A live run takes real time: say which scenario it is on and how far it is, even without a
    // terminal (then a line every kProgressEveryS seconds, for a log).
    if (backend.live && !options.progress) err << which << " (live)\n";
    if (backend.live)
      backend.progress = [&err, which, terminal = options.progress](int64_t now_ms, int64_t end_ms) {
        const int64_t end_s = (end_ms + 999) / 1000;
        if (terminal)
          err << "\r" << which << " (live) " << now_ms / 1000 << " s of " << end_s << " s\x1b[K" << std::flush;
        else if (now_ms % (kProgressEveryS * 1000) == 0 && now_ms < end_ms)
          err << which << " (live) " << now_ms / 1000 << " s of " << end_s << " s\n";
      };
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
  // What an interruption left unrun is listed too, so the reports say what is missing.
  for (size_t i = results.size(); i < files.size(); ++i) {
    ScenarioResult r;
    r.file = files[i];
    r.name = std::filesystem::path(files[i]).stem().string();
    r.backend = backend.live ? "live" : "fake";
    r.skipped = "not run: the run was interrupted";
    results.push_back(std::move(r));
    info.seconds.push_back(0);
  }
  std::signal(SIGINT, old_int);
  std::signal(SIGTERM, old_term);
  const bool interrupted = live::interrupt_requested();
  if (options.progress) err << "\r\x1b[K" << std::flush;
  if (interrupted) err << "locksim run: interrupted; the reports list the scenarios it did not run as skipped\n";
  print_table(out, results);
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
    return 2;
  }
  bool bad = false, failed = false, all_skipped = !results.empty();
  for (const auto& r : results) {
    bad = bad || r.bad_input || r.setup_error;
    failed = failed || !r.passed();
    all_skipped = all_skipped && r.skipped.has_value();
  }
  if (interrupted) return 128 + (g_signal ? static_cast<int>(g_signal) : SIGINT);
  if (bad) return 2;
  // A run that judged nothing met no expectation: exit 0 would pass a CI job that tested nothing.
  if (all_skipped) {
    err << "locksim run: every scenario was skipped (the table says why): nothing was judged\n";
    return 1;
  }
  return failed ? 1 : 0;
}

}  // namespace locksim::app

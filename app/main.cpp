// locksim: a simulation and verification testbed for Redis-based distributed locks.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>
#include <tuple>
#include <sys/ioctl.h>
#include <unistd.h>

#include "base/heap_policy.hpp"
#include "shell/demo.hpp"
#include "app/audit_command.hpp"
#include "app/explore_command.hpp"
#include "shell/line_editor.hpp"
#include "shell/redis_shell.hpp"
#include "app/run_command.hpp"
#include "app/serve_command.hpp"
#include "app/check_command.hpp"
#include "app/cli_values.hpp"
#include "app/help_format.hpp"
#include "app/exhaustive_command.hpp"
#include "scenario/loader.hpp"
#include "scenario/redisson_library.hpp"
#include "client/redisson_version.hpp"
#include "client/script_files.hpp"
#include "model/checkers.hpp"
#include "model/lock_types.hpp"
#include "world/fault.hpp"

namespace {

// How standard output takes text: a terminal's width and colours; into a pipe the same text, plain,
// 100 columns wide (or $COLUMNS, as a script that knows its reader's width says).
locksim::report::TextStyle terminal_style() {
  locksim::report::TextStyle style;
  winsize size{};
  const bool tty = ::isatty(1) != 0;
  if (tty && ::ioctl(1, TIOCGWINSZ, &size) == 0 && size.ws_col >= 40) {
    style.width = size.ws_col;
  } else if (const char* columns = std::getenv("COLUMNS")) {
    size_t n = 0;
    const std::string_view text(columns);
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (ec == std::errc() && end == text.data() + text.size() && n >= 40 && n <= 1000) style.width = n;
  }
  const char* term = std::getenv("TERM");
  style.colour = tty && std::getenv("NO_COLOR") == nullptr && !(term && std::string_view(term) == "dumb");
  return style;
}

// A whole number from `lo` to `hi`, written in digits (a leading '-' only where lo < 0): CLI11
// would read "-1" into an unsigned option as 2^64 - 1, and clamp a number too large for the type.
CLI::Validator integer_in(int64_t lo, uint64_t hi) {
  const std::string range = std::to_string(lo) + ".." + std::to_string(hi);
  return CLI::Validator(
      [lo, hi, range](std::string& v) -> std::string {
        const bool negative = !v.empty() && v[0] == '-';
        const std::string_view digits = std::string_view(v).substr(negative ? 1 : 0);
        uint64_t n = 0;
        const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
        const bool whole = !digits.empty() && ec == std::errc() && end == digits.data() + digits.size();
        const bool in = whole && (negative ? lo < 0 && n <= static_cast<uint64_t>(-(lo + 1)) + 1
                                           : n <= hi && (lo <= 0 || n >= static_cast<uint64_t>(lo)));
        return in ? std::string() : "an integer in " + range + ", not " + v;
      },
      "INT in " + range);
}

// A finite number of seconds from 0 to `hi` ("nan" and "inf" are numbers to strtod).
CLI::Validator seconds_up_to(double hi) {
  return CLI::Validator(
      [hi](std::string& v) -> std::string {
        try {
          size_t used = 0;
          const double s = std::stod(v, &used);
          if (used == v.size() && std::isfinite(s) && s >= 0 && s <= hi) return "";
        } catch (const std::exception&) {
        }
        return "a number of seconds from 0 to " + std::to_string(static_cast<int64_t>(hi)) + ", not " + v;
      },
      "SECONDS");
}

// Run ms since the epoch a clock may start at: 0 (1970) to the end of the year 9999.
constexpr int64_t kLatestStartMs = 253'402'300'799'999;

// Optimal string alignment distance: an edit is an insertion, a deletion, a substitution or the
// swap of two neighbours (the typing slips `locksim runn` and `locksim exlpore`).
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

// `locksim: unknown command 'runn'; did you mean 'run'?`: the closest command, when it is close (at
// most two edits, and fewer than half its letters); exit code 2, as for any bad usage.
int unknown_command(const CLI::App& app, const std::string& word) {
  std::string closest;
  size_t best = 3;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    const size_t distance = edit_distance(word, sub->get_name());
    if (distance < best && distance * 2 <= sub->get_name().size()) {
      best = distance;
      closest = sub->get_name();
    }
  }
  std::cerr << "locksim: unknown command '" << word << "'";
  if (!closest.empty()) std::cerr << "; did you mean '" << closest << "'?";
  std::cerr << "\n`locksim help` lists the commands.\n";
  return 2;
}

std::string version_text() {
  return std::string("locksim ") + LOCKSIM_VERSION + "\nfake Redis " + locksim::shell::fake_redis_version() +
         ", Redisson " + locksim::client::default_version().str() + " by default";
}

}  // namespace

int main(int argc, char** argv) {
  locksim::keep_freed_heap();  // a search runs world after world: keep the heap they free
  CLI::App app{
      "locksim: runs real Redis lock scripts (Redisson's RLock, FairLock, SET NX PX tokens, ...) in a\n"
      "deterministic in-process fake Redis 7.0 on a simulated clock.",
      "locksim"};
  app.formatter(std::make_shared<locksim::app::HelpFormatter>(terminal_style().width));
  app.require_subcommand(0, 1);  // none: the usage and the list of commands, not just an error
  app.set_version_flag("-V,--version", version_text, "Print locksim's version (and the fake Redis's) and exit");

  locksim::app::RunOptions run_options;
  CLI::App* run = app.add_subcommand(
      "run",
      "Runs scenario files (a situation each: a lock, clients, operations and faults at exact virtual times)\n"
      "in the simulated world (or, with --backend live, against real redis-servers), judges each run\n"
      "with the checkers the file names, prints a verdict table\n"
      "and writes summary.md, results.json, junit.xml and per scenario its history and an HTML timeline.\n"
      "Exit code: 0 every expectation met, 1 one was not (or every scenario was skipped: nothing judged), 2 a bad\n"
      "file, bad usage or live servers that could not be set up, 130 (143) interrupted by Ctrl-C (SIGTERM): the\n"
      "reports then cover what ran.\n"
      "The format: docs/scenario-format.md; live runs: docs/live.md.");
  run->add_option("paths", run_options.paths,
                  "Scenario files or folders (default: ./scenarios, which must then exist; the installed library\n"
                  "is PREFIX/share/locksim/scenarios)");
  run->add_option("--out", run_options.out, "Where to write the reports, relative to the current folder")
      ->capture_default_str();
  run->add_option("--backend", run_options.backend,
                  "fake: the simulated world (deterministic, virtual time). live: the same clients against real\n"
                  "redis-servers on the real clock (a scenario's virtual ms become real ms); locksim starts its own\n"
                  "(Debian's redis-server on 127.0.0.1, free ports, no persistence unless a restart asks for AOF, a\n"
                  "replica where a failover needs one) and stops them afterwards, or uses --redis")
      ->check(CLI::IsMember({"fake", "live"}))
      ->capture_default_str();
  run->add_option("--redis", run_options.redis,
                  "live: HOST:PORT (or [IPv6]:PORT) of a Redis to run against instead; repeat the option for a\n"
                  "scenario with several servers. It must be empty (every database), or pass --flush; locksim\n"
                  "deletes the keys its run created afterwards. Scenarios with server faults need servers locksim starts")
      ->allow_extra_args(false);  // one address per --redis: a scenario path may follow
  run->add_option("--password", run_options.password, "live: the password (AUTH) of the --redis servers");
  run->add_flag("--flush", run_options.flush,
                "live: FLUSHALL (every database!) the --redis servers before each scenario");
  run->add_option("--redisson", run_options.redisson,
                  "X.Y.Z: run every Redisson lock as this Redisson version (its scripts, defaults and client logic,\n"
                  "bugs included) instead of each file's `redisson:` (default " +
                      locksim::client::default_version().str() + "; modelled: " + locksim::client::modelled_range() +
                      "); a file's explicit lock options still override it");
  run->add_option("--time-scale", run_options.time_scale,
                  "Multiply every duration in each scenario (timeline, leases, waits, run length, Redisson's timers)\n"
                  "by this factor in (0, 1], on either backend, so long scenarios run shorter live; scenarios that\n"
                  "say live: {time_scale: false} are skipped (reported, not failed)")
      ->capture_default_str();
  run->add_flag("--stream", run_options.stream,
                "Write each history to its file as it is recorded and judge it from there as it streams, for a\n"
                "run too long to hold (a soak): what is held follows how long operations and holds last, not\n"
                "the run's length (the scenario's own timeline is held). The verdicts are the whole run's, or\n"
                "unknown where a stream dropped what one needs; no timeline is written (docs/checkers.md)");

  locksim::shell::RedisShellOptions shell_options;
  double redis_interval_s = 0;
  CLI::App* redis = app.add_subcommand(
      "redis",
      "redis-cli over the fake Redis, in this process: no server to connect to, and a simulated clock.\n"
      "  locksim redis                     reads commands, one a line in redis-cli's syntax (a leading count\n"
      "                                    repeats one: 3 INCR k); on a terminal with a prompt, line editing\n"
      "                                    and history, from a pipe or a file without a prompt\n"
      "  locksim redis SET k v PX 100      runs that one command: the words after the options are the command\n"
      "  locksim redis --eval f.lua k1 k2 , a1 a2\n"
      "                                    runs a Lua script file with keys k1 k2 and arguments a1 a2\n"
      "Replies print as redis-cli prints them. A command given as arguments prints as --no-raw when\n"
      "standard output is a terminal and as --raw otherwise, as redis-cli's does. Commands read from lines\n"
      "print as --no-raw unless --raw is given (redis-cli prints raw into a pipe; locksim keeps its output\n"
      "byte for byte `redis-cli --no-raw`'s). The clock starts at --start-ms and moves only with DEBUG SLEEP\n"
      "and -i. redis-cli's connection options (-h host, -p port, -s socket, -a password, -u URI) are refused:\n"
      "to use them, run `locksim serve` and point redis-cli at it (docs/serve.md). Help is --help only.\n"
      "Exit code: 0; 1 when -e met an error reply; 2 bad usage, an --eval file that cannot be read, or a\n"
      "database (-n) the fake does not have.");
  redis->set_help_flag("--help", "Print this help message and exit (-h is redis-cli's host, refused here)");
  redis->positionals_at_end();  // `locksim redis SET k -1`: after the command name every word is the command's
  redis->add_option("command", shell_options.command,
                    "A command and its arguments, run once (or -r times); none: commands are read from standard input");
  redis->add_option("-n", shell_options.db, "Database number: SELECT it first (0..15)")->type_name("DB");
  auto* redis_repeat =
      redis->add_option("-r", shell_options.repeat, "Run the command N times (negative: until killed)")->type_name("N");
  redis->add_option("-i", redis_interval_s,
                    "After each command, move the simulated clock on by this many seconds (to the ms, e.g.\n"
                    "-i 0.1) instead of sleeping as redis-cli does")
      ->check(seconds_up_to(1e9))
      ->type_name("SECONDS");
  auto* redis_stdin = redis->add_flag("-x", shell_options.last_arg_from_stdin,
                                      "Read the command's last argument from standard input, all of it (echo v | locksim redis -x SET k)");
  auto* redis_errors = redis->add_flag("-e", shell_options.exit_on_error,
                                       "Exit code 1 when the command's reply is an error (printed alone on standard error)");
  bool redis_raw = false, redis_no_raw = false;
  redis->add_flag("--raw", redis_raw, "Print replies raw (redis-cli's default when standard output is not a terminal)")
      ->excludes(redis->add_flag("--no-raw", redis_no_raw, "Print replies formatted, even when standard output is not a terminal"));
  auto* redis_eval = redis->add_option("--eval", shell_options.eval_file,
                                       "Run the Lua script in FILE: the words after the options are its keys, then\n"
                                       "a lone comma, then its arguments (--eval f.lua k1 k2 , a1 a2)")
                        ->type_name("FILE");
  redis_stdin->excludes(redis_eval);
  redis->add_option("--start-ms", shell_options.start_ms, "The simulated clock's first instant, in ms since the epoch")
      ->check(integer_in(0, kLatestStartMs))
      ->capture_default_str();
  std::string refused;
  // A group's name is one line (CLI11 refuses a newline in it).
  auto* connection = redis->add_option_group(
      "redis-cli's connection options, refused: the fake runs in this process (docs/serve.md: redis-cli on locksim serve)");
  for (const auto& [name, what] : {std::pair{"-h", "host"}, {"-p", "port"}, {"-s", "socket"}, {"-a", "password"},
                                   {"-u", "URI"}, {"--user", "ACL user"}, {"--pass", "password"}})
    connection->add_option(name, refused, std::string("redis-cli's ") + what)->expected(0, 1)->type_name("");

  std::string scripts_dir;  // empty: locksim's own, looked up when the demo runs (it may be missing)
  CLI::App* demo = app.add_subcommand(
      "demo", "Walks through the seed articles' lock scripts on the fake Redis, step by step, on a simulated clock.");
  demo->add_option("--scripts", scripts_dir,
                   "Directory of the lock scripts (*.lua; default: $LOCKSIM_SCRIPTS, else share/locksim/scripts beside\n"
                   "the executable)");

  locksim::app::ExploreOptions explore_options;
  std::string explore_faults = "none", explore_properties = "mutual_exclusion", explore_seeds, explore_shard;
  uint64_t explore_seed = 0, explore_count = 1000;
  bool explore_no_shrink = false;
  CLI::App* explore = app.add_subcommand(
      "explore",
      "Property-based exploration: per seed, a random workload (1..N clients, lock/try_lock/unlock/work/write)\n"
      "and fault plan, run in the simulated world and judged by the properties named, each expected to hold.\n"
      "A violation is shrunk to a small scenario file (replay: locksim run FILE) and an HTML timeline; seeds that\n"
      "shrink to the same case are one finding. With --against, every case also runs under a second configuration\n"
      "and the findings are the verdicts that differ (a fix, an upgrade, your script against the stock one).\n"
      "Violations a hazard of the configuration explains (a lease shorter than the work, a pause longer than the\n"
      "lease, a restart without persistence, ...) are counted apart.\n"
      "Exit code: 0 no finding, 1 findings (or a case that could not run), 2 bad usage, 130 interrupted.\n"
      "More: docs/exploration.md.");
  explore->add_option("--lock", explore_options.config.lock_type, "Lock type: " + locksim::model::lock_type_list())
      ->capture_default_str();
  explore->add_option("--clients", explore_options.config.clients_max, "At most this many clients (1..26)")->capture_default_str();
  explore->add_option("--threads", explore_options.config.threads_max,
                      "Each client's sessions run on 1..N threads (1..100): with --clients 26, hundreds of waiters")
      ->capture_default_str();
  explore->add_option("--ops", explore_options.config.ops_max, "At most this many operations per client")->capture_default_str();
  std::string all_drawn;
  for (const std::string& kind : locksim::world::drawn_fault_names()) all_drawn += (all_drawn.empty() ? "" : ",") + kind;
  explore->add_option("--faults", explore_faults,
                      "Fault kinds allowed, comma-separated: " + locksim::world::fault_list() + "; or all (" + all_drawn +
                          "), or none")
      ->capture_default_str();
  explore->add_option("--faults-max", explore_options.config.faults_max, "At most this many faults per case")->capture_default_str();
  explore->add_option("--world-loss", explore_options.config.world_loss_max, "World-wide message loss per thousand, at most")
      ->capture_default_str();
  explore->add_flag("--reorder", explore_options.config.reorder,
                    "Messages on a link may overtake one another in every case (a delayed reply and a pub/sub message "
                    "racing, as on a real network with several connections); without it each direction is FIFO. With "
                    "delay among the faults, a third of the sessions also race another client's release (#5761)");
  explore->add_option("--horizon-ms", explore_options.config.horizon_ms, "Sessions and faults start within this many ms")
      ->capture_default_str();
  explore->add_option("--work-ms-max", explore_options.config.work_ms_max, "A session works 0..this many ms while holding")
      ->capture_default_str();
  explore->add_option("--wait-ms-max", explore_options.config.wait_ms_max,
                      "A tryLock waits 0..this many ms (0: every tryLock is tryLock(0), as zero_wait_tryacquire wants)")
      ->capture_default_str();
  explore->add_flag("--no-try-lock", [&](int64_t) { explore_options.config.try_locks = false; },
                    "Every acquire is lock() (no tryLock with a wait, whose give-up can race a wake-up)");
  explore->add_flag("--no-leases", [&](int64_t) { explore_options.config.leases = false; },
                    "Acquires never name a lease (rlock: the watchdog renews every hold)");
  std::vector<std::string> explore_set;
  std::string explore_against;
  explore->add_option("--set", explore_set,
                      "KEY=VALUE[,KEY=VALUE...]: lock options in the scenario format's words (its lock: keys, e.g.\n"
                      "unlock_latch=true, watchdog_on_error=keep, watchdog_ms=10000, fair_variant=tail-3.32,\n"
                      "thread_wait_ms=300000, wait_replaces_thread_wait=true, zero_wait_tryacquire=true, rwlock_variant=3.44,\n"
                      "rwlock_read_renewal=3.8, acquire_script=rlock_acquire_hset, unlock_script=..., timeout_ms=...,\n"
                      "retry_attempts=..., retry_interval_ms=...), for every case (repeatable)")
      ->allow_extra_args(false);
  explore->add_option("--against", explore_against,
                      "KEY=VALUE[,...]: run every case under this variation of the configuration too (the same lock options,\n"
                      "and script:NAME=FILE, or script:NAME=stock to undo a --script), and report the cases whose verdicts\n"
                      "differ: \"violated under the configuration, holds under --against\" (or the reverse)");
  explore->add_flag("--show-hazards", explore_options.show_hazards,
                    "Report violations that a hazard of the configuration explains as findings, too");
  std::string explore_redisson;
  explore->add_option("--redisson", explore_redisson,
                      "X.Y.Z: the Redisson version the lock runs as (default " + locksim::client::default_version().str() +
                          ", modelled " + locksim::client::modelled_range() +
                          "); the same as --set redisson=X.Y.Z, and --against redisson=X.Y.Z compares two versions");
  std::string fair_variant, thread_wait_ms;
  bool watchdog_keep = false, unlock_latch = false;
  explore->add_flag("--watchdog-keep", watchdog_keep, "The same as --set watchdog_on_error=keep (Redisson 3.44.0 on)");
  explore->add_flag("--unlock-latch", unlock_latch, "The same as --set unlock_latch=true (Redisson 3.24.0 on)");
  explore->add_option("--fair-variant", fair_variant,
                      "The same as --set fair_variant=V: head (2.7.0-3.11.0), tail (3.11.1-3.30.x), tail-3.31,\n"
                      "tail-3.32 (3.32.0-3.44.x), tail-3.45 (3.45.0 on); --redisson sets it with everything else");
  explore->add_option("--thread-wait-ms", thread_wait_ms,
                      "The same as --set thread_wait_ms=N: fair's threadWaitTime (5000 up to 3.13.2; 300000 from 3.13.3,\n"
                      "the default version's); fair_queue judges evictions by it");
  std::vector<std::string> explore_scripts;
  explore->add_option("--script", explore_scripts,
                      "NAME=FILE: run your Lua FILE wherever the lock would run scripts/NAME.lua (repeatable), to audit "
                      "your own script");
  explore->add_option("--properties", explore_properties,
                      "Properties expected to hold, comma-separated, among those that apply to the lock: " +
                          locksim::model::property_list(locksim::model::scenario_property_names()) +
                          " (fencing: token, client-reentrant and fenced; reentrancy: hash locks and client-reentrant; watchdog: Redisson's locks; "
                          "fair_queue: fair and nonreentrant-fair; read_write: rwlock, which mutual_exclusion does not judge, and its default)")
      ->capture_default_str();
  auto* seed_opt = explore->add_option("--seed", explore_seed, "Run this one seed")->check(integer_in(0, UINT64_MAX));
  auto* seeds_opt = explore->add_option("--seeds", explore_seeds, "Run seeds A..B (inclusive)");
  auto* count_opt =
      explore->add_option("--count", explore_count, "Run seeds 1..N")->check(integer_in(1, 100'000'000))->capture_default_str();
  seed_opt->excludes(seeds_opt)->excludes(count_opt);
  seeds_opt->excludes(count_opt);
  explore->add_option("--shard", explore_shard, "I/N: run only the seeds at positions I mod N of the range (0 <= I < N)");
  explore->add_option("--out", explore_options.out, "Write one JSON line per case, then one per finding and per hazard, to this file");
  explore->add_option("--junit", explore_options.junit, "Write a JUnit XML report (a test case per finding, one per hazard, skipped)");
  explore->add_option("--cases", explore_options.cases_dir,
                      "Where each finding's counterexample (seed-S.yaml, seed-S.html; -against.* too) goes; none: nowhere")
      ->capture_default_str();
  explore->add_option("--emit", explore_options.emit_dir,
                      "Also write every generated case, before it runs and unshrunk, as DIR/seed-S.yaml");
  explore->add_flag("--no-shrink", explore_no_shrink, "Write counterexamples as generated, unshrunk");
  explore->add_option("--shrink-runs", explore_options.shrink.runs_max, "Plans run while shrinking one case, at most (a differential run runs two scenarios a plan)")
      ->check(integer_in(1, 1'000'000'000))
      ->capture_default_str();
  explore->add_flag("--keep-anomaly", explore_options.shrink.keep_anomaly,
                    "Shrink again, keeping the anomaly, a finding whose first shrink told another (a fifo-inversion that\n"
                    "ended as a starved waiter): slower, and seeds of one bug may then show as several findings");

  locksim::app::AuditOptions audit_options;
  std::string audit_locks;
  std::vector<std::string> audit_set;
  bool audit_matrix = false;
  CLI::App* audit = app.add_subcommand(
      "audit",
      "What a Redisson version risks, and what to do: the version to upgrade to and the bugs it fixes, the fixes'\n"
      "options that take a bug away short of it, and for what no version avoids, its mitigation and the scenario\n"
      "that shows it working. Then every bug and hazard of Redisson's locks that locksim models, each shown by\n"
      "running its story from locksim's own library (installed beside it) as that version: affected or fixed, the\n"
      "versions it affects, and a replay command. Writes index.html, summary.md, results.json, junit.xml and a\n"
      "folder per story (its history, timeline and the story as it ran) to --out.\n"
      "Exit code: 0 no modelled bug that a later version fixes affects it, 1 one does, 2 bad usage\n"
      "(with --self-check: 0 every verdict as locksim's version table says, 1 one differs).");
  audit->add_option("--redisson", audit_options.redisson,
                    "X.Y.Z: the version to audit (modelled: " + locksim::client::modelled_range() + ")");
  std::string audited;
  for (const std::string& type : locksim::scenario::audited_lock_types()) audited += (audited.empty() ? "" : ", ") + type;
  audit->add_option("--lock", audit_locks,
                    "The lock types in use, comma-separated (" + audited + ": the library has stories for these\n"
                    "only); default all");
  audit->add_option("--set", audit_set,
                    "KEY=VALUE[,...]: the lock options in use (the scenario format's lock: keys), on every story that\n"
                    "takes them; a story timed by one (watchdog_ms) scales its times with it, and one that can no longer\n"
                    "show its bug under them runs without them, saying why")
      ->allow_extra_args(false);
  audit->add_option("--out", audit_options.out, "Where to write the reports")->capture_default_str();
  audit->add_flag("--matrix", audit_matrix,
                  "Print the version matrix instead (every row on every version where a behaviour changes), as markdown");
  audit->add_option("--format", audit_options.format,
                    "text: aligned to the terminal's width (100 columns into a pipe, or $COLUMNS); md: Markdown, as summary.md")
      ->check(CLI::IsMember({"text", "md"}))
      ->capture_default_str();
  audit->add_flag("--self-check", audit_options.self_check,
                  "Also check every story's verdict against locksim's version table (locksim checking itself; not with --set)");

  locksim::server::ServeOptions serve_options;
  std::string serve_clock = "real";
  std::string serve_requirepass;
  CLI::App* serve = app.add_subcommand(
      "serve",
      "The fake Redis 7.0 over RESP, for real clients in any language (redis-cli, redis-py, ioredis, ...): one\n"
      "event loop, each command atomic on the engine. Faults while clients run (LOCKSIM.FAULT on any connection,\n"
      "or --faults FILE), a real or virtual clock, and a history of every command that `locksim check` judges.\n"
      "Runs until SHUTDOWN, LOCKSIM.SHUTDOWN, Ctrl-C or SIGTERM, then writes the history. Guide: docs/serve.md.");
  serve->add_option("--port", serve_options.port, "TCP port (0: a free one, printed and written to --port-file)")
      ->capture_default_str();
  serve->add_option("--bind", serve_options.bind, "Address to listen on (only loopback unless you say otherwise)")
      ->capture_default_str();
  serve->add_option("--port-file", serve_options.port_file, "Write the port here once listening");
  serve->add_option("--requirepass", serve_requirepass, "Clients must AUTH with this password");
  serve->add_option("--clock", serve_clock,
                    "real: the machine's clock. virtual: starts at --start-ms and moves only with DEBUG SLEEP,\n"
                    "LOCKSIM.CLOCK ADVANCE <ms> or a clock_jump fault, so a 30 s lease runs out when you say")
      ->check(CLI::IsMember({"real", "virtual"}))
      ->capture_default_str();
  serve->add_option("--start-ms", serve_options.start_ms, "The virtual clock's first reading (ms since the epoch)")
      ->check(integer_in(0, kLatestStartMs))
      ->capture_default_str();
  serve->add_option("--history", serve_options.history,
                    "Record every command, fault and note, and write the history (JSON lines) here when the server\n"
                    "stops (default: nothing is recorded)");
  serve->add_option("--history-limit", serve_options.history_limit, "Events kept at most; the history says where it was cut")
      ->check(integer_in(1, 1'000'000'000))
      ->capture_default_str();
  serve->add_option("--lock", serve_options.lock_keys,
                    "A lock key: every command naming it is recorded with the key's content before and after");
  serve->add_option("--resource", serve_options.resource,
                    "The protected counter: clients GET it and SET it inside their critical section; the resource\n"
                    "property then judges mutual exclusion from the server's log alone (lost updates)");
  serve->add_option("--faults", serve_options.schedule,
                    "A fault schedule: lines of `<at_ms> <fault> [<param> <value>]... [client <name>]`");
  serve->add_flag("--appendonly", serve_options.appendonly,
                  "Keep what an AOF fsynced every second would hold (a copy of the keyspace each second), so that\n"
                  "a redis_restart with persistence aof can restart from it");
  serve->add_option("--replica-lag-ms", serve_options.replica_lag_ms,
                    "Keep an in-process replica up to this far behind, so a failover fault can promote it (-1: none)")
      ->check(integer_in(-1, 86'400'000));
  serve->add_option("--seed", serve_options.seed, "Seed of the loss fault's draws")->capture_default_str();
  serve->add_option("--maxclients", serve_options.max_clients, "Connections at most")
      ->check(integer_in(1, 1'000'000))
      ->capture_default_str();
  serve->add_option("--proto-max-bulk-len", serve_options.limits.proto_max_bulk_len, "Longest bulk argument, bytes")
      ->check(integer_in(1, INT64_MAX))
      ->capture_default_str();
  serve->add_option("--client-query-buffer-limit", serve_options.limits.client_query_buffer_limit,
                    "A client's unparsed input past this closes it, bytes")
      ->check(integer_in(1, INT64_MAX))
      ->capture_default_str();
  serve->add_flag("--quiet", serve_options.quiet, "No log lines on standard error");

  locksim::app::CheckOptions check_options;
  CLI::App* check = app.add_subcommand(
      "check",
      "Judges a recorded history (one `locksim serve` wrote, or a run's history.jsonl) with the checkers, prints\n"
      "the verdicts and writes the usual reports and a timeline. By default it judges what the history has the\n"
      "inputs for: mutual_exclusion (clients noted their holds with LOCKSIM.NOTE) and resource (serve --resource).\n"
      "A run's history names its lock, and is judged as that lock; an older one, whose end names none, needs --lock.\n"
      "Exit code: 0 every verdict holds (or is as --expect says), 1 one does not, 2 bad input.\n"
      "With --exhaustive the file is a scenario, and every schedule of it within its bounds is run and judged.");
  check->add_option("history", check_options.history, "history.jsonl (with --exhaustive: a scenario file)")->required();
  check->add_option("--properties", check_options.properties, "Properties to judge (comma-separated)")->delimiter(',');
  check->add_option("--expect", check_options.expect, "PROPERTY=holds|violated: what this history should show")
      ->delimiter(',');
  check->add_option("--out", check_options.out, "Where to write the reports")->capture_default_str();
  check->add_option("--name", check_options.name, "The report's name (default: the file's)");
  check->add_option("--lock", check_options.lock_type,
                    "TYPE: the lock the history's clients ran (rlock, fair, rwlock, ...): the properties that apply\n"
                    "to it are judged (unless --properties names some), each as that lock works. Needed for a run's\n"
                    "history; a history of other clients is judged as a generic lock without it");
  check->add_flag("--stream", check_options.stream,
                  "Judge the history as it streams, for one too long to hold: the file is read three times (what\n"
                  "it records, then twice to judge) and never held whole, and memory follows how long operations\n"
                  "and holds last, not how long the history is; the same verdicts, printed with their\n"
                  "explanations, and no reports or timeline (docs/checkers.md). How far it is shows on a line\n"
                  "that rewrites itself on a terminal, else on a line every 10 s");
  // --exhaustive: the positional is a scenario, searched through every schedule within its bounds.
  bool check_exhaustive = false;
  locksim::app::ExhaustiveCommandOptions ex;
  std::vector<std::string> ex_latencies, ex_clock_offsets;
  int ex_slow = -2, ex_lost = -2, ex_depth = -2;
  check->add_flag("--exhaustive", check_exhaustive,
                  "The file is a scenario: run every schedule within its bounds (the file's bounded:, and the\n"
                  "options below) and judge each, or write the shortest counterexample (docs/exhaustive.md);\n"
                  "--out defaults to reports/exhaustive.\n"
                  "Exit code: 0 as expected for every schedule, 1 a counterexample or not covered, 2 bad input");
  // The search's own options, in one group: --help shows them together, and a plain check refuses
  // them (a history has no schedules to bound) whatever their help says.
  CLI::Option_group* search = check->add_option_group("Options of --exhaustive");
  // Lists of ms are split by parse_ms_list, not CLI11, which would drop an empty item ("1,,10").
  search->add_option("--latencies", ex_latencies, "MS,...: the latencies a message may take (the first is the default)");
  search->add_option("--clock-offsets", ex_clock_offsets,
                    "MS,...: each client's clock set off from the file's by one of these (the first is\n"
                    "the default; negative: behind)");
  search->add_option("--slow-max", ex_slow, "messages with a latency other than the first, at most (-1: no bound)")
      ->check(integer_in(-1, 1'000'000));
  search->add_option("--lost-max", ex_lost, "messages lost, at most")->check(integer_in(0, 1'000'000));
  search->add_option("--faults", ex.faults,
                    "KIND[=MS][@CLIENT][:COUNT],...: faults placed before any event of their client\n"
                    "(crash:1,pause=15000:1); 'none' for none")
      ->delimiter(',');
  search->add_option("--depth", ex_depth, "choice points per schedule, at most");
  search->add_flag("--first", ex.first,
                  "one depth-first pass, each schedule run once: faster over a whole tree, but its first\n"
                  "counterexample may come much later than the shortest one, and is not necessarily the shortest");
  search->add_flag("--no-reduce", ex.no_reduce, "reorder every pair of same-time events (no partial-order reduction)");
  search->add_option("--max-schedules", ex.max_schedules, "stop after this many schedules (0: no limit)")
      ->check(integer_in(0, UINT64_MAX));
  search->add_option("--max-seconds", ex.max_seconds, "stop after this many seconds (0: no limit)")
      ->check(CLI::Validator(
          [](const std::string& v) {
            try {
              return std::stod(v) >= 0 ? std::string() : "at least 0 (0: no limit), not " + v;
            } catch (const std::exception&) {
              return "a number of seconds, not " + v;
            }
          },
          "SECONDS"));
  std::string ex_shard;
  search->add_option("--shard", ex_shard, "I/N: this run's share of the tree");
  search->add_option("--random", ex.random, "also run up to N random schedules of the same world, to compare")
      ->check(integer_in(0, 1'000'000'000));
  search->add_flag("--progress", ex.progress, "a progress line every second (default: every 10 s)");

  std::vector<std::string> merge_inputs;
  std::string merge_out;
  CLI::App* merge = app.add_subcommand(
      "merge", "Combines the shards of an explore run or of a check --exhaustive search into one\n"
               "(explore's --out files, sorted by seed; exhaustive.json files, into the totals of one search).");
  merge->add_option("inputs", merge_inputs, "results.jsonl files, or exhaustive.json files")->required();
  merge->add_option("--out", merge_out, "The merged file")->required();

  std::string help_topic;
  CLI::App* help = app.add_subcommand("help", "Prints the help of locksim, or of one command: locksim help run.");
  help->add_option("command", help_topic, "The command to explain");
  // Set last, so that the commands' own help does not inherit it.
  app.footer("`locksim help COMMAND` (or `locksim COMMAND --help`) explains a command.");
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --version
    return app.exit(e);
  } catch (const CLI::ExtrasError& e) {
    const std::vector<std::string> extra = app.remaining();
    if (app.get_subcommands().empty() && !extra.empty() && !extra[0].starts_with("-")) return unknown_command(app, extra[0]);
    app.exit(e);
    return 2;
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  if (app.get_subcommands().empty()) {
    std::cerr << app.get_formatter()->make_help(&app, "locksim", CLI::AppFormatMode::Normal);
    return 2;
  }
  if (*help) {
    if (help_topic.empty()) {
      std::cout << app.get_formatter()->make_help(&app, "locksim", CLI::AppFormatMode::Normal);
      return 0;
    }
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
      if (sub->get_name() != help_topic) continue;
      std::cout << sub->get_formatter()->make_help(sub, "locksim " + help_topic, CLI::AppFormatMode::Normal);
      return 0;
    }
    return unknown_command(app, help_topic);
  }

  try {
    run_options.progress = ::isatty(2) != 0;
    if (*run) return locksim::app::run_scenarios(run_options, std::cout, std::cerr);
    if (*redis) {
      for (const CLI::Option* option : connection->get_options()) {
        if (option->count() == 0) continue;
        std::cerr << "locksim redis: " << option->get_name()
                  << " is one of redis-cli's connection options, and there is nothing to connect to: the fake Redis\n"
                     "runs inside this process. To use redis-cli's -h/-p, serve the fake over TCP and point redis-cli\n"
                     "at it: `locksim serve --port 6390 &` then `redis-cli -h 127.0.0.1 -p 6390 ...` (docs/serve.md).\n"
                     "Help is --help.\n";
        return 2;
      }
      const bool one_shot = !shell_options.command.empty() || !shell_options.eval_file.empty();
      for (const auto& [option, example] : {std::pair{redis_repeat, "locksim redis -r 3 INCR k"},
                                            {redis_stdin, "echo v | locksim redis -x SET k"},
                                            {redis_errors, "locksim redis -e GET k"}}) {
        if (one_shot || option->count() == 0) continue;
        std::cerr << "locksim redis: " << option->get_name() << " applies to a command given as arguments (" << example
                  << "), not to commands read from standard input"
                  << (option == redis_repeat ? "; there a leading count repeats a line (3 INCR k)\n" : "\n");
        return 2;
      }
      shell_options.interval_ms = std::llround(redis_interval_s * 1000);
      const bool raw = redis_raw || (one_shot && !redis_no_raw && ::isatty(1) == 0);
      shell_options.output = raw ? locksim::shell::CliOutput::Raw : locksim::shell::CliOutput::Standard;
      if (one_shot) return locksim::shell::run_redis_command(std::cin, std::cout, std::cerr, shell_options);
      if (::isatty(0) != 0) {
        locksim::shell::LineEditor editor;
        return locksim::shell::run_redis_shell(editor, std::cout, std::cerr, shell_options);
      }
      locksim::shell::StreamLines lines(std::cin);
      return locksim::shell::run_redis_shell(lines, std::cout, std::cerr, shell_options);
    }
    if (*demo)
      return locksim::shell::run_demo(std::cout, scripts_dir.empty() ? locksim::client::default_scripts_dir() : scripts_dir);
    if (*audit) {
      if (audit_matrix) return locksim::app::print_matrix("", std::cout, std::cerr);
      if (audit_options.redisson.empty()) {
        std::cerr << "locksim audit: --redisson X.Y.Z is required (modelled: " << locksim::client::modelled_range() << ")\n";
        return 2;
      }
      std::stringstream locks(audit_locks);
      for (std::string type; std::getline(locks, type, ',');)
        if (!type.empty()) audit_options.locks.push_back(type);
      try {
        for (const std::string& item : audit_set) {
          const locksim::explore::Variation v = locksim::explore::parse_variation(item, "--set");
          if (!v.script_files.empty()) throw std::invalid_argument("--set " + item + ": scripts are not options here");
          audit_options.lock_options.insert(audit_options.lock_options.end(), v.lock_options.begin(), v.lock_options.end());
        }
      } catch (const std::invalid_argument& e) {
        std::cerr << "locksim audit: " << e.what() << "\n";
        return 2;
      }
      audit_options.progress = ::isatty(2) != 0;
      audit_options.style = terminal_style();
      return locksim::app::run_audit(audit_options, std::cout, std::cerr);
    }
    if (*merge && locksim::app::is_exhaustive_json(merge_inputs.front()))
      return locksim::app::run_merge_exhaustive(merge_inputs, merge_out, std::cout, std::cerr);
    if (*merge) return locksim::app::run_merge(merge_inputs, merge_out, std::cerr);
    if (*serve) {
      serve_options.clock = serve_clock == "virtual" ? locksim::server::ClockMode::Virtual : locksim::server::ClockMode::Real;
      if (serve->count("--requirepass")) serve_options.requirepass = serve_requirepass;
      if (serve_options.history.empty() && (!serve_options.lock_keys.empty() || !serve_options.resource.empty())) {
        std::cerr << "locksim serve: --lock and --resource say what the history records: they need --history FILE\n";
        return 2;
      }
      return locksim::app::run_serve(serve_options, std::cerr);
    }
    if (*check && check_options.stream && (check_exhaustive || check->count("--out") > 0)) {
      std::cerr << "locksim check: --stream judges a history and writes no reports: it takes neither "
                << (check_exhaustive ? "--exhaustive" : "--out") << "\n";
      return 2;
    }
    if (*check && check_exhaustive) {
      // A history's options mean nothing to a search, whose scenario file names itself and its lock.
      for (const char* flag : {"--name", "--lock"})
        if (check->count(flag) > 0) {
          std::cerr << "locksim check --exhaustive: " << flag << " is an option of a history's check; a search takes "
                    << (std::string(flag) == "--name" ? "its name" : "its lock") << " from the scenario file\n";
          return 2;
        }
      ex.scenario = check_options.history;
      ex.properties = check_options.properties;
      ex.expect = check_options.expect;
      ex.out = check->count("--out") ? check_options.out : "reports/exhaustive";
      for (const auto& [flag, items, out] : {std::tuple{"--latencies", &ex_latencies, &ex.latencies},
                                             std::tuple{"--clock-offsets", &ex_clock_offsets, &ex.clock_offsets}})
        if (const std::string problem = locksim::app::parse_ms_list(flag, *items, *out); !problem.empty()) {
          std::cerr << "locksim check --exhaustive: " << problem << "\n";
          return 2;
        }
      if (ex_slow != -2) ex.slow_max = ex_slow;
      if (ex_lost != -2) ex.lost_max = ex_lost;
      if (ex_depth != -2) ex.depth = ex_depth;
      if (search->count("--shard") > 0) ex.shard = ex_shard;
      if (ex.faults.size() == 1 && ex.faults[0] == "none") {
        ex.faults.clear();
        ex.no_faults = true;
      }
      return locksim::app::run_exhaustive(ex, std::cout, std::cerr);
    }
    if (*check) {
      // The search's options mean nothing to a history: given without --exhaustive, say so.
      for (const CLI::Option* option : search->get_options())
        if (option->count() > 0) {
          std::cerr << "locksim check: " << option->get_name() << " is an option of --exhaustive (a search of a scenario's "
                       "schedules); without it the file is a history to judge\n";
          return 2;
        }
      check_options.progress = ::isatty(2) != 0;
      return locksim::app::run_check(check_options, std::cout, std::cerr);
    }
    if (*explore) {
      auto split = [](const std::string& text) {
        std::vector<std::string> items;
        std::stringstream in(text);
        for (std::string item; std::getline(in, item, ',');)
          if (!item.empty()) items.push_back(item);
        return items;
      };
      auto& config = explore_options.config;
      config.faults = explore_faults == "all"    ? locksim::explore::all_fault_kinds()
                      : explore_faults == "none" ? std::vector<std::string>{}
                                                 : split(explore_faults);
      config.properties = split(explore_properties);
      // A ReadWriteLock's mutual exclusion is read_write (readers share by design).
      if (explore->count("--properties") == 0 && config.lock_type == "rwlock") config.properties = {"read_write"};
      try {
        if (!explore_redisson.empty()) config.lock_options.push_back({"redisson", explore_redisson});
        if (watchdog_keep) config.lock_options.push_back({"watchdog_on_error", "keep"});
        if (unlock_latch) config.lock_options.push_back({"unlock_latch", "true"});
        if (!fair_variant.empty()) config.lock_options.push_back({"fair_variant", fair_variant});
        if (!thread_wait_ms.empty()) config.lock_options.push_back({"thread_wait_ms", thread_wait_ms});
        for (const std::string& item : explore_set) {
          const locksim::explore::Variation v = locksim::explore::parse_variation(item, "--set");
          if (!v.script_files.empty()) throw std::invalid_argument("--set " + item + ": scripts are replaced with --script NAME=FILE");
          config.lock_options.insert(config.lock_options.end(), v.lock_options.begin(), v.lock_options.end());
        }
        if (!explore_against.empty()) config.against = locksim::explore::parse_variation(explore_against, "--against");
      } catch (const std::invalid_argument& e) {
        std::cerr << "locksim explore: " << e.what() << "\n";
        return 2;
      }
      if (explore_options.cases_dir == "none") explore_options.write_cases = false;
      for (const std::string& item : explore_scripts) {
        const auto eq = item.find('=');
        const std::string name = item.substr(0, eq), file = eq == std::string::npos ? "" : item.substr(eq + 1);
        std::string problem;
        if (eq == std::string::npos || name.empty() || file.empty()) problem = "expects NAME=FILE";
        else if (!std::filesystem::exists(locksim::client::default_scripts_dir() + "/" + name + ".lua"))
          problem = "no script '" + name + "' in " + locksim::client::default_scripts_dir() + " to replace";
        else problem = locksim::scenario::user_script_problem(file);
        if (!problem.empty()) {
          std::cerr << "locksim explore: --script " << item << ": " << problem << "\n";
          return 2;
        }
        config.script_files.emplace_back(name, file);
      }
      if (*seed_opt) {
        explore_options.seed_first = explore_options.seed_last = explore_seed;
      } else if (*seeds_opt) {
        const auto dots = explore_seeds.find("..");
        try {
          if (dots == std::string::npos) throw std::invalid_argument("no ..");
          size_t used = 0;
          explore_options.seed_first = std::stoull(explore_seeds.substr(0, dots), &used);
          explore_options.seed_last = std::stoull(explore_seeds.substr(dots + 2), &used);
          if (used != explore_seeds.size() - dots - 2) throw std::invalid_argument("trailing text");
        } catch (const std::exception&) {
          std::cerr << "locksim explore: --seeds expects A..B, e.g. 1..1000, got '" << explore_seeds << "'\n";
          return 2;
        }
      } else {
        explore_options.seed_first = 1;
        explore_options.seed_last = explore_count;
      }
      if (explore->count("--shard") > 0) {
        const auto shard = locksim::app::parse_shard(explore_shard);
        if (!shard) {
          std::cerr << "locksim explore: --shard expects I/N, e.g. 0/4, got '" << explore_shard << "'\n";
          return 2;
        }
        explore_options.shard_index = shard->index;
        explore_options.shard_count = shard->count;
      }
      explore_options.shrink.enabled = !explore_no_shrink;
      explore_options.progress = ::isatty(2) != 0;
      return locksim::app::run_explore(explore_options, std::cout, std::cerr);
    }
  } catch (const std::exception& e) {
    std::cerr << "locksim: " << e.what() << "\n";
    return 2;
  }
  return 2;
}

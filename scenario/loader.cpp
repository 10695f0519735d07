#include "scenario/loader.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <initializer_list>
#include <map>
#include <set>

#include "client/lock_factory.hpp"
#include "client/redisson_version.hpp"
#include "client/script_files.hpp"
#include "engine/engine.hpp"
#include "engine/numbers.hpp"
#include "model/checkers.hpp"
#include "model/lock_types.hpp"
#include "scenario/op_vocabulary.hpp"
#include "scenario/yaml_diagnosis.hpp"
#include "world/fault_param_reader.hpp"

namespace locksim::scenario {
namespace {


std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

// "a write step", "an error_reply fault".
std::string step_name(std::string_view name, const char* what) {
  return (std::string("aeiou").find(name.front()) == std::string::npos ? "a " : "an ") + std::string(name) + " " + what;
}

// Reads one file's YAML, turning every mistake into a ScenarioError at the right place.
class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const YAML::Node& node, const std::string& message) const {
    const YAML::Mark mark = node.Mark();
    throw ScenarioError(file_, mark.line >= 0 ? mark.line + 1 : 1, mark.column >= 0 ? mark.column + 1 : 1, message);
  }

  void expect_map(const YAML::Node& node, const std::string& what) const {
    if (!node.IsMap()) fail(node, "expected a mapping for " + what);
  }

  // yaml-cpp keeps both of two equal keys and answers the first: the second would be ignored unseen.
  void check_unique_keys(const YAML::Node& map, const std::string& where) const {
    std::map<std::string, int> first_line;
    for (auto it = map.begin(); it != map.end(); ++it) {
      const std::string key = it->first.as<std::string>();
      const auto [seen, fresh] = first_line.emplace(key, it->first.Mark().line + 1);
      if (!fresh) fail(it->first, "'" + key + "' appears twice in " + where + " (first on line " + std::to_string(seen->second) + ")");
    }
  }

  void check_keys(const YAML::Node& map, const std::vector<std::string>& allowed, const std::string& where) const {
    check_unique_keys(map, where);
    for (auto it = map.begin(); it != map.end(); ++it) {
      const std::string key = it->first.as<std::string>();
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
        fail(it->first, "unknown key '" + key + "' in " + where + " (expected one of: " + join(allowed) + ")");
    }
  }

  YAML::Node require(const YAML::Node& map, const char* key, const std::string& where) const {
    const YAML::Node value = map[key];
    if (value.IsDefined() && value.IsNull())  // `clients:` with nothing after it: said where it is
      for (auto it = map.begin(); it != map.end(); ++it)
        if (it->first.IsScalar() && it->first.Scalar() == key) fail(it->first, "'" + std::string(key) + "' has no value");
    if (!value.IsDefined() || value.IsNull()) fail(map, "missing '" + std::string(key) + "' in " + where);
    return value;
  }

  std::string text(const YAML::Node& node, const std::string& what) const {
    if (!node.IsScalar()) fail(node, "expected a string for " + what);
    return node.Scalar();
  }

  int64_t integer(const YAML::Node& node, const std::string& what) const {
    if (!node.IsScalar()) fail(node, "expected an integer for " + what);
    const auto value = world::parse_grouped_integer(node.Scalar());
    if (!value) fail(node, "expected an integer for " + what + ", got '" + node.Scalar() + "'");
    return *value;
  }

  int64_t non_negative(const YAML::Node& node, const std::string& what) const {
    const int64_t value = integer(node, what);
    if (value < 0) fail(node, "expected a non-negative integer for " + what + ", got " + std::to_string(value));
    return value;
  }

  // A count of milliseconds: non-negative and at most `max` (kRunMsMax for what places a step in
  // the run, kDurationMsMax for the rest), whose name says why.
  int64_t ms(const YAML::Node& node, const std::string& what, int64_t max = kDurationMsMax) const {
    const int64_t value = non_negative(node, what);
    if (value > max)
      fail(node, what + " is at most " + std::to_string(max) + " ms (" +
                     (max == kRunMsMax ? "about 11.6 days, the longest run" : "about 31 years") + "), not " +
                     std::to_string(value));
    return value;
  }

  bool boolean(const YAML::Node& node, const std::string& what) const {
    const std::string s = text(node, what);
    if (s == "true" || s == "yes") return true;
    if (s == "false" || s == "no") return false;
    fail(node, "expected true or false for " + what + ", got '" + s + "'");
  }

  std::string one_of(const YAML::Node& node, const std::string& what, std::initializer_list<const char*> choices) const {
    const std::string s = text(node, what);
    if (std::none_of(choices.begin(), choices.end(), [&](const char* c) { return s == c; }))
      fail(node, "unknown " + what + " '" + s + "' (expected " + join({choices.begin(), choices.end()}) + ")");
    return s;
  }

  const std::string& file() const { return file_; }

 private:
  std::string file_;
};

void read_world(const Reader& r, const YAML::Node& node, Scenario& s) {
  r.expect_map(node, "world");
  r.check_keys(node, {"latency_ms", "loss_per_thousand", "reorder", "active_expire_ms", "servers", "max_events", "fence_rule"},
               "world");
  if (const YAML::Node rule = node["fence_rule"])
    s.world.fence_rule = r.one_of(rule, "fence_rule", {">=", ">"}) == ">" ? world::FenceRule::Greater : world::FenceRule::NotLower;
  if (const YAML::Node servers = node["servers"]) {
    const int64_t n = r.non_negative(servers, "servers");
    if (n < 1 || n > 64) r.fail(servers, "servers must be between 1 and 64");
    s.world.servers = static_cast<int>(n);
  }
  if (const YAML::Node latency = node["latency_ms"]) {
    if (latency.IsSequence()) {
      if (latency.size() != 2) r.fail(latency, "expected [min, max] for latency_ms");
      s.world.link.latency_min_ms = r.ms(latency[0], "latency_ms");
      if (s.world.link.latency_min_ms < 1) r.fail(latency[0], "latency_ms is at least 1 (a message always takes time)");
      s.world.link.latency_max_ms = r.ms(latency[1], "latency_ms");
      if (s.world.link.latency_max_ms < s.world.link.latency_min_ms)
        r.fail(latency, "latency_ms: the maximum is below the minimum");
    } else {
      s.world.link.latency_min_ms = s.world.link.latency_max_ms = r.ms(latency, "latency_ms");
      if (s.world.link.latency_min_ms < 1) r.fail(latency, "latency_ms is at least 1 (a message always takes time)");
    }
  }
  if (const YAML::Node loss = node["loss_per_thousand"]) {
    const int64_t v = r.non_negative(loss, "loss_per_thousand");
    if (v > 1000) r.fail(loss, "loss_per_thousand is at most 1000");
    s.world.link.loss_numerator = static_cast<uint64_t>(v);
  }
  if (const YAML::Node reorder = node["reorder"]) s.world.link.reorder = r.boolean(reorder, "reorder");
  if (const YAML::Node every = node["active_expire_ms"]) {
    s.world.active_expire_every_ms = r.ms(every, "active_expire_ms");
    if (s.world.active_expire_every_ms == 0) r.fail(every, "active_expire_ms must be positive");
  }
  if (const YAML::Node cap = node["max_events"]) {
    s.world.max_events = r.non_negative(cap, "max_events");
    if (s.world.max_events == 0) r.fail(cap, "max_events must be positive");
  }
}

// A script is named by its file in scripts/ ("rlock_acquire_hset") or by a path to the user's own.
// A user's Lua file must compile (as Redis compiles it) before anything runs: a syntax error is
// reported at its own file and line.
void check_compiles(const Reader& r, const YAML::Node& node, const std::string& role, const std::string& path) {
  const std::string problem = user_script_problem(path);
  if (problem.empty()) return;
  std::smatch m;
  int line = 1;
  if (std::regex_search(problem, m, std::regex("user_script:([0-9]+):"))) line = std::stoi(m[1]);
  const YAML::Mark mark = node.Mark();
  throw ScenarioError(path, line, 1,
                      "the Lua script does not compile (" + problem + "); it is the " + role + "_script of " +
                          r.file() + ":" + std::to_string(mark.line + 1));
}

void read_script(const Reader& r, const YAML::Node& node, const std::string& role, std::string& name, Scenario& s) {
  const std::string value = r.text(node, role + "_script");
  if (value.find('/') != std::string::npos || value.ends_with(".lua")) {
    std::filesystem::path path(value);
    if (path.is_relative()) path = std::filesystem::path(r.file()).parent_path() / path;
    if (!std::filesystem::exists(path)) r.fail(node, "script file '" + path.string() + "' does not exist");
    check_compiles(r, node, role, path.string());
    s.script_files.emplace_back(name, path.string());
  } else {
    const std::string dir = client::default_scripts_dir();
    if (!std::filesystem::exists(dir + "/" + value + ".lua"))
      r.fail(node, "no script '" + value + "' in " + dir + " (name one of its files without .lua, or give a path to your own)");
    name = value;
  }
}

// replace_scripts: {<a script of scripts/>: <your file>}: any lock type runs your Lua file wherever
// it would run that script (an audit of your own code, or another Redisson version's script).
void read_replacements(const Reader& r, const YAML::Node& node, Scenario& s) {
  r.expect_map(node, "replace_scripts");
  const std::string dir = client::default_scripts_dir();
  for (auto it = node.begin(); it != node.end(); ++it) {
    const std::string name = it->first.as<std::string>();
    if (!std::filesystem::exists(dir + "/" + name + ".lua"))
      r.fail(it->first, "no script '" + name + "' in " + dir + " to replace");
    const YAML::Node file = it->second;
    std::filesystem::path path(r.text(file, "the replacement of " + name));
    if (path.is_relative()) path = std::filesystem::path(r.file()).parent_path() / path;
    if (!std::filesystem::exists(path)) r.fail(file, "script file '" + path.string() + "' does not exist");
    check_compiles(r, file, name, path.string());
    s.script_files.emplace_back(name, path.string());
  }
}

// The fair lock's keys: which era of Redisson's scripts, and threadWaitTime (the fair_queue
// checker judges evictions by the same value).
void read_fair(const Reader& r, const YAML::Node& node, Scenario& s) {
  client::FairOptions& fair = s.lock.fair;
  for (const char* key : {"fair_variant", "thread_wait_ms", "wait_replaces_thread_wait", "zero_wait_tryacquire"}) {
    if (node[key] && !model::is_fair(s.lock.type))
      r.fail(node[key], std::string(key) + " applies to lock types fair and nonreentrant-fair only (this lock is " + s.lock.type + ")");
  }
  if (const YAML::Node v = node["fair_variant"]) {
    const std::string name = r.one_of(v, "fair_variant", {"head", "tail", "tail-3.31", "tail-3.32", "tail-3.45"});
    client::parse_fair_variant(name, fair.variant);
    if (model::find_lock_type(s.lock.type)->refuses_reentry && fair.variant != client::FairVariant::Tail3_45)
      r.fail(v, "a " + s.lock.type + " lock runs Redisson 4.4.0's scripts, of fair_variant tail-3.45 (not " + name + ")");
  }
  if (const YAML::Node w = node["thread_wait_ms"]) fair.thread_wait_ms = r.ms(w, "thread_wait_ms");
  if (const YAML::Node w = node["wait_replaces_thread_wait"])
    fair.try_wait_replaces_thread_wait = r.boolean(w, "wait_replaces_thread_wait");
  if (const YAML::Node z = node["zero_wait_tryacquire"]) {
    fair.zero_wait_uses_tryacquire = r.boolean(z, "zero_wait_tryacquire");
    if (fair.zero_wait_uses_tryacquire && fair.variant == client::FairVariant::Head)
      r.fail(z, "zero_wait_tryacquire is modelled for the tail variants only (fair_variant head has none)");
  }
  s.checker_options.fair_queue.thread_wait_ms = fair.thread_wait_ms;
  s.checker_options.fair_queue.try_wait_replaces_thread_wait = fair.try_wait_replaces_thread_wait;
}

// redisson: X.Y.Z sets every versioned option (client/redisson_version.hpp) before the lock's other
// keys, which override it. `forced` (run --redisson) wins over the file's own version.
void read_version(const Reader& r, const YAML::Node& node, const std::string& forced, Scenario& s) {
  const YAML::Node v = node["redisson"];
  if (forced.empty() && !v) return;
  const std::string text = forced.empty() ? r.text(v, "redisson") : forced;
  try {
    client::apply_redisson_version(client::modelled_version(text), s.lock);
  } catch (const std::invalid_argument& e) {
    r.fail(v ? v : node, forced.empty() ? std::string(e.what()) : "--redisson " + forced + ": " + e.what());
  }
}

// A replaced script that this lock, as configured, never runs would make a run that never touched the
// user's code look like a verdict on it.
void check_replacements_run(const Reader& r, const YAML::Node& node, const Scenario& s) {
  if (!model::find_lock_type(s.lock.type)->redisson && s.script_files.empty()) return;
  const std::vector<std::string> runs = client::scripts_run_by(s.lock, client::default_scripts_dir());
  for (const auto& [name, path] : s.script_files) {
    if (std::find(runs.begin(), runs.end(), name) != runs.end()) continue;
    const YAML::Node replace = node["replace_scripts"];
    const YAML::Node at = replace && replace[name] ? replace[name] : node;
    const std::string version = model::find_lock_type(s.lock.type)->redisson ? " of Redisson " + s.lock.redisson_version : "";
    r.fail(at, "the " + s.lock.type + " lock" + version + " never runs the script '" + name + "' that " + path +
                   " replaces (it runs " + join(runs) + "): replace one of those, or set the redisson: version or the "
                   "option whose era runs it");
  }
  // A script named for a role (acquire_script: rlock_acquire_hset) that this lock type never runs: the
  // non-reentrant, fenced and spin locks have acquire scripts of their own.
  for (const char* key : {"acquire_script", "unlock_script", "renew_script"}) {
    const YAML::Node named = node[key];
    if (!named || !named.IsScalar()) continue;
    const std::string value = named.as<std::string>();
    if (value.find('/') != std::string::npos || value.ends_with(".lua")) continue;  // a file: checked above
    if (std::find(runs.begin(), runs.end(), value) == runs.end())
      r.fail(named, "the " + s.lock.type + " lock never runs '" + value + "' (" + key + "): it runs " + join(runs) +
                        "; to run your own file in place of one of those, name it under replace_scripts");
  }
}

// A lease is at least 1 ms. Redisson reads a lease of 0 apart by version (RLock up to 3.17.0: an
// expiry of 0 ms, the key gone as it is taken; from 3.17.1: no lease, the watchdog) and Redis refuses
// SET PX 0; locksim models neither reading, so 0 is refused rather than run one way for every version.
int64_t lease_of(const Reader& r, const YAML::Node& node, const std::string& what) {
  const int64_t n = r.ms(node, what);
  if (n == 0)
    r.fail(node, what + " 0 is not modelled (Redisson's RLock reads it as a 0 ms lease up to 3.17.0 and as no lease "
                        "from 3.17.1): leave it out for no lease (the watchdog), or give at least 1");
  return n;
}

void read_lock(const Reader& r, const YAML::Node& node, Scenario& s, const std::string& forced_version = "") {
  r.expect_map(node, "lock");
  r.check_keys(node,
               {"type", "name", "redisson", "lease_ms", "watchdog_ms", "watchdog_on_error", "acquire_script", "unlock_script",
                "renew_script", "unlock_latch", "retry_ms", "setnx_expire", "timeout_ms", "retry_attempts", "retry_interval_ms",
                "fair_variant", "thread_wait_ms", "wait_replaces_thread_wait", "zero_wait_tryacquire", "parts",
                "rwlock_variant", "rwlock_read_renewal", "replace_scripts", "check_lock_synced_slaves"},
               "lock");
  const YAML::Node type = r.require(node, "type", "lock");
  s.lock.type = r.text(type, "lock type");
  if (!model::find_lock_type(s.lock.type))
    r.fail(type, "unknown lock type '" + s.lock.type + "' (expected " + model::lock_type_list() + ")");
  s.checker_options.lock_type = s.lock.type;
  s.lock.name = node["name"] ? r.text(node["name"], "lock name") : "lock";
  if (s.lock.name.empty()) r.fail(node["name"], "the lock name is empty");
  read_version(r, node, forced_version, s);
  if (const YAML::Node parts = node["parts"]) {
    if (!model::has_parts(s.lock.type)) r.fail(parts, "parts applies to multi and red locks only");
    const int64_t n = r.non_negative(parts, "parts");
    if (n < 1 || n > 64) r.fail(parts, "parts must be between 1 and 64");
    s.lock.parts = static_cast<int>(n);
  }
  if (const YAML::Node lease = node["lease_ms"]) s.default_lease_ms = lease_of(r, lease, "lease_ms");
  if (const YAML::Node w = node["watchdog_ms"]) {
    s.lock.redisson.watchdog_timeout_ms = r.ms(w, "watchdog_ms");
    if (s.lock.redisson.watchdog_timeout_ms < 3) r.fail(w, "watchdog_ms must be at least 3");
  }
  if (const YAML::Node e = node["watchdog_on_error"]) {
    client::parse_watchdog_on_error(r.one_of(e, "watchdog_on_error", {"stop", "stop-keep-entry", "keep"}),
                                    s.lock.redisson.watchdog_on_error);
  }
  if (const YAML::Node replace = node["replace_scripts"]) read_replacements(r, replace, s);
  if (const YAML::Node a = node["acquire_script"]) read_script(r, a, "acquire", s.lock.rlock_scripts.acquire, s);
  if (const YAML::Node u = node["unlock_script"]) read_script(r, u, "unlock", s.lock.rlock_scripts.unlock, s);
  if (const YAML::Node n = node["renew_script"]) read_script(r, n, "renew", s.lock.rlock_scripts.renew, s);
  if (const YAML::Node retry = node["retry_ms"]) s.lock.polling.retry_ms = std::max<int64_t>(1, r.ms(retry, "retry_ms"));
  if (const YAML::Node l = node["unlock_latch"]) s.lock.redisson.unlock_latch = r.boolean(l, "unlock_latch");
  if (const YAML::Node c = node["check_lock_synced_slaves"]) {
    if (!model::find_lock_type(s.lock.type)->redisson) r.fail(c, "check_lock_synced_slaves applies to Redisson's locks only");
    s.lock.redisson.check_lock_synced_slaves = r.boolean(c, "check_lock_synced_slaves");
  }
  if (const YAML::Node e = node["setnx_expire"]) s.lock.polling.setnx_expire = r.boolean(e, "setnx_expire");
  // The timeouts and resends a file sets are every lock's. What a Redisson version sets (its
  // defaults, 3.48.0's jittered resends, how it sends a script) is Redisson's alone: the polling
  // locks keep their own, as ioredis and node-redis do.
  const client::CommandPolicy& policy = s.lock.redisson.commands;
  for (client::CommandPolicy* p : {&s.lock.redisson.commands, &s.lock.polling.commands}) {
    if (const YAML::Node t = node["timeout_ms"]) p->timeout_ms = std::max<int64_t>(1, r.ms(t, "timeout_ms"));
    if (const YAML::Node a = node["retry_attempts"])
      p->retry_attempts = static_cast<int>(std::min<int64_t>(100, r.non_negative(a, "retry_attempts")));
    if (const YAML::Node i = node["retry_interval_ms"]) p->retry_interval_ms = r.ms(i, "retry_interval_ms");
  }
  s.checker_options.watchdog.watchdog_lease_ms = s.lock.redisson.watchdog_timeout_ms;
  s.checker_options.watchdog.command_timeout_ms = policy.timeout_ms;
  read_fair(r, node, s);
  if (const YAML::Node v = node["rwlock_variant"]) {
    if (!model::is_kind(s.lock.type, model::LockKind::RwLock)) r.fail(v, "rwlock_variant applies to lock type rwlock only (this lock is " + s.lock.type + ")");
    client::parse_rw_variant(r.one_of(v, "rwlock_variant", {"3.11", "3.44"}), s.lock.rw.variant);
  }
  if (const YAML::Node v = node["rwlock_read_renewal"]) {
    if (!model::is_kind(s.lock.type, model::LockKind::RwLock))
      r.fail(v, "rwlock_read_renewal applies to lock type rwlock only (this lock is " + s.lock.type + ")");
    client::parse_read_renewal(r.one_of(v, "rwlock_read_renewal", {"3.8", "3.44", "4.0", "4.4"}), s.lock.rw.read_renewal);
  }
  check_replacements_run(r, node, s);
}

void read_clients(const Reader& r, const YAML::Node& node, Scenario& s) {
  if (!node.IsSequence() || node.size() == 0) r.fail(node, "expected a list of client names for clients, e.g. [A, B]");
  std::set<std::string> seen;
  for (const YAML::Node& item : node) {
    ClientDecl decl;
    if (item.IsMap()) {
      r.check_keys(item, {"name", "clock_offset_ms", "drift_ppm"}, "a client");
      decl.name = r.text(r.require(item, "name", "a client"), "client name");
      if (const YAML::Node o = item["clock_offset_ms"]) {
        decl.clock_offset_ms = r.integer(o, "clock_offset_ms");
        if (const std::string problem = world::clock_offset_problem(decl.clock_offset_ms); !problem.empty()) r.fail(o, problem);
      }
      if (const YAML::Node d = item["drift_ppm"]) {
        decl.drift_ppm = r.integer(d, "drift_ppm");
        // A million ppm either way: a clock at twice the pace, or one that stands still.
        if (decl.drift_ppm < -1'000'000 || decl.drift_ppm > 1'000'000)
          r.fail(d, "drift_ppm is within -1000000..1000000 (a clock at twice the pace, or one that stands still), not " +
                        std::to_string(decl.drift_ppm));
      }
    } else {
      decl.name = r.text(item, "client name");
    }
    if (decl.name.empty()) r.fail(item, "a client name is empty");
    if (!seen.insert(decl.name).second) r.fail(item, "client '" + decl.name + "' is declared twice");
    s.clients.push_back(decl);
  }
}

void read_op(const Reader& r, const YAML::Node& item, const OpInfo& info, const Scenario& s, TimelineEntry& e) {
  const std::string name(info.name());
  world::OpSpec op;
  op.lock = s.lock.name;
  // A ReadWriteLock's op names its side; the op then concerns the lock "<name>:read" or "<name>:write".
  if (const YAML::Node side = item["side"]) {
    if (!model::is_kind(s.lock.type, model::LockKind::RwLock)) r.fail(side, "side applies to lock type rwlock only (this lock is " + s.lock.type + ")");
    op.lock.append(":").append(r.one_of(side, "side", {"read", "write"}));
  } else if (model::is_kind(s.lock.type, model::LockKind::RwLock) && info.names_side) {
    r.fail(item, "missing 'side' (read or write) in a '" + name + "' step on an rwlock");
  }
  op.lease_ms = item["lease_ms"] ? lease_of(r, item["lease_ms"], "lease_ms") : s.default_lease_ms;
  // lease_s: the caller gave the lease in seconds (lock(5, SECONDS)); MultiLock's lock() of 3.17.0
  // to 3.25.0 reads the number as milliseconds (#5484).
  if (const YAML::Node seconds = item["lease_s"]) {
    if (item["lease_ms"]) r.fail(seconds, "a step names its lease once: lease_ms or lease_s");
    const int64_t n = lease_of(r, seconds, "lease_s");
    if (n > 1'000'000'000) r.fail(seconds, "lease_s is at most 1000000000");
    op.lease_ms = n * 1000;
    op.lease_unit_ms = 1000;
  }
  op.kind = info.kind;
  if (op.kind == world::OpSpec::Kind::TryLock) {
    op.wait_ms = item["wait_ms"] ? r.integer(item["wait_ms"], "wait_ms") : 0;
    // tryLock(-1, lease): Redisson's "no wait", which only MultiLock and RedLock read apart from 0.
    if (op.wait_ms == -1 && !model::has_parts(s.lock.type))
      r.fail(item["wait_ms"], "wait_ms -1 (tryLock(-1, lease)) applies to lock types multi and red (this lock is " +
                                  s.lock.type + "; wait_ms 0 does what -1 would)");
    if (op.wait_ms < -1)
      r.fail(item["wait_ms"], "expected -1 (tryLock(-1, lease)) or a non-negative integer for wait_ms, got " +
                                  std::to_string(op.wait_ms));
    if (op.wait_ms > 0) r.ms(item["wait_ms"], "wait_ms");
  } else if (op.kind == world::OpSpec::Kind::Work) {
    op.duration_ms = r.ms(r.require(item, "for_ms", "a work step"), "for_ms", kRunMsMax);
  }
  e.op = op;
}

// A fault step: its kind from the fault table, and each parameter that kind takes (check_step_keys
// has refused the parameters of other kinds), read by the reader serve's LOCKSIM.FAULT uses too.
world::Fault read_fault(const Reader& r, const YAML::Node& item, const world::FaultInfo& info, TimelineEntry& e) {
  using P = world::FaultParam;
  world::Fault f;
  f.kind = info.kind;
  const std::string where = step_name(info.name, "fault");
  std::vector<P> given;
  for (const P param : info.params) {
    const std::string key(world::param_info(param).key);
    const YAML::Node node = item[key];
    if (!node.IsDefined()) continue;
    if (node.IsNull()) r.require(item, key.c_str(), where);  // says it has no value
    if (!node.IsScalar())
      r.fail(node, param == P::Text ? "expected a string for text (the error line, e.g. 'LOADING Redis is loading the "
                                      "dataset in memory')"
                                    : "expected a value for " + key);
    if (const std::string problem = world::read_fault_param(f, param, node.Scalar()); !problem.empty()) r.fail(node, problem);
    if (param == P::Server) e.server_column = node.Mark().column + 1;
    given.push_back(param);
  }
  if (const auto problem = world::fault_params_problem(f, given))
    r.fail(problem->at ? item[std::string(world::param_info(*problem->at).key)] : item, problem->text);
  return f;
}

// An interrupt fault on a lock whose acquires it does not reach would do nothing: refused.
void check_interruptible(const Reader& r, const YAML::Node& at, const Scenario& s) {
  const model::LockType* type = model::find_lock_type(s.lock.type);
  if (type && !type->interruptible)
    r.fail(at, "an interrupt reaches the acquires of " + model::interruptible_type_list() +
                   " locks (Redisson's lock() and tryLock() loops); this lock is " + s.lock.type);
  if (const std::string problem = client::interrupt_problem(s.lock.redisson_version); !problem.empty()) r.fail(at, problem);
}

// The keys a step with this op may have: the op table's, and side on an rwlock (read_op says why it
// is refused on other locks).
std::vector<std::string> op_step_keys(const OpInfo& op) {
  std::vector<std::string> keys(std::begin(kOpStepKeys), std::end(kOpStepKeys));
  if (op.names_side) keys.emplace_back("side");
  keys.insert(keys.end(), op.keys.begin(), op.keys.end());
  return keys;
}

// The keys a step with this fault may have: the fault table's.
std::vector<std::string> fault_step_keys(const world::FaultInfo& fault) {
  std::vector<std::string> keys = {"at", "fault"};
  if (!fault.on_server) keys.emplace_back("client");
  for (const world::FaultParam p : fault.params) keys.emplace_back(world::param_info(p).key);
  return keys;
}

// Where a key that some op or fault takes does apply ("lock and try_lock", "work and to pause, ...");
// empty for a key no step takes.
std::string where_key_applies(const std::string& key) {
  if (key == "thread") return "op steps and to " + world::kinds_taking(world::FaultParam::Thread);
  std::string faults;
  for (const world::FaultParamInfo& p : world::fault_params())
    if (p.key == key) faults = world::kinds_taking(p.param);
  const std::string ops = ops_taking(key);
  if (!ops.empty() && !faults.empty()) return ops + " and to " + faults;
  return ops.empty() ? faults : ops;
}

// A step has the keys its op or fault reads and no other: a key meant for another op or fault would
// otherwise be ignored without a word. The message lists the keys this step takes.
void check_step_keys(const Reader& r, const YAML::Node& item, const std::vector<std::string>& allowed,
                     const std::string& what, const std::string& note = "") {
  r.check_unique_keys(item, "a timeline step");
  // side is listed where the step has it: an rwlock's op needs it, and read_op refuses it elsewhere.
  std::vector<std::string> listed;
  for (const std::string& key : allowed)
    if (key != "side" || item["side"]) listed.push_back(key);
  for (auto it = item.begin(); it != item.end(); ++it) {
    const std::string key = it->first.as<std::string>();
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    const std::string takes = what + " takes " + join(listed);
    const std::string applies = where_key_applies(key);
    if (!applies.empty())
      r.fail(it->first, key + " does not apply to " + what + note + ": " + takes + " (" + key + " applies to " + applies + ")");
    r.fail(it->first, "unknown key '" + key + "' in " + what + ": " + takes +
                          (key.find(':') != std::string::npos ? " (a ':' needs a space after it)" : ""));
  }
}

// Every key some step may have: an op's or a fault's.
bool any_step_takes(const std::string& key) {
  for (const char* k : {"at", "client", "op", "fault"})
    if (key == k) return true;
  return !where_key_applies(key).empty();
}

void read_timeline(const Reader& r, const YAML::Node& node, Scenario& s) {
  if (!node.IsSequence()) r.fail(node, "expected a list of steps for timeline");
  std::set<std::string> clients;
  for (const auto& c : s.clients) clients.insert(c.name);
  std::vector<std::pair<YAML::Node, size_t>> interrupts;  // interrupt steps (and entries), whose threads must have ops
  for (const YAML::Node& item : node) {
    r.expect_map(item, "a timeline step");
    TimelineEntry e;
    e.line = item.Mark().line + 1;
    const bool has_op = item["op"].IsDefined(), has_fault = item["fault"].IsDefined();
    if (has_op == has_fault) {
      // A misspelt op or fault is the likelier mistake: name it rather than its absence.
      for (auto it = item.begin(); it != item.end(); ++it)
        if (const std::string key = it->first.as<std::string>(); !any_step_takes(key))
          r.fail(it->first, "unknown key '" + key + "' in a timeline step (a step has 'op' or 'fault')");
      r.fail(item, "a timeline step needs exactly one of 'op' or 'fault'");
    }
    const OpInfo* op = nullptr;
    const world::FaultInfo* fault = nullptr;
    if (has_op) {
      const std::string name = r.text(item["op"], "op");
      op = find_op(name);
      if (!op) r.fail(item["op"], "unknown op '" + name + "' (expected " + op_list() + ")");
      check_step_keys(r, item, op_step_keys(*op), step_name(name, "step"));
    } else {
      const std::string name = r.text(item["fault"], "fault");
      fault = world::find_fault(name);
      if (!fault) r.fail(item["fault"], "unknown fault '" + name + "' (expected " + world::fault_list() + ")");
      if (fault->on_server && item["client"])
        r.fail(item["client"], "a '" + name + "' fault concerns the server, not a client");
      check_step_keys(r, item, fault_step_keys(*fault), step_name(name, "fault"),
                      fault->lasts() ? "" : ", which happens at an instant");
    }
    e.at_ms = r.ms(r.require(item, "at", "a timeline step"), "at", kRunMsMax);
    if (item["client"]) {
      e.client = r.text(item["client"], "client");
      if (!clients.count(e.client)) r.fail(item["client"], "client '" + e.client + "' is not declared in clients");
    }
    if (item["thread"]) {
      e.thread = r.non_negative(item["thread"], "thread");
      if (e.thread == 0) r.fail(item["thread"], "threads are numbered from 1");
    }
    if (op) {
      if (e.client.empty()) r.fail(item, "missing 'client' in a timeline step with op '" + std::string(op->name()) + "'");
      read_op(r, item, *op, s, e);
    } else {
      if (e.client.empty() && !fault->on_server) r.fail(item, "missing 'client' in a '" + std::string(fault->name) + "' fault");
      e.fault = read_fault(r, item, *fault, e);
      e.fault->client = std::move(e.client);
      e.client.clear();
      if (fault->kind == world::FaultKind::Interrupt) {
        check_interruptible(r, item["fault"], s);
        interrupts.emplace_back(item, s.timeline.size());
      }
    }
    s.timeline.push_back(e);
  }
  // An interrupt of a thread that runs nothing would do nothing: a mistake in the file.
  for (const auto& [item, entry] : interrupts) {
    const world::Fault& f = *s.timeline[entry].fault;
    const bool runs = std::any_of(s.timeline.begin(), s.timeline.end(), [&](const TimelineEntry& e) {
      return e.op && e.client == f.client && e.thread == f.thread;
    });
    if (!runs)
      r.fail(item, "client " + f.client + " has no op step on thread " + std::to_string(f.thread) + " for this interrupt to reach");
  }
  // With no operation on the lock every property would hold vacuously: a "holds" never tested.
  const bool acts = std::any_of(s.timeline.begin(), s.timeline.end(),
                                [](const TimelineEntry& e) { return e.op && e.op->kind != world::OpSpec::Kind::Work; });
  if (!acts)
    r.fail(node, "the timeline has no op step on the lock (lock, try_lock, unlock, write, ...): there would be nothing "
                 "to judge");
}

std::string ordinal(int n) {
  const int tens = n % 100, ones = n % 10;
  const char* suffix = tens >= 11 && tens <= 13 ? "th" : ones == 1 ? "st" : ones == 2 ? "nd" : ones == 3 ? "rd" : "th";
  return std::to_string(n) + suffix;
}

// A pin names the nth op of a client thread. The world runs exactly the ops the timeline schedules
// on that thread, one per step: no op of a scenario's client is generated at run time (retries,
// renewals and MultiLock's parts happen inside an op), so a pin past their count can never match and
// is a mistake in the file, not a verdict. Fewer may finish (a crash ends a thread): the run shows
// that as "missing", so it is not refused here.
void check_pin_can_match(const Reader& r, const YAML::Node& item, const OpExpectation& pin, const Scenario& s) {
  std::vector<std::string> lines;  // of the steps doing the pinned op on the pinned thread
  std::vector<std::string> threads, others;
  for (const TimelineEntry& e : s.timeline) {
    if (!e.op || e.client != pin.client) continue;
    const std::string thread = std::to_string(e.thread), op(world::op_name(e.op->kind));
    if (std::find(threads.begin(), threads.end(), thread) == threads.end()) threads.push_back(thread);
    if (e.thread != pin.thread) continue;
    if (op == pin.op) lines.push_back(std::to_string(e.line));
    else if (std::find(others.begin(), others.end(), op) == others.end()) others.push_back(op);
  }
  if (static_cast<size_t>(pin.nth) <= lines.size()) return;
  const bool one_thread = pin.thread == 1 && threads.size() <= 1;
  const std::string who = one_thread ? pin.client : pin.client + " thread " + std::to_string(pin.thread);
  std::string why;
  if (threads.empty()) {
    why = "the timeline has no op step of " + pin.client;
  } else if (std::find(threads.begin(), threads.end(), std::to_string(pin.thread)) == threads.end()) {
    why = "the timeline has no step of " + pin.client + " on thread " + std::to_string(pin.thread) + " (" + pin.client +
          "'s steps run on thread" + (threads.size() == 1 ? " " : "s ") + join(threads) + ")";
  } else if (lines.empty()) {
    why = "the timeline has no " + pin.op + " step of " + who + " (" + who + " does " + join(others) + ")";
  } else {
    why = "the timeline has " + std::to_string(lines.size()) + " " + pin.op + " step" + (lines.size() == 1 ? "" : "s") +
          " of " + who + " (line" + (lines.size() == 1 ? " " : "s ") + join(lines) + ")";
  }
  r.fail(item, who + "'s " + ordinal(pin.nth) + " " + pin.op + " cannot happen: " + why);
}

void read_expect(const Reader& r, const YAML::Node& node, Scenario& s) {
  r.expect_map(node, "expect");
  r.check_unique_keys(node, "expect");
  for (auto it = node.begin(); it != node.end(); ++it) {
    const std::string key = it->first.as<std::string>();
    const YAML::Node value = it->second;  // the iterator's proxy dies with the expression
    if (key == "ops") {
      if (!value.IsSequence()) r.fail(value, "expected a list for expect.ops");
      for (const YAML::Node& item : value) {
        r.expect_map(item, "an expected op");
        r.check_keys(item, {"client", "thread", "op", "nth", "result", "value"}, "an expected op");
        OpExpectation pin;
        pin.line = item.Mark().line + 1;
        pin.client = r.text(r.require(item, "client", "an expected op"), "client");
        if (std::none_of(s.clients.begin(), s.clients.end(), [&](const ClientDecl& c) { return c.name == pin.client; }))
          r.fail(item["client"], "client '" + pin.client + "' is not declared in clients");
        if (item["thread"]) {
          pin.thread = r.non_negative(item["thread"], "thread");
          if (pin.thread == 0) r.fail(item["thread"], "threads are numbered from 1");
        }
        pin.op = r.text(r.require(item, "op", "an expected op"), "op");
        if (!find_op(pin.op)) r.fail(item["op"], "unknown op '" + pin.op + "' (expected " + op_list() + ")");
        if (item["nth"]) {
          pin.nth = static_cast<int>(r.non_negative(item["nth"], "nth"));
          if (pin.nth == 0) r.fail(item["nth"], "nth counts from 1");
        }
        pin.result = r.one_of(r.require(item, "result", "an expected op"), "result", {"ok", "fail", "unknown"});
        if (item["value"]) pin.value = r.integer(item["value"], "value");
        check_pin_can_match(r, item, pin, s);
        // Two pins of one op: one of them can never hold, and which one the file meant is not known.
        for (const OpExpectation& earlier : s.expect_ops)
          if (earlier.client == pin.client && earlier.thread == pin.thread && earlier.op == pin.op && earlier.nth == pin.nth)
            r.fail(item, "this op is pinned already, on line " + std::to_string(earlier.line) + ": pin each op once");
        s.expect_ops.push_back(pin);
      }
      continue;
    }
    const auto names = model::scenario_property_names();
    if (std::find(names.begin(), names.end(), key) == names.end())
      r.fail(it->first, "unknown property '" + key + "' in expect (expected " + [&] {
        auto words = names;
        words.push_back("ops");
        return model::property_list(words);
      }() + ")");
    if (const std::string problem = model::applicability_problem(key, s.lock.type); !problem.empty())
      r.fail(it->first, problem);
    s.expect.emplace_back(key, r.one_of(value, "expectation for " + key, {"holds", "violated"}));
  }
}

void read_live(const Reader& r, const YAML::Node& node, Scenario& s) {
  r.expect_map(node, "live");
  r.check_keys(node, {"differs", "why", "time_scale"}, "live");
  if (node["time_scale"]) s.live.time_scale = r.boolean(node["time_scale"], "time_scale");
  s.live.line = node.Mark().line + 1;
  if (const YAML::Node differs = node["differs"]) {
    if (!differs.IsSequence()) r.fail(differs, "expected a list of properties for live.differs");
    for (const YAML::Node& item : differs) {
      const std::string property = r.text(item, "a property");
      const auto names = model::scenario_property_names();
      if (std::find(names.begin(), names.end(), property) == names.end())
        r.fail(item, "unknown property '" + property + "' in live.differs (expected " + model::property_list(names) + ")");
      if (std::find(s.live.differs.begin(), s.live.differs.end(), property) != s.live.differs.end())
        r.fail(item, "live.differs names '" + property + "' twice");
      if (std::none_of(s.expect.begin(), s.expect.end(), [&](const auto& e) { return e.first == property; }))
        r.fail(item, "live.differs names '" + property + "', which expect does not check");
      s.live.differs.push_back(property);
    }
    if (!node["why"]) r.fail(node, "live.differs needs a 'why': the real reason the verdict can differ live");
  }
  if (node["why"]) {
    s.live.why = r.text(node["why"], "why");
    while (!s.live.why.empty() && std::isspace(static_cast<unsigned char>(s.live.why.back()))) s.live.why.pop_back();
  }
}

// `bounded:`: what `check --exhaustive` may vary (docs/exhaustive.md), and a schedule's choices.
void read_bounded(const Reader& r, const YAML::Node& node, Scenario& s) {
  r.expect_map(node, "bounded");
  r.check_keys(node,
               {"latencies_ms", "slow_max", "lost_max", "faults", "clock_offsets_ms", "reduce", "depth", "choices", "deviations"},
               "bounded");
  world::ScheduleBounds b;
  if (const YAML::Node l = node["latencies_ms"]) {
    b.latencies.clear();
    const auto add = [&](const YAML::Node& item) {
      const int64_t v = r.ms(item, "latencies_ms");
      if (v < 1) r.fail(item, "a latency is at least 1 ms (a message always takes time)");
      if (std::find(b.latencies.begin(), b.latencies.end(), v) != b.latencies.end())
        r.fail(item, "latencies_ms names " + std::to_string(v) + " twice");
      b.latencies.push_back(v);
    };
    if (l.IsSequence()) {
      if (l.size() == 0) r.fail(l, "latencies_ms needs at least one latency");
      for (const YAML::Node& item : l) add(item);
    } else {
      add(l);
    }
  }
  if (const YAML::Node c = node["clock_offsets_ms"]) {
    if (!c.IsSequence() || c.size() == 0) r.fail(c, "expected a list of clock offsets in ms for clock_offsets_ms, e.g. [0, 40000]");
    for (const YAML::Node& item : c) {
      const int64_t v = r.integer(item, "clock_offsets_ms");
      if (const std::string problem = world::clock_offset_problem(v); !problem.empty()) r.fail(item, problem);
      if (std::find(b.clock_offsets.begin(), b.clock_offsets.end(), v) != b.clock_offsets.end())
        r.fail(item, "clock_offsets_ms names " + std::to_string(v) + " twice");
      b.clock_offsets.push_back(v);
    }
  }
  if (node["slow_max"]) b.slow_max = static_cast<int>(r.non_negative(node["slow_max"], "slow_max"));
  if (node["lost_max"]) b.lost_max = static_cast<int>(r.non_negative(node["lost_max"], "lost_max"));
  if (node["reduce"]) b.reduce = r.boolean(node["reduce"], "reduce");
  if (node["depth"]) {
    b.depth = static_cast<int>(r.non_negative(node["depth"], "depth"));
    if (b.depth < 1) r.fail(node["depth"], "depth is at least 1");
  }
  if (const YAML::Node faults = node["faults"]) {
    if (!faults.IsSequence()) r.fail(faults, "expected a list of faults for bounded.faults, e.g. [{fault: crash, count: 1}]");
    for (const YAML::Node& item : faults) {
      r.expect_map(item, "a bounded fault");
      const std::string name = r.text(r.require(item, "fault", "a bounded fault"), "fault");
      const world::FaultInfo* info = world::find_fault(name);
      if (!info) r.fail(item["fault"], "unknown fault '" + name + "' (expected " + world::fault_list() + ")");
      if (info->kind == world::FaultKind::Interrupt) check_interruptible(r, item["fault"], s);
      std::vector<std::string> keys = fault_step_keys(*info);
      keys.erase(keys.begin());  // no `at`: the search places it
      keys.emplace_back("count");
      r.check_keys(item, keys, "a bounded " + name + " fault");
      TimelineEntry where;
      world::ScheduleBounds::FaultBudget budget{read_fault(r, item, *info, where), 1};
      if (item["client"]) {
        budget.fault.client = r.text(item["client"], "client");
        if (std::none_of(s.clients.begin(), s.clients.end(), [&](const ClientDecl& c) { return c.name == budget.fault.client; }))
          r.fail(item["client"], "no client named '" + budget.fault.client + "'");
      }
      if (info->on_server && budget.fault.server >= s.world.servers)
        r.fail(item["server"], "server " + std::to_string(budget.fault.server) + " does not exist");
      if (item["count"]) {
        budget.count = static_cast<int>(r.non_negative(item["count"], "count"));
        if (budget.count < 1) r.fail(item["count"], "count is at least 1");
      }
      b.faults.push_back(budget);
    }
  }
  if (const YAML::Node choices = node["choices"]) {
    if (!choices.IsSequence()) r.fail(choices, "expected a list of choices (0 the default, 1.. the others)");
    for (const YAML::Node& item : choices)
      s.choices.push_back(static_cast<uint32_t>(r.non_negative(item, "a choice")));
  }
  if (const YAML::Node deviations = node["deviations"]) {
    if (!deviations.IsSequence()) r.fail(deviations, "expected a list of the schedule's deviations in words, as the search wrote them");
    s.deviations.emplace();
    for (const YAML::Node& item : deviations) s.deviations->push_back(r.text(item, "a deviation"));
  }
  s.bounded = b;
}

}  // namespace

std::string user_script_problem(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return "cannot read the script file '" + path + "'";
  std::ostringstream body;
  body << file.rdbuf();
  engine::ManualHost host;
  engine::Engine fake(host);
  const Reply reply = fake.execute(fake.open_session(), {"SCRIPT", "LOAD", body.str()});
  return reply.is_error() ? reply.str : std::string();
}

void apply_lock_options(const std::vector<LockOption>& options, const std::string& where, Scenario& s) {
  YAML::Node lock(YAML::NodeType::Map);
  lock["type"] = s.lock.type;
  lock["name"] = s.lock.name;
  for (const LockOption& option : options) {
    if (option.key == "type" || option.key == "name")
      throw std::invalid_argument(where + " " + option.key + "=" + option.value + ": the lock's " + option.key +
                                  " is not an option here");
    try {
      lock[option.key] = YAML::Load(option.value);
    } catch (const YAML::Exception& e) {
      throw std::invalid_argument(where + " " + option.key + "=" + option.value + ": not a YAML value: " + e.msg);
    }
  }
  try {
    read_lock(Reader(""), lock, s);
  } catch (const ScenarioError& e) {
    throw std::invalid_argument(where + ": " + e.message());
  }
}

Scenario load_scenario(const std::string& path, const std::string& redisson, const std::string& lock_type) {
  std::ifstream file(path, std::ios::binary);
  if (std::filesystem::is_directory(path))
    throw ScenarioError(path, 1, 1, "a folder, not a scenario file (`locksim run` takes a folder and runs its files)");
  if (!file) throw ScenarioError(path, 1, 1, "cannot read the file");
  std::ostringstream body;
  body << file.rdbuf();
  const std::string text = body.str();
  // A history's lines are YAML too (flow maps, one a document): say what it is, not how it parses.
  if (text.starts_with("{\"i\":"))
    throw ScenarioError(path, 1, 1, "a history (history.jsonl), not a scenario: `locksim check FILE` judges it");
  YAML::Node root;
  try {
    // One scenario a file: a second document (after `---`) would be dropped without a word.
    const std::vector<YAML::Node> documents = YAML::LoadAll(text);
    for (size_t i = 1; i < documents.size(); ++i)
      if (!documents[i].IsNull())
        throw ScenarioError(path, documents[i].Mark().line + 1, 1,
                            "a second YAML document (after '---'): a scenario file holds one scenario; put the others "
                            "in files of their own");
    if (!documents.empty()) root = documents.front();
  } catch (const YAML::ParserException& e) {
    const YamlProblem p = explain_yaml_error(text, std::max(e.mark.line, 0) + 1, std::max(e.mark.column, 0) + 1, e.msg);
    throw ScenarioError(path, p.line, p.column, p.message);
  }
  if (const auto p = unclosed_quote(text)) throw ScenarioError(path, p->line, p->column, p->message);
  const Reader r(path);
  if (!root.IsMap()) r.fail(root, "expected a mapping with name, lock, clients, timeline and expect");
  r.check_keys(root, {"name", "about", "seed", "world", "lock", "clients", "timeline", "run_ms", "expect", "live", "bounded"},
               "the scenario");
  Scenario s;
  s.file = path;
  s.name = r.text(r.require(root, "name", "the scenario"), "name");
  if (s.name.find_first_not_of(" \t") == std::string::npos) r.fail(root["name"], "the name is empty: reports name the scenario by it");
  if (root["about"]) s.about = r.text(root["about"], "about");
  if (root["seed"]) s.seed = static_cast<uint64_t>(r.non_negative(root["seed"], "seed"));
  s.world.seed = s.seed;
  if (root["world"]) read_world(r, root["world"], s);
  if (!lock_type.empty() && root["lock"].IsMap()) root["lock"]["type"] = lock_type;
  read_lock(r, r.require(root, "lock", "the scenario"), s, redisson);
  // Options that only some locks read: given to another, they would be accepted and do nothing.
  const std::vector<std::string> applies = model::applicable_properties(s.lock.type);
  if (root["world"] && root["world"]["fence_rule"] && std::find(applies.begin(), applies.end(), "fencing") == applies.end())
    r.fail(root["world"]["fence_rule"], "fence_rule applies to locks whose writes carry fencing tokens (token, "
                                        "client-reentrant and fenced; this lock is " + s.lock.type + ")");
  const model::LockType* type = model::find_lock_type(s.lock.type);
  if (type && type->redisson && root["lock"]["retry_ms"])
    r.fail(root["lock"]["retry_ms"], "retry_ms applies to the polling locks setnx, naive, token and client-reentrant "
                                     "(this lock is " + s.lock.type + ", which waits as Redisson does)");
  read_clients(r, r.require(root, "clients", "the scenario"), s);
  read_timeline(r, r.require(root, "timeline", "the scenario"), s);
  s.run_ms_given = static_cast<bool>(root["run_ms"]);
  s.run_ms = s.run_ms_given ? r.ms(root["run_ms"], "run_ms", kRunMsMax) : default_run_ms(s.timeline);
  if (!s.run_ms_given && s.run_ms - 60000 > kRunMsMax)
    r.fail(root["timeline"], "the timeline's steps end at " + std::to_string(s.run_ms - 60000) +
                                " ms, past the longest run (" + std::to_string(kRunMsMax) + " ms, about 11.6 days)");
  if (root["expect"]) read_expect(r, root["expect"], s);
  if (root["live"]) read_live(r, root["live"], s);
  if (root["bounded"]) read_bounded(r, root["bounded"], s);
  // A RedLock needs a server per part; a fault needs its server to exist.
  if (model::is_kind(s.lock.type, model::LockKind::Red) && s.world.servers < s.lock.parts) {
    if (root["world"] && root["world"]["servers"])
      r.fail(root["world"]["servers"], "a red lock of " + std::to_string(s.lock.parts) + " parts needs as many servers");
    s.world.servers = s.lock.parts;
  }
  for (const auto& e : s.timeline)
    if (e.fault && e.fault->server >= s.world.servers)
      throw ScenarioError(path, e.line, e.server_column,
                          "server " + std::to_string(e.fault->server) + " does not exist (the world has " +
                              std::to_string(s.world.servers) + ")");
  // A Sentinel calls a master down after down_ms: a longer pause would make it fail over on its own.
  for (const auto& watched : s.timeline) {
    if (!watched.fault || watched.fault->kind != world::FaultKind::Failover || !watched.fault->sentinel) continue;
    const world::Fault& sentinel = *watched.fault;
    for (const auto& e : s.timeline)
      if (e.fault && e.fault->kind == world::FaultKind::RedisPause && e.fault->server == sentinel.server &&
          e.fault->for_ms >= sentinel.down_ms)
        throw ScenarioError(path, e.line, 1,
                            "a redis_pause of " + std::to_string(e.fault->for_ms) + " ms on a server a Sentinel watches (down_ms " +
                                std::to_string(sentinel.down_ms) + ", line " + std::to_string(watched.line) +
                                ") would make Sentinel fail over on its own, which locksim does not model: keep the pause "
                                "under " + std::to_string(sentinel.down_ms) + " ms");
  }
  return s;
}

std::vector<std::string> find_scenario_files(const std::vector<std::string>& paths) {
  std::vector<std::string> files;
  for (const std::string& p : paths) {
    const std::filesystem::path path(p);
    if (std::filesystem::is_directory(path)) {
      std::vector<std::string> found;
      for (const auto& entry : std::filesystem::recursive_directory_iterator(path)) {
        const auto ext = entry.path().extension();
        if (entry.is_regular_file() && (ext == ".yaml" || ext == ".yml")) found.push_back(entry.path().string());
      }
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (std::filesystem::exists(path)) {
      files.push_back(p);
    } else {
      throw std::runtime_error(p + ": no such file or directory");
    }
  }
  return files;
}

}  // namespace locksim::scenario

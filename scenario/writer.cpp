#include "scenario/writer.hpp"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>

#include "client/redisson_version.hpp"
#include "model/lock_types.hpp"

namespace locksim::scenario {
namespace {

// A double-quoted YAML scalar (JSON's escapes are valid YAML).
std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (u < 0x20 || u == 0x7f) {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[u >> 4];
      out += hex[u & 15];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// A plain scalar when YAML reads it back as the same string, else quoted.
std::string scalar(const std::string& s) {
  if (s.empty() || s == "null" || s == "Null" || s == "NULL" || s == "~" || s == "true" || s == "false" || s == "yes" ||
      s == "no")
    return quoted(s);
  for (const char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-' && c != '.') return quoted(s);
  if (s.front() == '-' || s.front() == '.') return quoted(s);
  return s;
}

bool is_acquire(const world::OpSpec& op) {
  return op.kind == world::OpSpec::Kind::Lock || op.kind == world::OpSpec::Kind::TryLock;
}

void write_world(std::ostream& out, const Scenario& s) {
  const world::LinkOptions& link = s.world.link;
  if (link.loss_denominator != 1000)
    throw std::invalid_argument("loss is written per thousand; this scenario's denominator is " +
                                std::to_string(link.loss_denominator));
  const Scenario d;  // what the loader starts from: a value equal to it is left out
  out << "world: {latency_ms: [" << link.latency_min_ms << ", " << link.latency_max_ms << "]";
  if (link.loss_numerator != d.world.link.loss_numerator) out << ", loss_per_thousand: " << link.loss_numerator;
  if (link.reorder != d.world.link.reorder) out << ", reorder: " << (link.reorder ? "true" : "false");
  if (s.world.active_expire_every_ms != d.world.active_expire_every_ms)
    out << ", active_expire_ms: " << s.world.active_expire_every_ms;
  if (s.world.servers != d.world.servers) out << ", servers: " << s.world.servers;
  if (s.world.max_events != d.world.max_events) out << ", max_events: " << s.world.max_events;
  if (s.world.fence_rule != d.world.fence_rule) out << ", fence_rule: \">\"";
  out << "}\n";
}

void write_lock(std::ostream& out, const Scenario& s, bool write_default_lease) {
  const client::LockSpec& lock = s.lock;
  const client::RedissonOptions& r = lock.redisson;
  const bool redisson = model::find_lock_type(lock.type)->redisson;
  // The file's timeouts reach both clients (the loader); the lock's own tells what was set.
  const client::CommandPolicy& policy = redisson ? r.commands : lock.polling.commands;
  out << "lock:\n";
  out << "  type: " << scalar(lock.type) << "\n";
  out << "  name: " << scalar(lock.name) << "\n";
  // What the loader starts from, the version's lock: an option equal to it is left out.
  const client::Version version =
      client::parse_version(lock.redisson_version).value_or(client::default_version());
  if (version != client::default_version() && redisson)
    out << "  redisson: " << version.str() << "\n";
  if (write_default_lease) out << "  lease_ms: " << s.default_lease_ms << "\n";
  const client::LockSpec d = client::redisson_spec(version, lock.type, lock.name);
  const client::CommandPolicy& dp = redisson ? d.redisson.commands : d.polling.commands;
  auto boolean = [](bool b) { return b ? "true" : "false"; };
  if (r.watchdog_timeout_ms != d.redisson.watchdog_timeout_ms) out << "  watchdog_ms: " << r.watchdog_timeout_ms << "\n";
  if (r.watchdog_on_error != d.redisson.watchdog_on_error)
    out << "  watchdog_on_error: " << client::to_string(r.watchdog_on_error) << "\n";
  if (r.unlock_latch != d.redisson.unlock_latch) out << "  unlock_latch: " << boolean(r.unlock_latch) << "\n";
  if (r.check_lock_synced_slaves != d.redisson.check_lock_synced_slaves)
    out << "  check_lock_synced_slaves: " << boolean(r.check_lock_synced_slaves) << "\n";
  if (lock.rlock_scripts.acquire != d.rlock_scripts.acquire) out << "  acquire_script: " << quoted(lock.rlock_scripts.acquire) << "\n";
  if (lock.rlock_scripts.unlock != d.rlock_scripts.unlock) out << "  unlock_script: " << quoted(lock.rlock_scripts.unlock) << "\n";
  if (lock.rlock_scripts.renew != d.rlock_scripts.renew) out << "  renew_script: " << quoted(lock.rlock_scripts.renew) << "\n";
  // The user's own Lua files, whichever script they replace (an rlock role's acquire_script: path
  // loads as the same replacement of that role's script).
  if (!s.script_files.empty()) {
    out << "  replace_scripts:\n";
    for (const auto& [name, path] : s.script_files)
      out << "    " << quoted(name) << ": " << quoted(std::filesystem::absolute(path).lexically_normal().string()) << "\n";
  }
  if (model::is_fair(lock.type)) {
    const client::FairOptions& fair = lock.fair;
    if (fair.variant != d.fair.variant) out << "  fair_variant: " << quoted(client::to_string(fair.variant)) << "\n";
    if (fair.thread_wait_ms != d.fair.thread_wait_ms) out << "  thread_wait_ms: " << fair.thread_wait_ms << "\n";
    if (fair.try_wait_replaces_thread_wait != d.fair.try_wait_replaces_thread_wait)
      out << "  wait_replaces_thread_wait: " << boolean(fair.try_wait_replaces_thread_wait) << "\n";
    if (fair.zero_wait_uses_tryacquire != d.fair.zero_wait_uses_tryacquire)
      out << "  zero_wait_tryacquire: " << boolean(fair.zero_wait_uses_tryacquire) << "\n";
  }
  if (model::has_parts(lock.type) && lock.parts != d.parts) out << "  parts: " << lock.parts << "\n";
  if (model::is_kind(lock.type, model::LockKind::RwLock) && lock.rw.variant != d.rw.variant)
    out << "  rwlock_variant: " << quoted(lock.rw.variant == client::RwVariant::Silent ? "3.11" : "3.44") << "\n";
  if (model::is_kind(lock.type, model::LockKind::RwLock) && lock.rw.read_renewal != d.rw.read_renewal)
    out << "  rwlock_read_renewal: " << quoted(client::to_string(lock.rw.read_renewal)) << "\n";
  if (lock.polling.retry_ms != d.polling.retry_ms) out << "  retry_ms: " << lock.polling.retry_ms << "\n";
  if (lock.polling.setnx_expire != d.polling.setnx_expire) out << "  setnx_expire: " << boolean(lock.polling.setnx_expire) << "\n";
  if (policy.timeout_ms != dp.timeout_ms) out << "  timeout_ms: " << policy.timeout_ms << "\n";
  if (policy.retry_attempts != dp.retry_attempts) out << "  retry_attempts: " << policy.retry_attempts << "\n";
  if (policy.retry_interval_ms != dp.retry_interval_ms) out << "  retry_interval_ms: " << policy.retry_interval_ms << "\n";
}

void write_clients(std::ostream& out, const Scenario& s) {
  out << "clients:\n";
  for (const ClientDecl& c : s.clients) {
    out << "  - {name: " << scalar(c.name);
    if (c.clock_offset_ms != 0) out << ", clock_offset_ms: " << c.clock_offset_ms;
    if (c.drift_ppm != 0) out << ", drift_ppm: " << c.drift_ppm;
    out << "}\n";
  }
}

// ", client: A, fault: pause, for_ms: 100": a fault's fields, as a timeline step or a bounded fault writes them.
void write_fault_fields(std::ostream& out, const world::Fault& f) {
  const world::FaultInfo& info = world::fault_info(f.kind);
  if (!f.client.empty()) out << ", client: " << scalar(f.client);
  out << ", fault: " << info.name;
  for (const world::FaultParam param : info.params) {
    const std::string_view key = world::param_info(param).key;
    switch (param) {
      case world::FaultParam::ForMs: out << ", " << key << ": " << f.for_ms; break;
      case world::FaultParam::ExtraMs: out << ", " << key << ": " << f.extra_ms; break;
      case world::FaultParam::PerThousand: out << ", " << key << ": " << f.per_thousand; break;
      case world::FaultParam::ByMs: out << ", " << key << ": " << f.by_ms; break;
      case world::FaultParam::LagMs:
        if (!f.sentinel) out << ", " << key << ": " << f.lag_ms;
        break;
      case world::FaultParam::Via:
        if (f.sentinel) out << ", " << key << ": sentinel";
        break;
      case world::FaultParam::DownMs:
        if (f.sentinel) out << ", " << key << ": " << f.down_ms;
        break;
      case world::FaultParam::Persistence:
        out << ", " << key << ": " << (f.persistence == world::Persistence::None ? "none" : "aof");
        break;
      case world::FaultParam::Server:
        if (f.server != 0) out << ", " << key << ": " << f.server;
        break;
      case world::FaultParam::Text:
        if (f.text != world::kBusyScriptError) out << ", " << key << ": " << scalar(f.text);
        break;
      case world::FaultParam::Thread:
        if (f.thread != 1) out << ", " << key << ": " << f.thread;
        break;
    }
  }
}

void write_step(std::ostream& out, const Scenario& s, const TimelineEntry& e, bool write_default_lease) {
  out << "  - {at: " << e.at_ms;
  if (e.op) {
    out << ", client: " << scalar(e.client);
    if (e.thread != 1) out << ", thread: " << e.thread;
    const world::OpSpec& op = *e.op;
    out << ", op: " << world::op_name(op.kind);
    // An rwlock's op names its side through the lock it concerns ("<name>:read").
    if (model::is_kind(s.lock.type, model::LockKind::RwLock) && op.kind != world::OpSpec::Kind::Work)
      out << ", side: " << op.lock.substr(op.lock.rfind(':') + 1);
    if (op.kind == world::OpSpec::Kind::TryLock) out << ", wait_ms: " << op.wait_ms;
    if (is_acquire(op) && op.lease_unit_ms == 1000)
      out << ", lease_s: " << op.lease_ms / 1000;
    else if (is_acquire(op) && op.lease_ms >= 0 && !(write_default_lease && op.lease_ms == s.default_lease_ms))
      out << ", lease_ms: " << op.lease_ms;
    if (op.kind == world::OpSpec::Kind::Work) out << ", for_ms: " << op.duration_ms;
    out << "}\n";
    return;
  }
  write_fault_fields(out, *e.fault);
  out << "}\n";
}

void write_bounded(std::ostream& out, const Scenario& s) {
  if (!s.bounded) return;
  const world::ScheduleBounds& b = *s.bounded;
  const world::ScheduleBounds d;
  out << "bounded:\n  latencies_ms: [";
  for (size_t i = 0; i < b.latencies.size(); ++i) out << (i ? ", " : "") << b.latencies[i];
  out << "]\n";
  if (b.slow_max != d.slow_max) out << "  slow_max: " << b.slow_max << "\n";
  if (b.lost_max != d.lost_max) out << "  lost_max: " << b.lost_max << "\n";
  if (!b.faults.empty()) {
    out << "  faults:\n";
    for (const auto& budget : b.faults) {
      out << "    - {count: " << budget.count;
      write_fault_fields(out, budget.fault);
      out << "}\n";
    }
  }
  if (!b.clock_offsets.empty()) {
    out << "  clock_offsets_ms: [";
    for (size_t i = 0; i < b.clock_offsets.size(); ++i) out << (i ? ", " : "") << b.clock_offsets[i];
    out << "]\n";
  }
  if (b.reduce != d.reduce) out << "  reduce: " << (b.reduce ? "true" : "false") << "\n";
  if (b.depth != d.depth) out << "  depth: " << b.depth << "\n";
  if (!s.choices.empty()) {
    out << "  choices: [";
    for (size_t i = 0; i < s.choices.size(); ++i) out << (i ? ", " : "") << s.choices[i];
    out << "]\n";
  }
  if (s.deviations) {
    out << "  deviations:" << (s.deviations->empty() ? " []" : "") << "\n";
    for (const std::string& d : *s.deviations) out << "    - " << quoted(d) << "\n";
  }
}

void write_expect(std::ostream& out, const Scenario& s) {
  if (s.expect.empty() && s.expect_ops.empty()) return;
  out << "expect:\n";
  for (const auto& [property, expected] : s.expect) out << "  " << property << ": " << expected << "\n";
  if (s.expect_ops.empty()) return;
  out << "  ops:\n";
  for (const OpExpectation& pin : s.expect_ops) {
    out << "    - {client: " << scalar(pin.client);
    if (pin.thread != 1) out << ", thread: " << pin.thread;
    out << ", op: " << pin.op << ", nth: " << pin.nth << ", result: " << pin.result;
    if (pin.value) out << ", value: " << *pin.value;
    out << "}\n";
  }
}

}  // namespace

std::string write_scenario(const Scenario& s) {
  if (!model::find_lock_type(s.lock.type))
    throw std::invalid_argument("the scenario writer does not know lock type '" + s.lock.type + "' (it writes " +
                                model::lock_type_list() + ")");
  // lock.lease_ms applies to every acquire that names none, so it can be written only when no acquire
  // goes without a lease; otherwise every acquire names its own.
  bool write_default_lease = s.default_lease_ms >= 0;
  for (const auto& e : s.timeline)
    if (e.op && is_acquire(*e.op) && e.op->lease_ms < 0) write_default_lease = false;

  std::ostringstream out;
  out << "name: " << quoted(s.name) << "\n";
  if (!s.about.empty()) out << "about: " << quoted(s.about) << "\n";
  out << "seed: " << s.seed << "\n";
  write_world(out, s);
  write_lock(out, s, write_default_lease);
  write_clients(out, s);
  out << (s.timeline.empty() ? "timeline: []\n" : "timeline:\n");
  for (const auto& e : s.timeline) write_step(out, s, e, write_default_lease);
  out << "run_ms: " << s.run_ms << "\n";
  write_expect(out, s);
  write_bounded(out, s);
  return out.str();
}

void write_scenario_file(const Scenario& scenario, const std::string& path) {
  const std::string text = write_scenario(scenario);
  const std::filesystem::path p(path);
  if (p.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(p.parent_path(), ec);
  }
  std::ofstream file(p, std::ios::binary);
  if (!file) throw std::runtime_error(path + ": cannot write");
  file << text;
  if (!file) throw std::runtime_error(path + ": write failed");
}

}  // namespace locksim::scenario

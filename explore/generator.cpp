#include "explore/generator.hpp"

#include "client/lock_factory.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>

#include "client/script_files.hpp"
#include "model/checkers.hpp"
#include "model/lock_types.hpp"

namespace locksim::explore {

using scenario::Scenario;
using scenario::TimelineEntry;
namespace {

// Sizes: RapidCheck scales ranges and container lengths by its size parameter. Exploration wants
// the same distribution whatever size a caller runs at, so every generator here fixes its own: full
// range for numbers, and a container's length uniform in [0, max].
constexpr int kFull = 100;

template <typename T>
rc::Gen<T> full(rc::Gen<T> gen) {
  return rc::gen::resize(kFull, std::move(gen));
}

// Uniform in [min, max] (inclusive), shrinking towards min.
rc::Gen<int64_t> between(int64_t min, int64_t max) {
  return full(rc::gen::inRange<int64_t>(min, max + 1));
}

rc::Gen<bool> one_in(int n) {
  return rc::gen::map(full(rc::gen::inRange<int>(0, n)), [](int x) { return x == 0; });
}

template <typename T>
rc::Gen<std::vector<T>> up_to(int max, rc::Gen<T> element) {
  return rc::gen::resize(max, rc::gen::container<std::vector<T>>(full(std::move(element))));
}

std::string client_name(size_t i) { return std::string(1, static_cast<char>('A' + i)); }

// The fault a plan describes, with the parameters its kind takes (the plan draws them all, so that
// the kind a shrink lands on does not change what else is drawn).
world::Fault to_fault(const FaultPlan& f, const world::FaultInfo& info, int threads_max) {
  using P = world::FaultParam;
  world::Fault fault;
  fault.kind = info.kind;
  for (const P param : info.params) {
    switch (param) {
      case P::ForMs: fault.for_ms = f.for_ms; break;
      case P::ExtraMs: fault.extra_ms = f.extra_ms; break;
      case P::PerThousand: fault.per_thousand = static_cast<uint64_t>(f.per_thousand); break;
      case P::ByMs: fault.by_ms = f.backward ? -f.jump_ms : f.jump_ms; break;
      case P::LagMs: fault.lag_ms = f.lag_ms; break;
      case P::Persistence: fault.persistence = f.aof ? world::Persistence::AofEverySec : world::Persistence::None; break;
      case P::Via: case P::DownMs: case P::Server: break;  // direct failovers of the first server
      case P::Text: break;  // error_reply: Redis's BUSY, the default
      case P::Thread: fault.thread = std::min(f.thread, threads_max - 1) + 1; break;
    }
  }
  return fault;
}

// Whether the lock is made of parts a MultiLock or RedLock tryLock takes one after another: only
// their callers' forms read -1 apart from 0 and a lease's unit apart from milliseconds.
bool multi_parts(const ExploreConfig& c) { return model::has_parts(c.lock_type); }

// Whether sessions may race a release (SessionPlan::races_release): messages may overtake one
// another and the configuration allows delays.
bool races_releases(const ExploreConfig& c) {
  return c.reorder && std::find(c.faults.begin(), c.faults.end(), "delay") != c.faults.end();
}

// Whether the configuration's faults interrupt threads.
bool interrupts(const ExploreConfig& c) {
  return std::find(c.faults.begin(), c.faults.end(), "interrupt") != c.faults.end();
}

rc::Gen<SessionPlan> session_gen(const ExploreConfig& c) {
  using rc::gen::set;
  const bool parts = multi_parts(c);
  const bool races = races_releases(c);
  return rc::gen::build<SessionPlan>(
      set(&SessionPlan::at_ms, between(0, c.horizon_ms - 1)),
      set(&SessionPlan::try_lock, c.try_locks ? one_in(2) : rc::gen::just(false)),
      set(&SessionPlan::wait_ms, between(0, c.wait_ms_max)),
      set(&SessionPlan::leased, c.leases ? one_in(3) : rc::gen::just(false)),
      set(&SessionPlan::lease_ms, between(100, 40000)),
      set(&SessionPlan::reentrant, one_in(4)),
      set(&SessionPlan::work_ms, between(0, c.work_ms_max)),
      set(&SessionPlan::writes, rc::gen::map(between(0, 2), [](int64_t x) { return static_cast<int>(x); })),
      // An unlock ends most sessions; shrinking drops it.
      set(&SessionPlan::unlock, rc::gen::map(full(rc::gen::inRange<int>(0, 8)), [](int x) { return x != 0; })),
      set(&SessionPlan::stray_unlock, one_in(12)),
      set(&SessionPlan::write_side, one_in(2)),
      set(&SessionPlan::thread, c.threads_max > 1 ? rc::gen::map(between(0, c.threads_max - 1),
                                                                 [](int64_t x) { return static_cast<int>(x); })
                                                  : rc::gen::just(0)),
      set(&SessionPlan::wait_minus_one, parts && c.try_locks ? one_in(4) : rc::gen::just(false)),
      set(&SessionPlan::lease_in_seconds, parts && c.leases ? one_in(4) : rc::gen::just(false)),
      set(&SessionPlan::races_release, races ? one_in(3) : rc::gen::just(false)),
      set(&SessionPlan::race_lead_ms, races ? between(5, 300) : rc::gen::just<int64_t>(5)),
      set(&SessionPlan::race_jitter_permille, races ? between(300, 700) : rc::gen::just<int64_t>(500)),
      set(&SessionPlan::race_for_ms, races ? between(1, 4) : rc::gen::just<int64_t>(1)),
      set(&SessionPlan::race_extra_ms, races ? between(50, 600) : rc::gen::just<int64_t>(50)),
      set(&SessionPlan::partial, c.partial_unlocks ? one_in(2) : rc::gen::just(false)),
      set(&SessionPlan::partial_work_ms, c.partial_unlocks ? between(0, c.work_ms_max) : rc::gen::just<int64_t>(0)),
      set(&SessionPlan::deeper, c.partial_unlocks ? rc::gen::map(between(0, 2), [](int64_t x) { return static_cast<int>(x); })
                                                  : rc::gen::just(0)));
}

rc::Gen<ClientPlan> client_gen(const ExploreConfig& c) {
  using rc::gen::set;
  const bool skew = std::find(c.faults.begin(), c.faults.end(), "clock_jump") != c.faults.end();
  return rc::gen::build<ClientPlan>(
      set(&ClientPlan::sessions, rc::gen::nonEmpty(up_to(std::max(1, (c.ops_max + 3) / 4), session_gen(c)))),
      set(&ClientPlan::clock_offset_ms, skew ? between(0, 2000) : rc::gen::just<int64_t>(0)));
}

rc::Gen<FaultPlan> fault_gen(const ExploreConfig& c) {
  using rc::gen::set;
  return rc::gen::build<FaultPlan>(
      set(&FaultPlan::kind, rc::gen::map(between(0, static_cast<int64_t>(c.faults.size()) - 1),
                                         [](int64_t x) { return static_cast<int>(x); })),
      set(&FaultPlan::client, rc::gen::map(between(0, c.clients_max - 1), [](int64_t x) { return static_cast<int>(x); })),
      set(&FaultPlan::at_ms, between(0, c.horizon_ms - 1)),
      set(&FaultPlan::for_ms, between(100, 60000)),
      set(&FaultPlan::extra_ms, between(1, 5000)),
      set(&FaultPlan::per_thousand, between(1, 1000)),
      set(&FaultPlan::jump_ms, between(1, 30000)),
      set(&FaultPlan::backward, one_in(2)),
      set(&FaultPlan::lag_ms, between(0, 5000)),
      set(&FaultPlan::aof, one_in(2)),
      set(&FaultPlan::thread, interrupts(c) && c.threads_max > 1
                                  ? rc::gen::map(between(0, c.threads_max - 1), [](int64_t x) { return static_cast<int>(x); })
                                  : rc::gen::just(0)));
}

}  // namespace

const std::vector<std::string>& all_fault_kinds() {
  static const std::vector<std::string> kinds = world::drawn_fault_names();
  return kinds;
}

ExploreConfig varied(const ExploreConfig& config, const Variation& variation) {
  ExploreConfig out = config;
  out.against.reset();
  out.lock_options.insert(out.lock_options.end(), variation.lock_options.begin(), variation.lock_options.end());
  for (const auto& [name, path] : variation.script_files) {
    std::erase_if(out.script_files, [&](const auto& item) { return item.first == name; });
    if (path != "stock") out.script_files.emplace_back(name, path);
  }
  return out;
}

std::string variation_text(const Variation& v) {
  std::string out;
  for (const auto& o : v.lock_options) out += (out.empty() ? "" : ",") + o.key + "=" + o.value;
  for (const auto& [name, path] : v.script_files) out += (out.empty() ? "" : ",") + ("script:" + name + "=" + path);
  return out;
}

const world::FaultInfo* fault_of(const FaultPlan& f, const ExploreConfig& c) {
  if (c.faults.empty()) return nullptr;
  return world::find_fault(c.faults[static_cast<size_t>(f.kind) % c.faults.size()]);
}

Variation parse_variation(const std::string& text, const std::string& where) {
  Variation v;
  size_t start = 0;
  int depth = 0;  // commas inside [..] or {..} belong to a YAML value
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size()) {
      if (text[i] == '[' || text[i] == '{') ++depth;
      if (text[i] == ']' || text[i] == '}') --depth;
      if (text[i] != ',' || depth > 0) continue;
    }
    const std::string item = text.substr(start, i - start);
    start = i + 1;
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == item.size())
      throw std::invalid_argument(where + " '" + item + "': expected KEY=VALUE (a lock: key of the scenario format, e.g. "
                                  "unlock_latch=true) or script:NAME=FILE");
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    if (key.starts_with("script:")) v.script_files.emplace_back(key.substr(7), value);
    else v.lock_options.push_back({key, value});
  }
  return v;
}

namespace {

// A configuration's lock options and scripts are checked by building the lock they describe.
void check_variation(const ExploreConfig& c, const Variation& v, const std::string& where) {
  Scenario probe;
  probe.lock.type = c.lock_type;
  probe.lock.name = c.lock_name;
  scenario::apply_lock_options(v.lock_options, where, probe);
  const std::vector<std::string> runs = client::scripts_run_by(probe.lock, client::default_scripts_dir());
  for (const auto& [name, path] : v.script_files) {
    if (!std::filesystem::exists(client::default_scripts_dir() + "/" + name + ".lua"))
      throw std::invalid_argument(where + " script:" + name + ": no script '" + name + "' in " +
                                  client::default_scripts_dir() + " to replace");
    if (path == "stock") continue;
    if (std::find(runs.begin(), runs.end(), name) == runs.end()) {
      std::string list;
      for (const std::string& r : runs) list += (list.empty() ? "" : ", ") + r;
      throw std::invalid_argument(where + " script:" + name + ": the " + probe.lock.type + " lock of Redisson " +
                                  probe.lock.redisson_version + " never runs '" + name + "' (it runs " + list +
                                  "): replace one of those, or set the redisson= version whose era runs it");
    }
    if (const std::string problem = scenario::user_script_problem(path); !problem.empty())
      throw std::invalid_argument(where + " script:" + name + "=" + path + ": " + problem);
  }
}

}  // namespace

void validate(const ExploreConfig& c) {
  if (!model::find_lock_type(c.lock_type))
    throw std::invalid_argument("unknown lock type '" + c.lock_type + "' (expected " + model::lock_type_list() + ")");
  check_variation(c, {c.lock_options, c.script_files}, "--set");
  if (c.against) {
    const ExploreConfig other = varied(c, *c.against);  // the configuration --against runs
    check_variation(c, {other.lock_options, other.script_files}, "--against");
    if (c.against->lock_options.empty() && c.against->script_files.empty())
      throw std::invalid_argument("--against names no change");
  }
  if (c.threads_max < 1 || c.threads_max > 100) throw std::invalid_argument("threads per client must be within 1..100");
  if (c.work_ms_max < 0) throw std::invalid_argument("the longest work must not be negative");
  if (c.wait_ms_max < 0) throw std::invalid_argument("the longest tryLock wait must not be negative");
  // As a scenario file's (scenario::kRunMsMax): a few digits too many would run until killed.
  for (const auto& [value, what] : {std::pair{c.work_ms_max, "the longest work"}, std::pair{c.wait_ms_max, "the longest tryLock wait"},
                                    std::pair{c.horizon_ms, "the horizon"}})
    if (value > scenario::kRunMsMax)
      throw std::invalid_argument(std::string(what) + " is at most " + std::to_string(scenario::kRunMsMax) +
                                  " ms (about 11.6 days, a scenario's longest run), not " + std::to_string(value));
  if (c.clients_max < 1 || c.clients_max > 26) throw std::invalid_argument("clients must be within 1..26");
  if (c.ops_max < 1 || c.ops_max > 200) throw std::invalid_argument("ops per client must be within 1..200");
  if (c.faults_max < 0 || c.faults_max > 100) throw std::invalid_argument("faults per case must be within 0..100");
  if (c.horizon_ms < 1) throw std::invalid_argument("the horizon must be positive");
  if (c.world_loss_max < 0 || c.world_loss_max > 1000) throw std::invalid_argument("world loss is within 0..1000 per thousand");
  std::set<std::string> seen;
  for (const auto& f : c.faults) {
    if (!world::find_fault(f)) throw std::invalid_argument("unknown fault '" + f + "' (expected " + world::fault_list() + ")");
    if (f == "interrupt" && !model::find_lock_type(c.lock_type)->interruptible)
      throw std::invalid_argument("an interrupt reaches the acquires of " + model::interruptible_type_list() +
                                  " locks; this lock is " + c.lock_type);
    if (f == "interrupt") {
      std::vector<const ExploreConfig*> sides{&c};
      const std::optional<ExploreConfig> other = c.against ? std::optional(varied(c, *c.against)) : std::nullopt;
      if (other) sides.push_back(&*other);
      for (const ExploreConfig* side : sides) {
        Scenario probe;
        probe.lock.type = side->lock_type;
        scenario::apply_lock_options(side->lock_options, "--redisson", probe);
        if (const std::string problem = client::interrupt_problem(probe.lock.redisson_version); !problem.empty())
          throw std::invalid_argument(problem);
      }
    }
    if (!seen.insert(f).second) throw std::invalid_argument("fault '" + f + "' is named twice");
  }
  if (c.properties.empty()) throw std::invalid_argument("no property to check");
  for (const auto& p : c.properties)
    if (const std::string problem = model::applicability_problem(p, c.lock_type); !problem.empty())
      throw std::invalid_argument(problem);
}

namespace {

rc::Gen<Plan> plan_gen_of_valid(const ExploreConfig& c) {
  using rc::gen::set;
  return rc::gen::build<Plan>(
      // The world's seed is not shrunk: a different seed is a different run, not a smaller one.
      set(&Plan::world_seed, rc::gen::noShrink(full(rc::gen::inRange<uint64_t>(1, uint64_t{1} << 40)))),
      // At least 1 ms: with a zero-latency link a lock() waiter whose acquire answers pttl 0 (a key
      // expiring this very millisecond, still live in Redis) retries at the same virtual instant
      // forever (redisson_lock.cpp's round assertion); no real network has a zero round trip.
      set(&Plan::latency_min_ms, between(1, 5)),
      set(&Plan::latency_span_ms, between(0, 10)),
      set(&Plan::loss_per_thousand, between(0, c.world_loss_max)),
      set(&Plan::clients, rc::gen::nonEmpty(up_to(c.clients_max, client_gen(c)))),
      set(&Plan::faults, c.faults.empty() ? rc::gen::just(std::vector<FaultPlan>{}) : up_to(c.faults_max, fault_gen(c))));
}

}  // namespace

rc::Gen<Plan> plan_gen(const ExploreConfig& c) {
  validate(c);
  return plan_gen_of_valid(c);
}

namespace {

// The lock a configuration's options make (and what the checkers judge by), read through the loader
// once per configuration: building its YAML for every case cost a twentieth of the case.
const Scenario& configured_lock(const ExploreConfig& c) {
  std::string key = c.lock_type + '\n' + c.lock_name;
  for (const auto& o : c.lock_options) key += '\n' + o.key + '=' + o.value;
  thread_local std::map<std::string, Scenario> cache;
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  Scenario lock;
  lock.lock.type = c.lock_type;
  lock.lock.name = c.lock_name;
  scenario::apply_lock_options(c.lock_options, "--set", lock);  // throws before anything is kept
  return cache.emplace(key, std::move(lock)).first->second;
}

// When the first session of `client` that unlocks is due to release: its start plus its work (a
// holder that got the lock at once); nullopt when it has none or the client was shrunk away.
std::optional<int64_t> first_release(const Plan& plan, size_t clients, size_t client) {
  if (client >= clients) return std::nullopt;
  std::optional<int64_t> due;
  for (const SessionPlan& sp : plan.clients[client].sessions)
    if (sp.unlock && (!due || sp.at_ms + sp.work_ms < *due)) due = sp.at_ms + sp.work_ms;
  return due;
}

// The sessions of `client` that race a release (SessionPlan::races_release) start shortly before
// another client's first release is due; the delay on their link goes to `races`.
void place_races(const Plan& plan, size_t clients, size_t client, std::vector<SessionPlan>& sessions,
                 std::vector<TimelineEntry>& races) {
  for (SessionPlan& sp : sessions) {
    if (!sp.races_release) continue;
    const std::optional<int64_t> due = first_release(plan, clients, client == 0 ? 1 : 0);
    if (!due) continue;
    sp.at_ms = std::max<int64_t>(0, *due - sp.race_lead_ms);
    TimelineEntry e;
    constexpr int64_t kHopsToSecondReply = 5;  // SessionPlan::races_release
    e.at_ms = sp.at_ms + kHopsToSecondReply * (plan.latency_min_ms + plan.latency_span_ms * sp.race_jitter_permille / 1000);
    e.fault = world::Fault{};
    e.fault->kind = world::FaultKind::Delay;
    e.fault->client = client_name(client);
    e.fault->for_ms = sp.race_for_ms;
    e.fault->extra_ms = sp.race_extra_ms;
    races.push_back(std::move(e));
  }
}

// A timeline entry of a case being built, and where it goes among those of the same instant.
struct Step {
  TimelineEntry entry;
  int order;  // operations before faults at one instant, then client order
};

// The entries by time, then order, stably. Sorted by index, each entry moved once: an entry is
// large, and every run of a case (its hazard experiments, its shrinks) builds its scenario again.
std::vector<TimelineEntry> in_time_order(std::vector<Step> steps) {
  std::vector<uint32_t> by_time(steps.size());
  for (uint32_t i = 0; i < by_time.size(); ++i) by_time[i] = i;
  std::stable_sort(by_time.begin(), by_time.end(), [&](uint32_t a, uint32_t b) {
    const Step& x = steps[a];
    const Step& y = steps[b];
    return x.entry.at_ms != y.entry.at_ms ? x.entry.at_ms < y.entry.at_ms : x.order < y.order;
  });
  std::vector<TimelineEntry> timeline;
  timeline.reserve(steps.size());
  for (const uint32_t i : by_time) timeline.push_back(std::move(steps[i].entry));
  return timeline;
}

}  // namespace

Scenario to_scenario(const Plan& plan, const ExploreConfig& c) {
  Scenario s;
  s.name = "explore-" + c.lock_type;
  s.seed = plan.world_seed;
  s.world.seed = plan.world_seed;
  s.world.script_texts = c.script_texts;
  s.world.link.latency_min_ms = plan.latency_min_ms;
  s.world.link.latency_max_ms = plan.latency_min_ms + plan.latency_span_ms;
  s.world.link.loss_numerator = static_cast<uint64_t>(plan.loss_per_thousand);
  s.world.link.reorder = c.reorder;
  s.lock.type = c.lock_type;
  s.lock.name = c.lock_name;
  // As a scenario file's lock: reads: the options set the lock and what the checkers judge by.
  const Scenario& lock = configured_lock(c);
  s.lock = lock.lock;
  s.default_lease_ms = lock.default_lease_ms;
  s.script_files = lock.script_files;
  s.checker_options = lock.checker_options;
  if (model::is_kind(c.lock_type, model::LockKind::Red)) s.world.servers = s.lock.parts;  // a server per part
  for (const auto& file : c.script_files) s.script_files.push_back(file);
  const bool sides = model::find_lock_type(c.lock_type)->sides;

  const size_t clients = std::min<size_t>(plan.clients.size(), static_cast<size_t>(c.clients_max));
  std::vector<Step> steps;
  std::string side;  // a ReadWriteLock's session takes one side
  int64_t thread = 1;
  auto op_step = [&](size_t client, int64_t at, world::OpSpec::Kind kind) -> world::OpSpec& {
    TimelineEntry e;
    e.at_ms = at;
    e.client = client_name(client);
    e.thread = thread;
    e.op = world::OpSpec{};
    e.op->kind = kind;
    e.op->lock = c.lock_name + (kind == world::OpSpec::Kind::Work ? "" : side);
    steps.push_back({e, static_cast<int>(client)});
    return *steps.back().entry.op;
  };
  std::vector<TimelineEntry> races;  // the delays of sessions racing a release
  for (size_t i = 0; i < clients; ++i) {
    const ClientPlan& cp = plan.clients[i];
    s.clients.push_back({client_name(i), cp.clock_offset_ms, 0});
    std::vector<SessionPlan> sessions = cp.sessions;
    place_races(plan, clients, i, sessions, races);
    std::stable_sort(sessions.begin(), sessions.end(),
                     [](const SessionPlan& a, const SessionPlan& b) { return a.at_ms < b.at_ms; });
    int ops = 0;
    auto room = [&] { return ops < c.ops_max; };
    for (const SessionPlan& sp : sessions) {
      using K = world::OpSpec::Kind;
      constexpr int64_t kDay = 86'400'000;
      const int64_t lease = plan.endless_leases ? kDay : c.leases && sp.leased ? sp.lease_ms : -1;
      side = !sides ? "" : sp.write_side ? ":write" : ":read";
      thread = std::min(sp.thread, c.threads_max - 1) + 1;
      if (sp.stray_unlock && room()) { op_step(i, sp.at_ms, K::Unlock); ++ops; }
      const int acquires = sp.reentrant ? 2 + sp.deeper : 1;
      for (int a = 0; a < acquires && room(); ++a, ++ops) {
        world::OpSpec& op = op_step(i, sp.at_ms, sp.try_lock ? K::TryLock : K::Lock);
        op.lease_ms = lease;
        if (sp.try_lock) op.wait_ms = sp.wait_minus_one ? -1 : sp.wait_ms;
        if (sp.lease_in_seconds && lease > 0 && !plan.endless_leases) {
          op.lease_ms = std::max<int64_t>(1, lease / 1000) * 1000;
          op.lease_unit_ms = 1000;
        }
      }
      if (sp.writes >= 1 && room()) { op_step(i, sp.at_ms, K::Write); ++ops; }
      if (sp.work_ms > 0 && room()) { op_step(i, sp.at_ms, K::Work).duration_ms = sp.work_ms; ++ops; }
      if (sp.writes >= 2 && room()) { op_step(i, sp.at_ms, K::Write); ++ops; }
      // All but the last unlock, then more work holding the last hold (#5623), then the last unlock
      // if the session has its unlocks.
      const bool partial = sp.partial && acquires > 1;
      for (int a = 0; partial && a + 1 < acquires && room(); ++a, ++ops) op_step(i, sp.at_ms, K::Unlock);
      if (partial && sp.partial_work_ms > 0 && room()) {
        op_step(i, sp.at_ms, K::Work).duration_ms = sp.partial_work_ms;
        ++ops;
      }
      for (int a = partial ? acquires - 1 : 0; sp.unlock && a < acquires && room(); ++a, ++ops) op_step(i, sp.at_ms, K::Unlock);
    }
  }
  for (TimelineEntry& e : races) steps.push_back({std::move(e), 1000});
  for (const FaultPlan& f : plan.faults) {
    const world::FaultInfo* kind = fault_of(f, c);
    if (!kind) break;
    const world::FaultInfo& info = *kind;
    TimelineEntry e;
    e.at_ms = f.at_ms;
    e.fault = to_fault(f, info, c.threads_max);
    if (!info.on_server) {
      if (static_cast<size_t>(f.client) >= clients) continue;  // its client was shrunk away
      e.fault->client = client_name(static_cast<size_t>(f.client));
    }
    steps.push_back({e, 1000});
  }
  s.timeline = in_time_order(std::move(steps));
  s.run_ms = default_run_ms(s.timeline);
  for (const auto& p : c.properties) s.expect.emplace_back(p, "holds");
  return s;
}

rc::Gen<Scenario> scenario_gen(const ExploreConfig& config) {
  return rc::gen::map(plan_gen(config), [config](const Plan& plan) { return to_scenario(plan, config); });
}

namespace {

bool is_loss(const FaultPlan& f, const ExploreConfig& c) {
  const world::FaultInfo* kind = fault_of(f, c);
  return kind && kind->kind == world::FaultKind::Loss;
}

}  // namespace

bool leaves_nothing_to_chance(const Plan& plan, const ExploreConfig& config) {
  if (plan.latency_span_ms != 0 || plan.loss_per_thousand != 0) return false;
  return std::none_of(plan.faults.begin(), plan.faults.end(),
                      [&](const FaultPlan& f) { return is_loss(f, config) && f.per_thousand < 1000; });
}

Plan without_chance(const Plan& plan, const ExploreConfig& config) {
  Plan out = plan;
  out.latency_span_ms = 0;
  out.loss_per_thousand = 0;
  for (FaultPlan& f : out.faults)
    if (is_loss(f, config)) f.per_thousand = 1000;
  return out;
}

Plan generate_plan(const ExploreConfig& config, uint64_t seed) {
  return plan_gen_of_valid(config)(rc::Random(seed), kFull).value();
}

rc::Shrinkable<Scenario> generate_case(const ExploreConfig& config, uint64_t seed) {
  return scenario_gen(config)(rc::Random(seed), kFull);
}

}  // namespace locksim::explore

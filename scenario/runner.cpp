#include "scenario/runner.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <set>

#include "model/lock_types.hpp"
#include "model/stream_judging.hpp"
#include "scenario/loader.hpp"
#include "scenario/time_scale.hpp"
#include "live/interrupt.hpp"
#include "live/live_fabric.hpp"
#include "sim/sim_fabric.hpp"

namespace locksim::scenario {
namespace {

std::string outcome_name(model::EventKind kind) {
  switch (kind) {
    case model::EventKind::Ok: return "ok";
    case model::EventKind::Fail: return "fail";
    case model::EventKind::Info: return "unknown";
    default: return "?";
  }
}

// The outcome of the nth `op` of a client thread ("ok", "ok 1" when a value is pinned), or "missing"
// when it never finished.
std::string observed_outcome(const model::EventReading& events, const OpExpectation& pin) {
  int seen = 0;
  while (const auto next = events()) {
    const model::Event& e = *next;
    if (e.process != pin.client || e.thread != pin.thread || e.f != pin.op) continue;
    if (e.kind != model::EventKind::Ok && e.kind != model::EventKind::Fail && e.kind != model::EventKind::Info) continue;
    if (++seen == pin.nth) {
      const std::string outcome = outcome_name(e.kind);
      return pin.value && e.kind == model::EventKind::Ok ? outcome + " " + std::to_string(e.value) : outcome;
    }
  }
  return "missing";
}

std::string expected_outcome(const OpExpectation& pin) {
  return pin.value && pin.result == "ok" ? pin.result + " " + std::to_string(*pin.value) : pin.result;
}

// Why a file's schedule did not replay: its deviations, and the ones this run took instead.
std::string drifted_schedule(const std::vector<std::string>& written, const std::vector<std::string>& took) {
  const auto list = [](const std::vector<std::string>& items) {
    std::string out;
    for (const std::string& item : items) out += (out.empty() ? "" : "; ") + item;
    return out.empty() ? std::string("none") : out;
  };
  return "bounded.choices do not replay the schedule bounded.deviations describes (the file was edited, or this "
         "locksim's choice points differ from those of the search that wrote it): the file's deviations are [" +
         list(written) + "], this run's are [" + list(took) + "]; search again with locksim check --exhaustive";
}

// The scenario's lock, its clients configured for master and replica on each server the scenario
// fails over: such a server has a replica (Redisson's WAIT for replicas,
// RedissonOptions::replicated_servers).
client::LockSpec with_replicas(const Scenario& s) {
  client::LockSpec lock = s.lock;
  for (const auto& e : s.timeline)
    if (e.fault && e.fault->kind == world::FaultKind::Failover && e.fault->server < 32)
      lock.redisson.replicated_servers |= 1u << e.fault->server;
  return lock;
}

void schedule(world::World& w, const TimelineEntry& e) {
  if (e.op) w.op(e.at_ms, e.client, e.thread, *e.op);
  else w.inject(e.at_ms, *e.fault);
}

}  // namespace

bool ScenarioResult::passed() const {
  if (error) return false;
  for (const auto& p : properties)
    if (!p.passed) return false;
  for (const auto& p : pins)
    if (!p.passed) return false;
  return true;
}

std::vector<world::Fault> faults_of(const Scenario& s) {
  std::vector<world::Fault> faults;
  for (const auto& e : s.timeline)
    if (e.fault) faults.push_back(*e.fault);
  return faults;
}

namespace {

// What the result says of the scenario before it runs: its names, lock, faults, clients and backend.
ScenarioResult described(const Scenario& s, const Backend& backend) {
  ScenarioResult result;
  result.file = s.file;
  result.name = s.name;
  result.about = s.about;
  result.lock_type = s.lock.type;
  result.lock_name = s.lock.name;
  if (const model::LockType* type = model::find_lock_type(s.lock.type); type && type->redisson)
    result.redisson = s.lock.redisson_version;
  if (model::is_fair(s.lock.type)) result.thread_wait_ms = s.lock.fair.thread_wait_ms;
  result.seed = s.seed;
  std::set<std::string> faults;
  for (const auto& f : faults_of(s)) faults.emplace(world::fault_name(f));
  for (const auto& f : faults) result.faults += (result.faults.empty() ? "" : ", ") + f;
  for (const auto& c : s.clients) result.clients.push_back(c.name);
  result.backend = backend.live ? "live" : "fake";
  result.time_scale = backend.time_scale;
  return result;
}

// Why the scenario cannot run live, if it cannot: said, never run as if it had been.
std::optional<std::string> live_refusal(const Scenario& s, const Backend& backend) {
  if (!backend.live) return std::nullopt;
  if (s.bounded)
    return "its bounded schedule (choices of latency, order and faults) replays on the simulated servers only";
  for (const auto& f : faults_of(s))
    if (const std::string_view why = world::fault_info(f.kind).not_live; !why.empty())
      return "its " + std::string(world::fault_name(f)) + " fault cannot be acted out live: " + std::string(why);
  return std::nullopt;
}

// The servers it runs on: simulated, or real ones (then the world starts at the real time of day,
// as live clients read it). Null when live servers could not be set up, said in `result`.
std::unique_ptr<world::Fabric> make_fabric(const Scenario& s, const Backend& backend, world::WorldOptions& options,
                                           ScenarioResult& result) {
  if (!backend.live) return std::make_unique<sim::SimFabric>();
  std::unique_ptr<world::Fabric> fabric;
  try {
    fabric = std::make_unique<live::LiveFabric>(*backend.live, live::server_needs(faults_of(s), s.world.servers));
  } catch (const std::exception& ex) {
    result.error = ex.what();
    result.setup_error = true;
    result.interrupted = live::interrupt_requested();
    return nullptr;
  }
  options.epoch_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::system_clock::now().time_since_epoch()).count();
  return fabric;
}

// A bounded run's scheduler: the search's, or the file's own choices replayed into `replay` (their
// deviations are the schedule's cost, the bound it was found under). Null: not a bounded run.
world::ChoiceScheduler* scheduler_for(const Scenario& s, const Backend& backend,
                                      std::optional<world::ChoiceScheduler>& replay) {
  if (backend.live) return nullptr;
  if (backend.scheduler || !s.bounded) return backend.scheduler;
  world::ScheduleBounds bounds = *s.bounded;
  bounds.cost_max = static_cast<int>(std::count_if(s.choices.begin(), s.choices.end(), [](uint32_t c) { return c != 0; }));
  replay.emplace(bounds, s.choices);
  return &*replay;
}

// The lock, the clients and the timeline, into the world.
void set_up(world::World& w, const Scenario& s) {
  w.add_lock(with_replicas(s));
  for (const ClientDecl& c : s.clients) {
    world::ClientProcess& process = w.add_client(c.name);
    process.clock.offset_ms += c.clock_offset_ms;  // beyond what a bounded search chose
    process.clock.drift_ppm = c.drift_ppm;
  }
  for (const auto& e : s.timeline) schedule(w, e);
}

// The same run in one-second steps (run_until(t) then run_until(u) is run_until(u)), each reported,
// and ended at the first step where the world has settled unless the file asked for its run_ms: a
// default minute of real time with nothing left to happen tells nothing. Returns the history's note.
std::string run_live(world::World& w, const Scenario& s, const Backend& backend, ScenarioResult& result) {
  for (int64_t t = std::min<int64_t>(1000, s.run_ms);; t = std::min(t + 1000, s.run_ms)) {
    w.run_until(t);
    if (backend.progress) backend.progress(t, s.run_ms);
    if (t == s.run_ms) return "";
    if (!s.run_ms_given && w.settled()) {
      result.ended_early_ms = t;
      return "ended early, " + std::to_string(s.run_ms - t) +
             " ms before the default run_ms: every client idle, nothing scheduled";
    }
  }
}

// Virtual time is free: the simulated run always lasts run_ms, so its history stays the same. A
// bounded one ends when nothing more can happen, which a search's many runs need.
std::string run_simulated(world::World& w, const Scenario& s, bool bounded) {
  w.run_until(s.run_ms);
  if (bounded && w.now() < s.run_ms)
    return "ended when the world settled, " + std::to_string(s.run_ms - w.now()) + " ms before run_ms";
  return "";
}

// The run itself, its history (or its streamed file) and any error into `result`. False when live
// servers could not be set up: nothing ran.
bool act_out(const Scenario& s, const Backend& backend, ScenarioResult& result) {
  world::WorldOptions options = s.world;
  options.seed = s.seed;
  options.stop_requested = &live::interrupt_requested;
  try {
    const std::unique_ptr<world::Fabric> fabric = make_fabric(s, backend, options, result);
    if (!fabric) return false;
    std::optional<world::ChoiceScheduler> replay;
    world::ChoiceScheduler* scheduler = scheduler_for(s, backend, replay);
    std::ofstream streamed;  // before the world, which writes to it until it is gone
    world::World w(options, *fabric);
    if (!backend.stream_to.empty()) {
      streamed.open(backend.stream_to, std::ios::binary | std::ios::trunc);
      if (!streamed) throw std::runtime_error(backend.stream_to + ": cannot write the history there");
      w.stream_history(streamed);
      result.history_file = backend.stream_to;
    }
    if (scheduler) {
      w.set_scheduler(*scheduler);
      w.stop_when_settled();
      if (backend.observe_steps) w.observe_steps(backend.observe_steps);
    }
    for (const auto& [name, path] : s.script_files) w.scripts().override_with(name, path);
    try {
      set_up(w, s);
      w.finish(backend.live ? run_live(w, s, backend, result) : run_simulated(w, s, scheduler != nullptr), s.lock.type);
      if (replay && s.deviations && replay->deviations() != *s.deviations)
        throw std::runtime_error(drifted_schedule(*s.deviations, replay->deviations()));
    } catch (const std::exception& ex) {
      // What was observed until then is kept.
      result.error = ex.what();
      result.interrupted = live::interrupt_requested();
    }
    // The world ends here: its history is moved out, not copied (streamed: it is the file).
    if (result.history_file) {
      const bool written = streamed.good();
      streamed.close();
      // A write that failed stopped the run (World::record throws); what was written stays the history.
      if (!written || !streamed)
        result.error = "the run stopped: its history could not be written to its file (a full disk or a file size "
                       "limit?); the part written is kept as its history";
    } else {
      result.history = std::move(w.history());
    }
  } catch (const std::exception& ex) {
    result.error = ex.what();
  }
  return true;
}

// The history judged against the file's expectations (every property that applies, without any),
// and the outcomes it pins.
void judge(const Scenario& s, const Backend& backend, ScenarioResult& result) {
  std::vector<std::pair<std::string, std::string>> asked = s.expect;
  if (asked.empty())
    for (const std::string& property : model::applicable_properties(s.lock.type)) asked.emplace_back(property, "");
  std::vector<std::string> names;
  for (const auto& [property, expected] : asked) names.push_back(property);
  // A streamed history is read from its file, twice to judge it and once per pinned outcome.
  const auto readings = result.history_file ? model::file_readings(*result.history_file)
                                            : model::history_readings(result.history);
  std::vector<model::Verdict> verdicts;
  std::vector<std::string> observed;  // each pinned outcome's
  try {
    verdicts = result.history_file ? model::judge_stream(readings, names, s.checker_options)
                                   : model::run_checkers(result.history, names, s.checker_options);
    for (const OpExpectation& pin : s.expect_ops) observed.push_back(observed_outcome(readings(), pin));
  } catch (const std::exception& ex) {
    result.error = ex.what();
    return;
  }
  for (size_t i = 0; i < names.size(); ++i) {
    PropertyResult p;
    p.property = names[i];
    p.expected = asked[i].second;
    p.verdict = verdicts[i];
    p.passed = p.expected.empty() || (p.expected == "holds" && p.verdict.valid == model::Validity::Yes) ||
               (p.expected == "violated" && p.verdict.valid == model::Validity::No);
    const auto& differs = s.live.differs;
    if (backend.live && std::find(differs.begin(), differs.end(), p.property) != differs.end()) {
      p.may_differ = s.live.why;
      p.passed = true;
    }
    result.properties.push_back(std::move(p));
  }
  for (size_t i = 0; i < s.expect_ops.size(); ++i) {
    OpPinResult r{s.expect_ops[i], observed[i], false};
    r.passed = r.observed == expected_outcome(s.expect_ops[i]);
    result.pins.push_back(std::move(r));
  }
}

}  // namespace

ScenarioResult run_scenario(const Scenario& s, const Backend& backend) {
  ScenarioResult result = described(s, backend);
  if (auto refusal = live_refusal(s, backend)) {
    result.skipped = std::move(refusal);
    return result;
  }
  if (!act_out(s, backend, result)) return result;
  // What had not returned by the end, a stopped run's too (its history is what it recorded).
  try {
    result.pending = result.history_file ? model::pending_operations(model::file_readings(*result.history_file)())
                                         : model::pending_operations(result.history);
  } catch (const std::exception&) {
    // An unreadable streamed file is reported below, where it is judged.
  }
  if (!result.error) judge(s, backend, result);
  return result;
}

ScenarioResult run_scenario_file(const std::string& path, const Backend& backend) {
  try {
    Scenario scenario = load_scenario(path, backend.redisson);
    if (backend.time_scale != 1.0) {
      if (const auto refusal = time_scale_refusal(scenario)) {
        ScenarioResult result;
        result.file = path;
        result.name = scenario.name;
        result.about = scenario.about;
        result.lock_type = scenario.lock.type;
        result.seed = scenario.seed;
        result.backend = backend.live ? "live" : "fake";
        result.time_scale = backend.time_scale;
        result.skipped = *refusal;
        return result;
      }
      scenario = scale_times(scenario, backend.time_scale);
    }
    return run_scenario(scenario, backend);
  } catch (const ScenarioError& e) {
    ScenarioResult result;
    result.file = path;
    result.name = std::filesystem::path(path).filename().string();
    result.error = e.what();
    result.bad_input = true;
    return result;
  }
}

}  // namespace locksim::scenario

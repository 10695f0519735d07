#include "explore/hazards.hpp"

#include <algorithm>

#include "model/anomaly.hpp"
#include "model/checker_support.hpp"
#include "model/facts.hpp"
#include "model/fault_events.hpp"
#include "model/lock_types.hpp"
#include "model/working_connection.hpp"
#include "world/fault.hpp"

namespace locksim::explore {
namespace {

world::FaultKind kind_of(const FaultPlan& f, const ExploreConfig& c) {
  return fault_of(f, c)->kind;
}

using Matcher = bool (*)(const FaultPlan&, world::FaultKind, const Plan&, const ExploreConfig&);

bool any_fault(const Plan& p, const ExploreConfig& c, Matcher matches) {
  if (c.faults.empty()) return false;
  return std::any_of(p.faults.begin(), p.faults.end(),
                     [&](const FaultPlan& f) { return matches(f, kind_of(f, c), p, c); });
}

Plan drop_faults(const Plan& p, const ExploreConfig& c, Matcher matches) {
  Plan out = p;
  if (c.faults.empty()) return out;
  std::erase_if(out.faults, [&](const FaultPlan& f) { return matches(f, kind_of(f, c), p, c); });
  return out;
}

bool leased(const Plan& p, const ExploreConfig& c) {
  if (p.endless_leases) return false;
  // A lock with no watchdog holds for a TTL whatever the acquire says (token, SET NX, ...).
  if (!model::find_lock_type(c.lock_type)->watchdog) return true;
  if (!c.leases) return false;
  for (const ClientPlan& client : p.clients)
    for (const SessionPlan& s : client.sessions)
      if (s.leased) return true;
  return false;
}

// The shortest time a hold is sure to outlive its holder's silence: the shortest explicit lease, or
// for the watchdog two thirds of lockWatchdogTimeout (it renews every third, so a pause that starts
// just before a renewal is due leaves the key two thirds of the lease to live), less a second for
// the round trips around the pause (a renewal due as it ends must still reach the server in time).
int64_t shortest_lease(const Plan& p, const ExploreConfig& c) {
  const int64_t watchdog = to_scenario(p, c).lock.redisson.watchdog_timeout_ms;
  int64_t shortest = watchdog - watchdog / 3;
  if (c.leases && !p.endless_leases)
    for (const ClientPlan& client : p.clients)
      for (const SessionPlan& s : client.sessions)
        if (s.leased) shortest = std::min(shortest, s.lease_ms);
  return shortest;
}

// A server answering every command with an error stalls renewals as a stopped one does.
bool stop_kind(world::FaultKind kind) {
  using K = world::FaultKind;
  return kind == K::Pause || kind == K::Partition || kind == K::RedisPause || kind == K::ErrorReply;
}

// How long the renewals of some client stay stopped in one stretch that `f` is part of: stops of
// one client, and the server's (which stop every client's), merged where they overlap or touch.
// Two pauses back to back are one pause as long as both.
int64_t stopped_ms(const FaultPlan& f, const Plan& p, const ExploreConfig& c) {
  const bool on_server = fault_of(f, c)->on_server;
  int64_t longest = f.for_ms;
  for (int client = 0; client < static_cast<int>(p.clients.size()); ++client) {
    if (!on_server && f.client != client) continue;
    std::vector<std::pair<int64_t, int64_t>> stops;
    for (const FaultPlan& g : p.faults) {
      const world::FaultInfo* info = fault_of(g, c);
      if (stop_kind(info->kind) && (info->on_server || g.client == client)) stops.emplace_back(g.at_ms, g.at_ms + g.for_ms);
    }
    std::sort(stops.begin(), stops.end());
    int64_t from = -1, to = -1;
    for (const auto& [a, b] : stops) {
      if (from < 0 || a > to) {
        if (from <= f.at_ms && f.at_ms <= to) longest = std::max(longest, to - from);
        from = a;
        to = b;
      } else {
        to = std::max(to, b);
      }
    }
    if (from <= f.at_ms && f.at_ms <= to) longest = std::max(longest, to - from);
  }
  return longest;
}

bool long_stop(const FaultPlan& f, world::FaultKind kind, const Plan& p, const ExploreConfig& c) {
  return stop_kind(kind) && stopped_ms(f, p, c) >= std::max<int64_t>(0, shortest_lease(p, c) - 1000);
}

bool restart(const FaultPlan&, world::FaultKind kind, const Plan&, const ExploreConfig&) {
  return kind == world::FaultKind::RedisRestart;
}

bool failover(const FaultPlan&, world::FaultKind kind, const Plan&, const ExploreConfig&) {
  return kind == world::FaultKind::Failover;
}

bool skew(const FaultPlan&, world::FaultKind kind, const Plan&, const ExploreConfig&) {
  return kind == world::FaultKind::ClockJump;
}

// Network trouble: what loses, slows, cuts or refuses a client's commands, a paused server or one
// answering errors included (DESIGN.md, "Findings"). A client's pause is not on the network.
bool network_trouble(const FaultPlan&, world::FaultKind kind, const Plan&, const ExploreConfig&) {
  using K = world::FaultKind;
  return kind == K::Loss || kind == K::Delay || kind == K::Partition || kind == K::Reset || kind == K::ErrorReply ||
         kind == K::RedisPause;
}

bool troubled(const Plan& p, const ExploreConfig& c) { return p.loss_per_thousand > 0 || any_fault(p, c, network_trouble); }

Plan untroubled(const Plan& p, const ExploreConfig& c) {
  Plan out = drop_faults(p, c, network_trouble);
  out.loss_per_thousand = 0;
  return out;
}

// The history's fault events that are network trouble for `client`'s commands: on its own link
// (partition, delay, loss, reset) or on a server (paused, answering errors, down).
bool trouble_event(const model::FaultSpan& f, const std::string& client) {
  namespace n = model::fault_name;
  if (f.server) return f.kind == n::kPause || f.kind == n::kErrorReply || f.kind == n::kDown;
  return f.process == client && (f.kind == n::kPartition || f.kind == n::kDelay || f.kind == n::kLoss || f.kind == n::kReset);
}

const model::Evidence* evidence(const model::Verdict& v, std::string_view role) {
  for (const model::Evidence& e : v.evidence)
    if (e.role == role) return &e;
  return nullptr;
}

int64_t figure(const model::Verdict& v, std::string_view name, int64_t otherwise) {
  for (const model::Evidence& e : v.evidence)
    if (e.role == "figure" && e.where == name) return e.number;
  return otherwise;
}

std::string client_of(const std::string& owner) { return owner.substr(0, owner.find(':')); }

// Starved: the free time the waiter suffered outside the trouble (each span of it and one retry
// interval after it) is under the grace. The free time is worked out from the facts without the
// queue's excuses and without the time the waiter's requests were on their way, so it is at least
// what either checker counted (liveness, fair_queue): the bound errs towards a finding. A refusal by
// a key nobody could release counts as free time at its moment.
bool waiter_sat_out_the_trouble(const Violation& v) {
  const model::Evidence* waiter = evidence(*v.verdict, "waiter");
  if (!waiter) waiter = evidence(*v.verdict, "enqueue");
  if (!waiter || waiter->who.empty() || waiter->from_ms < 0) return false;
  const model::Facts& facts = v.facts();
  const model::Op* op = nullptr;
  for (const model::Op& o : facts.ops()) {
    const bool it = o.invoke == waiter->event || std::find(o.execs.begin(), o.execs.end(), waiter->event) != o.execs.end();
    if (it && o.owner == waiter->who) op = &o;
  }
  if (!op) return false;
  const int64_t from = waiter->from_ms;
  const int64_t to = waiter->to_ms >= from ? std::min(waiter->to_ms, facts.end_ms()) : facts.end_ms();
  const std::string client = client_of(waiter->who);
  const int64_t retry = retry_interval_ms(*v.scenario);
  std::vector<model::Span> troubled_spans;
  if (v.scenario->world.link.loss_numerator > 0) troubled_spans.push_back({0, model::kForever, -1, -1});
  for (const model::FaultSpan& f : facts.faults())
    if (trouble_event(f, client))
      troubled_spans.push_back(
          {f.span.from_ms, f.span.to_ms >= model::kForever - retry ? model::kForever : f.span.to_ms + retry, -1, -1});
  std::vector<model::Span> away = facts.unavailable(client);
  const size_t own_away = away.size();
  away.insert(away.end(), troubled_spans.begin(), troubled_spans.end());
  if (const model::Evidence* refusal = evidence(*v.verdict, "refusal")) {
    const int64_t t = refusal->from_ms;
    const bool inside = std::any_of(away.begin() + static_cast<long>(own_away), away.end(),
                                    [&](const model::Span& s) { return s.from_ms <= t && t < s.to_ms; });
    if (!inside) return false;
  }
  std::vector<model::Span> free;
  for (const model::FreeSpan& f : facts.free_spans(*op, from, to)) free.push_back(f.span);
  const int64_t grace = figure(*v.verdict, "grace_ms", 500);
  return model::usable_ms(free, from, to, away) < grace;
}


// Two owners in: the holder whose key expired had less than one renewal period of working
// connection, in one stretch, between the moment its key's last expiry was set and that expiry.
bool holder_cut_off(const Violation& v) {
  const model::Evidence* claim = nullptr;
  for (const model::Evidence& e : v.verdict->evidence)
    if ((e.role == "first_claim" || e.role == "second_claim") && e.state == "expired") {
      claim = &e;
      break;
    }
  if (!claim || claim->from_ms < 0) return false;
  const size_t slash = claim->where.find('/');
  if (slash == std::string::npos) return false;
  const std::string server = claim->where.substr(0, slash), key = claim->where.substr(slash + 1);
  const model::Facts& facts = v.facts();
  const model::KeyTrack* track = facts.key(server, key);
  if (!track) return false;
  const int64_t expiry = claim->from_ms;
  int64_t set_at = -1;  // the first state of the last run of states carrying the hold with that expiry
  for (const model::KeyState& s : track->states) {
    if (s.from_ms > expiry) break;
    const bool carries = s.known && s.present && s.claim_of(claim->who, "") && s.expire_at == expiry;
    if (!carries) set_at = -1;
    else if (set_at < 0) set_at = s.from_ms;
  }
  if (set_at < 0) return false;
  const int64_t period = v.scenario->lock.redisson.watchdog_timeout_ms / 3;
  return model::longest_working_stretch(facts, client_of(claim->who), server, set_at, expiry,
                                        v.scenario->lock.redisson.commands.timeout_ms) < period;
}

constexpr std::string_view kTogether = "hazards-together";

// A restart or failover loses the holds it finds: the hold a violation names (two owners in: the
// first; a lapse: the lapsed one) must have been there when one came. One taken after the last of
// them (#2515: a second thread's lock() after an unlock the restart made fail) it did not lose.
bool a_hold_it_lost(const Violation& v) {
  const model::Evidence* hold = v.verdict->find("first_hold");
  if (!hold) hold = v.verdict->find("hold");
  if (!hold) return true;  // not about a hold: a waiter, a queue
  for (const model::Event& e : v.history->events()) {
    if (e.kind != model::EventKind::Fault) continue;
    const model::FaultEventInfo* info = model::find_fault_event(e.f);
    if (info && info->loses_keys && hold->from_ms <= e.at_ms && (hold->to_ms < 0 || e.at_ms <= hold->to_ms)) return true;
  }
  return false;
}

}  // namespace

// Whether the server had the lease each leased acquire asked for: every one that succeeded left its
// hold, right after its last execution on each key, expiring after that lease (the watchdog's
// lease-mismatch test; at least it in a ReadWriteLock's shared hash), and every lease-less one on a
// one-key lock expiring after the watchdog's timeout. A lease the client did not pass on (#2172's
// -2 ms sub-leases, #5484's seconds read as ms, FencedLock's lockAndGetToken(lease), #4818's and the
// SpinLock's stale lease) is no lease the user chose running out. Where two owners were in at once,
// only the first's acquires count: its hold is the one that ran out (the second's lease, garbled or
// not, did not let it in).
bool leases_reached_the_server(const Violation& v) {
  const model::LockType* type = model::find_lock_type(v.scenario->lock.type);
  if (!type || !type->redisson) return true;  // a lock whose TTL is its own whatever the acquire says
  const model::Facts& facts = v.facts();
  const bool shared = facts.lock_type() && facts.lock_type()->sides;
  const model::Evidence* first = v.verdict ? v.verdict->find("first_hold") : nullptr;
  for (const model::Op& op : facts.ops()) {
    if (!model::support::is_acquire(op.f) || op.result != model::EventKind::Ok) continue;
    if (first && op.owner != first->who) continue;
    // A lease-less acquire asks for the watchdog's lease (the SpinLock's stale lease is not it;
    // MultiLock's and RedLock's lease-less tryLock give their parts twice the wait by design).
    int64_t lease = facts.at(op.invoke).lease_ms;
    if (lease < 0 && type->quorum == model::Quorum::One) lease = v.scenario->lock.redisson.watchdog_timeout_ms;
    if (lease < 0) continue;
    for (const model::KeyTrack* key : facts.parts(op.lock)) {
      int64_t last = -1;
      for (int64_t i : op.execs)
        if (facts.at(i).process == key->server && facts.at(i).lock == key->key) last = i;
      if (last < 0) continue;
      const model::KeyState& s = key->after_event(last);
      if (!s.known || s.expire_at == model::kUnknownExpiry) continue;
      if (!s.present || !s.claim_of(op.owner, op.lock)) return false;  // gone as soon as it was taken
      const int64_t ttl = s.expire_at == model::kNoExpiry ? -1 : s.expire_at - facts.at(last).at_ms;
      if (std::abs(ttl - lease) > model::kTtlPrecisionMs && !(shared && ttl > lease)) return false;
    }
  }
  return true;
}

// Whether a lease shorter than the work can have caused the violation: a lease the server was given
// (above), and a hold that ended too soon. A hold that outlived the lease its owner asked for
// (late-expiry) is the opposite of a lease running out: the lease's rule only goes when the lease
// is taken out (the watchdog renews instead), which says nothing of what kept the key alive.
bool lease_can_cause(const Violation& v) {
  if (v.verdict && v.verdict->anomaly == model::anomaly::kLateExpiry) return false;
  return leases_reached_the_server(v);
}

const std::vector<HazardInfo>& hazards() {
  static const std::vector<HazardInfo> table = {
      {.name = "lease-shorter-than-work",
       .reason = "a lease ran out while its holder still needed the lock (an explicit lease, or the TTL of a lock "
                 "with no watchdog): that is what a lease is (with the watchdog, or a lease that outlasts the "
                 "run, the case holds)",
       .present = leased,
       .without =
           [](const Plan& p, const ExploreConfig& c) {
             Plan out = p;
             if (!model::find_lock_type(c.lock_type)->watchdog) {
               out.endless_leases = true;  // nothing renews: the lease itself must outlast the run
               return out;
             }
             for (ClientPlan& client : out.clients)
               for (SessionPlan& s : client.sessions) s.leased = false;
             return out;
           },
       // Only a lease the server was given: without leases a lease the client dropped or garbled has
       // nothing to garble, but garbling it is the bug, not the configuration. Nor a hold kept too long.
       .excuses = lease_can_cause},
      {.name = "pause-longer-than-lease",
       .reason = "a pause, partition or stalled server (or several back to back) outlasted what the lease guarantees "
                 "(an explicit lease, or the two thirds of the watchdog's between a renewal and the expiry, less a "
                 "second for round trips), so the hold expired: every version loses a lock so (only fencing at the "
                 "resource protects it)",
       .present = [](const Plan& p, const ExploreConfig& c) { return any_fault(p, c, long_stop); },
       .without = [](const Plan& p, const ExploreConfig& c) { return drop_faults(p, c, long_stop); }},
      {.name = "restart-loses-locks",
       .reason = "a Redis restart forgets what it had not persisted: every lock without persistence, the last second's "
                 "with AOF everysec",
       .present = [](const Plan& p, const ExploreConfig& c) { return any_fault(p, c, restart); },
       .without = [](const Plan& p, const ExploreConfig& c) { return drop_faults(p, c, restart); },
       .excuses = a_hold_it_lost},
      {.name = "failover-loses-writes",
       .reason = "a failover promotes a replica that had not received the lock (asynchronous replication; WAIT only "
                 "narrows it)",
       .present = [](const Plan& p, const ExploreConfig& c) { return any_fault(p, c, failover); },
       .without = [](const Plan& p, const ExploreConfig& c) { return drop_faults(p, c, failover); },
       .excuses = a_hold_it_lost},
      {.name = "fair-clock-skew",
       .reason = "FairLock scores waiters by their own clocks: a clock that jumps or is skewed reorders or evicts them",
       .present =
           [](const Plan& p, const ExploreConfig& c) {
             if (!model::is_fair(c.lock_type)) return false;
             const bool offset = std::any_of(p.clients.begin(), p.clients.end(),
                                             [](const ClientPlan& client) { return client.clock_offset_ms != 0; });
             return offset || any_fault(p, c, skew);
           },
       .without =
           [](const Plan& p, const ExploreConfig& c) {
             Plan out = drop_faults(p, c, skew);
             for (ClientPlan& client : out.clients) client.clock_offset_ms = 0;
             return out;
           }},
      {.name = "network-keeps-waiter-out",
       .reason = "network trouble (a lost, delayed, cut-off or refused command, a paused server) kept a waiter from "
                 "a free lock no longer than the trouble and one retry interval of its client after it (its command "
                 "timeout, then its resend): starved says so, but that is how every client lives with an unreliable "
                 "network (without that trouble the case holds)",
       .present = troubled,
       .without = untroubled,
       .anomalies = {model::anomaly::kStarved},
       .bound = waiter_sat_out_the_trouble},
      {.name = "network-cuts-holder-off",
       .reason = "network trouble (a slow or lossy link, a partition, a paused server or one answering errors) left "
                 "the holder less than one renewal period (a third of the watchdog's lease) of working connection "
                 "before its key expired, so no renewal could reach the server: no lock survives that (without that "
                 "trouble the case holds)",
       .present = [](const Plan& p, const ExploreConfig& c) {
         return model::find_lock_type(c.lock_type)->watchdog && troubled(p, c);
       },
       .without = untroubled,
       .anomalies = {model::anomaly::kMutexOverlap, model::anomaly::kWriteOverlap, model::anomaly::kReadWriteOverlap},
       .bound = holder_cut_off},
      // Last: what no one hazard explains but the ones present together do (without_hazards and
      // hazard_of try it by taking away every hazard present that explains the property).
      {.name = std::string_view(kTogether),
       .reason = "only the configuration's hazards together explain it (each alone does not): without all of them, "
                 "the case holds",
       .present = nullptr,
       .without = nullptr},
  };
  return table;
}

const model::Facts& Violation::facts() const {
  if (!learnt) learnt = std::make_shared<const model::Facts>(*history, model::find_lock_type(scenario->lock.type));
  return *learnt;
}

bool HazardInfo::explains(std::string_view anomaly) const {
  return anomalies.empty() || std::find(anomalies.begin(), anomalies.end(), anomaly) != anomalies.end();
}

bool HazardInfo::applies(const Plan& plan, const ExploreConfig& config, const Violation* violation) const {
  if (!present || !present(plan, config)) return false;
  return !bound || (violation && bound(*violation));
}

Plan without_hazards(const Plan& plan, const ExploreConfig& config, std::string_view anomaly, const Violation* violation,
                     std::vector<const HazardInfo*>* removed) {
  Plan out = plan;
  for (const HazardInfo& hazard : hazards()) {
    if (hazard.name == kTogether || !hazard.explains(anomaly) || !hazard.applies(out, config, violation)) continue;
    if (hazard.excuses && violation && !hazard.excuses(*violation)) continue;
    if (removed) removed->push_back(&hazard);
    out = hazard.without(out, config);
  }
  return out;
}

const HazardInfo* hazard_of(const Plan& plan, const ExploreConfig& config, std::string_view anomaly,
                            const std::vector<const HazardInfo*>& removed, const std::function<bool(const Plan&)>& keeps,
                            int* runs) {
  if (removed.size() == 1 && removed.front()->explains(anomaly)) return removed.front();  // its removal is all of them
  if (removed.empty()) return nullptr;
  for (const HazardInfo* hazard : removed) {
    if (!hazard->explains(anomaly)) continue;
    if (runs) ++*runs;
    if (!keeps(hazard->without(plan, config))) return hazard;
  }
  return &hazards().back();  // each alone left it violated; all of them together did not
}

bool within_a_bound(const Plan& plan, const ExploreConfig& config, const Violation& violation) {
  const std::string& anomaly = violation.verdict->anomaly;
  return std::any_of(hazards().begin(), hazards().end(), [&](const HazardInfo& h) {
    return h.bound && h.explains(anomaly) && h.applies(plan, config, &violation);
  });
}

int64_t retry_interval_ms(const scenario::Scenario& s) {
  const model::LockType* type = model::find_lock_type(s.lock.type);
  const client::CommandPolicy& commands = type && type->redisson ? s.lock.redisson.commands : s.lock.polling.commands;
  // 3.48.0 on, a resend waits a jittered delay of at most retry_delay_max_ms (command_policy.hpp).
  const int64_t delay = commands.retry_delay_max_ms > 0 ? commands.retry_delay_max_ms : commands.retry_interval_ms;
  if (type && !type->redisson) return commands.timeout_ms + delay + s.lock.polling.retry_ms;
  // A Redisson waiter's SUBSCRIBE is not resent: lost, it fails the lock() after subscriptionTimeout.
  return std::max(commands.timeout_ms + delay, s.lock.redisson.subscribe_timeout_ms);
}

}  // namespace locksim::explore

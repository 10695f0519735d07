#include "explore/hazards.hpp"

#include <algorithm>

#include "model/anomaly.hpp"
#include "model/lock_types.hpp"
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

bool long_stop(const FaultPlan& f, world::FaultKind kind, const Plan& p, const ExploreConfig& c) {
  using K = world::FaultKind;
  // A server answering every command with an error stalls renewals as a stopped one does.
  return (kind == K::Pause || kind == K::Partition || kind == K::RedisPause || kind == K::ErrorReply) &&
         f.for_ms >= std::max<int64_t>(0, shortest_lease(p, c) - 1000);
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

// What loses, slows, cuts or refuses a client's commands: each costs a waiter a command timeout, a
// retry interval or the delay itself.
bool message_trouble(const FaultPlan&, world::FaultKind kind, const Plan&, const ExploreConfig&) {
  using K = world::FaultKind;
  return kind == K::Loss || kind == K::Delay || kind == K::Partition || kind == K::Reset || kind == K::ErrorReply;
}

constexpr std::string_view kTogether = "hazards-together";

}  // namespace

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
           }},
      {.name = "pause-longer-than-lease",
       .reason = "a pause, partition or stalled server outlasted what the lease guarantees (an explicit lease, or "
                 "the two thirds of the watchdog's between a renewal and the expiry, less a second for round trips), "
                 "so the hold expired: every version loses a lock so (only fencing at the resource protects it)",
       .present = [](const Plan& p, const ExploreConfig& c) { return any_fault(p, c, long_stop); },
       .without = [](const Plan& p, const ExploreConfig& c) { return drop_faults(p, c, long_stop); }},
      {.name = "restart-loses-locks",
       .reason = "a Redis restart forgets what it had not persisted: every lock without persistence, the last second's "
                 "with AOF everysec",
       .present = [](const Plan& p, const ExploreConfig& c) { return any_fault(p, c, restart); },
       .without = [](const Plan& p, const ExploreConfig& c) { return drop_faults(p, c, restart); }},
      {.name = "failover-loses-writes",
       .reason = "a failover promotes a replica that had not received the lock (asynchronous replication; WAIT only "
                 "narrows it)",
       .present = [](const Plan& p, const ExploreConfig& c) { return any_fault(p, c, failover); },
       .without = [](const Plan& p, const ExploreConfig& c) { return drop_faults(p, c, failover); }},
      {.name = "fair-clock-skew",
       .reason = "FairLock scores waiters by their own clocks: a clock that jumps or is skewed reorders or evicts them",
       .present =
           [](const Plan& p, const ExploreConfig& c) {
             if (c.lock_type != "fair") return false;
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
       .reason = "a lost, delayed, cut-off or refused command (loss, delay, partition, reset, error replies) kept a "
                 "waiter from a free lock while it waited for the reply, its command timeout or the retry interval: "
                 "starved says so, but that is how every client lives with an unreliable network (without that "
                 "trouble the case holds)",
       .present = [](const Plan& p, const ExploreConfig& c) { return p.loss_per_thousand > 0 || any_fault(p, c, message_trouble); },
       .without =
           [](const Plan& p, const ExploreConfig& c) {
             Plan out = drop_faults(p, c, message_trouble);
             out.loss_per_thousand = 0;
             return out;
           },
       .anomaly = model::anomaly::kStarved},
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

Plan without_hazards(const Plan& plan, const ExploreConfig& config, std::string_view anomaly, const HazardInfo** present,
                     int* count) {
  Plan out = plan;
  *present = nullptr;
  int n = 0;
  for (const HazardInfo& hazard : hazards()) {
    if (hazard.name == kTogether || !hazard.explains(anomaly) || !hazard.present(out, config)) continue;
    if (!*present) *present = &hazard;
    ++n;
    out = hazard.without(out, config);
  }
  if (count) *count = n;
  return out;
}

const HazardInfo* hazard_of(const Plan& plan, const ExploreConfig& config, std::string_view anomaly,
                            const std::function<bool(const Plan&)>& keeps, int* runs) {
  const HazardInfo* first = nullptr;
  int count = 0;
  without_hazards(plan, config, anomaly, &first, &count);
  if (count <= 1) return first;  // its removal is the removal of them all
  for (const HazardInfo& hazard : hazards()) {
    if (hazard.name == kTogether || !hazard.explains(anomaly) || !hazard.present(plan, config)) continue;
    if (runs) ++*runs;
    if (!keeps(hazard.without(plan, config))) return &hazard;
  }
  return &hazards().back();  // each alone left it violated; all of them together did not
}

}  // namespace locksim::explore

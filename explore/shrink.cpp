#include "explore/shrink.hpp"

#include <map>
#include <type_traits>
#include <string>
#include <vector>

#include "world/fault.hpp"

namespace locksim::explore {
namespace {

// Every field of a plan, in order: two plans with the same key run the same scenario.
std::string key_of(const Plan& p) {
  std::string k = std::to_string(p.world_seed) + (p.endless_leases ? "/endless/" : "/") + std::to_string(p.latency_min_ms) + "/" +
                  std::to_string(p.latency_span_ms) + "/" + std::to_string(p.loss_per_thousand);
  auto add = [&](int64_t v) { k += ',' + std::to_string(v); };
  for (const ClientPlan& c : p.clients) {
    k += "|c";
    add(c.clock_offset_ms);
    for (const SessionPlan& s : c.sessions) {
      k += ";s";
      for (int64_t v : {s.at_ms, int64_t{s.try_lock}, s.wait_ms, int64_t{s.leased}, s.lease_ms, int64_t{s.reentrant},
                        s.work_ms, int64_t{s.writes}, int64_t{s.unlock}, int64_t{s.stray_unlock}, int64_t{s.write_side},
                        int64_t{s.thread}, int64_t{s.partial}, s.partial_work_ms, int64_t{s.deeper}})
        add(v);
    }
  }
  for (const FaultPlan& f : p.faults) {
    k += "|f";
    for (int64_t v : {int64_t{f.kind}, int64_t{f.client}, f.at_ms, f.for_ms, f.extra_ms, f.per_thousand, f.jump_ms,
                      int64_t{f.backward}, f.lag_ms, int64_t{f.aof}, int64_t{f.thread}})
      add(v);
  }
  return k;
}

class Shrinker {
 public:
  Shrinker(const Plan& start, const ExploreConfig& config, const std::function<bool(const Plan&)>& keeps, int runs_max)
      : plan_(start), config_(config), keeps_(keeps), runs_max_(runs_max) {
    seen_[key_of(start)] = true;
  }

  Plan run(ShrinkStats* stats) {
    for (bool changed = true; changed && budget();) {
      changed = false;
      changed |= drop_faults();
      changed |= drop_clients();
      for (size_t c = 0; c < plan_.clients.size(); ++c) changed |= drop_sessions(c);
      changed |= simplify();
    }
    if (stats) *stats = stats_;
    return plan_;
  }

 private:
  bool budget() const { return stats_.runs < runs_max_; }

  // Runs `candidate` (once per distinct plan); adopts it when it keeps the property.
  bool attempt(const Plan& candidate) {
    const std::string key = key_of(candidate);
    const auto known = seen_.find(key);
    bool kept;
    if (known != seen_.end()) {
      kept = known->second;
    } else {
      if (!budget()) return false;
      ++stats_.runs;
      kept = keeps_(candidate);
      seen_.emplace(key, kept);
    }
    if (kept && key != key_of(plan_)) {
      plan_ = candidate;
      ++stats_.accepted;
      return true;
    }
    return false;
  }

  // Drops chunks of a list: halves first, then quarters, ... then single elements, from the back
  // (so that the positions still to try do not move). `drop(plan, first, count)` edits a copy.
  template <typename Drop>
  bool drop_chunks(size_t size, Drop drop) {
    bool changed = false;
    for (size_t chunk = std::max<size_t>(1, size / 2);; chunk /= 2) {
      for (size_t end = size; end > 0 && budget();) {
        const size_t first = end >= chunk ? end - chunk : 0;
        Plan candidate = plan_;
        drop(candidate, first, end - first);
        if (attempt(candidate)) {
          changed = true;
          size -= end - first;
        }
        end = first;
      }
      if (chunk == 1) break;
    }
    return changed;
  }

  bool drop_faults() {
    return drop_chunks(plan_.faults.size(), [](Plan& p, size_t first, size_t count) {
      p.faults.erase(p.faults.begin() + static_cast<long>(first), p.faults.begin() + static_cast<long>(first + count));
    });
  }

  // A client's faults go with it; the clients after it move down, and their faults with them.
  bool drop_clients() {
    if (plan_.clients.size() <= 1) return false;
    return drop_chunks(plan_.clients.size(), [this](Plan& p, size_t first, size_t count) {
      if (count >= p.clients.size()) return;  // a plan keeps one client at least
      p.clients.erase(p.clients.begin() + static_cast<long>(first), p.clients.begin() + static_cast<long>(first + count));
      std::vector<FaultPlan> kept;
      for (FaultPlan f : p.faults) {
        if (!on_client(f)) {
          kept.push_back(f);
          continue;
        }
        const size_t c = static_cast<size_t>(f.client);
        if (c >= first && c < first + count) continue;
        if (c >= first + count) f.client -= static_cast<int>(count);
        kept.push_back(f);
      }
      p.faults = std::move(kept);
    });
  }

  bool drop_sessions(size_t client) {
    if (plan_.clients[client].sessions.size() <= 1) return false;
    return drop_chunks(plan_.clients[client].sessions.size(), [client](Plan& p, size_t first, size_t count) {
      auto& sessions = p.clients[client].sessions;
      if (count >= sessions.size()) return;  // a client keeps one session at least
      sessions.erase(sessions.begin() + static_cast<long>(first), sessions.begin() + static_cast<long>(first + count));
    });
  }

  bool on_client(const FaultPlan& f) const {
    const world::FaultInfo* info = fault_of(f, config_);
    return info && !info->on_server;
  }

  // A flag turned off, where off is the simpler story.
  template <typename Field>
  bool off(Field field) {
    Plan candidate = plan_;
    bool& flag = field(candidate);
    if (!flag) return false;
    flag = false;
    return attempt(candidate);
  }

  // A number moved towards `floor`: the floor itself, else bisection (four runs at most) between
  // the floor and where it is.
  template <typename Field>
  bool lower(Field field, int64_t floor) {
    using Number = std::remove_reference_t<decltype(field(plan_))>;
    const int64_t start = field(plan_);
    if (start <= floor) return false;
    auto with = [&](int64_t v) {
      Plan candidate = plan_;
      field(candidate) = static_cast<Number>(v);
      return attempt(candidate);
    };
    if (with(floor)) return true;
    int64_t lo = floor, hi = start;  // lo loses the property, hi keeps it
    for (int i = 0; i < 4 && hi - lo > 1 && budget(); ++i) {
      const int64_t mid = lo + (hi - lo) / 2;
      if (with(mid)) hi = mid;
      else lo = mid;
    }
    return hi != start;
  }

  bool simplify() {
    bool changed = false;
    changed |= lower([](Plan& p) -> int64_t& { return p.latency_span_ms; }, 0);
    changed |= lower([](Plan& p) -> int64_t& { return p.loss_per_thousand; }, 0);
    changed |= lower([](Plan& p) -> int64_t& { return p.latency_min_ms; }, 1);
    for (size_t f = 0; f < plan_.faults.size(); ++f) {
      auto field = [f](auto member) { return [f, member](Plan& p) -> auto& { return p.faults[f].*member; }; };
      changed |= lower(field(&FaultPlan::at_ms), 0);
      changed |= lower(field(&FaultPlan::for_ms), 100);
      changed |= lower(field(&FaultPlan::extra_ms), 1);
      changed |= lower(field(&FaultPlan::per_thousand), 1);
      changed |= lower(field(&FaultPlan::jump_ms), 1);
      changed |= lower(field(&FaultPlan::lag_ms), 0);
      changed |= lower(field(&FaultPlan::thread), 0);  // interrupt: the first thread
    }
    for (size_t c = 0; c < plan_.clients.size(); ++c) {
      changed |= lower([c](Plan& p) -> int64_t& { return p.clients[c].clock_offset_ms; }, 0);
      for (size_t s = 0; s < plan_.clients[c].sessions.size(); ++s) {
        auto field = [c, s](auto member) {
          return [c, s, member](Plan& p) -> auto& { return p.clients[c].sessions[s].*member; };
        };
        changed |= off(field(&SessionPlan::stray_unlock));
        changed |= off(field(&SessionPlan::reentrant));
        changed |= off(field(&SessionPlan::partial));
        changed |= off(field(&SessionPlan::try_lock));
        changed |= off(field(&SessionPlan::leased));
        changed |= off(field(&SessionPlan::unlock));
        changed |= off(field(&SessionPlan::write_side));
        changed |= lower([c, s](Plan& p) -> int64_t& { return p.clients[c].sessions[s].at_ms; }, 0);
        changed |= lower(field(&SessionPlan::work_ms), 0);
        changed |= lower(field(&SessionPlan::partial_work_ms), 0);
        changed |= lower(field(&SessionPlan::deeper), 0);
        changed |= lower(field(&SessionPlan::wait_ms), 0);
        changed |= lower(field(&SessionPlan::lease_ms), 100);
        changed |= lower(field(&SessionPlan::writes), 0);
        changed |= lower(field(&SessionPlan::thread), 0);
      }
    }
    return changed;
  }

  Plan plan_;
  const ExploreConfig& config_;
  const std::function<bool(const Plan&)>& keeps_;
  int runs_max_;
  ShrinkStats stats_;
  std::map<std::string, bool> seen_;
};

}  // namespace

Plan shrink_plan(const Plan& start, const ExploreConfig& config, const std::function<bool(const Plan&)>& keeps,
                 int runs_max, ShrinkStats* stats) {
  return Shrinker(start, config, keeps, runs_max).run(stats);
}

}  // namespace locksim::explore

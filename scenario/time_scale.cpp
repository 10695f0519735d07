#include "scenario/time_scale.hpp"

#include <cmath>

#include "base/assert.hpp"

namespace locksim::scenario {
namespace {

struct Scaler {
  double factor;
  // Negative values are "none" markers (no lease, wait forever) and stay as they are.
  void operator()(int64_t& ms) const {
    if (ms <= 0) return;
    ms = std::max<int64_t>(1, std::llround(static_cast<double>(ms) * factor));
  }
  // A parameter of a fault, as the fault table says it scales.
  void operator()(world::Fault& f, world::FaultParam param) const {
    const world::Scaling scaling = world::param_info(param).scaling;
    if (scaling == world::Scaling::None) return;
    int64_t* ms = world::duration_of(f, param);
    LS_ASSERT(ms != nullptr);
    switch (scaling) {
      case world::Scaling::None: return;
      case world::Scaling::Duration: (*this)(*ms); return;
      case world::Scaling::SignedDuration:
        if (*ms > 0) (*this)(*ms);
        else if (*ms < 0) *ms = -std::max<int64_t>(1, std::llround(static_cast<double>(-*ms) * factor));
        return;
      case world::Scaling::DurationAtLeast100:
        *ms = std::max<int64_t>(100, std::llround(static_cast<double>(*ms) * factor));
        return;
    }
  }
};

}  // namespace

Scenario scale_story_times(const Scenario& in, double factor) {
  Scenario s = in;
  const Scaler scale{factor};
  for (TimelineEntry& e : s.timeline) {
    scale(e.at_ms);
    if (e.fault)
      for (const world::FaultParam param : world::fault_info(e.fault->kind).params) scale(*e.fault, param);
    if (e.op) {
      scale(e.op->wait_ms);
      scale(e.op->lease_ms);
      // A lease given in seconds stays so only while it is a whole number of them.
      if (e.op->lease_unit_ms > 1 && e.op->lease_ms % e.op->lease_unit_ms != 0) e.op->lease_unit_ms = 1;
      scale(e.op->duration_ms);
    }
  }
  scale(s.run_ms);
  scale(s.default_lease_ms);
  return s;
}

Scenario scale_times(const Scenario& in, double factor) {
  Scenario s = scale_story_times(in, factor);
  const Scaler scale{factor};
  client::RedissonOptions& r = s.lock.redisson;
  scale(r.watchdog_timeout_ms);
  scale(r.subscribe_timeout_ms);
  scale(r.slaves_sync_timeout_ms);
  for (client::CommandPolicy* commands : {&r.commands, &s.lock.polling.commands}) {
    scale(commands->timeout_ms);
    scale(commands->retry_interval_ms);
    scale(commands->retry_delay_max_ms);  // Redisson 3.48.0 on: the jitter's ceiling
  }
  scale(s.lock.fair.thread_wait_ms);
  scale(s.lock.polling.default_lease_ms);
  scale(s.lock.polling.retry_ms);
  scale(s.checker_options.watchdog.watchdog_lease_ms);
  scale(s.checker_options.watchdog.command_timeout_ms);
  scale(s.checker_options.fair_queue.thread_wait_ms);
  return s;
}

std::optional<std::string> time_scale_refusal(const Scenario& s) {
  if (s.live.time_scale) return std::nullopt;
  std::string why = s.live.why;
  while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
  return s.file + ":" + std::to_string(s.live.line) + ": this scenario does not allow --time-scale (live.time_scale: false)" +
         (why.empty() ? "" : ": " + why);
}

}  // namespace locksim::scenario

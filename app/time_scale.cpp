#include "app/time_scale.hpp"

#include <cmath>

namespace locksim::app {
namespace {

struct Scaler {
  double factor;
  // Negative values are "none" markers (no lease, wait forever) and stay as they are.
  void operator()(int64_t& ms) const {
    if (ms <= 0) return;
    ms = std::max<int64_t>(1, std::llround(static_cast<double>(ms) * factor));
  }
};

}  // namespace

Scenario scale_times(const Scenario& in, double factor) {
  Scenario s = in;
  const Scaler scale{factor};
  for (TimelineEntry& e : s.timeline) {
    scale(e.at_ms);
    scale(e.for_ms);
    scale(e.extra_ms);
    scale(e.lag_ms);
    if (e.sentinel) e.down_ms = std::max<int64_t>(100, std::llround(static_cast<double>(e.down_ms) * factor));
    if (e.by_ms > 0) scale(e.by_ms);
    else if (e.by_ms < 0) e.by_ms = -std::max<int64_t>(1, std::llround(static_cast<double>(-e.by_ms) * factor));
    if (e.op) {
      scale(e.op->wait_ms);
      scale(e.op->lease_ms);
      scale(e.op->duration_ms);
    }
  }
  scale(s.run_ms);
  scale(s.default_lease_ms);
  client::RedissonOptions& r = s.lock.redisson;
  scale(r.watchdog_timeout_ms);
  scale(r.subscribe_timeout_ms);
  scale(r.commands.timeout_ms);
  scale(r.commands.retry_interval_ms);
  scale(s.lock.fair.thread_wait_ms);
  scale(s.lock.polling.default_lease_ms);
  scale(s.lock.polling.retry_ms);
  scale(s.checker_options.watchdog.watchdog_lease_ms);
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

}  // namespace locksim::app

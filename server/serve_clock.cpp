#include "server/serve_clock.hpp"

#include "world/choice_scheduler.hpp"

namespace locksim::server {

ServeClock::ServeClock(ClockMode mode, int64_t start_ms) : mode_(mode), started_(std::chrono::steady_clock::now()) {
  start_epoch_ms_ = mode == ClockMode::Virtual
                        ? start_ms
                        : std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::system_clock::now().time_since_epoch())
                              .count();
}

int64_t ServeClock::now_ms() const {
  if (mode_ == ClockMode::Virtual) return start_epoch_ms_ + advanced_ms_ + jumped_ms_;
  // Read whole, not as the start's reading plus the time since: each part would be cut to a
  // millisecond on its own, and the sum fall a millisecond behind the wall clock.
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
             .count() +
         jumped_ms_;
}

int64_t ServeClock::run_ms() const {
  if (mode_ == ClockMode::Virtual) return advanced_ms_;
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started_).count();
}

void ServeClock::advance(int64_t ms) {
  if (mode_ == ClockMode::Virtual && ms > 0) advanced_ms_ += ms;
}

std::string ServeClock::advance_problem(int64_t ms) const {
  if (ms <= world::kClockOffsetMaxMs - run_ms()) return "";
  return "the run's time would pass " + std::to_string(world::kClockOffsetMaxMs) + " ms (about 31 years)";
}

std::string ServeClock::jump_problem(int64_t ms) const {
  // Each within the bound first, so that their sum cannot overflow.
  const bool within = world::clock_offset_problem(ms).empty() && world::clock_offset_problem(jumped_ms_ + ms).empty();
  if (within) return "";
  return "the server's clock would be set off by more than " + std::to_string(world::kClockOffsetMaxMs) +
         " ms (about 31 years) either way";
}

}  // namespace locksim::server

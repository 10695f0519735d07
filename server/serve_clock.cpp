#include "server/serve_clock.hpp"

namespace locksim::server {

ServeClock::ServeClock(ClockMode mode, int64_t start_ms) : mode_(mode), started_(std::chrono::steady_clock::now()) {
  start_epoch_ms_ = mode == ClockMode::Virtual
                        ? start_ms
                        : std::chrono::duration_cast<std::chrono::milliseconds>(
                              std::chrono::system_clock::now().time_since_epoch())
                              .count();
}

int64_t ServeClock::run_ms() const {
  if (mode_ == ClockMode::Virtual) return advanced_ms_;
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started_).count();
}

void ServeClock::advance(int64_t ms) {
  if (mode_ == ClockMode::Virtual && ms > 0) advanced_ms_ += ms;
}

}  // namespace locksim::server

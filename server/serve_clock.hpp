#pragma once
// The served engine's clock: the machine's real time, or a virtual one that moves only when told
// (DEBUG SLEEP, LOCKSIM.CLOCK ADVANCE), so a test can let a 30 s lease run out at once. A clock
// jump shifts what the server reads, not the run's own time that the history is kept in.
#include <chrono>
#include <cstdint>
#include <string>

#include "server/serve_options.hpp"

namespace locksim::server {

class ServeClock {
 public:
  ServeClock(ClockMode mode, int64_t start_ms);

  ClockMode mode() const { return mode_; }
  // What the server's clock reads, in ms since the epoch: the machine's wall clock (as Redis's
  // mstime reads it, so that a client's PXAT lands where it meant), or the virtual one; plus jumps.
  int64_t now_ms() const;
  // The run's own time: ms since serve started (real), or advanced so far (virtual).
  int64_t run_ms() const;
  // Virtual: time moves on by `ms`. Real: nothing (the world's time cannot be moved).
  void advance(int64_t ms);
  // The server's clock jumps by `ms` (negative: backwards); the run's time does not.
  void jump(int64_t ms) { jumped_ms_ += ms; }
  // Why moving the clock so is refused ("" it is not): a run's time advanced, or the clock's jumps
  // added up, past world::kClockOffsetMaxMs (~31 years) either way, where a reading could overflow.
  std::string advance_problem(int64_t ms) const;
  std::string jump_problem(int64_t ms) const;

 private:
  ClockMode mode_;
  int64_t start_epoch_ms_;
  std::chrono::steady_clock::time_point started_;
  int64_t advanced_ms_ = 0;
  int64_t jumped_ms_ = 0;
};

}  // namespace locksim::server

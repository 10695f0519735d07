// ServeClock: the real clock reads the machine's wall clock whole, as Redis's mstime does, so that a
// client's absolute time (PXAT, EXAT) lands where the client meant; the run's own time is steady.
#include <gtest/gtest.h>

#include <chrono>

#include "server/serve_clock.hpp"

namespace locksim::server {
namespace {

int64_t wall_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

TEST(ServeClock, TheRealClockIsTheWallClockToTheMillisecondPlusItsJumps) {
  ServeClock clock(ClockMode::Real, 0);
  // Readings over 20 ms: a clock made of two truncated parts (start + elapsed) falls a millisecond
  // behind for part of every millisecond, which one reading may miss.
  for (const int64_t until = wall_ms() + 20; wall_ms() < until;) {
    const int64_t before = wall_ms();
    const int64_t read = clock.now_ms();
    const int64_t after = wall_ms();
    ASSERT_LE(before, read);
    ASSERT_LE(read, after);
  }
  clock.jump(-5000);
  const int64_t before = wall_ms();
  const int64_t read = clock.now_ms();
  EXPECT_LE(before - 5000, read);
  EXPECT_LE(read, wall_ms() - 5000);
}

TEST(ServeClock, TheVirtualClockMovesOnlyWhenTold) {
  ServeClock clock(ClockMode::Virtual, 1'700'000'000'000);
  EXPECT_EQ(clock.now_ms(), 1'700'000'000'000);
  clock.advance(250);
  clock.jump(-50);
  EXPECT_EQ(clock.now_ms(), 1'700'000'000'200);
  EXPECT_EQ(clock.run_ms(), 250);
}

}  // namespace
}  // namespace locksim::server

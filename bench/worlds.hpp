#pragma once
// The worlds the benchmarks time, set up in one place so that the history-digest test
// (verify/property/history_digests_test.cpp) runs exactly what the benchmarks run.
#include <cstdint>
#include <string>
#include <vector>

#include "client/lock_spec.hpp"
#include "sim/simulation.hpp"
#include "world/world.hpp"

namespace locksim::bench {

// The standard contention world: 8 clients on one RLock "orders" with the watchdog (no lease), each
// thread looping lock(), work 50 ms, unlock(), think 50 ms, topped up every 10 simulated seconds so
// that no thread runs dry before `run_ms`. Returns the clients' names. `lock` puts another lock
// (its type and options; its name is the world's) in the RLock's place, for tests.
constexpr int64_t kStandardRunMs = 10 * 60 * 1000;
std::vector<std::string> set_up_standard_contention(world::World& world, int64_t run_ms = kStandardRunMs,
                                                    client::LockSpec lock = {});

// Whether a client of the standard world ran out of queued operations (a top-up too small).
bool any_ran_dry(world::World& world, const std::vector<std::string>& clients);

// The lock loops of the fake-vs-live benchmark: `clients` clients on one RLock "orders" with the
// watchdog, each looping lock(), unlock() `pairs_per_client` times with no work between, all queued
// for time 0. Returns the clients' names.
std::vector<std::string> set_up_lock_loops(world::World& world, int clients, int64_t pairs_per_client);

// Whether every client thread of the lock loops has done all its operations.
bool all_idle(world::World& world, const std::vector<std::string>& clients);

// Runs the world in steps of `step_ms` until every client thread has done all its operations or
// the clock reaches `cap_ms`; whether they all finished. The first step runs the time-0 events
// that start the threads.
bool run_until_idle(world::World& world, const std::vector<std::string>& clients, int64_t step_ms, int64_t cap_ms);

// Options of the lock-loop worlds: links of exactly 1 ms on the fake (the least a simulated world
// allows), none emulated on a live one (whose clients read the real time of day).
world::WorldOptions lock_loop_options(bool live);

}  // namespace locksim::bench

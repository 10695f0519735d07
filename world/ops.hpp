#pragma once
// OpSpec: what a client thread can be told to do, the vocabulary scenario files and generators
// share. Built with the named constructors, so that no two same-typed durations can swap.
#include <cstdint>
#include <string>
#include <string_view>

namespace locksim::world {

struct OpSpec {
  enum class Kind { Lock, TryLock, Unlock, ForceUnlock, Work, Write, IsLocked, IsHeld };
  Kind kind = Kind::Lock;
  std::string lock{};
  int64_t wait_ms = -1;     // TryLock: -1 is tryLock(-1, lease), Redisson's "no wait" (MultiLock, RedLock)
  int64_t lease_ms = -1;    // Lock, TryLock: -1 = no lease
  int64_t lease_unit_ms = 1;  // Lock, TryLock: the unit the lease was given in (1000: lock(5, SECONDS))
  int64_t duration_ms = 0;  // Work

  static OpSpec lock_op(std::string lock, int64_t lease_ms = -1) {
    return {.kind = Kind::Lock, .lock = std::move(lock), .lease_ms = lease_ms};
  }
  static OpSpec try_lock(std::string lock, int64_t wait_ms, int64_t lease_ms = -1) {
    return {.kind = Kind::TryLock, .lock = std::move(lock), .wait_ms = wait_ms, .lease_ms = lease_ms};
  }
  static OpSpec unlock(std::string lock) { return {.kind = Kind::Unlock, .lock = std::move(lock)}; }
  static OpSpec force_unlock(std::string lock) { return {.kind = Kind::ForceUnlock, .lock = std::move(lock)}; }
  static OpSpec work(int64_t duration_ms) { return {.kind = Kind::Work, .duration_ms = duration_ms}; }
  static OpSpec write(std::string lock) { return {.kind = Kind::Write, .lock = std::move(lock)}; }
  static OpSpec is_locked(std::string lock) { return {.kind = Kind::IsLocked, .lock = std::move(lock)}; }
  static OpSpec is_held(std::string lock) { return {.kind = Kind::IsHeld, .lock = std::move(lock)}; }
};

// The op's name in scenario files and histories ("try_lock").
constexpr std::string_view op_name(OpSpec::Kind kind) {
  switch (kind) {
    case OpSpec::Kind::Lock: return "lock";
    case OpSpec::Kind::TryLock: return "try_lock";
    case OpSpec::Kind::Unlock: return "unlock";
    case OpSpec::Kind::ForceUnlock: return "force_unlock";
    case OpSpec::Kind::Work: return "work";
    case OpSpec::Kind::Write: return "write";
    case OpSpec::Kind::IsLocked: return "is_locked";
    case OpSpec::Kind::IsHeld: return "is_held";
  }
  return "?";
}

}  // namespace locksim::world

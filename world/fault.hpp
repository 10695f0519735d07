#pragma once
// Fault: something that goes wrong in a run, at a time: to a client (its process, its link, its
// clock) or to a Redis server. One type, and one table of the kinds (name, target, parameters,
// whether it lasts) that scenario files, exploration, time scaling and the runner all read. The
// world acts each one out (World::inject), a server's through its fabric, and records it with the
// fault events of model/fault_events.hpp.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "world/time_limits.hpp"

namespace locksim::world {

enum class Persistence { None, AofEverySec };

enum class FaultKind : uint8_t {
  Crash,
  Pause,
  Partition,
  Delay,
  Loss,
  ClockJump,
  RedisRestart,
  Failover,
  RedisPause,
  ErrorReply,
  Reset,
  Interrupt,
};

// A fault's parameters, each named in scenario files as FaultParamInfo::key says.
enum class FaultParam : uint8_t { ForMs, ExtraMs, PerThousand, ByMs, LagMs, Via, DownMs, Persistence, Server, Text, Thread };

// What an error_reply answers when its scenario names no text: Redis 7.0's reply to every command while
// a script runs past busy-reply-threshold (server.c, shared.slowevalerr).
inline constexpr std::string_view kBusyScriptError =
    "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.";

struct Fault {
  FaultKind kind = FaultKind::Crash;
  std::string client{};          // a client's fault: whose
  int server = 0;                // a server's fault: which (0 .. servers - 1)
  int64_t for_ms = 0;            // a lasting fault: how long
  int64_t extra_ms = 0;          // delay: added to every message
  uint64_t per_thousand = 1000;  // loss: how many messages in a thousand are lost
  int64_t by_ms = 0;             // clock_jump: how far (negative: backwards)
  int64_t lag_ms = 0;            // failover: how far behind its master the promoted replica is
  bool sentinel = false;         // failover via Sentinel: the master dies, and its (following)
  int64_t down_ms = 1000;        // replica is promoted this much later
  Persistence persistence = Persistence::None;  // redis_restart: what survives it
  std::string text{kBusyScriptError};           // error_reply: the error line, code first
  int64_t thread = 1;                           // interrupt: which of the client's threads
  bool operator==(const Fault&) const = default;
};

struct FaultInfo {
  FaultKind kind = FaultKind::Crash;
  std::string_view name{};           // in scenario files and explore --faults
  bool on_server = false;            // a server's fault (else a client's)
  std::vector<FaultParam> params{};  // in the order scenario files write them
  std::string_view about{};
  // Explore draws it when asked for `--faults all` (and the tests' every-kind configurations). Kinds
  // added later are opt-in by name, so that the fault plans every seed drew before stay the same.
  bool drawn_by_all = true;
  // Why a live run cannot act it out ("" when it can): such a scenario is skipped live, with this.
  std::string_view not_live{};
  // Why `locksim serve` cannot act it out on a real client ("" when it can): LOCKSIM.FAULT says so.
  std::string_view not_served{};

  bool takes(FaultParam p) const;
  // Ends by itself after for_ms.
  bool lasts() const { return takes(FaultParam::ForMs); }
};

// How time scaling treats a parameter.
enum class Scaling : uint8_t { None, Duration, SignedDuration, DurationAtLeast100 };

struct FaultParamInfo {
  FaultParam param = FaultParam::ForMs;
  std::string_view key{};  // its name in a scenario file's timeline step
  Scaling scaling = Scaling::None;
  // A number's range, as every way in checks it (world/fault_param_reader.hpp); max_means says in
  // words what the largest is. A word's choices instead, the first being the default.
  int64_t min = 0;
  int64_t max = 0;
  std::string_view max_means{};
  std::vector<std::string_view> choices{};
};

const std::vector<FaultInfo>& fault_kinds();
const FaultInfo& fault_info(FaultKind kind);
// nullptr for a name the table does not have.
const FaultInfo* find_fault(std::string_view name);
// "crash, pause, ... or redis_pause", for messages.
std::string fault_list();
// Every kind's name, in the table's order.
std::vector<std::string> fault_names();
// The names of the kinds `--faults all` draws (drawn_by_all), in the table's order.
std::vector<std::string> drawn_fault_names();

const std::vector<FaultParamInfo>& fault_params();
const FaultParamInfo& param_info(FaultParam param);
// "redis_restart, redis_pause and failover": the kinds that take `param`, for messages.
std::string kinds_taking(FaultParam param);

// The field of `fault` that holds the duration `param` (ms); nullptr for a parameter that is not one.
int64_t* duration_of(Fault& fault, FaultParam param);

// The fault's name ("redis_pause").
std::string_view fault_name(const Fault& fault);

}  // namespace locksim::world

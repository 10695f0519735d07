#include "world/fault.hpp"

#include <algorithm>

#include "base/assert.hpp"

namespace locksim::world {
namespace {

std::string join_names(const std::vector<std::string_view>& names, const char* last) {
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) out += i + 1 == names.size() ? last : ", ";
    out += names[i];
  }
  return out;
}

}  // namespace

bool FaultInfo::takes(FaultParam p) const { return std::find(params.begin(), params.end(), p) != params.end(); }

const std::vector<FaultInfo>& fault_kinds() {
  using P = FaultParam;
  static const std::vector<FaultInfo> table = {
      {FaultKind::Crash, "crash", false, {}, "the client process dies: its coroutines and connections go", true, "",
       "a real client's process is not the server's to kill: close its connections with reset, or kill it yourself"},
      {FaultKind::Pause, "pause", false, {P::ForMs}, "the client stops (a GC pause): nothing of it runs, then it catches up",
       true, "",
       "a real client's process is not the server's to stop: stop it yourself (SIGSTOP), or let its lease run out "
       "with clock_jump or LOCKSIM.CLOCK ADVANCE"},
      {FaultKind::Partition, "partition", false, {P::ForMs}, "the client's link drops every message"},
      {FaultKind::Delay, "delay", false, {P::ForMs, P::ExtraMs}, "every message on the client's link takes extra_ms longer"},
      {FaultKind::Loss, "loss", false, {P::ForMs, P::PerThousand}, "the client's link loses per_thousand messages in a thousand"},
      {FaultKind::ClockJump, "clock_jump", false, {P::ByMs}, "the client's clock jumps by by_ms"},
      {FaultKind::RedisRestart, "redis_restart", true, {P::Persistence, P::Server},
       "the server restarts, empty or from its AOF (fsynced every second)"},
      {FaultKind::Failover, "failover", true, {P::LagMs, P::Via, P::DownMs, P::Server},
       "the server's replica, lag_ms behind, is promoted (via: sentinel: its master dies first)"},
      {FaultKind::RedisPause, "redis_pause", true, {P::ForMs, P::Server}, "the server stops (SIGSTOP) and then catches up"},
      {FaultKind::ErrorReply, "error_reply", true, {P::ForMs, P::Text, P::Server},
       "the server answers every command at once with the error `text` (default: BUSY) and runs none", false,
       "a real redis-server cannot be made to answer every command with a chosen error"},
      {FaultKind::Reset, "reset", false, {},
       "the client's connections close: what it has in flight fails at once; it reconnects and resubscribes",
       false},
      {FaultKind::Interrupt, "interrupt", false, {P::Thread},
       "a thread of the client is interrupted (Thread.interrupt()): the acquire it waits in ends at once, and an "
       "attempt on its way goes on without it",
       false, "a live run's threads are locksim's own coroutines, not a JVM's: only the simulated world interrupts one",
       "a real client's threads are not the server's to interrupt"},
  };
  return table;
}

const FaultInfo& fault_info(FaultKind kind) {
  for (const FaultInfo& info : fault_kinds())
    if (info.kind == kind) return info;
  LS_ASSERT(false);
  return fault_kinds().front();
}

const FaultInfo* find_fault(std::string_view name) {
  for (const FaultInfo& info : fault_kinds())
    if (info.name == name) return &info;
  return nullptr;
}

std::string fault_list() {
  std::vector<std::string_view> names;
  for (const FaultInfo& info : fault_kinds()) names.push_back(info.name);
  return join_names(names, " or ");
}

std::vector<std::string> fault_names() {
  std::vector<std::string> names;
  for (const FaultInfo& info : fault_kinds()) names.emplace_back(info.name);
  return names;
}

std::vector<std::string> drawn_fault_names() {
  std::vector<std::string> names;
  for (const FaultInfo& info : fault_kinds())
    if (info.drawn_by_all) names.emplace_back(info.name);
  return names;
}

const std::vector<FaultParamInfo>& fault_params() {
  // by_ms is checked against the clock's own bound (clock_offset_problem), server against the
  // scenario's servers, text by the shape of an error line.
  static const std::vector<FaultParamInfo> table = {
      {FaultParam::ForMs, "for_ms", Scaling::Duration, 0, kRunMsMax, "about 11.6 days, the longest run"},
      {FaultParam::ExtraMs, "extra_ms", Scaling::Duration, 0, kDurationMsMax, "about 31 years"},
      {FaultParam::PerThousand, "per_thousand", Scaling::None, 0, 1000},
      {FaultParam::ByMs, "by_ms", Scaling::SignedDuration},
      {FaultParam::LagMs, "lag_ms", Scaling::Duration, 0, kDurationMsMax, "about 31 years"},
      {FaultParam::Via, "via", Scaling::None, 0, 0, "", {"direct", "sentinel"}},
      // Sentinel's own clock ticks in 100 ms: a shorter down-after cannot be acted out.
      {FaultParam::DownMs, "down_ms", Scaling::DurationAtLeast100, 0, kDurationMsMax, "about 31 years"},
      {FaultParam::Persistence, "persistence", Scaling::None, 0, 0, "", {"none", "aof"}},
      {FaultParam::Server, "server", Scaling::None, 0, 1'000'000},
      {FaultParam::Text, "text", Scaling::None},
      {FaultParam::Thread, "thread", Scaling::None, 1, 1'000'000},
  };
  return table;
}

const FaultParamInfo& param_info(FaultParam param) {
  for (const FaultParamInfo& info : fault_params())
    if (info.param == param) return info;
  LS_ASSERT(false);
  return fault_params().front();
}

std::string kinds_taking(FaultParam param) {
  std::vector<std::string_view> names;
  for (const FaultInfo& info : fault_kinds())
    if (info.takes(param)) names.push_back(info.name);
  return join_names(names, " and ");
}

int64_t* duration_of(Fault& fault, FaultParam param) {
  switch (param) {
    case FaultParam::ForMs: return &fault.for_ms;
    case FaultParam::ExtraMs: return &fault.extra_ms;
    case FaultParam::ByMs: return &fault.by_ms;
    case FaultParam::LagMs: return &fault.lag_ms;
    case FaultParam::DownMs: return &fault.down_ms;
    default: return nullptr;
  }
}

std::string_view fault_name(const Fault& fault) { return fault_info(fault.kind).name; }

}  // namespace locksim::world

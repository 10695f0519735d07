#include "model/fault_events.hpp"

namespace locksim::model {

const std::vector<FaultEventInfo>& fault_events() {
  using namespace fault_name;
  static const std::vector<FaultEventInfo> table = {
      {.name = kCrash, .about = "a client process dies", .forever = true, .away = true},
      {.name = kPause, .about = "a process stops (a GC pause, SIGSTOP) and later resumes", .timed = true,
       .ended_by = kResume, .away = true, .disturbs_client = true, .disturbs_server = true},
      {.name = kResume, .about = "a paused process goes on", .ends = true},
      {.name = kPartition, .about = "a client's link drops every message", .timed = true, .ended_by = kHeal,
       .away = true, .disturbs_client = true},
      {.name = kHeal, .about = "a partition ends", .ends = true},
      {.name = kDelay, .about = "a client's messages take longer", .timed = true, .disturbs_client = true},
      {.name = kLoss, .about = "a client's messages are lost at a rate", .timed = true, .disturbs_client = true},
      {.name = kClockJump, .about = "a client's clock jumps"},
      {.name = kRestart, .about = "a server restarts, keeping what its AOF had, if any", .disturbs_server = true,
       .loses_keys = true, .marks_server = true},
      {.name = kFailover, .about = "a server's replica becomes its master", .disturbs_server = true,
       .loses_keys = true, .marks_server = true},
      {.name = kDown, .about = "a master dies until its replica is promoted", .open = true, .ended_by = kFailover,
       .away = true, .disturbs_server = true, .marks_server = true},
      {.name = kErrorReply, .about = "a server answers every command with an error (its text) and runs none",
       .timed = true, .disturbs_server = true, .marks_server = true, .shows_text = true},
      {.name = kReset, .about = "a client's connections close: its requests in flight fail, it reconnects",
       .disturbs_client = true},
      // Its value is the thread. It disturbs nothing: what it does to an acquire is the client's.
      {.name = kInterrupt, .about = "a client thread is interrupted (Thread.interrupt())", .shows_text = true},
  };
  return table;
}

const FaultEventInfo* find_fault_event(std::string_view name) {
  for (const FaultEventInfo& info : fault_events())
    if (info.name == name) return &info;
  return nullptr;
}

}  // namespace locksim::model

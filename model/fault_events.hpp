#pragma once
// The fault events of a history (EventKind::Fault; the event's f names it), in one table: how long
// each lasts, what ends it, and what it does to the process it names. The world writes them
// (world/fault.hpp says which fault kind writes which); the facts and the checkers read what a
// fault explains from here, never from a list of names of their own.
#include <string_view>
#include <vector>

namespace locksim::model {

struct FaultEventInfo {
  std::string_view name{};
  std::string_view about{};
  // Lasts its for_ms when recorded; without one it lasts until `ended_by` (pause, partition), and
  // `open` ones (a master down) always last until then.
  bool timed = false;
  bool open = false;
  std::string_view ended_by{};  // the event that ends it ("" none)
  bool ends = false;          // an end marker (resume, heal): no span of its own
  bool forever = false;       // lasts to the end of the run (a client's crash)
  bool away = false;          // its process can neither act nor answer meanwhile
  // A client's fault that slows or stops its messages: explains a lapse of the client's renewals.
  bool disturbs_client = false;
  // A server's fault that stops or rewinds it: explains a lapse of a key on that server.
  bool disturbs_server = false;
  bool loses_keys = false;    // the server's keys after it are unknown until seen again
  bool marks_server = false;  // only a server records it
  bool shows_text = false;    // its text (the error an error_reply answers) belongs in explanations
};

const std::vector<FaultEventInfo>& fault_events();
// nullptr for a name the table does not have (a history from elsewhere may carry one).
const FaultEventInfo* find_fault_event(std::string_view name);

// The names, for the writers' and readers' comparisons.
namespace fault_name {
inline constexpr std::string_view kCrash = "crash";
inline constexpr std::string_view kPause = "pause";
inline constexpr std::string_view kResume = "resume";
inline constexpr std::string_view kPartition = "partition";
inline constexpr std::string_view kHeal = "heal";
inline constexpr std::string_view kDelay = "delay";
inline constexpr std::string_view kLoss = "loss";
inline constexpr std::string_view kClockJump = "clock_jump";
inline constexpr std::string_view kRestart = "restart";
inline constexpr std::string_view kFailover = "failover";
inline constexpr std::string_view kDown = "down";
inline constexpr std::string_view kErrorReply = "error_reply";
inline constexpr std::string_view kReset = "reset";
inline constexpr std::string_view kInterrupt = "interrupt";
}  // namespace fault_name

}  // namespace locksim::model

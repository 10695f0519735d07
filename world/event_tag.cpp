#include "world/event_tag.hpp"

namespace locksim::world {

std::string_view to_string(EventKind kind) {
  switch (kind) {
    case EventKind::TimelineOp: return "timeline-op";
    case EventKind::TimelineFault: return "timeline-fault";
    case EventKind::ThreadNext: return "thread-next";
    case EventKind::FaultEnd: return "fault-end";
    case EventKind::ClientResume: return "client-resume";
    case EventKind::Timer: return "timer";
    case EventKind::Request: return "request";
    case EventKind::RequestHeld: return "request-held";
    case EventKind::ReplyHeld: return "reply-held";
    case EventKind::Reply: return "reply";
    case EventKind::Delivery: return "delivery";
    case EventKind::ServerChange: return "server-change";
    case EventKind::Retry: return "retry";
    case EventKind::Interrupt: return "interrupt";
    case EventKind::Test: return "test";
  }
  return "?";
}

}  // namespace locksim::world

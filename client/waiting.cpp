#include "client/waiting.hpp"

namespace locksim::client {

std::string_view to_string(Waiting::Phase phase) {
  switch (phase) {
    case Waiting::Phase::Acquiring: return "acquiring";
    case Waiting::Phase::Subscribing: return "subscribing";
    case Waiting::Phase::Listening: return "listening";
    case Waiting::Phase::Relistening: return "relistening";
    case Waiting::Phase::Sleeping: return "sleeping";
    case Waiting::Phase::Leaving: return "leaving";
    case Waiting::Phase::Finishing: return "finishing";
  }
  return "?";
}

}  // namespace locksim::client

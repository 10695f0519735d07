#pragma once
// Unit-test harness for engine families: an engine on a manual clock whose host records every
// KeyEvent, so that tests see what only the engine knows (exact expiry times, events, deletions).
#include <gtest/gtest.h>

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "engine/engine.hpp"

namespace locksim::engine {

struct RecordedEvent {
  KeyEvent event;
  std::string key;
  int64_t expire_at_ms;
  bool operator==(const RecordedEvent&) const = default;
};

inline std::ostream& operator<<(std::ostream& os, const RecordedEvent& e) {
  static constexpr const char* kNames[] = {"Created", "ExpireSet", "Persisted", "Deleted", "Expired"};
  return os << kNames[static_cast<int>(e.event)] << "(" << e.key << ", " << e.expire_at_ms << ")";
}

class RecordingHost : public ManualHost {
 public:
  void key_event(KeyEvent event, std::string_view key, int64_t expire_at_ms) override {
    events.push_back({event, std::string(key), expire_at_ms});
  }
  std::vector<RecordedEvent> events;
};

class EngineTest : public ::testing::Test {
 protected:
  static constexpr int64_t kStartMs = 1700000000000;

  Reply run(std::initializer_list<std::string_view> argv) { return engine_.execute(session_, argv); }
  // The events recorded since the last call.
  std::vector<RecordedEvent> take_events() { return std::exchange(host_.events, {}); }
  bool stored(std::string_view key) { return engine_.keyspace().entries().contains(key); }
  int64_t now() { return host_.now_ms(); }

  static Reply integer(int64_t v) { return Reply::integer_of(v); }
  static Reply bulk(std::string_view s) { return Reply::bulk(s); }
  static Reply error(std::string_view s) { return Reply::error(s); }
  static Reply bulks(std::initializer_list<std::string_view> items) {
    Reply reply = Reply::array();
    for (auto item : items) reply.elements.push_back(Reply::bulk(item));
    return reply;
  }

  RecordingHost host_;
  Engine engine_{host_};
  SessionId session_ = engine_.open_session();
};

inline constexpr std::string_view kWrongType = "WRONGTYPE Operation against a key holding the wrong kind of value";

}  // namespace locksim::engine

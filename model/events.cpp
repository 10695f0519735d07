#include "model/events.hpp"

#include <utility>

namespace locksim::model {

std::string server_name(int server) { return "redis" + std::to_string(server); }

Event op_event(EventKind kind, int64_t thread, int64_t op, std::string lock, std::string f) {
  Event e;
  e.kind = kind;
  e.thread = thread;
  e.op = op;
  e.lock = std::move(lock);
  e.f = std::move(f);
  return e;
}

Event renew_event(int64_t thread, std::string lock, int64_t value, std::string why) {
  Event e;
  e.kind = EventKind::Renew;
  e.thread = thread;
  e.lock = std::move(lock);
  e.f = "renew";
  e.value = value;
  e.text = std::move(why);
  return e;
}

Event crash_release(std::string client, int64_t thread, std::string lock) {
  Event e;
  e.kind = EventKind::Release;
  e.process = std::move(client);
  e.thread = thread;
  e.lock = std::move(lock);
  e.f = "crash";
  e.value = 0;
  return e;
}

Event fault_event(std::string process, std::string_view f, int64_t value, int64_t for_ms, std::string text) {
  Event e;
  e.kind = EventKind::Fault;
  e.process = std::move(process);
  e.f = std::string(f);
  e.value = value;
  e.for_ms = for_ms;
  e.text = std::move(text);
  return e;
}

Event key_event(std::string server, std::string key, std::string f, int64_t expire_at_ms) {
  Event e;
  e.kind = EventKind::Key;
  e.process = std::move(server);
  e.lock = std::move(key);
  e.f = std::move(f);
  e.value = expire_at_ms;
  return e;
}

Event message_event(std::string client, Atom channel, std::string_view f) {
  Event e;
  e.kind = EventKind::Message;
  e.process = std::move(client);
  e.lock = std::move(channel);
  e.f = std::string(f);
  return e;
}

Event lost_message(std::string what) {
  Event e;
  e.kind = EventKind::Message;
  e.f = "lost";
  e.text = std::move(what);
  return e;
}

Event write_event(std::string client, int64_t thread, std::string resource, bool accepted, int64_t token) {
  Event e;
  e.kind = EventKind::Write;
  e.process = std::move(client);
  e.thread = thread;
  e.lock = std::move(resource);
  e.f = accepted ? "accepted" : "rejected";
  e.value = token;
  return e;
}

Event end_event() {
  Event e;
  e.kind = EventKind::End;
  e.process = "world";
  return e;
}

Event exec_event(Execution x) {
  Event e;
  e.kind = EventKind::Exec;
  e.process = server_name(x.server);
  e.thread = x.thread;
  e.op = x.op;
  e.lock = std::move(x.lock);
  e.f = std::move(x.role);
  e.text = std::move(x.command);
  e.reply = std::move(x.reply);
  e.before = std::move(x.before);
  e.after = std::move(x.after);
  e.client = std::move(x.client);
  e.sent_ms = x.sent_ms;
  e.sent_index = x.sent_index;
  e.ttl_ms = e.lock.empty() ? -2 : x.ttl_ms;
  e.queue = std::move(x.queue);
  return e;
}

}  // namespace locksim::model

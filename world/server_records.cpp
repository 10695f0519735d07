#include "world/server_records.hpp"

#include <algorithm>

namespace locksim::world {
namespace {

std::string join(const std::vector<std::string>& items, const char* sep) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : sep) + item;
  return out;
}

}  // namespace

std::string server_name(int server) { return "redis" + std::to_string(server); }

std::string command_summary(const client::Command& command) {
  std::string out = command.script ? "EVALSHA " + command.script->name : std::string();
  for (const auto& k : command.keys) out += (out.empty() ? "" : " ") + k;
  for (const auto& a : command.argv) out += (out.empty() ? "" : " ") + a;
  return out;
}

model::Event exec_event(int server, const std::string& client, const client::Command& command, const Reply& reply,
                        std::string before, std::string after, int64_t ttl_ms, std::string queue) {
  model::Event e;
  e.kind = model::EventKind::Exec;
  e.process = server_name(server);
  e.thread = command.thread;
  e.op = command.op;
  e.lock = command.lock;
  e.f = command.role;
  e.text = client + " " +
           (command.script ? command.script->name + " " + join(command.keys, " ") + " " + join(command.argv, " ")
                           : join(command.argv, " "));
  e.reply = locksim::describe(reply);
  e.before = std::move(before);
  e.after = std::move(after);
  e.client = client;
  e.sent_ms = command.sent_ms;
  e.ttl_ms = command.lock.empty() ? -2 : ttl_ms;
  e.queue = command.queue.empty() ? std::string() : std::move(queue);
  return e;
}

std::string render_hash(std::vector<std::string> field_equals_value) {
  std::sort(field_equals_value.begin(), field_equals_value.end());
  return join(field_equals_value, ",");
}

std::string render_list(const std::vector<std::string>& items) { return "[" + join(items, ",") + "]"; }

std::string render_zset(const std::vector<std::pair<std::string, int64_t>>& members) {
  std::vector<std::string> items;
  for (const auto& [member, score] : members) items.push_back(member + "=" + std::to_string(score));
  return "{" + join(items, ",") + "}";
}

}  // namespace locksim::world

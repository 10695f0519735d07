#include "client/command_words.hpp"

namespace locksim::client {
namespace {

// Appends `items` joined by spaces; a space goes before an item only once the joined part is not
// empty (so leading empty items leave no space), as histories have always rendered commands.
void append_joined(std::string& out, const std::vector<std::string>& items) {
  const size_t start = out.size();
  for (const auto& item : items) {
    if (out.size() > start) out += ' ';
    out += item;
  }
}

}  // namespace

std::vector<std::string> command_words(const Command& command, bool as_eval) {
  if (!command.script) return command.argv;
  std::vector<std::string> words = {as_eval ? "EVAL" : "EVALSHA", as_eval ? command.script->body : command.script->sha,
                                    std::to_string(command.keys.size())};
  words.insert(words.end(), command.keys.begin(), command.keys.end());
  words.insert(words.end(), command.argv.begin(), command.argv.end());
  return words;
}

void command_word_views(const Command& command, bool as_eval, std::string& numkeys,
                        std::vector<std::string_view>& words) {
  words.clear();
  if (!command.script) {
    words.assign(command.argv.begin(), command.argv.end());
    return;
  }
  numkeys = std::to_string(command.keys.size());
  words.push_back(as_eval ? "EVAL" : "EVALSHA");
  words.push_back(as_eval ? command.script->body : command.script->sha);
  words.push_back(numkeys);
  words.insert(words.end(), command.keys.begin(), command.keys.end());
  words.insert(words.end(), command.argv.begin(), command.argv.end());
}

std::string command_summary(const Command& command, bool as_eval) {
  std::string out = command.script ? (as_eval ? "EVAL " : "EVALSHA ") + command.script->name : std::string();
  for (const auto& k : command.keys) out += (out.empty() ? "" : " ") + k;
  for (const auto& a : command.argv) out += (out.empty() ? "" : " ") + a;
  return out;
}

std::string command_text(const Command& command) {
  std::string out;
  append_command_text(out, command);
  return out;
}

void append_command_text(std::string& out, const Command& command) {
  size_t size = out.size() + (command.script ? command.script->name.size() + 2 : 0);
  for (const auto& k : command.keys) size += k.size() + 1;
  for (const auto& a : command.argv) size += a.size() + 1;
  out.reserve(size);
  if (command.script) {
    out += command.script->name;
    out += ' ';
    append_joined(out, command.keys);
    out += ' ';
  }
  append_joined(out, command.argv);
}

Command wait_behind(const Command& synced) {
  Command wait;
  wait.role = "wait";
  wait.argv = {"WAIT", std::to_string(synced.sync_replicas), std::to_string(synced.sync_timeout_ms)};
  wait.thread = synced.thread;
  wait.op = synced.op;
  wait.server = synced.server;
  return wait;
}

void describe_command(StateWriter& out, const Command& c) {
  out.field("role", c.role).field("lock", c.lock).field("script", c.script ? c.script->sha : std::string());
  for (const std::string& key : c.keys) out.field("key", key);
  for (const std::string& word : c.argv) out.field("arg", word);
  out.field("thread", c.thread).id("op", "op", c.op).field("server", c.server).field("queue", c.queue);
  out.field("sync_replicas", c.sync_replicas).field("sync_timeout", c.sync_timeout_ms);
}

}  // namespace locksim::client

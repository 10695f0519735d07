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

int64_t command_digest(const Command& c) {
  uint64_t h = 1469598103934665603ULL;
  const auto byte = [&h](unsigned char b) { h = (h ^ b) * 1099511628211ULL; };
  const auto number = [&](int64_t v) {
    for (int i = 0; i < 8; ++i) byte(static_cast<unsigned char>(static_cast<uint64_t>(v) >> (8 * i)));
  };
  const auto text = [&](std::string_view t) {
    number(static_cast<int64_t>(t.size()));
    for (const char ch : t) byte(static_cast<unsigned char>(ch));
  };
  text(c.role);
  text(c.lock);
  text(c.script ? c.script->sha : std::string_view());
  number(static_cast<int64_t>(c.keys.size()));
  for (const std::string& k : c.keys) text(k);
  number(static_cast<int64_t>(c.argv.size()));
  for (const std::string& a : c.argv) text(a);
  for (const int64_t v : {c.thread, c.op, static_cast<int64_t>(c.server), c.sync_replicas, c.sync_timeout_ms}) number(v);
  text(c.queue);
  return static_cast<int64_t>(h & 0x7FFFFFFFFFFFFFFFULL);  // Kept's values are >= 0
}

}  // namespace locksim::client

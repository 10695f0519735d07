#include "world/exec_event.hpp"

#include "client/command_words.hpp"
#include "model/events.hpp"

namespace locksim::world {
namespace {

// "<client> <command text>", as an atom. Built in one buffer kept between calls (locksim runs one
// thread, as its atoms do): a command seen before costs its lookup and nothing allocated.
Atom command_line(const std::string& client, const client::Command& command) {
  static std::string line;
  line.assign(client);
  line += ' ';
  client::append_command_text(line, command);
  return Atom(line);
}

}  // namespace

model::Event exec_event(int server, const std::string& client, const client::Command& command, Sent sent,
                        const Reply& reply, AroundRequest around) {
  return model::exec_event({.server = server,
                            .client = client,
                            .thread = command.thread,
                            .op = command.op,
                            .lock = command.lock,
                            .role = command.role,
                            .command = command_line(client, command),
                            .reply = Atom(locksim::describe(reply)),
                            .before = std::move(around.before),
                            .after = std::move(around.after),
                            .sent_ms = sent.ms,
                            .sent_index = sent.index,
                            .ttl_ms = around.ttl_ms,
                            .queue = command.queue.empty() ? Atom() : std::move(around.queue)});
}

}  // namespace locksim::world

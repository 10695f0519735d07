#include "world/exec_event.hpp"

#include "client/command_words.hpp"
#include "model/events.hpp"

namespace locksim::world {

model::Event exec_event(int server, const std::string& client, const client::Command& command, const Reply& reply,
                        AroundRequest around) {
  return model::exec_event({.server = server,
                            .client = client,
                            .thread = command.thread,
                            .op = command.op,
                            .lock = command.lock,
                            .role = command.role,
                            .command = client + " " + client::command_text(command),
                            .reply = locksim::describe(reply),
                            .before = std::move(around.before),
                            .after = std::move(around.after),
                            .sent_ms = command.sent_ms,
                            .sent_index = command.sent_index,
                            .ttl_ms = around.ttl_ms,
                            .queue = command.queue.empty() ? std::string() : std::move(around.queue)});
}

}  // namespace locksim::world

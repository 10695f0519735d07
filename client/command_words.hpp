#pragma once
// A Command as a server reads it and as histories and messages show it, written once for the
// simulated and the live servers.
#include <string>
#include <string_view>
#include <vector>

#include "base/state_writer.hpp"
#include "client/backend.hpp"

namespace locksim::client {

// The words sent: a script as EVALSHA <sha> (EVAL <body> when `as_eval`) <numkeys> KEYS... ARGV...,
// a plain command as its own words.
std::vector<std::string> command_words(const Command& command, bool as_eval);
// The same words as views into `command` (and its script), for a server in this process: nothing
// copied, not even a script's body. `numkeys` holds the one word that is made; the views live as
// long as it and `command`. Written into `words` (cleared first), so that a server reuses one buffer.
void command_word_views(const Command& command, bool as_eval, std::string& numkeys,
                        std::vector<std::string_view>& words);

// The WAIT a synced request carries behind it (Command::sync_replicas >= 0), as the server runs and
// records it: `WAIT <sync_replicas> <sync_timeout_ms>`, with the request's thread, op and server.
Command wait_behind(const Command& synced);

// A request in one line, for messages about it ("EVALSHA rlock_unlock orders ...", "EVAL ..." sent
// with its text).
std::string command_summary(const Command& command, bool as_eval);
// Every field of `command`, as state (base/state_writer.hpp): a request in flight, or one a loop
// will send again.
void describe_command(StateWriter& out, const Command& command);

// The command as an Exec event shows it after the client's name ("rlock_acquire orders 30000 ...").
std::string command_text(const Command& command);
// The same, appended to `out`.
void append_command_text(std::string& out, const Command& command);

}  // namespace locksim::client

#pragma once
// A key of a fake engine as histories show it (model/rendered.hpp), and its PTTL: how both the
// simulated servers and `locksim serve` record a lock key around a command.
#include <cstdint>
#include <string>

#include "engine/keyspace.hpp"

namespace locksim::sim {

// The key's value rendered ("" when absent or past its time on the clock reading `now_ms`).
std::string render_key(const engine::Keyspace& keyspace, const std::string& key, int64_t now_ms);
// The same, into `out` (cleared first): a server renders every request's key into one buffer.
void render_key_to(std::string& out, const engine::Keyspace& keyspace, const std::string& key, int64_t now_ms);
// PTTL of `key` at `now_ms`: -2 none, -1 no expiry, else ms left.
int64_t key_ttl(const engine::Keyspace& keyspace, const std::string& key, int64_t now_ms);

}  // namespace locksim::sim

#pragma once
// Lua 5.4's runtime error messages in the words of Redis's Lua 5.1, where they differ only in
// how they name the culprit: "attempt to index a nil value (local 't')" is 5.1's "attempt to index
// local 't' (a nil value)", and 5.1 names no constant ("attempt to call a string value").
#include <string>

struct lua_State;

namespace locksim::engine::lua51_messages {

std::string as_lua51_runtime_message(std::string message);

// Rewrites the error message at the top of the stack, when it is a string.
void reword_top(lua_State* L);

}  // namespace locksim::engine::lua51_messages

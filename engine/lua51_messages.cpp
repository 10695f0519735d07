#include "engine/lua51_messages.hpp"

#include <lua.hpp>
#include <regex>

namespace locksim::engine::lua51_messages {

std::string as_lua51_runtime_message(std::string message) {
  // A numeric for's part that is no number: 5.4 "bad 'for' initial value (number expected, got
  // string)", 5.1 "'for' initial value must be a number" (likewise "limit" and "step").
  if (message.find("bad 'for' ") != std::string::npos) {
    static const std::regex kFor(R"(bad 'for' (initial value|limit|step) \(number expected, got [a-z]+\))");
    return std::regex_replace(message, kFor, "'for' $1 must be a number");
  }
  if (message.find("attempt to ") == std::string::npos) return message;
  // 5.4 names a constant or a for iterator where 5.1 names nothing.
  static const std::regex kUnnamed(R"( \((constant|for iterator) '[^']*'\))");
  static const std::regex kVarInfo(
      R"(attempt to ([a-z ]+?) an? ([a-z]+) value \((global|local|method|upvalue|field) ('[^']*')\))");
  return std::regex_replace(std::regex_replace(message, kUnnamed, ""), kVarInfo, "attempt to $1 $3 $4 (a $2 value)");
}

void reword_top(lua_State* L) {
  if (lua_type(L, -1) != LUA_TSTRING) return;
  size_t length = 0;
  const char* text = lua_tolstring(L, -1, &length);
  {
    const std::string reworded = as_lua51_runtime_message(std::string(text, length));
    lua_pushlstring(L, reworded.data(), reworded.size());
  }
  lua_replace(L, -2);
}

}  // namespace locksim::engine::lua51_messages

#pragma once
// Compiling a chunk as Redis's Lua 5.1 would, on 5.4's compiler (EVAL's scripts, loadstring).
//
// 5.4 reads some source that 5.1 refuses: the operators //, &, |, ~, <<, >> and ::, goto, and
// local attributes (<const>). A script using them would run on the fake and fail to compile on
// Redis, so each such token is handed to 5.4 as a character it knows no meaning for, which its
// parser then refuses where and as 5.1's refuses the original ("unexpected symbol near '&'",
// "')' expected near '&'"...). And 5.4 reads string escapes 5.1 does not know (\x41, \z, \u{41};
// 5.4 refuses any other, such as "\."), where 5.1 takes the escaped character itself ("x41"):
// those are rewritten to what 5.1 reads. Lines stay where they were.
//
// A numeric for's start and step go through kForNumber: 5.1 ran every loop on doubles, which print
// as "%.14g", while 5.4 runs a loop on floats, which print as "2.0", whenever its start or step is a
// string or a float ("for c=redis.call('hget', k, f), 1, -1": 5.1 "...:2", 5.4 "...:2.0"). The
// function gives an integral one as 5.4's integer, so 5.4 runs the integer loop that prints as 5.1.
#include <string>
#include <string_view>

struct lua_State;

namespace locksim::engine::lua51_compile {

// The global that the rewritten numeric fors call: no script of Redis's can name it (the sandbox
// answers it where Redis would refuse a nonexistent global), and no iteration of the globals lists it.
inline constexpr const char* kForNumber = "__locksim_for51";

// luaL_loadbufferx(L, source, chunkname, "t") as 5.1 compiles: pushes the function, or the error
// message 5.1 would give, and returns the status.
int load(lua_State* L, std::string_view source, const char* chunkname);

// The source 5.4 compiles for `source` (the same text when nothing needs changing).
std::string as_54_source(std::string_view source);

// A 5.4 compile error in 5.1's words ('<eof>' quoted, "'=' expected" where 5.4 says "syntax
// error", the stand-ins of as_54_source named as the tokens they stand for).
std::string as_lua51_compile_message(std::string_view message);

}  // namespace locksim::engine::lua51_compile

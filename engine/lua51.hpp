#pragma once
// Lua 5.1's view of numbers and arguments, for C functions that Redis 7.0 runs on its Lua 5.1 and the
// fake on Lua 5.4 (the bridge and the libraries cjson, struct, cmsgpack, bit).
//
// Lua 5.1 has only doubles. A 5.4 integer prints and concatenates as 5.1 prints the double
// ("%.14g") only while it has at most 14 digits; a 5.4 float prints as 5.1 does except when it is
// integral ('a' .. 3.0 is "a3.0", 5.1 "a3"). So a value 5.1 holds as a double reaches a 5.4 script
// as an integer below 10^14 and as a float from there on: then tostring, concatenation, arithmetic
// and comparison all behave as in 5.1 (what is left: integer arithmetic below 10^14 that overflows
// 2^63, which 5.1 would round; docs/fidelity.md).
#include <cstddef>
#include <cstdint>
#include <string_view>

struct lua_State;

namespace locksim::engine::lua51 {

// Below this magnitude "%.14g" prints an integral double as its digits, as a 5.4 integer prints.
inline constexpr double kExactPrintLimit = 1e14;

// Pushes the number 5.1 would hold: an integer when `d` is integral (not -0) below 10^14, else a float.
void push_number(lua_State* L, double d);

// lua_tointeger of 5.1 on x86-64: the number (or numeric string) truncated toward zero; values out
// of int64 range (and NaN) become INT64_MIN, as cvttsd2si gives. 0 when not a number.
int64_t to_integer(lua_State* L, int index);

// luaL_typerror of 5.1: "bad argument #n to 'f' (T expected, got U)", a light userdata named "userdata".
int type_error(lua_State* L, int arg, const char* expected);

// luaL_checknumber of 5.1 (numeric strings count).
double check_number(lua_State* L, int arg);

// luaL_checkinteger / luaL_optinteger of 5.1: a float is truncated (5.4 raises "number has no
// integer representation"); not a number: "bad argument #n to 'f' (number expected, got T)".
int64_t check_integer(lua_State* L, int arg);
// A C int as 5.1's luaL_checkint makes it from the truncated integer: its low 32 bits.
inline int c_int(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(v))); }
int64_t opt_integer(lua_State* L, int arg, int64_t def);

// luaL_checklstring of 5.1: a number argument becomes its "%.14g" text (5.4 writes 3.0 as "3.0").
std::string_view check_string(lua_State* L, int arg);

// luaO_str2d of 5.1, how it reads a string as a number (tonumber, arithmetic on a string): strtod,
// or strtoul in base 16 where it stops at an 'x' ("0x10"), then only spaces; C's reading, so the
// text ends at a NUL. 5.4 refuses "inf" and "nan", which strtod reads.
bool str2d(const char* s, double& out);

// C's conversions of a double to int64 and uint64 as gcc compiles them for x86-64 (the Redis
// libraries cast without range checks): out of range gives INT64_MIN, and 0 for uint64 from 2^64 up.
int64_t double_to_int64(double d);
uint64_t double_to_uint64(double d);
// (int)d likewise: out of range, and NaN, give INT_MIN.
inline int double_to_int(double d) { return d > -2147483649.0 && d < 2147483648.0 ? static_cast<int>(d) : INT32_MIN; }

}  // namespace locksim::engine::lua51

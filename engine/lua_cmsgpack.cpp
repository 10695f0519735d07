// `cmsgpack`: pack, unpack, unpack_one and unpack_limit as Redis 7.0.15's lua_cmsgpack.c
// (lua-cmsgpack 0.4.0 with Redis's fixes) behaves on x86-64 under Lua 5.1. Our own code, after its
// documented behaviour:
// - a number is a double: integral ones (that fit int64) pack as the smallest MessagePack integer,
//   others as a float32 when that is exact, else a float64; a 5.4 integer packs as the double 5.1
//   would hold;
// - a table whose keys are exactly 1..n (numbers that fit an int) packs as an array, any other as
//   a map; tables nested 16 deep pack as nil, as do functions, nil and userdata;
// - unpacking gives doubles (lua51::push_number), raw 8/16/32 and fix raw as strings, and arrays as
//   tables indexed from 1.
// One difference on purpose: a map's pairs are written in the byte order of their packed keys
// (then values). Redis writes them in the order Lua 5.1's next() visits the table; that order is
// fixed for a given table in Redis, but Lua 5.4 seeds string hashes per state, so next() would
// make the fake's output differ from run to run. docs/fidelity.md.
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <lua.hpp>
#include <string>
#include <utility>
#include <vector>

#include "engine/lua51.hpp"
#include "engine/lua_libraries.hpp"

namespace locksim::engine::lua_libraries {
namespace {

constexpr int kMaxNesting = 16;
// Lua 5.1 lets a C function hold this many stack slots (LUAI_MAXCSTACK); lua_cmsgpack.c's
// luaL_checkstack calls fail there, which 5.4's larger stack would let pass.
constexpr int kLua51MaxCStack = 8000;

void check_stack_51(lua_State* L, int space, const char* message) {
  if (lua_gettop(L) + space > kLua51MaxCStack) luaL_error(L, "stack overflow (%s)", message);
  luaL_checkstack(L, space, message);
}

void put_big_endian(std::string& out, uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

void encode_bytes(std::string& out, const char* s, size_t len) {
  if (len < 32) {
    out.push_back(static_cast<char>(0xa0 | len));
  } else if (len <= 0xff) {
    out.push_back(static_cast<char>(0xd9));
    put_big_endian(out, len, 1);
  } else if (len <= 0xffff) {
    out.push_back(static_cast<char>(0xda));
    put_big_endian(out, len, 2);
  } else {
    out.push_back(static_cast<char>(0xdb));
    put_big_endian(out, len & 0xffffffff, 4);
  }
  out.append(s, len);
}

void encode_double(std::string& out, double d) {
  const float f = static_cast<float>(d);
  if (d == static_cast<double>(f)) {
    uint32_t bits = 0;
    std::memcpy(&bits, &f, sizeof bits);
    out.push_back(static_cast<char>(0xca));
    put_big_endian(out, bits, 4);
  } else {
    uint64_t bits = 0;
    std::memcpy(&bits, &d, sizeof bits);
    out.push_back(static_cast<char>(0xcb));
    put_big_endian(out, bits, 8);
  }
}

void encode_int(std::string& out, int64_t n) {
  const auto u = static_cast<uint64_t>(n);
  if (n >= 0) {
    if (n <= 127) {
      out.push_back(static_cast<char>(n));
    } else if (n <= 0xff) {
      out.push_back(static_cast<char>(0xcc));
      put_big_endian(out, u, 1);
    } else if (n <= 0xffff) {
      out.push_back(static_cast<char>(0xcd));
      put_big_endian(out, u, 2);
    } else if (n <= 0xffffffffLL) {
      out.push_back(static_cast<char>(0xce));
      put_big_endian(out, u, 4);
    } else {
      out.push_back(static_cast<char>(0xcf));
      put_big_endian(out, u, 8);
    }
  } else if (n >= -32) {
    out.push_back(static_cast<char>(n));
  } else if (n >= -128) {
    out.push_back(static_cast<char>(0xd0));
    put_big_endian(out, u, 1);
  } else if (n >= -32768) {
    out.push_back(static_cast<char>(0xd1));
    put_big_endian(out, u, 2);
  } else if (n >= -2147483648LL) {
    out.push_back(static_cast<char>(0xd2));
    put_big_endian(out, u, 4);
  } else {
    out.push_back(static_cast<char>(0xd3));
    put_big_endian(out, u, 8);
  }
}

void encode_container_header(std::string& out, uint64_t n, unsigned char fix, unsigned char c16, unsigned char c32) {
  if (n <= 15) {
    out.push_back(static_cast<char>(fix | n));
  } else if (n <= 65535) {
    out.push_back(static_cast<char>(c16));
    put_big_endian(out, n, 2);
  } else {
    out.push_back(static_cast<char>(c32));
    put_big_endian(out, n & 0xffffffff, 4);
  }
}

void encode_number(lua_State* L, std::string& out, int index) {
  const double d = lua_tonumber(L, index);
  // lua_cmsgpack.c's IS_INT64_EQUIVALENT on 5.1's double.
  if (!std::isinf(d) && static_cast<double>(lua51::double_to_int64(d)) == d) {
    encode_int(out, lua51::double_to_int64(d));
  } else {
    encode_double(out, d);
  }
}

// Keys exactly 1..n, each a number that an int holds (lua_cmsgpack.c's table_is_an_array on 5.1).
bool table_is_an_array(lua_State* L, int index) {
  int count = 0;
  int max = 0;
  lua_pushnil(L);
  while (lua_next(L, index)) {
    lua_pop(L, 1);
    if (lua_type(L, -1) != LUA_TNUMBER) {
      lua_pop(L, 1);
      return false;
    }
    const double n = lua_tonumber(L, -1);
    if (!(n > 0) || n > INT_MAX || static_cast<double>(static_cast<int>(n)) != n) {
      lua_pop(L, 1);
      return false;
    }
    max = std::max(max, static_cast<int>(n));
    ++count;
  }
  return max == count;
}

void encode_value(lua_State* L, std::string& out, int level);

// The value on top of the stack, popped.
void encode_table(lua_State* L, std::string& out, int level) {
  const int index = lua_gettop(L);
  check_stack_51(L, 3, "in function mp_encode_lua_table");
  if (table_is_an_array(L, index)) {
    const size_t len = lua_rawlen(L, index);
    encode_container_header(out, len, 0x90, 0xdc, 0xdd);
    for (size_t j = 1; j <= len; ++j) {
      lua_pushinteger(L, static_cast<lua_Integer>(j));
      lua_gettable(L, index);
      encode_value(L, out, level + 1);
    }
    return;
  }
  std::vector<std::pair<std::string, std::string>> pairs;
  lua_pushnil(L);
  while (lua_next(L, index)) {
    std::pair<std::string, std::string> pair;
    lua_pushvalue(L, -2);
    encode_value(L, pair.first, level + 1);
    encode_value(L, pair.second, level + 1);
    pairs.push_back(std::move(pair));
  }
  std::sort(pairs.begin(), pairs.end());
  encode_container_header(out, pairs.size(), 0x80, 0xde, 0xdf);
  for (const auto& [key, value] : pairs) {
    out += key;
    out += value;
  }
}

void encode_value(lua_State* L, std::string& out, int level) {
  int type = lua_type(L, -1);
  // The nesting limit also ends a table that contains itself.
  if (type == LUA_TTABLE && level == kMaxNesting) type = LUA_TNIL;
  switch (type) {
    case LUA_TSTRING: {
      size_t len = 0;
      const char* s = lua_tolstring(L, -1, &len);
      encode_bytes(out, s, len);
      break;
    }
    case LUA_TBOOLEAN:
      out.push_back(static_cast<char>(lua_toboolean(L, -1) ? 0xc3 : 0xc2));
      break;
    case LUA_TNUMBER:
      encode_number(L, out, -1);
      break;
    case LUA_TTABLE:
      encode_table(L, out, level);
      break;
    default:
      out.push_back(static_cast<char>(0xc0));
      break;
  }
  lua_pop(L, 1);
}

int mp_pack(lua_State* L) {
  const int nargs = lua_gettop(L);
  if (nargs == 0) return luaL_argerror(L, 0, "MessagePack pack needs input.");
  std::string out;
  for (int i = 1; i <= nargs; ++i) {
    check_stack_51(L, 1, "in function mp_check");
    lua_pushvalue(L, i);
    encode_value(L, out, 0);
  }
  lua_pushlstring(L, out.data(), out.size());
  return 1;
}

enum class CursorError { kNone, kEof, kBadFormat };

struct Cursor {
  const unsigned char* p;
  size_t left;
  CursorError err = CursorError::kNone;

  bool need(size_t n) {
    if (left >= n) return true;
    err = CursorError::kEof;
    return false;
  }
  void consume(size_t n) {
    p += n;
    left -= n;
  }
  uint64_t big_endian(size_t offset, int bytes) const {
    uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v = (v << 8) | p[offset + static_cast<size_t>(i)];
    return v;
  }
};

void decode_value(lua_State* L, Cursor& c);

void decode_array(lua_State* L, Cursor& c, size_t len) {
  lua_newtable(L);
  check_stack_51(L, 1, "in function mp_decode_to_lua_array");
  for (size_t index = 1; index <= len; ++index) {
    lua_pushinteger(L, static_cast<lua_Integer>(index));
    decode_value(L, c);
    if (c.err != CursorError::kNone) return;
    lua_settable(L, -3);
  }
}

void decode_map(lua_State* L, Cursor& c, size_t len) {
  lua_newtable(L);
  while (len--) {
    decode_value(L, c);
    if (c.err != CursorError::kNone) return;
    decode_value(L, c);
    if (c.err != CursorError::kNone) return;
    // Lua 5.1's words for a key no table can hold (5.4 says "index is nil"), raised by its VM
    // from inside a C function: without a script position.
    if (lua_isnil(L, -2)) {
      lua_pushliteral(L, "table index is nil");
      lua_error(L);
    }
    if (lua_type(L, -2) == LUA_TNUMBER && std::isnan(lua_tonumber(L, -2))) {
      lua_pushliteral(L, "table index is NaN");
      lua_error(L);
    }
    lua_settable(L, -3);
  }
}

void push_string(lua_State* L, Cursor& c, size_t header, size_t len) {
  if (!c.need(header + len)) return;
  lua_pushlstring(L, reinterpret_cast<const char*>(c.p + header), len);
  c.consume(header + len);
}

// Integers reach Lua 5.1 as doubles (an uint64 through lua_Integer, so 2^63 and up wrap negative).
void push_integer(lua_State* L, Cursor& c, int64_t v, size_t size) {
  lua51::push_number(L, static_cast<double>(v));
  c.consume(size);
}

// The fixed-size integers (uint8 .. int64): their type byte, their width, and whether they carry a sign.
struct SizedInteger {
  unsigned char type;
  int bytes;
  bool is_signed;
};
constexpr SizedInteger kSizedIntegers[] = {{0xcc, 1, false}, {0xd0, 1, true}, {0xcd, 2, false}, {0xd1, 2, true},
                                           {0xce, 4, false}, {0xd2, 4, true}, {0xcf, 8, false}, {0xd3, 8, true}};

// Decodes a value of `type` if it is a fixed-size integer, a float or a sized string; false for
// any other type.
bool decode_scalar(lua_State* L, Cursor& c, unsigned char type) {
  for (const SizedInteger& sized : kSizedIntegers) {
    if (sized.type != type) continue;
    const size_t size = 1 + static_cast<size_t>(sized.bytes);
    if (!c.need(size)) return true;
    const uint64_t raw = c.big_endian(1, sized.bytes);
    const int shift = 64 - 8 * sized.bytes;
    push_integer(L, c, sized.is_signed ? static_cast<int64_t>(raw << shift) >> shift : static_cast<int64_t>(raw), size);
    return true;
  }
  switch (type) {
    case 0xca:
      if (c.need(5)) {
        const auto bits = static_cast<uint32_t>(c.big_endian(1, 4));
        float f = 0;
        std::memcpy(&f, &bits, sizeof f);
        lua51::push_number(L, f);
        c.consume(5);
      }
      return true;
    case 0xcb:
      if (c.need(9)) {
        const uint64_t bits = c.big_endian(1, 8);
        double d = 0;
        std::memcpy(&d, &bits, sizeof d);
        lua51::push_number(L, d);
        c.consume(9);
      }
      return true;
    case 0xd9:
      if (c.need(2)) push_string(L, c, 2, c.big_endian(1, 1));
      return true;
    case 0xda:
      if (c.need(3)) push_string(L, c, 3, c.big_endian(1, 2));
      return true;
    case 0xdb:
      if (c.need(5)) push_string(L, c, 5, c.big_endian(1, 4));
      return true;
    default:
      return false;
  }
}

void decode_value(lua_State* L, Cursor& c) {
  if (!c.need(1)) return;
  check_stack_51(L, 1, "too many return values at once; use unpack_one or unpack_limit instead.");
  const unsigned char type = c.p[0];
  if (decode_scalar(L, c, type)) return;
  switch (type) {
    case 0xc0:
      lua_pushnil(L);
      c.consume(1);
      return;
    case 0xc3:
    case 0xc2:
      lua_pushboolean(L, type == 0xc3);
      c.consume(1);
      return;
    case 0xdc:
    case 0xdd:
    case 0xde:
    case 0xdf: {
      const int bytes = (type == 0xdc || type == 0xde) ? 2 : 4;
      if (!c.need(1 + static_cast<size_t>(bytes))) return;
      const size_t len = c.big_endian(1, bytes);
      c.consume(1 + static_cast<size_t>(bytes));
      if (type == 0xdc || type == 0xdd) {
        decode_array(L, c, len);
      } else {
        decode_map(L, c, len);
      }
      return;
    }
    default:
      break;
  }
  if ((type & 0x80) == 0) {
    push_integer(L, c, type, 1);
  } else if ((type & 0xe0) == 0xe0) {
    push_integer(L, c, static_cast<int8_t>(type), 1);
  } else if ((type & 0xe0) == 0xa0) {
    push_string(L, c, 1, type & 0x1f);
  } else if ((type & 0xf0) == 0x90) {
    c.consume(1);
    decode_array(L, c, type & 0xf);
  } else if ((type & 0xf0) == 0x80) {
    c.consume(1);
    decode_map(L, c, type & 0xf);
  } else {
    c.err = CursorError::kBadFormat;  // 0xc1, bin, ext and fixext types
  }
}

// lua_cmsgpack.c's mp_unpack_full: limit 0 and offset 0 decode everything and return only the
// values; otherwise the next offset (-1 at the end) comes first.
int unpack_full(lua_State* L, int64_t limit, int64_t offset) {
  const std::string_view s = lua51::check_string(L, 1);
  const auto len = static_cast<int64_t>(s.size());
  const bool decode_all = limit == 0 && offset == 0;
  // The first message prints the length where it says "limit", as lua_cmsgpack.c does; both
  // print as C ints.
  if (offset < 0 || limit < 0) {
    return luaL_error(L, "Invalid request to unpack with offset of %d and limit of %d.", static_cast<int>(offset),
                      static_cast<int>(len));
  }
  if (offset > len) {
    return luaL_error(L, "Start offset %d greater than input length %d.", static_cast<int>(offset),
                      static_cast<int>(len));
  }
  if (decode_all) limit = INT_MAX;
  Cursor c{reinterpret_cast<const unsigned char*>(s.data()) + offset, s.size() - static_cast<size_t>(offset)};
  int count = 0;
  for (; c.left > 0 && count < limit; ++count) {
    decode_value(L, c);
    if (c.err == CursorError::kEof) return luaL_error(L, "Missing bytes in input.");
    if (c.err == CursorError::kBadFormat) return luaL_error(L, "Bad data format in input.");
  }
  if (!decode_all) {
    check_stack_51(L, 1, "in function mp_unpack_full");
    lua51::push_number(L, c.left == 0 ? -1.0 : static_cast<double>(s.size() - c.left));
    lua_insert(L, 2);
    ++count;
  }
  return count;
}

int mp_unpack(lua_State* L) { return unpack_full(L, 0, 0); }

int mp_unpack_one(lua_State* L) {
  const int64_t offset = lua51::opt_integer(L, 2, 0);
  lua_settop(L, lua_gettop(L) == 0 ? 0 : 1);  // lua_pop(L, lua_gettop(L) - 1): none stays none
  return unpack_full(L, 1, offset);
}

int mp_unpack_limit(lua_State* L) {
  const int64_t limit = lua51::check_integer(L, 2);
  const int64_t offset = lua51::opt_integer(L, 3, 0);
  lua_settop(L, 1);
  return unpack_full(L, limit, offset);
}

}  // namespace

int open_cmsgpack(lua_State* L) {
  lua_newtable(L);
  const luaL_Reg functions[] = {
      {"pack", mp_pack}, {"unpack", mp_unpack}, {"unpack_one", mp_unpack_one}, {"unpack_limit", mp_unpack_limit}};
  for (const luaL_Reg& f : functions) {
    lua_pushcfunction(L, f.func);
    lua_setfield(L, -2, f.name);
  }
  const std::pair<const char*, const char*> fields[] = {
      {"_NAME", "cmsgpack"},
      {"_VERSION", "lua-cmsgpack 0.4.0"},
      {"_COPYRIGHT", "Copyright (C) 2012, Salvatore Sanfilippo"},
      {"_DESCRIPTION", "MessagePack C implementation for Lua"},
  };
  for (const auto& [name, value] : fields) {
    lua_pushstring(L, value);
    lua_setfield(L, -2, name);
  }
  return 1;
}

}  // namespace locksim::engine::lua_libraries

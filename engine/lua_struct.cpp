// `struct`: pack, unpack and size as Redis 7.0.15's lua_struct.c (Roberto Ierusalimschy's struct
// 0.2 with Redis's security fixes) behaves on x86-64 under Lua 5.1. Our own code, after its
// documented formats:
//   >  <  big / little endian      ![n]  alignment (default 8), a power of 2
//   x  one pad byte                b B h H l L T  char, short, long, size_t (signed lower case)
//   i[n] I[n]  n-byte integer (default 4, at most 32)   f d  float, double
//   c[n]  n chars (pack: c0 is the whole string; unpack: c0 takes the previous number as length)
//   s  zero-terminated string       ' '  ignored
// What 5.1 shows through it: numbers are doubles (integers are packed from the double, a wider
// value rounded first), results are pushed as 5.1 holds them (lua51::push_number), and arguments
// convert as 5.1's luaL_check* do.
#include <cctype>
#include <climits>
#include <cstdint>
#include <cstring>
#include <lua.hpp>
#include <string>

#include "engine/lua51.hpp"
#include "engine/lua_libraries.hpp"

namespace locksim::engine::lua_libraries {
namespace {

constexpr int kMaxIntSize = 32;
constexpr int kMaxAlign = 8;  // alignment of a double after a char on x86-64

struct Header {
  bool little = true;  // x86-64 is little endian
  int align = 1;
};

// A size or alignment written after an option; `def` when none.
int read_number(lua_State* L, const char** fmt, int def) {
  if (!std::isdigit(static_cast<unsigned char>(**fmt))) return def;
  int a = 0;
  do {
    const int digit = **fmt - '0';
    if (a > INT_MAX / 10 || a * 10 > INT_MAX - digit) luaL_error(L, "integral size overflow");
    a = a * 10 + digit;
    ++*fmt;
  } while (std::isdigit(static_cast<unsigned char>(**fmt)));
  return a;
}

size_t option_size(lua_State* L, char opt, const char** fmt) {
  switch (opt) {
    case 'B':
    case 'b':
      return 1;
    case 'H':
    case 'h':
      return 2;
    case 'L':
    case 'l':
    case 'T':
    case 'd':
      return 8;
    case 'f':
      return 4;
    case 'x':
      return 1;
    case 'c':
      return static_cast<size_t>(read_number(L, fmt, 1));
    case 'i':
    case 'I': {
      const int size = read_number(L, fmt, 4);
      if (size > kMaxIntSize) luaL_error(L, "integral size %d is larger than limit of %d", size, kMaxIntSize);
      return static_cast<size_t>(size);
    }
    default:
      return 0;  // the other options take no room and need no alignment
  }
}

// Padding bytes before an item of `size` at offset `len`.
size_t padding(size_t len, const Header& h, char opt, size_t size) {
  if (size == 0 || opt == 'c') return 0;
  if (size > static_cast<size_t>(h.align)) size = static_cast<size_t>(h.align);
  return (size - (len & (size - 1))) & (size - 1);
}

void control_option(lua_State* L, char opt, const char** fmt, Header& h) {
  switch (opt) {
    case ' ':
      return;
    case '>':
      h.little = false;
      return;
    case '<':
      h.little = true;
      return;
    case '!': {
      const int a = read_number(L, fmt, kMaxAlign);
      if (a <= 0 || (a & (a - 1)) != 0) luaL_error(L, "alignment %d is not a power of 2", a);
      h.align = a;
      return;
    }
    default:
      luaL_argerror(L, 1, lua_pushfstring(L, "invalid format option '%c'", opt));
  }
}

bool is_integer_option(char opt) { return std::strchr("bBhHlLTiI", opt) != nullptr && opt != '\0'; }

// The value goes through C's long (negative) or unsigned long conversion of the double, as
// lua_struct.c's putinteger; bytes past the eighth are zero (the unsigned shift empties it).
void put_integer(lua_State* L, std::string& out, int arg, bool little, size_t size) {
  const double n = lua51::check_number(L, arg);
  uint64_t value = n < 0 ? static_cast<uint64_t>(lua51::double_to_int64(n)) : lua51::double_to_uint64(n);
  char buf[kMaxIntSize];
  for (size_t i = 0; i < size; ++i) {
    buf[little ? i : size - 1 - i] = static_cast<char>(value & 0xff);
    value >>= 8;
  }
  out.append(buf, size);
}

void put_bytes(std::string& out, const void* p, size_t size, bool little) {
  const char* bytes = static_cast<const char*>(p);
  if (little) {
    out.append(bytes, size);
  } else {
    for (size_t i = size; i > 0; --i) out.push_back(bytes[i - 1]);
  }
}

int struct_pack(lua_State* L) {
  const std::string_view format = lua51::check_string(L, 1);
  std::string fmt_copy(format);  // check_string may convert arguments in place; keep the text stable
  const char* fmt = fmt_copy.c_str();
  Header h;
  int arg = 2;
  size_t total = 0;
  std::string out;
  // lua_struct.c pushes a nil after the arguments (its string buffer's mark), so the first missing
  // one is "got nil", the next ones "got no value".
  lua_pushnil(L);
  while (*fmt != '\0') {
    const char opt = *fmt++;
    size_t size = option_size(L, opt, &fmt);
    const size_t pad = padding(total, h, opt, size);
    total += pad;
    out.append(pad, '\0');
    if (is_integer_option(opt)) {
      put_integer(L, out, arg++, h.little, size);
    } else if (opt == 'x') {
      out.push_back('\0');
    } else if (opt == 'f') {
      const float f = static_cast<float>(lua51::check_number(L, arg++));
      put_bytes(out, &f, size, h.little);
    } else if (opt == 'd') {
      const double d = lua51::check_number(L, arg++);
      put_bytes(out, &d, size, h.little);
    } else if (opt == 'c' || opt == 's') {
      const std::string_view s = lua51::check_string(L, arg++);
      if (size == 0) size = s.size();
      // lua_struct.c names the argument after the string's (arg was already advanced).
      luaL_argcheck(L, s.size() >= size, arg, "string too short");
      out.append(s.data(), size);
      if (opt == 's') {
        out.push_back('\0');
        ++size;
      }
    } else {
      control_option(L, opt, &fmt, h);
    }
    total += size;
  }
  lua_pushlstring(L, out.data(), out.size());
  return 1;
}

double get_integer(const char* p, bool little, bool is_signed, size_t size) {
  uint64_t l = 0;
  for (size_t i = 0; i < size; ++i) {
    l = (l << 8) | static_cast<unsigned char>(p[little ? size - 1 - i : i]);
  }
  if (!is_signed) return static_cast<double>(l);
  // x86-64 shifts by the count modulo 64, which lua_struct.c's mask relies on for sizes past 8.
  const unsigned shift = static_cast<unsigned>(size * 8 - 1) & 63;
  const uint64_t mask = ~uint64_t{0} << shift;
  if (l & mask) l |= mask;
  return static_cast<double>(static_cast<int64_t>(l));
}

int struct_unpack(lua_State* L) {
  Header h;
  const std::string format(lua51::check_string(L, 1));
  const char* fmt = format.c_str();
  const std::string_view data = lua51::check_string(L, 2);
  const size_t ld = data.size();
  size_t pos = static_cast<size_t>(lua51::opt_integer(L, 3, 1));
  luaL_argcheck(L, pos > 0, 3, "offset must be 1 or greater");
  --pos;
  int n = 0;
  while (*fmt != '\0') {
    const char opt = *fmt++;
    size_t size = option_size(L, opt, &fmt);
    pos += padding(pos, h, opt, size);
    luaL_argcheck(L, size <= ld && pos <= ld - size, 2, "data string too short");
    // Lua 5.1 allows a C function 8000 stack slots (LUAI_MAXCSTACK); 5.4 would allow far more.
    if (lua_gettop(L) + 2 > 8000) luaL_error(L, "stack overflow (%s)", "too many results");
    luaL_checkstack(L, 2, "too many results");
    if (is_integer_option(opt)) {
      lua51::push_number(L,
                         get_integer(data.data() + pos, h.little, std::islower(static_cast<unsigned char>(opt)), size));
      ++n;
    } else if (opt == 'x') {
    } else if (opt == 'f' || opt == 'd') {
      char bytes[8];
      for (size_t i = 0; i < size; ++i) bytes[i] = data[pos + (h.little ? i : size - 1 - i)];
      double d = 0;
      if (opt == 'f') {
        float f = 0;
        std::memcpy(&f, bytes, sizeof f);
        d = f;
      } else {
        std::memcpy(&d, bytes, sizeof d);
      }
      lua51::push_number(L, d);
      ++n;
    } else if (opt == 'c') {
      if (size == 0) {
        if (n == 0 || !lua_isnumber(L, -1)) luaL_error(L, "format 'c0' needs a previous size");
        size = static_cast<size_t>(lua51::double_to_uint64(lua_tonumber(L, -1)));
        lua_pop(L, 1);
        --n;
        luaL_argcheck(L, size <= ld && pos <= ld - size, 2, "data string too short");
      }
      lua_pushlstring(L, data.data() + pos, size);
      ++n;
    } else if (opt == 's') {
      const void* end = std::memchr(data.data() + pos, '\0', ld - pos);
      if (end == nullptr) luaL_error(L, "unfinished string in data");
      size = static_cast<size_t>(static_cast<const char*>(end) - (data.data() + pos)) + 1;
      lua_pushlstring(L, data.data() + pos, size - 1);
      ++n;
    } else {
      control_option(L, opt, &fmt, h);
    }
    pos += size;
  }
  lua51::push_number(L, static_cast<double>(pos + 1));  // the next position
  return n + 1;
}

int struct_size(lua_State* L) {
  Header h;
  const std::string format(lua51::check_string(L, 1));
  const char* fmt = format.c_str();
  size_t pos = 0;
  while (*fmt != '\0') {
    const char opt = *fmt++;
    const size_t size = option_size(L, opt, &fmt);
    pos += padding(pos, h, opt, size);
    if (opt == 's') {
      luaL_argerror(L, 1, "option 's' has no fixed size");
    } else if (opt == 'c' && size == 0) {
      luaL_argerror(L, 1, "option 'c0' has no fixed size");
    }
    // Unknown letters and digits are skipped here, where pack and unpack refuse them.
    if (!std::isalnum(static_cast<unsigned char>(opt))) control_option(L, opt, &fmt, h);
    pos += size;
  }
  lua51::push_number(L, static_cast<double>(pos));
  return 1;
}

}  // namespace

int open_struct(lua_State* L) {
  const luaL_Reg functions[] = {
      {"pack", struct_pack}, {"unpack", struct_unpack}, {"size", struct_size}, {nullptr, nullptr}};
  luaL_newlib(L, functions);
  return 1;
}

}  // namespace locksim::engine::lua_libraries

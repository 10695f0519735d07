#include "engine/lua51_pattern.hpp"

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <lua.hpp>

#include "engine/lua51.hpp"

namespace locksim::engine::lua51_pattern {
namespace {

constexpr int kMaxCaptures = 32;  // LUA_MAXCAPTURES
constexpr ptrdiff_t kCapUnfinished = -1;
constexpr ptrdiff_t kCapPosition = -2;
constexpr char kEsc = '%';
constexpr const char* kSpecials = "^$*+?.([%-";
constexpr int64_t kStepsPerCharge = 1024;

unsigned char uchar(char c) { return static_cast<unsigned char>(c); }

// The subject and the pattern are Lua strings: NUL-terminated, which the matcher relies on as
// 5.1's does (a pattern ends at its first NUL).
struct MatchState {
  const char* src_init;
  const char* src_end;
  lua_State* L;
  int level = 0;  // captures, finished or not
  int depth = 0;
  int64_t steps = 0;  // not yet charged to the budget
  struct {
    const char* init;
    ptrdiff_t len;
  } capture[kMaxCaptures];

  ChargeWork charge;

  MatchState(lua_State* l, const char* s, size_t length, int charge_upvalue)
      : src_init(s),
        src_end(s + length),
        L(l),
        charge(reinterpret_cast<ChargeWork>(lua_touserdata(l, lua_upvalueindex(charge_upvalue)))) {}
  ~MatchState() = default;
  MatchState(const MatchState&) = delete;
  MatchState& operator=(const MatchState&) = delete;

  void step(int64_t n) {
    steps += n;
    if (steps >= kStepsPerCharge) charge_remaining();
  }
  void charge_remaining() {
    const int64_t n = steps;
    steps = 0;
    if (n > 0) charge(L, n);
  }
};

int check_capture(MatchState* ms, int l) {
  l -= '1';
  if (l < 0 || l >= ms->level || ms->capture[l].len == kCapUnfinished)
    return luaL_error(ms->L, "invalid capture index");
  return l;
}

int capture_to_close(MatchState* ms) {
  int level = ms->level;
  for (level--; level >= 0; level--)
    if (ms->capture[level].len == kCapUnfinished) return level;
  return luaL_error(ms->L, "invalid pattern capture");
}

const char* classend(MatchState* ms, const char* p) {
  switch (*p++) {
    case kEsc:
      if (*p == '\0') luaL_error(ms->L, "malformed pattern (ends with '%%')");
      return p + 1;
    case '[':
      if (*p == '^') p++;
      do {  // look for a ']'
        if (*p == '\0') luaL_error(ms->L, "malformed pattern (missing ']')");
        if (*(p++) == kEsc && *p != '\0') p++;  // skip escapes (e.g. '%]')
      } while (*p != ']');
      return p + 1;
    default:
      return p;
  }
}

// 5.1's classes: no %g, so "%g" is the letter g.
bool match_class(int c, int cl) {
  int res;
  switch (std::tolower(cl)) {
    case 'a': res = std::isalpha(c); break;
    case 'c': res = std::iscntrl(c); break;
    case 'd': res = std::isdigit(c); break;
    case 'l': res = std::islower(c); break;
    case 'p': res = std::ispunct(c); break;
    case 's': res = std::isspace(c); break;
    case 'u': res = std::isupper(c); break;
    case 'w': res = std::isalnum(c); break;
    case 'x': res = std::isxdigit(c); break;
    case 'z': res = (c == 0); break;
    default: return cl == c;
  }
  return std::islower(cl) ? res != 0 : res == 0;
}

bool matchbracketclass(int c, const char* p, const char* ec) {
  bool sig = true;
  if (*(p + 1) == '^') {
    sig = false;
    p++;
  }
  while (++p < ec) {
    if (*p == kEsc) {
      p++;
      if (match_class(c, uchar(*p))) return sig;
    } else if (*(p + 1) == '-' && p + 2 < ec) {
      p += 2;
      if (uchar(*(p - 2)) <= c && c <= uchar(*p)) return sig;
    } else if (uchar(*p) == c) {
      return sig;
    }
  }
  return !sig;
}

bool singlematch(int c, const char* p, const char* ep) {
  switch (*p) {
    case '.': return true;
    case kEsc: return match_class(c, uchar(*(p + 1)));
    case '[': return matchbracketclass(c, p, ep - 1);
    default: return uchar(*p) == c;
  }
}

const char* do_match(MatchState* ms, const char* s, const char* p);

// Every attempt of the matcher is a step; deep recursion is refused before the C stack runs out.
const char* match(MatchState* ms, const char* s, const char* p) {
  ms->step(1);
  if (++ms->depth > kMaxMatchDepth) luaL_error(ms->L, "pattern too complex");
  const char* res = do_match(ms, s, p);
  ms->depth--;
  return res;
}

const char* matchbalance(MatchState* ms, const char* s, const char* p) {
  if (*p == 0 || *(p + 1) == 0) luaL_error(ms->L, "unbalanced pattern");
  if (s >= ms->src_end || *s != *p) return nullptr;  // 5.1 reads the subject's NUL at its end
  const char b = *p;
  const char e = *(p + 1);
  int cont = 1;
  while (++s < ms->src_end) {
    if (*s == e) {
      if (--cont == 0) return s + 1;
    } else if (*s == b) {
      cont++;
    }
  }
  return nullptr;
}

const char* max_expand(MatchState* ms, const char* s, const char* p, const char* ep) {
  ptrdiff_t i = 0;
  while (s + i < ms->src_end && singlematch(uchar(*(s + i)), p, ep)) i++;
  ms->step(i);
  while (i >= 0) {
    const char* res = match(ms, s + i, ep + 1);
    if (res) return res;
    i--;
  }
  return nullptr;
}

const char* min_expand(MatchState* ms, const char* s, const char* p, const char* ep) {
  for (;;) {
    const char* res = match(ms, s, ep + 1);
    if (res != nullptr) return res;
    if (s < ms->src_end && singlematch(uchar(*s), p, ep)) s++;
    else return nullptr;
  }
}

const char* start_capture(MatchState* ms, const char* s, const char* p, ptrdiff_t what) {
  const int level = ms->level;
  if (level >= kMaxCaptures) luaL_error(ms->L, "too many captures");
  ms->capture[level].init = s;
  ms->capture[level].len = what;
  ms->level = level + 1;
  const char* res = match(ms, s, p);
  if (res == nullptr) ms->level--;
  return res;
}

const char* end_capture(MatchState* ms, const char* s, const char* p) {
  const int l = capture_to_close(ms);
  ms->capture[l].len = s - ms->capture[l].init;
  const char* res = match(ms, s, p);
  if (res == nullptr) ms->capture[l].len = kCapUnfinished;
  return res;
}

const char* match_capture(MatchState* ms, const char* s, int l) {
  l = check_capture(ms, l);
  const auto len = static_cast<size_t>(ms->capture[l].len);
  if (static_cast<size_t>(ms->src_end - s) >= len && std::memcmp(ms->capture[l].init, s, len) == 0) return s + len;
  return nullptr;
}

const char* do_match(MatchState* ms, const char* s, const char* p) {
  for (;;) {  // a loop where 5.1 jumps back for its tail calls
    switch (*p) {
      case '(':
        if (*(p + 1) == ')') return start_capture(ms, s, p + 2, kCapPosition);
        return start_capture(ms, s, p + 1, kCapUnfinished);
      case ')':
        return end_capture(ms, s, p + 1);
      case '\0':
        return s;
      case '$':
        if (*(p + 1) == '\0') return s == ms->src_end ? s : nullptr;
        break;  // an ordinary item
      case kEsc:
        if (*(p + 1) == 'b') {
          s = matchbalance(ms, s, p + 2);
          if (s == nullptr) return nullptr;
          p += 4;
          continue;
        }
        if (*(p + 1) == 'f') {
          p += 2;
          if (*p != '[') luaL_error(ms->L, "missing '[' after '%%f' in pattern");
          const char* ep = classend(ms, p);
          const char previous = s == ms->src_init ? '\0' : *(s - 1);
          const char current = s < ms->src_end ? *s : '\0';
          if (matchbracketclass(uchar(previous), p, ep - 1) || !matchbracketclass(uchar(current), p, ep - 1))
            return nullptr;
          p = ep;
          continue;
        }
        if (std::isdigit(uchar(*(p + 1)))) {
          s = match_capture(ms, s, uchar(*(p + 1)));
          if (s == nullptr) return nullptr;
          p += 2;
          continue;
        }
        break;  // an ordinary item
      default:
        break;
    }
    // A single-character class, perhaps followed by a repetition.
    const char* ep = classend(ms, p);
    const bool m = s < ms->src_end && singlematch(uchar(*s), p, ep);
    switch (*ep) {
      case '?': {
        const char* res = nullptr;
        if (m && (res = match(ms, s + 1, ep + 1)) != nullptr) return res;
        p = ep + 1;
        continue;
      }
      case '*':
        return max_expand(ms, s, p, ep);
      case '+':
        return m ? max_expand(ms, s + 1, p, ep) : nullptr;
      case '-':
        return min_expand(ms, s, p, ep);
      default:
        if (!m) return nullptr;
        s++;
        p = ep;
        continue;
    }
  }
}

const char* lmemfind(const char* s1, size_t l1, const char* s2, size_t l2) {
  if (l2 == 0) return s1;
  if (l2 > l1) return nullptr;
  l2--;
  l1 = l1 - l2;
  const char* init = nullptr;
  while (l1 > 0 && (init = static_cast<const char*>(std::memchr(s1, *s2, l1))) != nullptr) {
    init++;
    if (std::memcmp(init, s2 + 1, l2) == 0) return init - 1;
    l1 -= static_cast<size_t>(init - s1);
    s1 = init;
  }
  return nullptr;
}

void push_onecapture(MatchState* ms, int i, const char* s, const char* e) {
  if (i >= ms->level) {
    if (i == 0) lua_pushlstring(ms->L, s, static_cast<size_t>(e - s));  // the whole match
    else luaL_error(ms->L, "invalid capture index");
    return;
  }
  const ptrdiff_t l = ms->capture[i].len;
  if (l == kCapUnfinished) luaL_error(ms->L, "unfinished capture");
  if (l == kCapPosition) lua51::push_number(ms->L, static_cast<double>(ms->capture[i].init - ms->src_init + 1));
  else lua_pushlstring(ms->L, ms->capture[i].init, static_cast<size_t>(l));
}

int push_captures(MatchState* ms, const char* s, const char* e) {
  const int nlevels = (ms->level == 0 && s) ? 1 : ms->level;
  luaL_checkstack(ms->L, nlevels, "too many captures");
  for (int i = 0; i < nlevels; i++) push_onecapture(ms, i, s, e);
  return nlevels;
}

// 5.1's posrelat on a ptrdiff_t.
int64_t posrelat(int64_t pos, size_t len) {
  if (pos < 0) pos += static_cast<int64_t>(len) + 1;
  return pos >= 0 ? pos : 0;
}

int find_aux(lua_State* L, bool find) {
  const std::string_view subject = lua51::check_string(L, 1);
  const std::string_view pattern = lua51::check_string(L, 2);
  const char* s = subject.data();
  const size_t l1 = subject.size();
  const char* p = pattern.data();
  int64_t init = posrelat(lua51::opt_integer(L, 3, 1), l1) - 1;
  if (init < 0) init = 0;
  else if (static_cast<size_t>(init) > l1) init = static_cast<int64_t>(l1);
  if (find && (lua_toboolean(L, 4) || std::strpbrk(p, kSpecials) == nullptr)) {
    const char* s2 = lmemfind(s + init, l1 - static_cast<size_t>(init), p, pattern.size());
    if (s2) {
      lua51::push_number(L, static_cast<double>(s2 - s + 1));
      lua51::push_number(L, static_cast<double>(s2 - s + static_cast<ptrdiff_t>(pattern.size())));
      return 2;
    }
  } else {
    MatchState ms(L, s, l1, 1);
    const bool anchor = *p == '^';
    if (anchor) p++;
    const char* s1 = s + init;
    do {
      ms.level = 0;
      if (const char* res = match(&ms, s1, p); res != nullptr) {
        ms.charge_remaining();
        if (find) {
          lua51::push_number(L, static_cast<double>(s1 - s + 1));
          lua51::push_number(L, static_cast<double>(res - s));
          return push_captures(&ms, nullptr, nullptr) + 2;
        }
        return push_captures(&ms, s1, res);
      }
    } while (s1++ < ms.src_end && !anchor);
    ms.charge_remaining();
  }
  lua_pushnil(L);
  return 1;
}

int gmatch_aux(lua_State* L) {
  size_t ls = 0;
  const char* s = lua_tolstring(L, lua_upvalueindex(1), &ls);
  const char* p = lua_tostring(L, lua_upvalueindex(2));
  MatchState ms(L, s, ls, 4);
  for (const char* src = s + static_cast<size_t>(lua_tointeger(L, lua_upvalueindex(3))); src <= ms.src_end; src++) {
    ms.level = 0;
    if (const char* e = match(&ms, src, p); e != nullptr) {
      ms.charge_remaining();
      lua_Integer newstart = e - s;
      if (e == src) newstart++;  // an empty match: go on at least one position
      lua_pushinteger(L, newstart);
      lua_replace(L, lua_upvalueindex(3));
      return push_captures(&ms, src, e);
    }
  }
  ms.charge_remaining();
  return 0;
}

void add_s(MatchState* ms, luaL_Buffer* b, const char* s, const char* e) {
  size_t l = 0;
  const char* news = lua_tolstring(ms->L, 3, &l);
  for (size_t i = 0; i < l; i++) {
    if (news[i] != kEsc) {
      luaL_addchar(b, news[i]);
      continue;
    }
    i++;  // a '%' at the end reads the string's NUL, as 5.1 does
    if (!std::isdigit(uchar(news[i]))) {
      luaL_addchar(b, news[i]);
    } else if (news[i] == '0') {
      luaL_addlstring(b, s, static_cast<size_t>(e - s));
    } else {
      push_onecapture(ms, news[i] - '1', s, e);
      luaL_addvalue(b);
    }
  }
}

void add_value(MatchState* ms, luaL_Buffer* b, const char* s, const char* e) {
  lua_State* L = ms->L;
  switch (lua_type(L, 3)) {
    case LUA_TNUMBER:
    case LUA_TSTRING:
      add_s(ms, b, s, e);
      return;
    case LUA_TFUNCTION: {
      lua_pushvalue(L, 3);
      const int n = push_captures(ms, s, e);
      lua_call(L, n, 1);
      break;
    }
    case LUA_TTABLE:
      push_onecapture(ms, 0, s, e);
      lua_gettable(L, 3);
      break;
    default:
      break;
  }
  if (!lua_toboolean(L, -1)) {  // nil or false: the original text
    lua_pop(L, 1);
    lua_pushlstring(L, s, static_cast<size_t>(e - s));
  } else if (!lua_isstring(L, -1)) {
    luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
  } else if (lua_type(L, -1) == LUA_TNUMBER) {
    lua51::check_string(L, lua_gettop(L));  // added as 5.1 prints it
  }
  luaL_addvalue(b);
}

}  // namespace

int find(lua_State* L) { return find_aux(L, true); }

int match(lua_State* L) { return find_aux(L, false); }

int gmatch(lua_State* L) {
  lua51::check_string(L, 1);
  lua51::check_string(L, 2);
  lua_settop(L, 2);
  lua_pushinteger(L, 0);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushcclosure(L, gmatch_aux, 4);
  return 1;
}

int gsub(lua_State* L) {
  const std::string_view subject = lua51::check_string(L, 1);
  const char* src = subject.data();
  const char* p = lua51::check_string(L, 2).data();
  const int tr = lua_type(L, 3);
  const int max_s = lua_isnoneornil(L, 4) ? lua51::c_int(static_cast<int64_t>(subject.size()) + 1)
                                          : lua51::c_int(lua51::check_integer(L, 4));
  const bool anchor = *p == '^';
  if (anchor) p++;
  luaL_argcheck(L, tr == LUA_TNUMBER || tr == LUA_TSTRING || tr == LUA_TFUNCTION || tr == LUA_TTABLE, 3,
                "string/function/table expected");
  if (tr == LUA_TNUMBER) lua51::check_string(L, 3);  // its 5.1 text is the replacement
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  MatchState ms(L, src, subject.size(), 1);
  int n = 0;
  while (n < max_s) {
    ms.level = 0;
    const char* e = match(&ms, src, p);
    if (e) {
      n++;
      add_value(&ms, &b, src, e);
    }
    if (e && e > src) src = e;
    else if (src < ms.src_end) luaL_addchar(&b, *src++);
    else break;
    if (anchor) break;
  }
  ms.charge_remaining();
  luaL_addlstring(&b, src, static_cast<size_t>(ms.src_end - src));
  luaL_pushresult(&b);
  lua_pushinteger(L, n);
  return 2;
}

}  // namespace locksim::engine::lua51_pattern

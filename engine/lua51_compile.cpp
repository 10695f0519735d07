#include "engine/lua51_compile.hpp"

#include <cctype>
#include <cstddef>
#include <lua.hpp>
#include <utility>

namespace locksim::engine::lua51_compile {
namespace {

// What stands for each token 5.1 does not have: a control character, which 5.4's lexer makes a
// token of its own and its parser never expects; its messages name it "'<\N>'".
struct StandIn {
  char code;
  std::string_view token;  // as 5.1's messages name what it read there
  std::string_view named;  // as 5.4's messages name the stand-in
};
constexpr StandIn kStandIns[] = {
    {'\x01', "'&'", "'<\\1>'"}, {'\x02', "'|'", "'<\\2>'"}, {'\x03', "'~'", "'<\\3>'"}, {'\x04', "'/'", "'<\\4>'"},
    {'\x05', "'<'", "'<\\5>'"}, {'\x06', "'>'", "'<\\6>'"}, {'\x07', "':'", "'<\\7>'"},
};
char stand_in(char token) {
  for (const StandIn& s : kStandIns)
    if (s.token[1] == token) return s.code;
  return token;
}

bool is_name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// 5.1's llex.c, as far as telling tokens apart needs: names, numbers, strings (whose escapes it
// rewrites), long strings and comments, and the symbols. `out` is the source for 5.4.
class Reader {
 public:
  explicit Reader(std::string_view s) : s_(s) { out_.reserve(s.size()); }

  std::string run() {
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '-' && at(1) == '-') {
        comment();
      } else if (c == '[' && long_bracket_level(i_) >= 0) {
        long_bracket(long_bracket_level(i_));
        name_list_ = NameList::None;
      } else if (c == '"' || c == '\'') {
        string(c);
        name_list_ = NameList::None;
      } else if (is_name_start(c)) {
        name();
      } else if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && std::isdigit(static_cast<unsigned char>(at(1))))) {
        number();
      } else {
        symbol(c);
      }
    }
    return std::move(out_);
  }

 private:
  // After `local a, b`, where a '<' can only be 5.4's attribute.
  enum class NameList { None, AfterLocal, AfterName, AfterComma };

  char at(size_t ahead) const { return i_ + ahead < s_.size() ? s_[i_ + ahead] : '\0'; }
  void copy(size_t n) {
    out_.append(s_.substr(i_, n));
    i_ += n;
  }

  // The number of '=' of a long bracket opening at `at` ("[==["), or -1.
  int long_bracket_level(size_t at) const {
    size_t j = at + 1;
    while (j < s_.size() && s_[j] == '=') ++j;
    return j < s_.size() && s_[j] == '[' ? static_cast<int>(j - at - 1) : -1;
  }

  void long_bracket(int level) {
    const std::string close = "]" + std::string(static_cast<size_t>(level), '=') + "]";
    const size_t end = s_.find(close, i_ + static_cast<size_t>(level) + 2);
    copy(end == std::string_view::npos ? s_.size() - i_ : end + close.size() - i_);  // unfinished: 5.4 says so
  }

  void comment() {
    copy(2);
    if (at(0) == '[' && long_bracket_level(i_) >= 0) {
      long_bracket(long_bracket_level(i_));
      return;
    }
    while (i_ < s_.size() && s_[i_] != '\n' && s_[i_] != '\r') copy(1);
  }

  // An escape 5.1 does not know stands for the character after the backslash.
  void string(char quote) {
    copy(1);
    while (i_ < s_.size() && s_[i_] != quote) {
      const char c = s_[i_];
      if (c == '\n' || c == '\r') return;  // unfinished: 5.4 says so
      if (c != '\\') {
        copy(1);
        continue;
      }
      const char e = at(1);
      if (e == '\n' || e == '\r') {
        copy(2);  // an escaped line break, "\r\n" or "\n\r" as one, as both read it
        if ((at(0) == '\n' || at(0) == '\r') && at(0) != e) copy(1);
      } else if (e == '\0' || std::string_view("abfnrtv\\\"'").find(e) != std::string_view::npos ||
                 std::isdigit(static_cast<unsigned char>(e))) {
        copy(e == '\0' ? 1 : 2);
      } else {
        ++i_;  // the backslash goes; the character stays
        copy(1);
      }
    }
    if (i_ < s_.size()) copy(1);
  }

  void name() {
    size_t j = i_;
    while (j < s_.size() && is_name_char(s_[j])) ++j;
    const std::string_view word = s_.substr(i_, j - i_);
    for_header(word);
    // 5.1 reads goto as a name: `goto continue` fails there as "'=' expected near 'continue'". As
    // any other name, 5.4 fails it the same way.
    if (word == "goto" && next_is_name(j)) {
      out_ += "_oto";
      i_ = j;
    } else {
      copy(j - i_);
    }
    if (word == "local") name_list_ = NameList::AfterLocal;
    else if (word == "function") name_list_ = NameList::None;
    else if (name_list_ == NameList::AfterLocal || name_list_ == NameList::AfterComma) name_list_ = NameList::AfterName;
    else name_list_ = NameList::None;
  }

  bool next_is_name(size_t j) const {
    while (j < s_.size() && std::isspace(static_cast<unsigned char>(s_[j]))) ++j;
    return j < s_.size() && is_name_start(s_[j]);
  }

  // 5.1's read_numeral: digits and points, an exponent's sign, then letters, digits and '_'.
  void number() {
    size_t j = i_;
    while (j < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[j])) || s_[j] == '.')) ++j;
    if (j < s_.size() && (s_[j] == 'e' || s_[j] == 'E')) {
      ++j;
      if (j < s_.size() && (s_[j] == '+' || s_[j] == '-')) ++j;
    }
    while (j < s_.size() && is_name_char(s_[j])) ++j;
    copy(j - i_);
    name_list_ = NameList::None;
  }

  void symbol(char c) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      copy(1);
      return;
    }
    if (for_ != For::None && for_symbol(c)) return;
    const NameList before = name_list_;
    name_list_ = NameList::None;
    const char next = at(1);
    if (c == ',' && before == NameList::AfterName) {
      name_list_ = NameList::AfterComma;
      copy(1);
    } else if ((c == '=' || c == '<' || c == '>' || c == '~') && next == '=') {
      copy(2);  // ==, <=, >=, ~=: 5.1's too
    } else if (c == '.') {
      copy(next == '.' ? (at(2) == '.' ? 3 : 2) : 1);
    } else if (c == '&' || c == '|' || c == '~') {
      out_ += stand_in(c);
      ++i_;
    } else if (c == '<' && before == NameList::AfterName) {
      out_ += stand_in('<');  // local x <const>
      ++i_;
    } else if ((c == '/' || c == '<' || c == '>') && next == c) {
      // 5.1 reads two tokens and fails at the second.
      out_ += c;
      out_ += stand_in(c);
      i_ += 2;
    } else if (c == ':' && next == ':') {
      out_ += stand_in(':');
      out_ += ':';
      i_ += 2;
    } else {
      copy(1);
    }
  }

  // --- a numeric for's header: `for NAME = start, limit [, step] do` -------------------------------
  enum class For { None, AfterFor, AfterName, Start, Limit, Step };

  // A name in or before a header, before it is copied.
  void for_header(std::string_view word) {
    if (word == "for") {
      for_ = For::AfterFor;
    } else if (for_ == For::AfterFor) {
      for_ = For::AfterName;
    } else if (for_ == For::AfterName || word == "function") {
      for_ = For::None;  // `for k, v in`; or a function inside the header, which is left as it is
    } else if (word == "do" && depth_ == 0 && (for_ == For::Limit || for_ == For::Step)) {
      if (for_ == For::Step) wrap(part_at_);
      for_ = For::None;
    }
  }

  // A symbol in a header; true when it was copied here.
  bool for_symbol(char c) {
    if (for_ == For::AfterFor) {
      for_ = For::None;
      return false;
    }
    if (for_ == For::AfterName) {
      if (c != '=' || at(1) == '=') {
        for_ = For::None;
        return false;
      }
      copy(1);
      for_ = For::Start;
      part_at_ = out_.size();
      depth_ = 0;
      return true;
    }
    if (c == '(' || c == '[' || c == '{') ++depth_;
    if (c == ')' || c == ']' || c == '}') --depth_;
    if (c != ',' || depth_ != 0) return false;
    if (for_ == For::Start) {
      wrap(part_at_);
      for_ = For::Limit;
    } else if (for_ == For::Limit) {
      copy(1);
      for_ = For::Step;
      part_at_ = out_.size();
      return true;
    }
    return false;
  }

  // Wraps what was written since `from` in kForNumber's call, unless it is a number literal already
  // an integer in 5.4 (digits, maybe a minus).
  void wrap(size_t from) {
    const std::string_view part = std::string_view(out_).substr(from);
    const size_t first = part.find_first_not_of(" \t\r\n");
    const size_t last = part.find_last_not_of(" \t\r\n");
    if (first != std::string_view::npos) {
      std::string_view core = part.substr(first, last - first + 1);
      if (core.starts_with('-')) core.remove_prefix(1);
      if (!core.empty() && core.find_first_not_of("0123456789") == std::string_view::npos && core.size() < 15) return;
    }
    out_.insert(from, std::string(kForNumber) + "(");
    out_ += ')';
  }

  std::string_view s_;
  size_t i_ = 0;
  std::string out_;
  NameList name_list_ = NameList::None;
  For for_ = For::None;
  size_t part_at_ = 0;  // where the header's current part began in out_
  int depth_ = 0;       // brackets open in it
};

}  // namespace

std::string as_54_source(std::string_view source) { return Reader(source).run(); }

std::string as_lua51_compile_message(std::string_view message) {
  // Lua 5.4 leaves these pseudo-tokens unquoted; Lua 5.1 quotes them (and has no <integer>).
  static constexpr std::pair<std::string_view, std::string_view> kTokens[] = {
      {"<eof>", "'<eof>'"}, {"<name>", "'<name>'"}, {"<string>", "'<string>'"},
      {"<number>", "'<number>'"}, {"<integer>", "'<number>'"}};
  std::string out;
  out.reserve(message.size() + 8);
  for (size_t i = 0; i < message.size();) {
    bool replaced = false;
    if (message[i] == '<' && (i == 0 || message[i - 1] != '\'')) {
      for (const auto& [from, to] : kTokens) {
        if (message.substr(i, from.size()) == from) {
          out += to;
          i += from.size();
          replaced = true;
          break;
        }
      }
    }
    if (!replaced) out += message[i++];
  }
  // 5.4: "unfinished long string (starting at line 3) near '<eof>'"; 5.1 does not say where.
  if (const size_t at = out.find(" (starting at line "); at != std::string::npos) {
    if (const size_t end = out.find(')', at); end != std::string::npos) out.erase(at, end + 1 - at);
  }
  for (const StandIn& s : kStandIns)
    if (const size_t at = out.find(s.named); at != std::string::npos) out.replace(at, s.named.size(), s.token);
  // An expression statement that is neither a call nor followed by '=' or ',' ("x y"): 5.4 says
  // "syntax error", 5.1 expects the assignment's '='. (Assigning to a non-variable, "f() = 1", is
  // a "syntax error" near the '=' or ',' in both.) 5.1 says "syntax error" first where the
  // statement is a bare parenthesized expression ("(a) b"); the message cannot tell that apart
  // (docs/fidelity.md).
  static constexpr std::string_view kSyntaxError = ": syntax error";
  if (const size_t at = out.find(kSyntaxError); at != std::string::npos) {
    const std::string_view rest = std::string_view(out).substr(at + kSyntaxError.size());
    if (rest.empty() || (rest.starts_with(" near ") && !rest.starts_with(" near '='") && !rest.starts_with(" near ','")))
      out.replace(at, kSyntaxError.size(), ": '=' expected");
  }
  return out;
}

int load(lua_State* L, std::string_view source, const char* chunkname) {
  const std::string text = as_54_source(source);
  const int status = luaL_loadbufferx(L, text.data(), text.size(), chunkname, "t");
  if (status != LUA_OK && lua_type(L, -1) == LUA_TSTRING) {
    size_t length = 0;
    const char* message = lua_tolstring(L, -1, &length);
    const std::string reworded = as_lua51_compile_message(std::string_view(message, length));
    lua_pushlstring(L, reworded.data(), reworded.size());
    lua_replace(L, -2);
  }
  return status;
}

}  // namespace locksim::engine::lua51_compile

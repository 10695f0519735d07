#include "base/split_args.hpp"

#include <cctype>

namespace locksim {
namespace {

bool is_hex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }
int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  return std::tolower(static_cast<unsigned char>(c)) - 'a' + 10;
}

}  // namespace

std::optional<std::vector<std::string>> split_args(std::string_view line) {
  // The C string sdssplitargs sees: it stops at a NUL byte.
  line = line.substr(0, line.find('\0'));
  auto at = [&](size_t i) { return i < line.size() ? line[i] : '\0'; };
  auto space = [](char c) { return c != '\0' && std::isspace(static_cast<unsigned char>(c)) != 0; };
  std::vector<std::string> args;
  size_t p = 0;
  while (true) {
    while (space(at(p))) ++p;
    if (at(p) == '\0') return args;
    bool inq = false, insq = false, done = false;
    std::string current;
    while (!done) {
      const char c = at(p);
      if (inq) {
        if (c == '\\' && at(p + 1) == 'x' && is_hex(at(p + 2)) && is_hex(at(p + 3))) {
          current += static_cast<char>(hex_value(at(p + 2)) * 16 + hex_value(at(p + 3)));
          p += 3;
        } else if (c == '\\' && at(p + 1) != '\0') {
          ++p;
          switch (at(p)) {
            case 'n': current += '\n'; break;
            case 'r': current += '\r'; break;
            case 't': current += '\t'; break;
            case 'b': current += '\b'; break;
            case 'a': current += '\a'; break;
            default: current += at(p); break;
          }
        } else if (c == '"') {
          // A closing quote must be followed by a space or the end.
          if (at(p + 1) != '\0' && !space(at(p + 1))) return std::nullopt;
          done = true;
        } else if (c == '\0') {
          return std::nullopt;
        } else {
          current += c;
        }
      } else if (insq) {
        if (c == '\\' && at(p + 1) == '\'') {
          ++p;
          current += '\'';
        } else if (c == '\'') {
          if (at(p + 1) != '\0' && !space(at(p + 1))) return std::nullopt;
          done = true;
        } else if (c == '\0') {
          return std::nullopt;
        } else {
          current += c;
        }
      } else {
        switch (c) {
          case ' ': case '\n': case '\r': case '\t': case '\0': done = true; break;
          case '"': inq = true; break;
          case '\'': insq = true; break;
          default: current += c; break;
        }
      }
      if (at(p) != '\0') ++p;
    }
    args.push_back(std::move(current));
  }
}

}  // namespace locksim

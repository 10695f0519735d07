#include "shell/redis_cli_format.hpp"

#include <cctype>
#include <cstdio>

namespace locksim::shell {
namespace {

bool is_hex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  return std::tolower(static_cast<unsigned char>(c)) - 'a' + 10;
}

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

std::string format_tty(const Reply& reply, const std::string& prefix) {
  using Kind = Reply::Kind;
  switch (reply.kind) {
    case Kind::Error: return "(error) " + reply.str + "\n";
    case Kind::Status: return reply.str + "\n";
    case Kind::Integer: return "(integer) " + std::to_string(reply.integer) + "\n";
    case Kind::Bulk: return quote_bytes(reply.str) + "\n";
    case Kind::Nil: return "(nil)\n";
    case Kind::Sequence: {
      std::string out;
      for (const auto& r : reply.elements) out += format_tty(r, prefix);
      return out;
    }
    case Kind::Array: {
      if (reply.elements.empty()) return "(empty array)\n";
      size_t width = 0;
      for (size_t i = reply.elements.size(); i > 0 || width == 0; i /= 10) ++width;
      const std::string child_prefix = prefix + std::string(width + 2, ' ');
      std::string out;
      for (size_t i = 0; i < reply.elements.size(); ++i) {
        char index[32];
        std::snprintf(index, sizeof index, "%*zu) ", static_cast<int>(width), i + 1);
        out += (i == 0 ? "" : prefix) + std::string(index);
        out += format_tty(reply.elements[i], child_prefix);
      }
      return out;
    }
  }
  return "\n";
}

}  // namespace

std::optional<std::vector<std::string>> split_cli_args(std::string_view line) {
  std::vector<std::string> words;
  size_t p = 0;
  auto at = [&](size_t i) { return i < line.size() ? line[i] : '\0'; };
  while (true) {
    while (p < line.size() && is_space(line[p])) ++p;
    if (p >= line.size()) return words;
    std::string current;
    bool in_double = false, in_single = false, done = false;
    while (!done) {
      const char c = at(p);
      if (in_double) {
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
          if (at(p + 1) != '\0' && !is_space(at(p + 1))) return std::nullopt;
          done = true;
        } else if (c == '\0') {
          return std::nullopt;
        } else {
          current += c;
        }
      } else if (in_single) {
        if (c == '\\' && at(p + 1) == '\'') {
          ++p;
          current += '\'';
        } else if (c == '\'') {
          if (at(p + 1) != '\0' && !is_space(at(p + 1))) return std::nullopt;
          done = true;
        } else if (c == '\0') {
          return std::nullopt;
        } else {
          current += c;
        }
      } else {
        switch (c) {
          case ' ': case '\n': case '\r': case '\t': case '\0': done = true; break;
          case '"': in_double = true; break;
          case '\'': in_single = true; break;
          default: current += c; break;
        }
      }
      if (p < line.size()) ++p;
    }
    words.push_back(std::move(current));
  }
}

std::string format_cli_reply(const Reply& reply) { return format_tty(reply, ""); }

std::string quote_bytes(std::string_view bytes) {
  std::string out = "\"";
  for (const char c : bytes) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\a': out += "\\a"; break;
      case '\b': out += "\\b"; break;
      default:
        if (std::isprint(static_cast<unsigned char>(c))) {
          out += c;
        } else {
          char hex[8];
          std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(c));
          out += hex;
        }
    }
  }
  return out + "\"";
}

}  // namespace locksim::shell

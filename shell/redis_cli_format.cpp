#include "shell/redis_cli_format.hpp"

#include "base/split_args.hpp"

#include <cctype>
#include <cstdio>

namespace locksim::shell {
namespace {

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

// cliFormatReplyRaw: an error keeps its own newline, array elements are joined by one.
std::string format_raw(const Reply& reply) {
  using Kind = Reply::Kind;
  switch (reply.kind) {
    case Kind::Error: return reply.str + "\n";
    case Kind::Status:
    case Kind::Bulk: return reply.str;
    case Kind::Integer: return std::to_string(reply.integer);
    case Kind::Nil: return "";
    case Kind::Array: {
      std::string out;
      for (size_t i = 0; i < reply.elements.size(); ++i) out += (i == 0 ? "" : "\n") + format_raw(reply.elements[i]);
      return out;
    }
    case Kind::Sequence: break;  // top-level only: format_cli_reply splits it
  }
  return "";
}

}  // namespace

std::optional<std::vector<std::string>> split_cli_args(std::string_view line) { return split_args(line); }

std::string format_cli_reply(const Reply& reply, CliOutput output) {
  if (output == CliOutput::Standard) return format_tty(reply, "");
  if (reply.kind == Reply::Kind::Sequence) {
    std::string out;
    for (const Reply& r : reply.elements) out += format_cli_reply(r, output);
    return out;
  }
  return format_raw(reply) + "\n";  // cliFormatReply's delimiter between replies
}

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

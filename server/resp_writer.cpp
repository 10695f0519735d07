#include "server/resp_writer.hpp"

namespace locksim::server {
namespace {

void append_line(std::string& out, char type, std::string_view text) {
  out += type;
  out += text;
  out += "\r\n";
}

void append_bulk(std::string& out, std::string_view s) {
  append_line(out, '$', std::to_string(s.size()));
  out += s;
  out += "\r\n";
}

}  // namespace

void append_reply(std::string& out, const Reply& reply, Protocol protocol) {
  switch (reply.kind) {
    case Reply::Kind::Nil:
      out += protocol == Protocol::Resp3 ? "_\r\n" : "$-1\r\n";
      return;
    case Reply::Kind::Integer:
      append_line(out, ':', std::to_string(reply.integer));
      return;
    case Reply::Kind::Bulk:
      append_bulk(out, reply.str);
      return;
    case Reply::Kind::Status:
      append_line(out, '+', reply.str);
      return;
    case Reply::Kind::Error:
      append_line(out, '-', reply.str);
      return;
    case Reply::Kind::Array:
      append_line(out, '*', std::to_string(reply.elements.size()));
      for (const Reply& element : reply.elements) append_reply(out, element, protocol);
      return;
    case Reply::Kind::Sequence:
      for (const Reply& element : reply.elements) append_reply(out, element, protocol);
      return;
  }
}

void append_push(std::string& out, const std::vector<std::string_view>& items, Protocol protocol) {
  append_line(out, protocol == Protocol::Resp3 ? '>' : '*', std::to_string(items.size()));
  for (std::string_view item : items) append_bulk(out, item);
}

void append_map(std::string& out, const std::vector<std::pair<std::string, Reply>>& fields, Protocol protocol) {
  if (protocol == Protocol::Resp3)
    append_line(out, '%', std::to_string(fields.size()));
  else
    append_line(out, '*', std::to_string(fields.size() * 2));
  for (const auto& [name, value] : fields) {
    append_bulk(out, name);
    append_reply(out, value, protocol);
  }
}

}  // namespace locksim::server

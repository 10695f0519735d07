#include "base/reply.hpp"

namespace locksim {

std::string describe(const Reply& reply) {
  switch (reply.kind) {
    case Reply::Kind::Nil: return "nil";
    case Reply::Kind::Integer: return std::to_string(reply.integer);
    case Reply::Kind::Bulk: return "\"" + reply.str + "\"";
    case Reply::Kind::Status: return "+" + reply.str;
    case Reply::Kind::Error: return "-" + reply.str;
    case Reply::Kind::Array:
    case Reply::Kind::Sequence: {
      std::string out = reply.kind == Reply::Kind::Array ? "[" : "<";
      for (size_t i = 0; i < reply.elements.size(); ++i) {
        if (i) out += ", ";
        out += describe(reply.elements[i]);
      }
      return out + (reply.kind == Reply::Kind::Array ? "]" : ">");
    }
  }
  return "?";
}

}  // namespace locksim

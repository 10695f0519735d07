#include "server/resp_writer.hpp"

#include <cctype>

namespace locksim::server {
namespace {

bool same(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

// A score as RESP3's double: Redis prints it with %.17g, and inf as "inf".
void append_double(std::string& out, const Reply& r) {
  if (r.kind != Reply::Kind::Bulk) {
    append_reply(out, r, Protocol::Resp3);
    return;
  }
  out += ',';
  out += r.str;
  out += "\r\n";
}

void append_line(std::string& out, char type, std::string_view text) {
  out += type;
  out += text;
  out += "\r\n";
}

// [member, score] with the score a double.
void append_score_pair(std::string& out, const Reply& member, const Reply& score) {
  out += "*2\r\n";
  append_reply(out, member, Protocol::Resp3);
  append_double(out, score);
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
      out += protocol == Protocol::Resp3 ? "_\r\n" : reply.null_array ? "*-1\r\n" : "$-1\r\n";
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

Resp3Shape resp3_shape(const std::vector<std::string>& argv) {
  if (argv.empty()) return Resp3Shape::Plain;
  const std::string& cmd = argv[0];
  if (same(cmd, "hgetall") || same(cmd, "hello")) return Resp3Shape::Map;
  if (same(cmd, "config") && argv.size() >= 2 && same(argv[1], "get")) return Resp3Shape::Map;
  if (same(cmd, "zscore") || same(cmd, "zincrby")) return Resp3Shape::Double;
  if (same(cmd, "zadd"))
    for (const std::string& a : argv)
      if (same(a, "incr")) return Resp3Shape::Double;
  if (same(cmd, "zmscore")) return Resp3Shape::Doubles;
  if (same(cmd, "hrandfield"))
    for (const std::string& a : argv)
      if (same(a, "withvalues")) return Resp3Shape::Pairs;
  // Redis 7.0's genericZpopCommand: nested pairs for a count, flat for a single pop.
  if (same(cmd, "zpopmin") || same(cmd, "zpopmax"))
    return argv.size() == 3 ? Resp3Shape::ScorePairs : Resp3Shape::FlatScores;
  if (same(cmd, "bzpopmin") || same(cmd, "bzpopmax")) return Resp3Shape::KeyFlatScores;
  if (same(cmd, "zmpop") || same(cmd, "bzmpop")) return Resp3Shape::KeyNestedScores;
  if (same(cmd, "zrange") || same(cmd, "zrangebyscore") || same(cmd, "zrevrange") || same(cmd, "zrevrangebyscore") ||
      same(cmd, "zunion") || same(cmd, "zinter") || same(cmd, "zdiff") || same(cmd, "zrandmember"))
    for (const std::string& a : argv)
      if (same(a, "withscores")) return Resp3Shape::ScorePairs;
  return Resp3Shape::Plain;
}

void append_shaped(std::string& out, const Reply& reply, Protocol protocol, Resp3Shape shape) {
  if (protocol != Protocol::Resp3 || shape == Resp3Shape::Plain || reply.is_error()) {
    append_reply(out, reply, protocol);
    return;
  }
  switch (shape) {
    case Resp3Shape::Plain:
      break;
    case Resp3Shape::Double:
      append_double(out, reply);
      return;
    case Resp3Shape::Map:
      if (reply.kind != Reply::Kind::Array) break;
      append_line(out, '%', std::to_string(reply.elements.size() / 2));
      for (const Reply& e : reply.elements) append_reply(out, e, protocol);
      return;
    case Resp3Shape::Pairs:
      if (reply.kind != Reply::Kind::Array) break;
      append_line(out, '*', std::to_string(reply.elements.size() / 2));
      for (size_t i = 0; i + 1 < reply.elements.size(); i += 2) {
        out += "*2\r\n";
        append_reply(out, reply.elements[i], protocol);
        append_reply(out, reply.elements[i + 1], protocol);
      }
      return;
    case Resp3Shape::ScorePairs:
      if (reply.kind != Reply::Kind::Array) break;
      append_line(out, '*', std::to_string(reply.elements.size() / 2));
      for (size_t i = 0; i + 1 < reply.elements.size(); i += 2)
        append_score_pair(out, reply.elements[i], reply.elements[i + 1]);
      return;
    case Resp3Shape::Doubles:
    case Resp3Shape::FlatScores:
    case Resp3Shape::KeyFlatScores: {
      if (reply.kind != Reply::Kind::Array) break;
      // Which elements are scores: all (ZMSCORE), the odd ones ([m, s]), or the even ones after
      // the key ([key, m, s]).
      const size_t first = shape == Resp3Shape::Doubles ? 0 : shape == Resp3Shape::FlatScores ? 1 : 2;
      const size_t step = shape == Resp3Shape::Doubles ? 1 : 2;
      append_line(out, '*', std::to_string(reply.elements.size()));
      for (size_t i = 0; i < reply.elements.size(); ++i) {
        if (i >= first && (i - first) % step == 0) append_double(out, reply.elements[i]);
        else append_reply(out, reply.elements[i], protocol);
      }
      return;
    }
    case Resp3Shape::KeyNestedScores:
      if (reply.kind != Reply::Kind::Array || reply.elements.size() != 2 ||
          reply.elements[1].kind != Reply::Kind::Array)
        break;
      out += "*2\r\n";
      append_reply(out, reply.elements[0], protocol);
      append_line(out, '*', std::to_string(reply.elements[1].elements.size()));
      for (const Reply& pair : reply.elements[1].elements) {
        if (pair.kind == Reply::Kind::Array && pair.elements.size() == 2)
          append_score_pair(out, pair.elements[0], pair.elements[1]);
        else
          append_reply(out, pair, protocol);
      }
      return;
  }
  append_reply(out, reply, protocol);
}

void append_push(std::string& out, const std::vector<std::string_view>& items, Protocol protocol) {
  append_line(out, protocol == Protocol::Resp3 ? '>' : '*', std::to_string(items.size()));
  for (std::string_view item : items) append_bulk(out, item);
}

}  // namespace locksim::server

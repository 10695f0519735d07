// The request parser under random input: commands encoded as RESP and cut into random pieces parse
// back to themselves; arbitrary bytes never crash it, never make it hold more than it was fed, and
// end in commands, a wait for more, or one of Redis's protocol errors.
#include "server/request_parser.hpp"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace locksim::server {
namespace {

using Argv = std::vector<std::string>;

std::string encode(const std::vector<Argv>& commands) {
  std::string out;
  for (const Argv& argv : commands) {
    out += "*" + std::to_string(argv.size()) + "\r\n";
    for (const std::string& a : argv) out += "$" + std::to_string(a.size()) + "\r\n" + a + "\r\n";
  }
  return out;
}

// Feeds `bytes` in pieces of the given sizes (cycled), collecting every command.
std::vector<Argv> feed_in_pieces(RequestParser& p, const std::string& bytes, const std::vector<size_t>& sizes) {
  std::vector<Argv> got;
  Argv argv;  // one buffer for every command, as serve reuses it: what it held must never leak into the next
  size_t pos = 0, i = 0;
  while (pos < bytes.size()) {
    const size_t n = std::min(bytes.size() - pos, std::max<size_t>(1, sizes.empty() ? bytes.size() : sizes[i++ % sizes.size()]));
    p.feed(std::string_view(bytes).substr(pos, n));
    pos += n;
    while (p.next(argv)) got.push_back(argv);
  }
  return got;
}

RC_GTEST_PROP(RequestParserProperty, EncodedCommandsCutAnywhereParseBack, ()) {
  const auto commands = *rc::gen::container<std::vector<Argv>>(
      *rc::gen::inRange<size_t>(0, 8), rc::gen::nonEmpty(rc::gen::container<Argv>(*rc::gen::inRange<size_t>(1, 6),
                                                                                     rc::gen::arbitrary<std::string>())));
  const auto sizes = *rc::gen::container<std::vector<size_t>>(*rc::gen::inRange<size_t>(1, 5), rc::gen::inRange<size_t>(1, 40));
  RequestParser p;
  RC_ASSERT(feed_in_pieces(p, encode(commands), sizes) == commands);
  RC_ASSERT(!p.error());
  RC_ASSERT(p.buffered() == 0u);
}

RC_GTEST_PROP(RequestParserProperty, ArbitraryBytesEndInCommandsAWaitOrARedisError, ()) {
  // Bytes drawn mostly from RESP's own alphabet, so that the parser's branches are reached.
  const auto bytes = *rc::gen::container<std::string>(
      rc::gen::weightedOneOf<char>({{6, rc::gen::elementOf(std::string("*$\r\n0123456789-:+\"' \\x"))},
                                    {1, rc::gen::arbitrary<char>()}}));
  const auto sizes = *rc::gen::container<std::vector<size_t>>(*rc::gen::inRange<size_t>(1, 4), rc::gen::inRange<size_t>(1, 16));
  ParserLimits limits;
  limits.inline_max_size = 64;
  limits.proto_max_bulk_len = 1000;
  RequestParser p(limits);
  const auto commands = feed_in_pieces(p, bytes, sizes);
  for (const Argv& argv : commands) RC_ASSERT(!argv.empty());
  RC_ASSERT(p.buffered() <= bytes.size());
  static const std::set<std::string> kErrors = {
      "ERR Protocol error: invalid multibulk length",  "ERR Protocol error: invalid bulk length",
      "ERR Protocol error: too big inline request",    "ERR Protocol error: too big mbulk count string",
      "ERR Protocol error: too big bulk count string", "ERR Protocol error: unbalanced quotes in request"};
  if (p.error()) RC_ASSERT(kErrors.count(*p.error()) == 1 || p.error()->rfind("ERR Protocol error: expected '$', got '", 0) == 0);
}

}  // namespace
}  // namespace locksim::server

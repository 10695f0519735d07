#include "server/request_parser.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace locksim::server {
namespace {

using Argv = std::vector<std::string>;

// Every command in `input`, fed in one piece, and the error that stopped the parser ("" none).
std::pair<std::vector<Argv>, std::string> parse(std::string_view input, ParserLimits limits = {},
                                                 bool authenticated = true) {
  RequestParser p(limits);
  p.set_authenticated(authenticated);
  std::vector<Argv> commands;
  p.feed(input);
  for (std::vector<std::string> argv; p.next(argv);) commands.push_back(argv);
  return {commands, p.error().value_or("")};
}

TEST(RequestParser, MultibulkCommandsInOneRead) {
  const auto [commands, error] = parse("*2\r\n$3\r\nGET\r\n$1\r\na\r\n*3\r\n$3\r\nSET\r\n$1\r\nb\r\n$0\r\n\r\n");
  EXPECT_EQ(error, "");
  EXPECT_EQ(commands, (std::vector<Argv>{{"GET", "a"}, {"SET", "b", ""}}));
}

TEST(RequestParser, BytesArrivingOneByOneGiveTheSameCommands) {
  using namespace std::string_literals;
  const std::string input = "*3\r\n$3\r\nSET\r\n$5\r\nk\r\ney\r\n$4\r\nv\0lu\r\nPING\r\n"s;
  RequestParser p;
  std::vector<Argv> commands;
  for (char c : input) {
    p.feed(std::string_view(&c, 1));
    for (std::vector<std::string> argv; p.next(argv);) commands.push_back(argv);
  }
  EXPECT_EQ(commands, (std::vector<Argv>{{"SET", "k\r\ney", std::string("v\0lu", 4)}, {"PING"}}));
  EXPECT_FALSE(p.error());
}

TEST(RequestParser, InlineCommandsSplitAsSdssplitargs) {
  const auto [commands, error] = parse("SET k \"a b\\x41\\n\" 'it''s'\r\n\r\n  get   k  \nECHO 'don\\'t'\n");
  EXPECT_EQ(error, "ERR Protocol error: unbalanced quotes in request");
  EXPECT_EQ(commands, (std::vector<Argv>{}));  // 'it''s': a closing quote must be followed by a space

  const auto [ok, none] = parse("SET k \"a b\\x41\\n\"\r\n\r\n  get   k  \nECHO 'don\\'t'\n");
  EXPECT_EQ(none, "");
  EXPECT_EQ(ok, (std::vector<Argv>{{"SET", "k", "a bA\n"}, {"get", "k"}, {"ECHO", "don't"}}));
}

TEST(RequestParser, ProtocolErrorsAreRedisTexts) {
  EXPECT_EQ(parse("*x\r\n").second, "ERR Protocol error: invalid multibulk length");
  EXPECT_EQ(parse("*3000000000\r\n").second, "ERR Protocol error: invalid multibulk length");
  EXPECT_EQ(parse("*1\r\n:1\r\n").second, "ERR Protocol error: expected '$', got ':'");
  EXPECT_EQ(parse("*1\r\n$-1\r\n").second, "ERR Protocol error: invalid bulk length");
  EXPECT_EQ(parse("*1\r\n$01\r\na\r\n").second, "ERR Protocol error: invalid bulk length");
  EXPECT_EQ(parse("\"unclosed\r\n").second, "ERR Protocol error: unbalanced quotes in request");
  ParserLimits small;
  small.proto_max_bulk_len = 10;
  EXPECT_EQ(parse("*1\r\n$11\r\n", small).second, "ERR Protocol error: invalid bulk length");
}

TEST(RequestParser, LinesWithoutAnEndAreBoundedLikeRedis) {
  EXPECT_EQ(parse(std::string(70 * 1024, 'a')).second, "ERR Protocol error: too big inline request");
  EXPECT_EQ(parse("*" + std::string(70 * 1024, '1')).second, "ERR Protocol error: too big mbulk count string");
  EXPECT_EQ(parse("*1\r\n$" + std::string(70 * 1024, '1')).second, "ERR Protocol error: too big bulk count string");
  // Under the limit, an unfinished line just waits for more.
  EXPECT_EQ(parse(std::string(1000, 'a')).second, "");
}

TEST(RequestParser, BeforeAuthArgumentsAreBounded) {
  EXPECT_EQ(parse("*11\r\n", {}, false).second, "ERR Protocol error: unauthenticated multibulk length");
  EXPECT_EQ(parse("*1\r\n$16385\r\n", {}, false).second, "ERR Protocol error: unauthenticated bulk length");
  EXPECT_EQ(parse("*1\r\n$16385\r\n", {}, true).second, "");
}

TEST(RequestParser, EmptyArraysAndBlankLinesAreSkipped) {
  const auto [commands, error] = parse("*0\r\n*-1\r\n\r\n\n*1\r\n$4\r\nPING\r\n");
  EXPECT_EQ(error, "");
  EXPECT_EQ(commands, (std::vector<Argv>{{"PING"}}));
}

TEST(RequestParser, TheQueryBufferLimitRefusesMore) {
  ParserLimits limits;
  limits.client_query_buffer_limit = 100;
  RequestParser p(limits);
  EXPECT_TRUE(p.feed("*1\r\n$200\r\n"));
  EXPECT_FALSE(p.feed(std::string(150, 'x')));
}

TEST(RequestParser, AHugeCountHoldsNothingUntilItsArgumentsCome) {
  RequestParser p;
  p.feed("*1000000000\r\n$1\r\na\r\n");
  std::vector<std::string> argv;
  EXPECT_FALSE(p.next(argv));
  EXPECT_FALSE(p.error());
  EXPECT_LT(p.buffered(), 100u);
}

}  // namespace
}  // namespace locksim::server

// Unit: redis-cli's argument splitting and its --no-raw and --raw printing (shell/redis_cli_format.cpp).
#include <gtest/gtest.h>

#include "shell/redis_cli_format.hpp"

namespace locksim::shell {
namespace {



using Words = std::vector<std::string>;

TEST(SplitCliArgs, SpacesSeparateAndQuotesGroup) {
  EXPECT_EQ(split_cli_args("  SET  k   v "), (Words{"SET", "k", "v"}));
  EXPECT_EQ(split_cli_args("SET k \"hello world\""), (Words{"SET", "k", "hello world"}));
  EXPECT_EQ(split_cli_args("SET k 'single quoted'"), (Words{"SET", "k", "single quoted"}));
  EXPECT_EQ(split_cli_args(""), Words{});
  EXPECT_EQ(split_cli_args("ECHO \"\""), (Words{"ECHO", ""}));
}

TEST(SplitCliArgs, DoubleQuotesTakeEscapes) {
  EXPECT_EQ(split_cli_args(R"(E "a\nb\tc\"d\\e\x41\x7a")"), (Words{"E", "a\nb\tc\"d\\eAz"}));
  EXPECT_EQ(split_cli_args(R"(E "\x00\xff")"), (Words{"E", std::string("\0\xff", 2)}));
  EXPECT_EQ(split_cli_args(R"(E "\xZZ")"), (Words{"E", "xZZ"}));
  EXPECT_EQ(split_cli_args(R"(E 'it\'s' 'a\nb')"), (Words{"E", "it's", "a\\nb"}));
}

TEST(SplitCliArgs, UnbalancedOrGluedQuotesAreInvalid) {
  EXPECT_EQ(split_cli_args("GET \"open"), std::nullopt);
  EXPECT_EQ(split_cli_args("GET 'open"), std::nullopt);
  EXPECT_EQ(split_cli_args("GET \"k\"x"), std::nullopt);
  EXPECT_EQ(split_cli_args("GET 'k'x"), std::nullopt);
  EXPECT_EQ(split_cli_args("GET a\"b\""), (Words{"GET", "ab"}));
}

TEST(FormatCliReply, ScalarsPrintAsRedisCliNoRaw) {
  EXPECT_EQ(format_cli_reply(Reply::ok()), "OK\n");
  EXPECT_EQ(format_cli_reply(Reply::integer_of(-3)), "(integer) -3\n");
  EXPECT_EQ(format_cli_reply(Reply::nil()), "(nil)\n");
  EXPECT_EQ(format_cli_reply(Reply::error("ERR boom")), "(error) ERR boom\n");
  EXPECT_EQ(format_cli_reply(Reply::bulk("a\"b\n\x01")), "\"a\\\"b\\n\\x01\"\n");
  EXPECT_EQ(format_cli_reply(Reply::array()), "(empty array)\n");
}

TEST(FormatCliReply, NestedArraysIndentUnderTheirIndex) {
  const Reply nested = Reply::array({Reply::integer_of(1),
                                     Reply::array({Reply::integer_of(2), Reply::array({Reply::integer_of(3), Reply::bulk("x")})}),
                                     Reply::array()});
  EXPECT_EQ(format_cli_reply(nested),
            "1) (integer) 1\n"
            "2) 1) (integer) 2\n"
            "   2) 1) (integer) 3\n"
            "      2) \"x\"\n"
            "3) (empty array)\n");
}

TEST(FormatCliReply, TenOrMoreElementsPadTheIndex) {
  Reply many = Reply::array();
  for (int i = 0; i < 10; ++i) many.elements.push_back(Reply::integer_of(i));
  const std::string out = format_cli_reply(many);
  EXPECT_EQ(out.substr(0, 15), " 1) (integer) 0");
  EXPECT_NE(out.find("\n10) (integer) 9\n"), std::string::npos) << out;
}

TEST(FormatCliReply, SequencePrintsEachReply) {
  const Reply seq = Reply::sequence({Reply::array({Reply::bulk("subscribe"), Reply::bulk("a"), Reply::integer_of(1)}),
                                     Reply::integer_of(2)});
  EXPECT_EQ(format_cli_reply(seq), "1) \"subscribe\"\n2) \"a\"\n3) (integer) 1\n(integer) 2\n");
}

// The expected bytes are redis-cli 7.0.15's (`redis-cli --raw ... | od -c` against redis-server).
TEST(FormatCliReplyRaw, ScalarsPrintBareOneALine) {
  EXPECT_EQ(format_cli_reply(Reply::ok(), CliOutput::Raw), "OK\n");
  EXPECT_EQ(format_cli_reply(Reply::integer_of(-3), CliOutput::Raw), "-3\n");
  EXPECT_EQ(format_cli_reply(Reply::nil(), CliOutput::Raw), "\n");
  EXPECT_EQ(format_cli_reply(Reply::bulk("a\"b\n\x01"), CliOutput::Raw), "a\"b\n\x01\n");
  EXPECT_EQ(format_cli_reply(Reply::array(), CliOutput::Raw), "\n");
}

TEST(FormatCliReplyRaw, AnErrorKeepsItsOwnNewlineSoItEndsInABlankLine) {
  EXPECT_EQ(format_cli_reply(Reply::error("ERR boom"), CliOutput::Raw), "ERR boom\n\n");
}

TEST(FormatCliReplyRaw, ArrayElementsFlattenOneALineWithNilsEmpty) {
  // redis-cli --raw --eval with `return {KEYS[1], ARGV[1], #KEYS, #ARGV, {1, false, "x"}}`.
  const Reply nested = Reply::array({Reply::bulk("k1"), Reply::bulk("a1"), Reply::integer_of(2), Reply::integer_of(3),
                                     Reply::array({Reply::integer_of(1), Reply::nil(), Reply::bulk("x")})});
  EXPECT_EQ(format_cli_reply(nested, CliOutput::Raw), "k1\na1\n2\n3\n1\n\nx\n");
  EXPECT_EQ(format_cli_reply(Reply::array({Reply::integer_of(1), Reply::error("ERR x")}), CliOutput::Raw), "1\nERR x\n\n");
}

TEST(FormatCliReplyRaw, SequencePrintsEachReplyOnItsOwn) {
  const Reply seq = Reply::sequence({Reply::array({Reply::bulk("subscribe"), Reply::bulk("a"), Reply::integer_of(1)}),
                                     Reply::integer_of(2)});
  EXPECT_EQ(format_cli_reply(seq, CliOutput::Raw), "subscribe\na\n1\n2\n");
}

}  // namespace
}  // namespace locksim::shell

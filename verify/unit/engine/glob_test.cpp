// glob_match (glob.cpp): Redis 7.0's stringmatchlen, quirks included.
#include <gtest/gtest.h>

#include <string>

#include "engine/glob.hpp"

namespace locksim::engine {
namespace {

TEST(Glob, StarAndQuestionMark) {
  // Redis's loop never starts on an empty string, so even "*" does not match it (KEYS * and
  // SCAN MATCH * skip matching altogether, which is how the empty key shows up there).
  EXPECT_FALSE(glob_match("*", ""));
  EXPECT_TRUE(glob_match("*", "anything"));
  EXPECT_TRUE(glob_match("h*llo", "hllo"));
  EXPECT_TRUE(glob_match("h*llo", "heeeello"));
  EXPECT_FALSE(glob_match("h*llo", "hello!"));
  EXPECT_TRUE(glob_match("h?llo", "hallo"));
  EXPECT_FALSE(glob_match("h?llo", "hllo"));
  EXPECT_TRUE(glob_match("a**b***", "ab"));
  EXPECT_FALSE(glob_match("?", ""));
  EXPECT_TRUE(glob_match("", ""));
  EXPECT_FALSE(glob_match("", "a"));
}

TEST(Glob, Classes) {
  EXPECT_TRUE(glob_match("h[ae]llo", "hello"));
  EXPECT_FALSE(glob_match("h[ae]llo", "hillo"));
  EXPECT_TRUE(glob_match("h[^e]llo", "hallo"));
  EXPECT_FALSE(glob_match("h[^e]llo", "hello"));
  EXPECT_TRUE(glob_match("h[a-b]llo", "hbllo"));
  EXPECT_TRUE(glob_match("h[b-a]llo", "hallo"));  // a reversed range is swapped
  EXPECT_TRUE(glob_match("[\\]]", "]"));
  // "[a-]" is the range from 'a' to ']' (the bracket is taken as the range's end), and the class
  // then runs to the end of the pattern: '-' is outside it.
  EXPECT_FALSE(glob_match("[a-]", "-"));
  EXPECT_TRUE(glob_match("[a-]", "_"));
}

TEST(Glob, EscapesAndUnclosedClasses) {
  EXPECT_TRUE(glob_match("\\*", "*"));
  EXPECT_FALSE(glob_match("\\*", "a"));
  EXPECT_TRUE(glob_match("a\\", "a\\"));  // a trailing backslash matches itself
  // An unclosed class takes the rest of the pattern as its members.
  EXPECT_TRUE(glob_match("[abc", "b"));
  EXPECT_FALSE(glob_match("[abc", "bc"));
}

TEST(Glob, HighBytesCompareAsSignedCharsInRanges) {
  // [a-\xff]: 'a' (97) and -1 are swapped into [-1, 97], so 0x00..0x61 and 0xff match, 'z' does not.
  const std::string pattern = "[a-\xff]";
  EXPECT_TRUE(glob_match(pattern, "\xff"));
  EXPECT_TRUE(glob_match(pattern, "0"));
  EXPECT_FALSE(glob_match(pattern, "z"));
  EXPECT_FALSE(glob_match(pattern, "\xfe"));
}

TEST(Glob, NulBytesAreOrdinary) {
  EXPECT_TRUE(glob_match(std::string("a\0*", 3), std::string("a\0bc", 4)));
  EXPECT_FALSE(glob_match(std::string("a\0*", 3), "abc"));
}

TEST(Glob, PathologicalPatternsFinish) {
  const std::string pattern = "a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b";
  EXPECT_FALSE(glob_match(pattern, std::string(200, 'a')));
}

}  // namespace
}  // namespace locksim::engine

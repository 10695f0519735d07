// Text for a terminal (report/text_table.hpp): nothing runs past the width, a wrapped column's
// further lines start under it, and colour is there only when asked for.
#include <gtest/gtest.h>

#include <sstream>

#include "report/text_table.hpp"

namespace locksim::report {
namespace {

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

TEST(TextTable, FitsTheWidthAndWrapsOneColumnUnderItself) {
  const TextStyle style{60, false};
  const std::string t = text_table({"issue", "on 3.23.0", "what goes wrong", "replay"},
                                   {{{"#4871"}, {"affected"}, {"a resent unlock runs twice and frees a reentrant hold (rlock)"},
                                     {"locksim run 4871"}},
                                    {{"failover"}, {"affected"}, {"failover to a replica that lags loses the lock"},
                                     {"locksim run failover"}}},
                                   2, style, "  ", 10);
  const auto ls = lines(t);
  ASSERT_GE(ls.size(), 5u) << t;
  for (const std::string& l : ls) EXPECT_LE(display_width(l), 60u) << l;
  // The heading's "what goes wrong" starts where every piece of that column starts.
  const size_t column = ls[0].find("what goes wrong");
  EXPECT_EQ(ls[1].find("a resent"), column) << t;
  EXPECT_EQ(ls[2].find_first_not_of(' '), column) << "a continuation line: " << ls[2];
  EXPECT_EQ(ls[1].find("locksim run 4871"), ls[0].find("replay")) << t;
  EXPECT_EQ(t.find('\x1b'), std::string::npos) << "no colour when not asked";
}

TEST(TextTable, ColourIsAskedForAndTakesNoColumns) {
  const TextStyle style{40, true};
  const std::string red = paint("affected", Tone::Red, style);
  EXPECT_NE(red, "affected");
  EXPECT_EQ(display_width(red), 8u);
  EXPECT_EQ(paint("affected", Tone::Red, TextStyle{40, false}), "affected");
  const std::string t = text_table({"a", "b"}, {{{"x", Tone::Red}, {"y"}}}, 1, style);
  EXPECT_NE(t.find("\x1b[31mx\x1b[0m"), std::string::npos) << t;
}

TEST(TextWrap, WrapsAtWordsWithAHangingIndentAndCutsWhatNoLineHolds) {
  const std::string w = wrap_text("  - ", "one two three four five six seven", "    ", 16);
  EXPECT_EQ(w, "  - one two\n    three four\n    five six\n    seven\n");
  const std::string cut = wrap_text("", "abcdefghij", "", 4);
  EXPECT_EQ(cut, "abcd\nefgh\nij\n");
  EXPECT_EQ(display_width("\xc3\xa9t\xc3\xa9"), 3u) << "UTF-8 counts a character once";
}

}  // namespace
}  // namespace locksim::report

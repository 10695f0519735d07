// Chunks, the history's storage: appending across chunk boundaries keeps every element where it was
// (references stay valid), and it reads like a random-access sequence for the checkers' searches.
#include "model/chunks.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

namespace locksim::model {
namespace {

TEST(Chunks, AppendingNeverMovesWhatIsStored) {
  Chunks<std::string> c;
  c.push_back("first, long enough not to fit in a short string's own bytes");
  const std::string* first = &c[0];
  const char* first_text = c[0].data();
  for (int i = 1; i < 5000; ++i) c.push_back(std::to_string(i));
  ASSERT_EQ(c.size(), 5000u);
  EXPECT_EQ(&c[0], first);
  EXPECT_EQ(c[0].data(), first_text);
  EXPECT_EQ(c[1023], "1023");  // the last of the first chunk
  EXPECT_EQ(c[1024], "1024");  // the first of the second
  EXPECT_EQ(c.back(), "4999");
}

TEST(Chunks, IteratesAndSearchesInOrder) {
  Chunks<int> c;
  EXPECT_TRUE(c.empty());
  EXPECT_EQ(c.begin(), c.end());
  for (int i = 0; i < 3000; ++i) c.push_back(2 * i);
  std::vector<int> seen(c.begin(), c.end());
  ASSERT_EQ(seen.size(), 3000u);
  EXPECT_EQ(seen[2999], 5998);
  EXPECT_EQ(std::distance(c.begin(), c.end()), 3000);
  const auto it = std::lower_bound(c.begin(), c.end(), 2049);  // across the second boundary
  ASSERT_NE(it, c.end());
  EXPECT_EQ(*it, 2050);
  EXPECT_EQ(it - c.begin(), 1025);
  EXPECT_EQ(it[-1], 2048);
  EXPECT_EQ(*(c.end() - 1), 5998);
}

TEST(Chunks, ACopyIsEqualAndIndependent) {
  Chunks<std::string> c;
  for (int i = 0; i < 1500; ++i) c.push_back(std::to_string(i));
  Chunks<std::string> copy = c;
  c.push_back("more");
  ASSERT_EQ(copy.size(), 1500u);
  EXPECT_TRUE(std::equal(copy.begin(), copy.end(), c.begin()));
  EXPECT_EQ(c.size(), 1501u);
}

}  // namespace
}  // namespace locksim::model

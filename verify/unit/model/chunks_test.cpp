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

// A stream drops what it has judged: whole chunks before the index, indices unchanged, the rest
// still there and still appended to.
TEST(Chunks, DroppingKeepsTheChunkOfTheIndexAndEverythingAfter) {
  Chunks<int> c;
  for (int i = 0; i < 1000; ++i) c.push_back(i);
  c.drop_before(300);  // chunks of 128: 0..255 go, 256 on stays
  EXPECT_EQ(c.first(), 256u);
  EXPECT_EQ(c.size(), 1000u);
  EXPECT_EQ(*c.begin(), 256);
  EXPECT_EQ(c[300], 300);
  EXPECT_EQ(std::distance(c.begin(), c.end()), 744);
  c.drop_before(100);  // never back
  EXPECT_EQ(c.first(), 256u);
  c.push_back(1000);
  EXPECT_EQ(c[1000], 1000);
  c.drop_before(5000);  // past the end: up to the chunk being filled
  EXPECT_EQ(c.first(), 896u);
  EXPECT_EQ(c.back(), 1000);
  Chunks<int> full;
  for (int i = 0; i < 256; ++i) full.push_back(i);
  full.drop_before(256);  // every chunk is full: the last element's stays
  EXPECT_EQ(full.first(), 128u);
  EXPECT_EQ(full.back(), 255);
  full.push_back(256);
  EXPECT_EQ(full[256], 256);
  EXPECT_EQ(std::distance(full.begin(), full.end()), 129);
  EXPECT_EQ(*std::lower_bound(c.begin(), c.end(), 950), 950);
}

}  // namespace
}  // namespace locksim::model

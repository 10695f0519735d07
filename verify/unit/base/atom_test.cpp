#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "base/atom.hpp"

namespace locksim {

TEST(Atom, EqualTextsAreOneAtomStoredOnce) {
  const size_t before = Atom::live_count();
  {
    const Atom a("atom-test:orders");
    const Atom b(std::string("atom-test:") + "orders");
    EXPECT_EQ(a, b);
    EXPECT_EQ(&a.str(), &b.str());  // one copy, however many hold it
    EXPECT_EQ(Atom::live_count(), before + 1);
    const Atom c("atom-test:other");
    EXPECT_NE(a, c);
    EXPECT_EQ(Atom::live_count(), before + 2);
  }
  EXPECT_EQ(Atom::live_count(), before);  // the last holder gone, the text is freed
}

TEST(Atom, CopiesAndMovesKeepTheTextAliveUntilTheLastHolderGoes) {
  const size_t before = Atom::live_count();
  Atom kept;
  {
    Atom a("atom-test:kept");
    Atom b = a;
    kept = std::move(b);
    EXPECT_TRUE(b.empty());  // NOLINT(bugprone-use-after-move): a moved-from atom is ""
  }
  EXPECT_EQ(kept, "atom-test:kept");
  EXPECT_EQ(Atom::live_count(), before + 1);
  kept = "atom-test:replaced";
  EXPECT_EQ(kept, std::string("atom-test:replaced"));
  EXPECT_EQ(Atom::live_count(), before + 1);
  kept = std::string();
  EXPECT_EQ(Atom::live_count(), before);
}

TEST(Atom, TheEmptyTextIsTheDefaultAndHoldsNothing) {
  const size_t before = Atom::live_count();
  const Atom a("");
  EXPECT_TRUE(a.empty());
  EXPECT_EQ(a, Atom());
  EXPECT_EQ(a.str(), "");
  EXPECT_EQ(a.size(), 0u);
  EXPECT_EQ(Atom::live_count(), before);
}

TEST(Atom, ReadsAsTheStringItHolds) {
  const Atom a("A rlock_acquire orders 30000 u:1");
  EXPECT_EQ(a.find("orders"), 16u);
  EXPECT_EQ(a.rfind(' '), 28u);
  EXPECT_EQ(a.substr(2, 5), "rlock");
  EXPECT_TRUE(a.starts_with("A "));
  EXPECT_TRUE(a.ends_with("u:1"));
  EXPECT_EQ(a[0], 'A');
  EXPECT_EQ(a + ":1", "A rlock_acquire orders 30000 u:1:1");
  EXPECT_EQ(">" + a, ">A rlock_acquire orders 30000 u:1");
  const std::string& s = a;
  EXPECT_EQ(s, "A rlock_acquire orders 30000 u:1");
  std::ostringstream out;
  out << a;
  EXPECT_EQ(out.str(), s);
}

TEST(Atom, OrdersByTextNotByWhereItIsStored) {
  const Atom z("atom-test:z");
  const Atom a("atom-test:a");
  EXPECT_LT(a, z);
  std::map<Atom, int> by_text{{z, 2}, {a, 1}};
  EXPECT_EQ(by_text.begin()->first, "atom-test:a");
}

// The table grows and texts leave it in every order: each text still finds its one atom, and a
// text that left and comes back is stored anew, once.
TEST(Atom, ManyTextsComingAndGoingEachKeepOneAtom) {
  const size_t before = Atom::live_count();
  std::vector<Atom> held;
  for (int i = 0; i < 20000; ++i) held.emplace_back("atom-test:churn:" + std::to_string(i * 7919 % 20000));
  ASSERT_EQ(Atom::live_count(), before + 20000);
  // Drop every third, then every other of the rest, from the middle outwards.
  for (size_t i = 0; i < held.size(); i += 3) held[i] = Atom();
  for (size_t i = held.size() / 2, j = held.size() / 2; j < held.size(); --i, ++j) {
    if (j % 2 == 1) held[j] = Atom();
    if (i % 2 == 1) held[i] = Atom();
    if (i == 0) break;
  }
  size_t kept = 0;
  for (size_t i = 0; i < held.size(); ++i) {
    if (held[i].empty()) continue;
    ++kept;
    const std::string text = "atom-test:churn:" + std::to_string(static_cast<int>(i) * 7919 % 20000);
    EXPECT_EQ(held[i], text);
    EXPECT_EQ(&Atom(text).str(), &held[i].str()) << text;  // found again: the same atom
  }
  EXPECT_EQ(Atom::live_count(), before + kept);
  // Back again: stored once more, and only once.
  for (size_t i = 0; i < held.size(); ++i)
    if (held[i].empty()) held[i] = Atom("atom-test:churn:" + std::to_string(static_cast<int>(i) * 7919 % 20000));
  EXPECT_EQ(Atom::live_count(), before + 20000);
  for (size_t i = 0; i < held.size(); i += 97) EXPECT_EQ(&Atom(held[i].str()).str(), &held[i].str());
  held.clear();
  EXPECT_EQ(Atom::live_count(), before);
}

}  // namespace locksim

// Differential: strings (cmd_string.cpp).
#include "verify/support/differential.hpp"

namespace locksim::test {

TEST_F(Differential, GetAndSetBasics) {
  expect_same({"GET", "k"});
  expect_same({"SET", "k", "v"});
  expect_same({"GET", "k"});
  expect_same({"SET", "k", "v", "NX"});
  expect_same({"SET", "k", "w", "XX", "GET"});
  expect_same({"SET", "k", "v", "NX", "XX"});
  expect_same({"SET", "k", "v", "PX", "0"});
  expect_same({"SET", "k", "v", "EX", "9223372036854775807"});
  expect_same({"SET", "k", "v", "PX", "abc"});
  expect_close({"SET", "k", "v", "PX", "5000"}, 0);
  expect_close({"PTTL", "k"}, 50);
}

}  // namespace locksim::test

// Differential: errors raised at dispatch (engine.cpp, command_table.cpp), before any handler runs.
#include "verify/support/differential.hpp"

namespace locksim::test {

TEST_F(Differential, UnknownCommandQuotesItsName) {
  expect_same({"NOSUCHCOMMAND"});
  expect_same({"nosuch"});
  expect_same({""});
  expect_same({"GETT", "k"});
  expect_same({"HGETX", "h", "f", "g"});
}

TEST_F(Differential, UnknownCommandQuotesItsArguments) {
  expect_same({"FOO", "a", "b", ""});
  expect_same({"FOO", "one two", "three"});
}

TEST_F(Differential, UnknownCommandTruncatesLongNamesAndArguments) {
  expect_same({std::string(200, 'x')});
  expect_same({std::string(128, 'y'), "a"});
  expect_same({"FOO", std::string(200, 'a')});
  expect_same({"FOO", std::string(100, 'a'), std::string(100, 'b'), "c"});
  expect_same({"FOO", std::string(126, 'a'), "b"});
  expect_same({"FOO", std::string(125, 'a'), "bcd", "e"});
  std::vector<std::string> many = {"FOO"};
  for (int i = 0; i < 60; ++i) many.push_back(std::to_string(i));
  expect_same(many);
}

TEST_F(Differential, UnknownCommandPutsTheErrorOnOneLine) {
  expect_same({"FOO\r\nBAR", "a\nb", "c\rd"});
}

TEST_F(Differential, CommandNamesAreCaseInsensitive) {
  expect_same({"sEt", "k", "v"});
  expect_same({"get", "k"});
  expect_same({"GeT", "k"});
  expect_same({"hSeT", "h", "f", "v"});
  expect_same({"RpUsH", "l", "a"});
  expect_same({"LRANGE", "l", "0", "-1"});
}

TEST_F(Differential, WrongArityNamesTheCommandInLowerCase) {
  expect_same({"GET"});
  expect_same({"gEt", "a", "b"});
  expect_same({"SET"});
  expect_same({"Set", "k"});
  expect_same({"HSET", "h", "f"});
  expect_same({"hset", "h", "f", "v", "g"});
  expect_same({"LPUSH"});
  expect_same({"EXPIRE", "k"});
  expect_same({"ZADD", "z", "1"});
  expect_same({"ZSCORE", "z"});
}

TEST_F(Differential, ArityIsCheckedBeforeTheKeyType) {
  expect_same({"SET", "s", "v"});
  expect_same({"HGET", "s"});
  expect_same({"LPUSH", "s"});
  expect_same({"INCRBY", "s"});
  expect_same({"GET", "s"});
}

TEST_F(Differential, ErrorsChangeNothing) {
  expect_same({"SET", "k", "1"});
  expect_same({"NOPE", "k"});
  expect_same({"INCR", "k", "k"});
  expect_same({"SET", "k", "2", "BOGUS"});
  expect_same({"GET", "k"});
}

TEST_F(Differential, UnknownCommandErrorsQuoteNamesAndArgumentsUpToANulByte) {
  expect_same({std::string("FOO\0BAR", 7), std::string("a\0b", 3), "c"});
}

}  // namespace locksim::test

// Unit: redis-cli --eval's keys-comma-arguments convention (shell/cli_eval_command.cpp).
#include <gtest/gtest.h>

#include "shell/cli_eval_command.hpp"

namespace locksim::shell {
namespace {

using Words = std::vector<std::string>;

TEST(CliEvalCommand, WordsBeforeTheCommaAreKeysAndAfterItArguments) {
  EXPECT_EQ(cli_eval_command("return 1", {"k1", "k2", ",", "a1", "a2", "a3"}),
            (Words{"EVAL", "return 1", "2", "k1", "k2", "a1", "a2", "a3"}));
}

TEST(CliEvalCommand, WithoutACommaEveryWordIsAKey) {
  EXPECT_EQ(cli_eval_command("s", {"k1", "k2"}), (Words{"EVAL", "s", "2", "k1", "k2"}));
  EXPECT_EQ(cli_eval_command("s", {}), (Words{"EVAL", "s", "0"}));
}

TEST(CliEvalCommand, OnlyTheFirstLoneCommaSeparates) {
  EXPECT_EQ(cli_eval_command("s", {"k", ",", "a", ",", "b"}), (Words{"EVAL", "s", "1", "k", "a", ",", "b"}));
  EXPECT_EQ(cli_eval_command("s", {",", "a"}), (Words{"EVAL", "s", "0", "a"}));
  EXPECT_EQ(cli_eval_command("s", {"k,", ",a", "k"}), (Words{"EVAL", "s", "3", "k,", ",a", "k"}));
}

}  // namespace
}  // namespace locksim::shell

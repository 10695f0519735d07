// Unit: the command text a history records for a request ("<script> <keys> <argv>"), whichever way
// it is built, and the words sent to the server.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "client/command_words.hpp"

namespace locksim::client {
namespace {

TEST(CommandWords, AScriptsTextIsItsNameKeysAndArgvSpaced) {
  const Script script{.name = "rlock_acquire", .body = "return 1", .sha = "e0e1f9fabfc9d4800c877a703b823ac0578ff8db"};
  const Command command{.role = "acquire", .lock = "orders", .script = &script, .keys = {"orders"},
                        .argv = {"30000", "u:1"}};
  EXPECT_EQ(command_text(command), "rlock_acquire orders 30000 u:1");
  std::string line = "A ";
  append_command_text(line, command);
  EXPECT_EQ(line, "A rlock_acquire orders 30000 u:1");
  std::string numkeys;
  std::vector<std::string_view> words{"left", "from before"};
  command_word_views(command, false, numkeys, words);
  EXPECT_EQ(words, (std::vector<std::string_view>{"EVALSHA", script.sha, "1", "orders", "30000", "u:1"}));
  command_word_views(command, true, numkeys, words);
  EXPECT_EQ(words, (std::vector<std::string_view>{"EVAL", script.body, "1", "orders", "30000", "u:1"}));
}

TEST(CommandWords, APlainCommandsTextIsItsWords) {
  const Command command{.argv = {"SET", "k", "v", "NX"}};
  EXPECT_EQ(command_text(command), "SET k v NX");
}

// As histories have always shown them: a space goes before an item once the joined part is not
// empty, so a leading empty argument leaves no space and a later one leaves two.
TEST(CommandWords, EmptyArgumentsRenderAsHistoriesAlwaysShowedThem) {
  EXPECT_EQ(command_text(Command{.argv = {"", "GET", "k"}}), "GET k");
  EXPECT_EQ(command_text(Command{.argv = {"SET", "", "v"}}), "SET  v");
  const Script script{.name = "s", .body = "", .sha = ""};
  EXPECT_EQ(command_text(Command{.script = &script, .keys = {}, .argv = {"1"}}), "s  1");
}

}  // namespace
}  // namespace locksim::client

// Unit: the prompt follows SELECT and MULTI as redis-cli's does (shell/cli_session.cpp).
#include <gtest/gtest.h>

#include "shell/cli_session.hpp"

namespace locksim::shell {
namespace {

TEST(CliSession, PromptNamesTheFakeAndADatabaseOtherThanZero) {
  CliSession session;
  EXPECT_EQ(session.prompt(), "locksim> ");
  session.note({"select", "2"}, Reply::ok());
  EXPECT_EQ(session.prompt(), "locksim[2]> ");
  session.note({"SELECT", "0"}, Reply::ok());
  EXPECT_EQ(session.prompt(), "locksim> ");
}

TEST(CliSession, AFailedSelectLeavesTheDatabase) {
  CliSession session;
  session.note({"SELECT", "3"}, Reply::ok());
  session.note({"SELECT", "99"}, Reply::error("ERR DB index is out of range"));
  EXPECT_EQ(session.db(), 3);
  session.note({"SELECT", "4", "extra"}, Reply::error("ERR wrong number of arguments for 'select' command"));
  EXPECT_EQ(session.prompt(), "locksim[3]> ");
}

TEST(CliSession, MultiShowsTxUntilExecOrDiscard) {
  CliSession session;
  session.note({"MULTI"}, Reply::ok());
  EXPECT_EQ(session.prompt(), "locksim(TX)> ");
  session.note({"SELECT", "5"}, Reply::status("QUEUED"));
  EXPECT_EQ(session.prompt(), "locksim[5](TX)> ");
  session.note({"EXEC"}, Reply::array({Reply::ok()}));
  EXPECT_EQ(session.prompt(), "locksim[5]> ");
}

TEST(CliSession, AnAbortedExecOrADiscardGivesBackTheDatabaseMultiBeganIn) {
  CliSession session;
  session.note({"SELECT", "1"}, Reply::ok());
  session.note({"MULTI"}, Reply::ok());
  session.note({"SELECT", "5"}, Reply::status("QUEUED"));
  session.note({"EXEC"}, Reply::nil());  // a WATCHed key changed
  EXPECT_EQ(session.prompt(), "locksim[1]> ");
  session.note({"MULTI"}, Reply::ok());
  session.note({"SELECT", "6"}, Reply::status("QUEUED"));
  session.note({"DISCARD"}, Reply::ok());
  EXPECT_EQ(session.prompt(), "locksim[1]> ");
}

}  // namespace
}  // namespace locksim::shell

// Unit: the server layer's rows of the one command table (AUTH, CLIENT, INFO, WAIT, ...). The engine
// checks them as it checks any command and asks its host to answer; to a host that serves none of
// them they are unknown, as they were before they joined the table.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "engine/command_context.hpp"
#include "engine/command_table.hpp"
#include "engine/engine.hpp"

namespace locksim::engine {
namespace {

// Serves every server command with a reply naming it and its words; records what it was asked.
class ServingHost : public ManualHost {
 public:
  bool serves(ServerCommand command) const override { return command != ServerCommand::Config; }
  Reply server_command(ServerCommand command, CommandContext& ctx) override {
    std::string said = std::to_string(static_cast<int>(command));
    for (std::string_view word : ctx.argv) said += " " + std::string(word);
    asked.push_back(said);
    return Reply::status(said);
  }
  std::vector<std::string> asked;
};

class ServerLayerTest : public ::testing::Test {
 protected:
  Reply run(std::initializer_list<std::string_view> argv) { return engine_.execute(session_, argv); }
  static std::string said(ServerCommand command, std::string_view words) {
    return std::to_string(static_cast<int>(command)) + " " + std::string(words);
  }
  ServingHost host_;
  Engine engine_{host_};
  SessionId session_ = engine_.open_session();
};

TEST(ServerLayerRows, EachServerCommandHasOneRowAndNoHandler) {
  std::vector<ServerCommand> seen;
  for (const CommandSpec& spec : all_commands()) {
    EXPECT_EQ(spec.handler == nullptr, spec.server != ServerCommand::None) << spec.name;
    if (spec.server == ServerCommand::None) continue;
    seen.push_back(spec.server);
  }
  std::sort(seen.begin(), seen.end());
  const std::vector<ServerCommand> expected = {
      ServerCommand::Auth,  ServerCommand::Client, ServerCommand::Command, ServerCommand::Config,
      ServerCommand::Hello, ServerCommand::Info,   ServerCommand::Quit,    ServerCommand::Reset,
      ServerCommand::Shutdown, ServerCommand::Wait};
  EXPECT_EQ(seen, expected);
}

TEST(ServerLayerRows, AHostThatServesNoneFindsThemUnknown) {
  ManualHost host;
  Engine engine(host);
  const SessionId s = engine.open_session();
  EXPECT_EQ(engine.execute(s, {"INFO"}), Reply::error("ERR unknown command 'INFO', with args beginning with: "));
  EXPECT_EQ(engine.execute(s, {"client", "id"}), Reply::error("ERR unknown command 'client', with args beginning with: 'id' "));
  EXPECT_EQ(engine.find_command("wait"), nullptr);
  EXPECT_NE(lookup_command("wait"), nullptr);
}

TEST_F(ServerLayerTest, TheTableChecksArityAndSubcommandsBeforeTheHostIsAsked) {
  EXPECT_EQ(run({"CLIENT"}), Reply::error("ERR wrong number of arguments for 'client' command"));
  EXPECT_EQ(run({"CLIENT", "nosuch"}), Reply::error("ERR unknown subcommand 'nosuch'. Try CLIENT HELP."));
  EXPECT_EQ(run({"CLIENT", "ID", "x"}), Reply::error("ERR wrong number of arguments for 'client|id' command"));
  EXPECT_EQ(run({"WAIT", "0"}), Reply::error("ERR wrong number of arguments for 'wait' command"));
  EXPECT_EQ(run({"RESET", "now"}), Reply::error("ERR wrong number of arguments for 'reset' command"));
  EXPECT_TRUE(host_.asked.empty());
  EXPECT_EQ(run({"client", "id"}), Reply::status(said(ServerCommand::Client, "client id")));
  EXPECT_EQ(run({"INFO", "server"}), Reply::status(said(ServerCommand::Info, "INFO server")));
}

TEST_F(ServerLayerTest, ACommandItsHostDoesNotServeIsUnknown) {
  EXPECT_EQ(run({"CONFIG", "GET", "x"}), Reply::error("ERR unknown command 'CONFIG', with args beginning with: 'GET' 'x' "));
  EXPECT_TRUE(host_.asked.empty());
}

TEST_F(ServerLayerTest, InsideMultiTheyAreQueuedAndExecAnswersThem) {
  EXPECT_EQ(run({"MULTI"}), Reply::ok());
  EXPECT_EQ(run({"CLIENT", "SETNAME", "x"}), Reply::status("QUEUED"));
  EXPECT_EQ(run({"WAIT", "0", "0"}), Reply::status("QUEUED"));
  EXPECT_TRUE(host_.asked.empty());
  EXPECT_EQ(run({"EXEC"}), Reply::array({Reply::status(said(ServerCommand::Client, "CLIENT SETNAME x")),
                                         Reply::status(said(ServerCommand::Wait, "WAIT 0 0"))}));
}

TEST_F(ServerLayerTest, QuitAndResetRunAtOnceInsideMulti) {
  EXPECT_EQ(run({"MULTI"}), Reply::ok());
  EXPECT_EQ(run({"QUIT"}), Reply::status(said(ServerCommand::Quit, "QUIT")));
  EXPECT_EQ(run({"RESET"}), Reply::status(said(ServerCommand::Reset, "RESET")));
}

TEST_F(ServerLayerTest, ShutdownIsRefusedInsideMultiAndSpoilsIt) {
  EXPECT_EQ(run({"MULTI"}), Reply::ok());
  EXPECT_EQ(run({"SHUTDOWN", "NOSAVE"}), Reply::error("ERR Command not allowed inside a transaction"));
  EXPECT_EQ(run({"PING"}), Reply::status("QUEUED"));
  EXPECT_EQ(run({"EXEC"}), Reply::error("EXECABORT Transaction discarded because of previous errors."));
  EXPECT_TRUE(host_.asked.empty());
}

TEST_F(ServerLayerTest, AScriptMayCallInfoButNotTheNoScriptOnes) {
  EXPECT_EQ(run({"EVAL", "return redis.call('info', 'x')", "0"}), Reply::status(said(ServerCommand::Info, "info x")));
  const Reply refused = run({"EVAL", "return redis.call('client', 'id')", "0"});
  ASSERT_TRUE(refused.is_error());
  EXPECT_NE(refused.str.find("This Redis command is not allowed from script"), std::string::npos) << refused.str;
  // redis.acl_check_cmd knows the commands its host serves, and only those.
  EXPECT_EQ(run({"EVAL", "return redis.acl_check_cmd('info')", "0"}), Reply::integer_of(1));
  const Reply unknown = run({"EVAL", "return redis.acl_check_cmd('config')", "0"});
  ASSERT_TRUE(unknown.is_error());
  EXPECT_NE(unknown.str.find("acl_check_cmd"), std::string::npos) << unknown.str;
}

}  // namespace
}  // namespace locksim::engine

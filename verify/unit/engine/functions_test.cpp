// Unit: functions (functions.cpp, function_lua.cpp, function_payload.cpp): what only a
// deterministic fake can promise, and what a live server cannot be asked (verify/differential has
// the rest): the instruction budget at load and at call, listing by name, the payload's checksum.
#include "engine/function_payload.hpp"
#include "engine/functions.hpp"
#include "verify/unit/engine/engine_harness.hpp"

namespace locksim::engine {
namespace {

class FunctionsTest : public ::testing::Test {
 protected:
  Reply run(std::vector<std::string> argv) { return engine_.execute(session_, argv); }
  Reply load(const std::string& name, const std::string& body) {
    return run({"FUNCTION", "LOAD", "#!lua name=" + name + "\n" + body});
  }

  RecordingHost host_;
  Engine engine_{host_, EngineOptions{.script_instruction_budget = 1'000'000}};
  SessionId session_ = engine_.open_session();
};

TEST_F(FunctionsTest, ALoadThatNeverEndsStopsAtTheBudgetAsRedisStopsAtItsTimeout) {
  EXPECT_EQ(load("spin", "while true do end"), Reply::error("ERR Error registering functions: FUNCTION LOAD timeout"));
  // Nothing of it stays, and the state still loads and runs.
  EXPECT_EQ(run({"FUNCTION", "LIST"}), Reply::array());
  ASSERT_EQ(load("ok", "redis.register_function('ok', function() return 7 end)"), Reply::bulk("ok"));
  EXPECT_EQ(run({"FCALL", "ok", "0"}), Reply::integer_of(7));
}

TEST_F(FunctionsTest, AFunctionThatNeverEndsStopsAtTheBudget) {
  ASSERT_EQ(load("spin", "redis.register_function('spin', function() while true do end end)"), Reply::bulk("spin"));
  const Reply reply = run({"FCALL", "spin", "0"});
  ASSERT_TRUE(reply.is_error());
  EXPECT_NE(reply.str.find("instruction budget"), std::string::npos) << reply.str;
  EXPECT_NE(reply.str.find("script: spin, on @user_function:"), std::string::npos) << reply.str;
  ASSERT_EQ(run({"SET", "k", "v"}), Reply::ok());
  EXPECT_EQ(run({"GET", "k"}), Reply::bulk("v"));
}

TEST_F(FunctionsTest, LibrariesAndTheirFunctionsAreListedByName) {
  ASSERT_EQ(load("zeta", "redis.register_function('b', function() end)\nredis.register_function('a', function() end)"),
            Reply::bulk("zeta"));
  ASSERT_EQ(load("alpha", "redis.register_function('c', function() end)"), Reply::bulk("alpha"));
  const Reply list = run({"FUNCTION", "LIST"});
  ASSERT_EQ(list.elements.size(), 2u);
  EXPECT_EQ(list.elements[0].elements[1], Reply::bulk("alpha"));
  EXPECT_EQ(list.elements[1].elements[1], Reply::bulk("zeta"));
  const Reply& functions = list.elements[1].elements[5];
  ASSERT_EQ(functions.elements.size(), 2u);
  EXPECT_EQ(functions.elements[0].elements[1], Reply::bulk("a"));
  EXPECT_EQ(functions.elements[1].elements[1], Reply::bulk("b"));
}

TEST_F(FunctionsTest, FunctionsAndEvalKeepTheirOwnStates) {
  // Redis 7.0 runs functions in a Lua state of their own: SCRIPT FLUSH leaves them, FUNCTION FLUSH
  // leaves EVAL's cache.
  ASSERT_EQ(load("lib", "redis.register_function('f', function() return 'f' end)"), Reply::bulk("lib"));
  const Reply sha = run({"SCRIPT", "LOAD", "return 'e'"});
  ASSERT_EQ(sha.kind, Reply::Kind::Bulk);
  ASSERT_EQ(run({"SCRIPT", "FLUSH"}), Reply::ok());
  EXPECT_EQ(run({"FCALL", "f", "0"}), Reply::bulk("f"));
  ASSERT_EQ(run({"SCRIPT", "LOAD", "return 'e'"}), sha);
  ASSERT_EQ(run({"FUNCTION", "FLUSH"}), Reply::ok());
  EXPECT_EQ(run({"EVALSHA", sha.str, "0"}), Reply::bulk("e"));
  EXPECT_EQ(run({"FCALL", "f", "0"}), Reply::error("ERR Function not found"));
}

TEST_F(FunctionsTest, ManyLoadsAndDeletesLeaveNothingBehind) {
  // Each replaced, deleted or refused library releases its callbacks: the state's registry does
  // not grow with the loads (a leak would show in the sanitizer build, and in Lua's memory here).
  for (int i = 0; i < 500; ++i) {
    ASSERT_EQ(run({"FUNCTION", "LOAD", "REPLACE", "#!lua name=lib\nredis.register_function('f', function() return " +
                                                       std::to_string(i) + " end)"}),
              Reply::bulk("lib"));
    ASSERT_TRUE(load("clash", "redis.register_function('F', function() end)").is_error());
  }
  EXPECT_EQ(run({"FCALL", "f", "0"}), Reply::integer_of(499));
  ASSERT_EQ(run({"FUNCTION", "DELETE", "lib"}), Reply::ok());
  EXPECT_EQ(run({"FUNCTION", "STATS"}),
            Reply::array({Reply::bulk("running_script"), Reply::nil(), Reply::bulk("engines"),
                          Reply::array({Reply::bulk("LUA"), Reply::array({Reply::bulk("libraries_count"), Reply::integer_of(0),
                                                                          Reply::bulk("functions_count"), Reply::integer_of(0)})})}));
}

TEST(FunctionPayload, Crc64IsRedisCrc64) {
  // crc64.c's own test: crc64(0, "123456789") == e9c6d914c4b8d9ca.
  EXPECT_EQ(function_payload::crc64(0, "123456789"), 0xe9c6d914c4b8d9caull);
}

TEST(FunctionPayload, EncodeThenDecodeGivesTheCodesBack) {
  const std::vector<std::string> codes = {"#!lua name=a\nx", std::string(70000, 'y'), ""};
  const function_payload::Decoded decoded = function_payload::decode(function_payload::encode(codes));
  EXPECT_EQ(decoded.error, "");
  EXPECT_EQ(decoded.codes, codes);
}

TEST(FunctionPayload, ATruncatedRecordIsNeverReadAsTheWholeOne) {
  const std::string code = "#!lua name=a\nredis.register_function('a', function() end)";
  const std::string payload = function_payload::encode({code});
  const size_t record = payload.size() - 10;
  for (size_t cut = 0; cut < record; ++cut) {
    // Sealed again with a right footer, so that the checksum passes and the record is what is short.
    std::string body = payload.substr(0, cut) + std::string("\x0a\x00", 2);
    const uint64_t crc = function_payload::crc64(0, body);
    for (int i = 0; i < 8; ++i) body += static_cast<char>((crc >> (8 * i)) & 0xff);
    const function_payload::Decoded decoded = function_payload::decode(body);
    EXPECT_NE(decoded.codes, std::vector<std::string>{code}) << cut;
  }
}

// A payload sealed with a right footer around `records`, so that the records are what is read.
std::string sealed(const std::string& records) {
  std::string body = records + std::string("\x0a\x00", 2);
  const uint64_t crc = function_payload::crc64(0, body);
  for (int i = 0; i < 8; ++i) body += static_cast<char>((crc >> (8 * i)) & 0xff);
  return body;
}

TEST(FunctionPayload, EachRecordProblemIsNamedAsRdbFunctionLoadNamesIt) {
  // 7.0's release candidates wrote name, engine, a description flag (and one), then the code. (The
  // flag's own error needs a payload that ends inside it, which a sealed footer never does.)
  const std::string old_record = std::string("\xf6") + "\x03" "lib" "\x03" "LUA" "\x01" "\x01" "d" "\x04" "body";
  EXPECT_EQ(function_payload::decode(sealed(old_record)).codes, std::vector<std::string>{"#!LUA name=lib\nbody"});
  EXPECT_EQ(function_payload::decode(sealed(std::string("\xf6") + "\x03" "lib" "\x03" "LUA" + '\0' + "\x01" "b")).codes,
            std::vector<std::string>{"#!LUA name=lib\nb"});
  const std::pair<std::string, std::string> bad[] = {
      {"\x07", "given type is not a function"},
      {"\xf5\xc4", "Failed loading library payload"},  // an encoding RDB does not have
      {std::string("\xf6") + "\xc4", "Failed loading library name"},
      {std::string("\xf6") + "\x03lib" + "\xc4", "Failed loading engine name"},
      {std::string("\xf6") + "\x03lib" + "\x03LUA" + "\x01" + "\xc4", "Failed loading library description"},
      {std::string("\xf6") + "\x03lib" + "\x03LUA" + '\0' + "\xc4", "Failed loading library blob"},
  };
  for (const auto& [records, error] : bad) {
    SCOPED_TRACE(error);
    EXPECT_EQ(function_payload::decode(sealed(records)).error, error);
  }
  EXPECT_EQ(function_payload::decode("short").error, "DUMP payload version or checksum are wrong");
}

}  // namespace
}  // namespace locksim::engine

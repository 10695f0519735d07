// Unit: the libraries Redis loads for scripts (lua_cjson.cpp, lua_cmsgpack.cpp, lua_bit.cpp,
// lua_struct.cpp): what the differential tests cannot show against a live server, i.e. the orders the
// fake chooses where Redis follows Lua 5.1's hash order, a crash of Redis's that the fake does not
// share, and settings that must not outlive their server.
#include <string>

#include "base/sha1.hpp"
#include "engine/lua_state_pool.hpp"
#include "verify/unit/engine/engine_harness.hpp"

namespace locksim::engine {
namespace {

Reply eval(Engine& engine, SessionId session, std::string_view body) {
  return engine.execute(session, {"EVAL", body, "0"});
}

// A fresh state each time: Lua 5.4 seeds its string hashes per state, so tables iterate in another
// order; what the libraries write must not.
Reply on_a_fresh_state(std::string_view body) {
  drop_pooled_lua_states();
  ManualHost host;
  Engine engine(host);
  return eval(engine, engine.open_session(), body);
}

TEST(LuaLibraries, CjsonWritesObjectMembersInKeyOrder) {
  const std::string body =
      "local t = {} for i = 1, 40 do t['key' .. i] = i end t.nested = {z = 1, a = {y = 2, b = 3}, [1] = 'one'} "
      "return cjson.encode(t)";
  const Reply first = on_a_fresh_state(body);
  ASSERT_EQ(first.kind, Reply::Kind::Bulk) << describe(first);
  EXPECT_TRUE(first.str.starts_with(R"({"key1":1,"key10":10,"key11":11,)")) << first.str;
  EXPECT_NE(first.str.find(R"("nested":{"1":"one","a":{"b":3,"y":2},"z":1})"), std::string::npos) << first.str;
  for (int i = 0; i < 5; ++i) EXPECT_EQ(on_a_fresh_state(body), first);
  EXPECT_EQ(on_a_fresh_state("return cjson.encode({b = 1, a = {c = '}', ['\"'] = ']'}})"),
            Reply::bulk(R"({"a":{"\"":"]","c":"}"},"b":1})"));
  EXPECT_EQ(on_a_fresh_state("return cjson.encode({[1] = 'n', ['1'] = 's', [3] = 'x'})"),
            Reply::bulk(R"({"1":"n","1":"s","3":"x"})"));
}

TEST(LuaLibraries, CmsgpackWritesMapPairsInKeyOrder) {
  const std::string body =
      "local t = {} for i = 1, 40 do t['k' .. i] = i end t[true] = 0 t[2.5] = 1 return cmsgpack.pack(t)";
  const Reply first = on_a_fresh_state(body);
  ASSERT_EQ(first.kind, Reply::Kind::Bulk) << describe(first);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(on_a_fresh_state(body), first);
  // Pairs sorted by their packed keys' bytes: strings (0xa1 ...), then true (0xc3), then 2.5 (0xca ...).
  EXPECT_EQ(on_a_fresh_state("return cmsgpack.pack({b = 1, a = 2, [true] = 3, [2.5] = 4})"),
            Reply::bulk(std::string("\x84\xa1"
                                    "a\x02\xa1"
                                    "b\x01\xc3\x03\xca\x40\x20\x00\x00\x04",
                                    15)));
}

TEST(LuaLibraries, TohexOfMinusTwoToTheThirtyOneAnswersAsRedisFixedIt) {
  // 7.0.15 writes past an 8-byte buffer here (CVE-2024-31449); later Redis takes the count as
  // -(2^31 - 1): eight upper-case digits.
  EXPECT_EQ(on_a_fresh_state("return bit.tohex(0xabc, -2^31)"), Reply::bulk("00000ABC"));
  EXPECT_EQ(on_a_fresh_state("return bit.tohex(0xabc, 2^31)"), Reply::bulk("00000ABC"));
  EXPECT_EQ(on_a_fresh_state("return bit.tohex(0xabc, -2^31 + 1)"), Reply::bulk("00000ABC"));
}

TEST(LuaLibraries, CjsonSettingsEndWithTheirServerAndOnScriptFlush) {
  drop_pooled_lua_states();
  ManualHost host;
  {
    Engine engine(host);
    const SessionId s = engine.open_session();
    EXPECT_EQ(eval(engine, s, "return cjson.encode_number_precision(3)"), Reply::integer_of(3));
    EXPECT_EQ(eval(engine, s, "return cjson.encode(1/3)"), Reply::bulk("0.333"));
    EXPECT_EQ(engine.execute(s, {"SCRIPT", "FLUSH"}), Reply::ok());
    EXPECT_EQ(eval(engine, s, "return cjson.encode(1/3)"), Reply::bulk("0.33333333333333"));
    eval(engine, s, "cjson.encode_number_precision(4)");
  }
  ASSERT_EQ(pooled_lua_states(), 1u);
  Engine next(host);  // on the state the first engine left
  EXPECT_EQ(eval(next, next.open_session(), "return cjson.encode(1/3)"), Reply::bulk("0.33333333333333"));
}

TEST(LuaLibraries, ErrorsRaisedInTheLibrariesNameTheScriptLine) {
  ManualHost host;
  Engine engine(host);
  const SessionId s = engine.open_session();
  const std::string body = "\nreturn cjson.decode('x')";
  EXPECT_EQ(eval(engine, s, body),
            Reply::error("ERR user_script:2: Expected value but found invalid token at character 1 script: " +
                         sha1_hex(body) + ", on @user_script:2."));
  const std::string bit_body = "return bit.band(1, {})";
  EXPECT_EQ(eval(engine, s, bit_body),
            Reply::error("ERR user_script:1: bad argument #2 to 'band' (number expected, got table) script: " +
                         sha1_hex(bit_body) + ", on @user_script:1."));
}

}  // namespace
}  // namespace locksim::engine

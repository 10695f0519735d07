// Unit: next and pairs in scripts (ordered_next.cpp) walk a table in an order fixed by its keys, so
// a script's reply does not depend on Lua 5.4's per-state string hash seed (time and addresses):
// the same script gives the same reply in every engine, every process.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "verify/unit/engine/engine_harness.hpp"

namespace locksim::engine {
namespace {

Reply eval_in_new_engine(std::string_view body) {
  RecordingHost host;
  Engine engine(host);
  const SessionId session = engine.open_session();
  const std::vector<std::string_view> argv{"EVAL", body, "0"};
  return engine.execute(session, std::span<const std::string_view>(argv));
}

constexpr std::string_view kWalk =
    "local t = {} for i = 1, 40 do t['k' .. i] = i end t[3] = 'three' t[1] = 'one' t[2.5] = 'x' t[true] = 1 "
    "local o = {} for k, v in pairs(t) do o[#o + 1] = tostring(k) end return table.concat(o, ',')";

TEST(OrderedNext, PairsWalksIntegersThenNumbersThenStringsThenBooleans) {
  std::string want = "1,3,2.5";
  std::vector<std::string> names;
  for (int i = 1; i <= 40; ++i) names.push_back("k" + std::to_string(i));
  std::sort(names.begin(), names.end());
  for (const std::string& n : names) want += "," + n;
  want += ",true";
  EXPECT_EQ(eval_in_new_engine(kWalk), Reply::bulk(want));
}

TEST(OrderedNext, EveryEngineWalksATableTheSameWay) {
  // Each engine has its own Lua states, each with its own hash seed: the native order differs.
  const Reply first = eval_in_new_engine(kWalk);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(eval_in_new_engine(kWalk), first);
}

TEST(OrderedNext, NextWalksAsPairsDoesAndClearingFieldsMidWalkIsAllowed) {
  EXPECT_EQ(eval_in_new_engine("local t = {b = 2, a = 1, c = 3} local o = {} local k, v = next(t) "
                               "while k do o[#o + 1] = k .. v k, v = next(t, k) end return table.concat(o)"),
            Reply::bulk("a1b2c3"));
  // Clearing the current field during a walk, as Lua allows, keeps the walk going.
  EXPECT_EQ(eval_in_new_engine("local t = {b = 2, a = 1, c = 3} local n = 0 for k in pairs(t) do t[k] = nil "
                               "n = n + 1 end return n .. tostring(next(t))"),
            Reply::bulk("3nil"));
  EXPECT_EQ(eval_in_new_engine("return next({})"), Reply::nil());
  const Reply bad = eval_in_new_engine("return next({a = 1}, 'zz')");
  ASSERT_TRUE(bad.is_error());
  EXPECT_NE(bad.str.find("invalid key to 'next'"), std::string::npos) << bad.str;
  const Reply not_table = eval_in_new_engine("return pairs(nil)");
  ASSERT_TRUE(not_table.is_error());
  EXPECT_NE(not_table.str.find("table expected"), std::string::npos) << not_table.str;
}

}  // namespace
}  // namespace locksim::engine

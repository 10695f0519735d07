#include "model/history.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "verify/unit/model/history_builder.hpp"

namespace locksim::model {
namespace {

using test::HistoryBuilder;

History sample() {
  HistoryBuilder b;
  b.invoke({.t = 0, .p = "A", .op = 1, .f = "try_lock", .wait_ms = 3000, .lease_ms = 10000});
  b.exec({.t = 1, .op = 1, .f = "acquire", .reply = "nil", .after = "9f1c-aa:1=1"});
  b.key({.t = 1, .f = "created"});
  b.key({.t = 1, .f = "expire_set", .value = 10001});
  b.ok({.t = 2, .p = "A", .op = 1, .f = "try_lock"});
  b.hold({.t = 2, .p = "A", .depth = 1, .lease_ms = 10000, .op = 1});
  b.fault({.t = 3, .p = "A", .f = "pause", .value = 500});
  b.write({.t = 4, .p = "A", .f = "accepted", .value = 42, .lock = "db"});
  b.fail({.t = 5,
          .p = "B",
          .thread = 2,
          .op = 9,
          .f = "unlock",
          .text = "IllegalMonitorStateException: \"quoted\"\tand\ttabs"});
  b.release({.t = 6, .p = "A", .depth = 0, .f = "crash"});
  Event m;
  m.at_ms = 7;
  m.kind = EventKind::Message;
  m.process = "world";
  m.f = "lost";
  m.value = -1;
  b.add(m);
  return b.history();
}

bool same(const Event& a, const Event& b) {
  return a.index == b.index && a.at_ms == b.at_ms && a.kind == b.kind && a.process == b.process &&
         a.thread == b.thread && a.op == b.op && a.lock == b.lock && a.f == b.f && a.value == b.value &&
         a.wait_ms == b.wait_ms && a.lease_ms == b.lease_ms && a.text == b.text && a.reply == b.reply &&
         a.before == b.before && a.after == b.after;
}

TEST(HistoryJsonl, RoundTripsEveryField) {
  const History h = sample();
  const std::string text = h.to_jsonl();
  const History back = History::from_jsonl(text);
  ASSERT_EQ(back.size(), h.size());
  for (size_t i = 0; i < h.size(); ++i) EXPECT_TRUE(same(h[i], back[i])) << "event " << i;
  EXPECT_EQ(back.to_jsonl(), text);  // the same run gives the same bytes
  EXPECT_EQ(back.end_ms(), 7);
}

TEST(HistoryJsonl, OmitsDefaultsAndKeepsAFixedFieldOrder) {
  HistoryBuilder b;
  b.hold({.t = 2, .p = "A", .depth = 1});
  EXPECT_EQ(b.history().to_jsonl(),
            "{\"i\":0,\"t\":2,\"type\":\"hold\",\"p\":\"A\",\"thread\":1,\"lock\":\"orders\",\"f\":\"lock\","
            "\"value\":1}\n");
}

TEST(HistoryJsonl, BadLineThrowsNamingTheLine) {
  const std::string good = sample().to_jsonl();
  const auto expect_line = [](const std::string& text, const std::string& line) {
    try {
      History::from_jsonl(text);
      FAIL() << "expected an error for: " << text;
    } catch (const std::runtime_error& e) {
      EXPECT_EQ(std::string(e.what()).rfind("history line " + line + ":", 0), 0u) << e.what();
    }
  };
  expect_line("{\"t\":1,\"type\":\"hold\",\"p\":\"A\"}\n{not json\n", "2");
  expect_line(good + "{\"t\":9,\"type\":\"teleport\",\"p\":\"A\"}\n", "12");
  expect_line("{\"type\":\"hold\",\"p\":\"A\"}\n", "1");  // no time
  expect_line("\n{\"t\":5,\"type\":\"ok\",\"p\":\"A\"}\n{\"t\":4,\"type\":\"ok\",\"p\":\"A\"}\n",
              "3");  // time goes back
}

TEST(HistoryJsonl, EmptyTextIsAnEmptyHistory) {
  EXPECT_EQ(History::from_jsonl("").size(), 0u);
  EXPECT_EQ(History().to_jsonl(), "");
}

}  // namespace
}  // namespace locksim::model

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
  b.exec({.t = 1, .op = 1, .f = "acquire", .reply = "nil", .after = "9f1c-aa:1=1", .sent = 0, .sent_i = 1});
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
         a.before == b.before && a.after == b.after && a.client == b.client && a.sent_ms == b.sent_ms &&
         a.sent_index == b.sent_index && a.ttl_ms == b.ttl_ms && a.queue == b.queue && a.for_ms == b.for_ms;
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
  expect_line("{\"t\":-5,\"type\":\"ok\",\"p\":\"A\"}\n", "1");  // before the run's start
}

TEST(HistoryJsonl, ASendsPlaceMustFallAmongTheEventsAtItsTime) {
  const std::string before = "{\"t\":0,\"type\":\"invoke\",\"p\":\"A\",\"op\":1,\"f\":\"lock\"}\n"
                             "{\"t\":5,\"type\":\"info\",\"p\":\"B\",\"op\":2,\"f\":\"lock\"}\n";
  const auto exec = [](const std::string& sent, const std::string& sent_i) {
    return "{\"t\":6,\"type\":\"exec\",\"p\":\"redis0\",\"op\":1,\"f\":\"acquire\",\"client\":\"A\",\"sent\":" + sent +
           ",\"sent_i\":" + sent_i + "}\n";
  };
  EXPECT_EQ(History::from_jsonl(before + exec("0", "1"))[2].sent_index, 1);  // after the invoke, before B's info
  EXPECT_EQ(History::from_jsonl(before + exec("5", "2"))[2].sent_index, 2);  // the exec's own index: just before it
  EXPECT_EQ(History::from_jsonl(before + exec("5", "1"))[2].sent_index, 1);  // before B's info in the same ms
  const auto refused = [&](const std::string& sent, const std::string& sent_i, const std::string& why) {
    try {
      History::from_jsonl(before + exec(sent, sent_i));
      FAIL() << "sent " << sent << ", sent_i " << sent_i << ": expected an error";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("history line 3: sent_i " + sent_i + why), std::string::npos) << e.what();
    }
  };
  refused("0", "-7", ": expected -1 (not known) or the index of an event up to this one (2)");
  refused("0", "3", ": expected -1 (not known) or the index of an event up to this one (2)");
  refused("0", "2", " does not fall at sent 0 ms");  // after B's info at 5 ms, yet sent at 0 ms
  refused("6", "1", " does not fall at sent 6 ms");  // before B's info at 5 ms, yet sent at 6 ms
}

TEST(HistoryJsonl, EmptyTextIsAnEmptyHistory) {
  EXPECT_EQ(History::from_jsonl("").size(), 0u);
  EXPECT_EQ(History().to_jsonl(), "");
}

}  // namespace
}  // namespace locksim::model

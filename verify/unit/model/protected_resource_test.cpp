#include "model/protected_resource.hpp"

#include <gtest/gtest.h>

#include "model/anomaly.hpp"
#include "model/checkers.hpp"
#include "model/explain.hpp"
#include "verify/unit/model/streamed.hpp"

namespace locksim::model {
namespace {

// The Exec events `locksim serve --resource counter` records: a GET (read) or a SET (write).
struct Log {
  History history;
  int64_t t = 0;
  int64_t read(const std::string& client, int64_t value) { return exec(client, kResourceRead, "GET counter", value); }
  int64_t write(const std::string& client, int64_t value) {
    return exec(client, kResourceWrite, "SET counter " + std::to_string(value), value);
  }
  int64_t exec(const std::string& client, std::string_view role, const std::string& command, int64_t value) {
    Event e;
    e.kind = EventKind::Exec;
    e.at_ms = t += 10;
    e.process = "redis0";
    e.client = client;
    e.lock = "counter";
    e.f = std::string(role);
    e.text = client + " " + command;
    e.value = value;
    return history.add(std::move(e)).index;
  }
  Verdict check() const {
    const Facts facts(history, nullptr);
    return test::streamed_alike(history, "resource", test::options_for(nullptr), check_protected_resource(facts));
  }
};

TEST(ProtectedResource, SerialCriticalSectionsHold) {
  Log log;
  for (int i = 0; i < 3; ++i) {
    log.read("A", 2 * i);
    log.write("A", 2 * i + 1);
    log.read("B", 2 * i + 1);
    log.write("B", 2 * i + 2);
  }
  const Verdict v = log.check();
  EXPECT_EQ(v.valid, Validity::Yes);
  EXPECT_EQ(explain(v), "6 writes of the protected resource, each from a value no other client had changed since");
}

TEST(ProtectedResource, AWriteFromAValueAnotherClientChangedIsALostUpdate) {
  Log log;
  const int64_t a_read = log.read("A", 0);
  log.read("B", 0);
  const int64_t b_write = log.write("B", 1);
  const int64_t a_write = log.write("A", 1);
  const Verdict v = log.check();
  ASSERT_EQ(v.valid, Validity::No);
  EXPECT_EQ(v.anomaly, anomaly::kLostUpdate);
  EXPECT_EQ(v.witness, (std::vector<int64_t>{a_read, b_write, a_write}));
  ASSERT_NE(v.find("other_update"), nullptr);
  EXPECT_EQ(v.find("other_update")->who, "B");
  EXPECT_EQ(explain(v),
            "Let A read counter at 10 ms (). Then B updated it at 30 ms, and A wrote it at 40 ms from the value it had "
            "read: B's update is lost, so both were in the critical section at once.");
}

TEST(ProtectedResource, AnAtomicUpdateBetweenAReadAndItsWriteIsLostToo) {
  Log log;
  log.read("A", 4);
  log.exec("B", kResourceWrite, "INCR counter", 0);
  log.write("A", 5);
  EXPECT_EQ(log.check().valid, Validity::No);
}

TEST(ProtectedResource, OwnWritesAndBlindWritesAreNotLostUpdates) {
  Log log;
  log.read("A", 0);
  log.write("A", 1);
  log.write("A", 2);  // a second write without a read: not judged
  log.write("B", 7);  // blind
  log.read("A", 7);
  log.write("A", 8);
  const Verdict v = log.check();
  EXPECT_EQ(v.valid, Validity::Yes);
  EXPECT_EQ(v.evidence.front().number, 2);  // judged writes
}

TEST(ProtectedResource, NothingToJudgeIsUnknownNotHolds) {
  Log log;
  log.write("A", 1);
  log.read("B", 1);
  const Verdict v = log.check();
  EXPECT_EQ(v.valid, Validity::Unknown);
  EXPECT_NE(v.explanation.find("nothing to judge"), std::string::npos);
}

TEST(ProtectedResource, AppliesToNoModelledLockTypeSoScenariosNeverJudgeItByDefault) {
  for (const LockType& type : lock_types()) {
    const auto names = applicable_properties(type.name);
    EXPECT_EQ(std::count(names.begin(), names.end(), "resource"), 0) << type.name;
  }
  EXPECT_EQ(applicability_problem("resource", ""), "");
}

}  // namespace
}  // namespace locksim::model

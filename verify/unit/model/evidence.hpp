#pragma once
// Reading a verdict's evidence in checker tests: one piece by its role, every piece of a role, a
// figure, and one piece against everything it must say.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "model/verdict.hpp"

namespace locksim::model::test {

// The first evidence with `role`; fails the test (and gives an empty one) when there is none.
inline const Evidence& evidence(const Verdict& v, const std::string& role) {
  static const Evidence none;
  const Evidence* e = v.find(role);
  if (e == nullptr) ADD_FAILURE() << "no evidence " << role << " in: " << v.explanation;
  return e ? *e : none;
}

// Every evidence with `role`, in order.
inline std::vector<const Evidence*> all(const Verdict& v, const std::string& role) {
  std::vector<const Evidence*> out;
  for (const Evidence& e : v.evidence)
    if (e.role == role) out.push_back(&e);
  return out;
}

// A figure's value; fails the test when the verdict has no such figure.
inline int64_t figure(const Verdict& v, const std::string& name) {
  for (const Evidence& e : v.evidence)
    if (e.role == "figure" && e.where == name) return e.number;
  ADD_FAILURE() << "no figure " << name << " in: " << v.explanation;
  return -999;
}

// What one piece of evidence must say.
struct Want {
  int64_t event;
  int64_t from_ms;
  std::string who;
  std::string where;
  std::string state;
  int64_t number;
};

inline void expect_evidence(const Verdict& v, const std::string& role, const Want& want) {
  SCOPED_TRACE("evidence " + role);
  const Evidence* e = v.find(role);
  ASSERT_NE(e, nullptr) << v.explanation;
  EXPECT_EQ(e->event, want.event);
  EXPECT_EQ(e->from_ms, want.from_ms);
  EXPECT_EQ(e->who, want.who);
  EXPECT_EQ(e->where, want.where);
  EXPECT_EQ(e->state, want.state);
  EXPECT_EQ(e->number, want.number);
}

}  // namespace locksim::model::test

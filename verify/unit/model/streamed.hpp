#pragma once
// Checker tests judge each history twice: whole, as the test asserts on, and as it streams
// (model/stream_judging.hpp), an event at a time with the facts retiring after each, which must
// come out the same, evidence and explanation included. Every history a checker's tests build thus
// also tests the checker as a stream judges.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "model/checkers.hpp"
#include "model/history.hpp"
#include "model/stream_judging.hpp"
#include "model/verdict.hpp"
#include "report/verdict_json.hpp"

namespace locksim::model::test {

// Checker options for the lock type `type` (nullptr: not known).
inline CheckerOptions options_for(const char* type) {
  CheckerOptions options;
  options.lock_type = type ? type : "";
  return options;
}

inline std::string shown(const Verdict& v) {
  return std::string(to_string(v.valid)) + " " + v.anomaly + "\n" + v.explanation + "\n" + report::evidence_json(v).dump();
}

// `whole`, the verdict of `property` on `history` judged whole, after expecting the stream's to be it.
// (A property that does not apply to the options' lock type is not streamed: judge_stream refuses it.)
inline Verdict streamed_alike(const History& history, const std::string& property, const CheckerOptions& options,
                              Verdict whole) {
  if (!applicability_problem(property, options.lock_type).empty()) return whole;
  const std::vector<Verdict> streamed = judge_stream(history_readings(history), {property}, options, nullptr, 1);
  EXPECT_EQ(shown(streamed.at(0)), shown(whole)) << property << ": judged as it streams, an event at a time";
  return whole;
}

}  // namespace locksim::model::test

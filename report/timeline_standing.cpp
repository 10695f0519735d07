// Verdicts against what the scenario expected of them: an expected violation (the scenario shows a
// bug) is no failure, an unexpected one is, and the page says which is which.
#include "report/timeline_layout.hpp"

#include "report/outcome.hpp"

namespace locksim::report::timeline {

using model::Validity;

std::string expected_of(const TimelineInput& in, size_t i) { return i < in.expected.size() ? in.expected[i] : ""; }

Standing standing_of(const TimelineInput& in, size_t i) {
  const std::string expected = expected_of(in, i);
  if (i >= in.verdicts.size()) return Standing::Observed;
  const bool met = i < in.met.size() && in.met[i];
  const Outcome outcome = outcome_of(expected, to_string(in.verdicts[i].valid), met);
  if (outcome == Outcome::Seen) return Standing::Observed;
  return is_failure(outcome) ? Standing::Missed : Standing::Met;
}

std::string standing_text(const TimelineInput& in, size_t i) {
  const model::Verdict& v = in.verdicts.at(i);
  const std::string expected = expected_of(in, i);
  const std::string anomaly = v.anomaly.empty() ? "" : " (" + v.anomaly + ")";
  const std::string dash = " \u2014 ";
  switch (v.valid) {
    case Validity::No:
      if (expected == "violated") return "1 violation of " + v.property + anomaly + dash + "expected (the scenario shows this bug)";
      if (expected == "holds") return v.property + " violated" + anomaly + ", expected to hold" + dash + "an unexpected violation";
      return v.property + " violated" + anomaly + " (observed; the scenario expects nothing of it)";
    case Validity::Yes:
      if (expected == "holds") return v.property + " holds, as expected";
      if (expected == "violated") return v.property + " holds, expected to be violated" + dash + "the scenario no longer shows its bug";
      return v.property + " holds (observed; the scenario expects nothing of it)";
    case Validity::Unknown: break;
  }
  return v.property + " unknown" + anomaly + (expected.empty() ? " (observed)" : ", " + std::string(expected == "holds" ? "expected to hold" : "expected to be violated") + dash + "not shown either way");
}

}  // namespace locksim::report::timeline

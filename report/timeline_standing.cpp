// Verdicts against what the scenario expected of them: an expected violation (the scenario shows a
// bug) is no regression, and the page says which is which.
#include "report/timeline_layout.hpp"

namespace locksim::report::timeline {

using model::Validity;

std::string expected_of(const TimelineInput& in, size_t i) { return i < in.expected.size() ? in.expected[i] : ""; }

Standing standing_of(const TimelineInput& in, size_t i) {
  const std::string expected = expected_of(in, i);
  if (expected.empty() || i >= in.verdicts.size()) return Standing::Observed;
  const Validity valid = in.verdicts[i].valid;
  const bool met = (expected == "holds" && valid == Validity::Yes) || (expected == "violated" && valid == Validity::No);
  return met ? Standing::Met : Standing::Missed;
}

std::string standing_text(const TimelineInput& in, size_t i) {
  const model::Verdict& v = in.verdicts.at(i);
  const std::string expected = expected_of(in, i);
  const std::string anomaly = v.anomaly.empty() ? "" : " (" + v.anomaly + ")";
  const std::string dash = " \u2014 ";
  switch (v.valid) {
    case Validity::No:
      if (expected == "violated") return "1 violation of " + v.property + anomaly + dash + "expected (the scenario shows this bug)";
      if (expected == "holds") return v.property + " violated" + anomaly + ", expected to hold" + dash + "a regression";
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

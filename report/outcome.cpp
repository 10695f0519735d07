#include "report/outcome.hpp"

#include <array>

namespace locksim::report {
namespace {

struct OutcomeRow {
  Outcome outcome;
  std::string_view word, label, css;
  bool failure;
};

// One row per outcome, in the enum's order.
constexpr std::array<OutcomeRow, 15> kOutcomes{{
    {Outcome::Pass, "pass", "pass", "pass", false},
    {Outcome::ExpectedViolation, "pass", "pass: violation expected", "expected", false},
    {Outcome::UnexpectedViolation, "FAIL", "FAIL: unexpected violation", "unexpected", true},
    {Outcome::MissedViolation, "FAIL", "FAIL: expected violation not found", "missed", true},
    {Outcome::Fail, "FAIL", "FAIL", "fail", true},
    {Outcome::Seen, "seen", "seen (no expectation)", "seen", false},
    {Outcome::Skipped, "skipped", "skipped", "skipped", false},
    {Outcome::Error, "FAIL", "error", "error", true},
    {Outcome::Affected, "affected", "affected", "affected", true},
    {Outcome::Hazard, "affected", "affected: every version", "hazard", false},
    {Outcome::Fixed, "fixed", "fixed", "fixed", false},
    {Outcome::NotAffected, "not affected", "not affected with your options", "unaffected", false},
    {Outcome::NotYet, "not yet", "not yet: the bug came later", "notyet", false},
    {Outcome::Mitigated, "mitigated", "mitigation shown", "mitigated", false},
    {Outcome::Differs, "differs", "differs", "differs", true},
}};

constexpr bool in_enum_order() {
  for (size_t i = 0; i < kOutcomes.size(); ++i)
    if (static_cast<size_t>(kOutcomes[i].outcome) != i) return false;
  return true;
}
static_assert(in_enum_order(), "kOutcomes is indexed by Outcome");

const OutcomeRow& row_of(Outcome outcome) { return kOutcomes[static_cast<size_t>(outcome)]; }

}  // namespace

Outcome outcome_of(std::string_view expected, std::string_view observed, bool passed) {
  if (expected.empty() || expected == "-") return Outcome::Seen;
  const bool violated = observed == "violated";
  if (passed) return violated && expected == "violated" ? Outcome::ExpectedViolation : Outcome::Pass;
  if (expected == "holds" && violated) return Outcome::UnexpectedViolation;
  if (expected == "violated") return Outcome::MissedViolation;
  return Outcome::Fail;
}

std::string_view outcome_word(Outcome outcome) { return row_of(outcome).word; }
std::string_view outcome_label(Outcome outcome) { return row_of(outcome).label; }
std::string_view outcome_class(Outcome outcome) { return row_of(outcome).css; }
bool is_failure(Outcome outcome) { return row_of(outcome).failure; }

}  // namespace locksim::report

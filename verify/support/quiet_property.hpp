#pragma once
// Runs a RapidCheck property a bounded number of times without RapidCheck's per-case output (the
// differential properties talk to a live server: thousands of cases would fill the log), and
// fails the current GoogleTest test with RapidCheck's report of the shrunk counterexample.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <sstream>
#include <string>

namespace locksim::test {

class SilentListener : public rc::detail::TestListener {
 public:
  void onTestCaseFinished(const rc::detail::CaseDescription&) override {}
  void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}
};

template <typename Property>
void check_quietly(const std::string& id, int cases, Property property) {
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  params.maxSuccess = cases;
  rc::detail::TestMetadata metadata;
  metadata.id = id;
  metadata.description = id;
  SilentListener listener;
  const auto result = rc::detail::checkProperty(rc::detail::toProperty(property), metadata, params, listener,
                                                rc::detail::configuration().reproduce);
  std::ostringstream message;
  rc::detail::printResultMessage(result, message);
  EXPECT_TRUE(result.template is<rc::detail::SuccessResult>()) << message.str();
}

}  // namespace locksim::test

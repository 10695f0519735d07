// Checker regression stories (verify/stories/<property>/*.yaml): for every property, stories that
// violate it by its definition (planted script bugs, faults, second threads, several servers, the
// last millisecond of a run), each confirmed in its timeline when written. Every one must come out
// as it expects, and each expects its folder's property violated: a checker that stops seeing one
// of them has lost a bug it used to catch.
//
// A story may have a holding twin beside it, `<story>.holds.yaml`: the same situation with the one
// thing that broke the property put right (the real script, the fault a moment later), which must
// come out holds. The pair shows that the checker tells the two apart, not that it flags the setting.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <string_view>

#include "scenario/loader.hpp"
#include "scenario/runner.hpp"
#include "model/checkers.hpp"

namespace locksim::scenario {
namespace {



const std::filesystem::path kStories = std::filesystem::path(LOCKSIM_SOURCE_DIR) / "verify" / "stories";

std::vector<std::string> stories() { return find_scenario_files({kStories.string()}); }

constexpr std::string_view kTwin = ".holds.yaml";

bool is_twin(const std::string& file) { return file.ends_with(kTwin); }

class Story : public ::testing::TestWithParam<std::string> {};

TEST_P(Story, ComesOutAsItExpects) {
  const std::string property = std::filesystem::path(GetParam()).parent_path().filename().string();
  const Scenario s = load_scenario(GetParam());
  const bool twin = is_twin(GetParam());
  const std::string verdict = twin ? "holds" : "violated";
  bool expects = false;
  for (const auto& [p, expected] : s.expect) expects = expects || (p == property && expected == verdict);
  ASSERT_TRUE(expects) << GetParam() << " must expect " << property << ": " << verdict;
  if (twin) {
    const std::string story = GetParam().substr(0, GetParam().size() - kTwin.size()) + ".yaml";
    ASSERT_TRUE(std::filesystem::exists(story)) << GetParam() << " is the holding twin of " << story << ", which is missing";
  }
  const ScenarioResult r = run_scenario(s);
  ASSERT_FALSE(r.error) << *r.error;
  for (const auto& p : r.properties)
    EXPECT_TRUE(p.passed) << p.property << ": expected " << p.expected << ", observed " << model::to_string(p.verdict.valid)
                          << " — " << p.verdict.explanation;
  for (const auto& pin : r.pins)
    EXPECT_TRUE(pin.passed) << pin.pin.client << " " << pin.pin.op << " #" << pin.pin.nth << ": expected " << pin.pin.result
                            << ", observed " << pin.observed;
}

INSTANTIATE_TEST_SUITE_P(Stories, Story, ::testing::ValuesIn(stories()), [](const auto& info) {
  const std::filesystem::path p(info.param);
  std::string name = p.parent_path().filename().string() + "_" + p.stem().string();
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
});
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Story);

// Six distinct violated stories at least for every property a scenario can judge (resource, judged
// only on serve's histories, has its unit tests and the client stories of verify/clients/).
TEST(Stories, EveryPropertyHasSixStories) {
  std::map<std::string, int> count;
  for (const std::string& file : stories())
    if (!is_twin(file)) ++count[std::filesystem::path(file).parent_path().filename().string()];
  for (const std::string& property : model::scenario_property_names()) EXPECT_GE(count[property], 6) << property;
}

}  // namespace
}  // namespace locksim::scenario

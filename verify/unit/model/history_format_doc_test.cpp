// docs/history-format.md must stay true to model/history.hpp: a section with an example line for every
// event kind, each example read by History::from_jsonl and written back to the same bytes, and every
// field to_jsonl can write listed in the field table.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "model/history.hpp"

namespace locksim::model {
namespace {

std::string read_doc() {
  std::ifstream in(std::string(LOCKSIM_SOURCE_DIR) + "/docs/history-format.md");
  EXPECT_TRUE(in) << "docs/history-format.md is missing";
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The example lines, each with the heading of the section it is under.
std::vector<std::pair<std::string, std::string>> examples(const std::string& doc) {
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream in(doc);
  std::string line, section;
  bool in_block = false;
  const std::regex heading(R"(^### `([a-z]+)`)");
  for (std::smatch m; std::getline(in, line);) {
    if (std::regex_search(line, m, heading)) section = m[1];
    else if (line == "```jsonl") in_block = true;
    else if (line == "```") in_block = false;
    else if (in_block) out.emplace_back(section, line);
  }
  return out;
}

TEST(HistoryFormatDoc, EveryKindHasASectionAndAnExample) {
  const auto lines = examples(read_doc());
  std::set<std::string> shown;
  for (const auto& [section, line] : lines) shown.insert(section);
  for (int k = 0; k <= static_cast<int>(EventKind::End); ++k) {
    const std::string kind(to_string(static_cast<EventKind>(k)));
    EXPECT_TRUE(shown.count(kind)) << "docs/history-format.md has no example of `" << kind << "`";
  }
}

TEST(HistoryFormatDoc, ExamplesReadBackToTheSameBytes) {
  const auto lines = examples(read_doc());
  ASSERT_GE(lines.size(), 13u);
  for (const auto& [section, line] : lines) {
    const History h = History::from_jsonl(line);
    ASSERT_EQ(h.size(), 1u) << line;
    EXPECT_EQ(std::string(to_string(h[0].kind)), section) << "an example under `" << section << "`: " << line;
    // Reading ignores "i" (the position counts); the rest must come back byte for byte.
    std::string written = h.to_jsonl();
    written.pop_back();  // the newline
    const std::regex index(R"(^\{"i":[0-9]+,)");
    EXPECT_EQ(std::regex_replace(written, index, "{"), std::regex_replace(line, index, "{"));
  }
}

TEST(HistoryFormatDoc, ListsEveryFieldTheWriterWrites) {
  Event e;  // every field away from its default, so to_jsonl writes them all
  e.at_ms = 1, e.kind = EventKind::Exec, e.process = "redis0", e.thread = 1, e.op = 1, e.lock = "l", e.f = "f";
  e.value = 1, e.wait_ms = 1, e.lease_ms = 1, e.text = "x", e.reply = "x", e.before = "x", e.after = "x";
  e.client = "A", e.sent_ms = 1, e.ttl_ms = 1, e.queue = "[]", e.for_ms = 1;
  History h;
  h.add(e);
  const std::string written = h.to_jsonl(), doc = read_doc();
  const std::regex key(R"re("([a-z_]+)":)re");
  int fields = 0;
  for (std::sregex_iterator it(written.begin(), written.end(), key), end; it != end; ++it, ++fields)
    EXPECT_NE(doc.find("| `" + (*it)[1].str() + "` |"), std::string::npos)
        << "docs/history-format.md's field table lacks `" << (*it)[1] << "`";
  EXPECT_EQ(fields, 20);
}

}  // namespace
}  // namespace locksim::model

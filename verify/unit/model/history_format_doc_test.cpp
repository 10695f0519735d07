// docs/history-format.md must stay true to model/history.hpp: a section with an example line for every
// event kind, each example read by History::from_jsonl and written back to the same bytes, and every
// field to_jsonl can write listed in the field table.
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

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
    // An example is a line of a longer history: it is read after as many events as its "i" says,
    // timed so that an exec's sent_i (the place of its send among them) falls at its `sent`.
    const auto j = nlohmann::json::parse(line);
    const int64_t sent = j.value("sent", int64_t{0}), sent_i = j.value("sent_i", int64_t{-1});
    std::string before;
    for (int64_t k = 0; k < j.value("i", int64_t{0}); ++k)
      before += R"({"t":)" + std::to_string(sent_i >= 0 && k >= sent_i ? sent : 0) +
                R"(,"type":"key","p":"redis0","lock":"other","f":"created"})" + "\n";
    const History h = History::from_jsonl(before + line);
    ASSERT_EQ(h.size(), static_cast<size_t>(j.value("i", int64_t{0})) + 1) << line;
    EXPECT_EQ(std::string(to_string(h[h.size() - 1].kind)), section) << "an example under `" << section << "`: " << line;
    // The rest of the line must come back byte for byte.
    std::string written = h.to_jsonl();
    written.pop_back();  // the newline
    written = written.substr(written.rfind('\n') + 1);
    const std::regex index(R"(^\{"i":[0-9]+,)");
    EXPECT_EQ(std::regex_replace(written, index, "{"), std::regex_replace(line, index, "{"));
  }
}

TEST(HistoryFormatDoc, ListsEveryFieldTheWriterWrites) {
  Event e;  // every field away from its default, so to_jsonl writes them all
  e.at_ms = 1, e.kind = EventKind::Exec, e.process = "redis0", e.thread = 1, e.op = 1, e.lock = "l", e.f = "f";
  e.value = 1, e.wait_ms = 1, e.lease_ms = 1, e.text = "x", e.reply = "x", e.before = "x", e.after = "x";
  e.client = "A", e.sent_ms = 1, e.sent_index = 0, e.ttl_ms = 1, e.queue = "[]", e.for_ms = 1;
  History h;
  h.add(e);
  const std::string written = h.to_jsonl(), doc = read_doc();
  const std::regex key(R"re("([a-z_]+)":)re");
  int fields = 0;
  for (std::sregex_iterator it(written.begin(), written.end(), key), end; it != end; ++it, ++fields)
    EXPECT_NE(doc.find("| `" + (*it)[1].str() + "` |"), std::string::npos)
        << "docs/history-format.md's field table lacks `" << (*it)[1] << "`";
  EXPECT_EQ(fields, 21);
}

}  // namespace
}  // namespace locksim::model

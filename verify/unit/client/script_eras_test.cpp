// Each script of scripts/ that stands for one of Redisson's is Redisson's Lua text at a named tag,
// byte for byte. The reference texts are in redisson_scripts/<script>@<tag>.lua, transcribed from
// Redisson's sources by tools/redisson-scripts (its README cites file and method); a script here is
// its comment header (the leading lines that start with "--", and blank lines), then that text, then
// the file's final newline. Where the two differ the script is wrong, not the reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace locksim::client {
namespace {

namespace fs = std::filesystem;

const fs::path kScripts = fs::path(LOCKSIM_SOURCE_DIR) / "scripts";
const fs::path kReference = fs::path(LOCKSIM_SOURCE_DIR) / "verify/unit/client/redisson_scripts";
// Ours, not Redisson's.
const std::set<std::string> kOwn = {"token_release"};

std::string read(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

struct Split {
  std::string header;
  std::string body;
};

// The comment header (leading "--" lines and blank lines) and what follows, without the file's final
// newline.
Split split(const std::string& text) {
  size_t at = 0;
  while (at < text.size()) {
    const size_t end = text.find('\n', at);
    const std::string line = text.substr(at, end == std::string::npos ? std::string::npos : end - at);
    if (!line.empty() && line.rfind("--", 0) != 0) break;
    at = end == std::string::npos ? text.size() : end + 1;
  }
  std::string body = text.substr(at);
  if (!body.empty() && body.back() == '\n') body.pop_back();
  return {text.substr(0, at), body};
}

struct Reference {
  std::string script;  // e.g. rlock_unlock_latch
  std::string tag;     // e.g. redisson-3.24.0
  fs::path path;
};

std::vector<Reference> references() {
  std::vector<Reference> out;
  for (const auto& entry : fs::directory_iterator(kReference)) {
    const std::string file = entry.path().filename().string();
    if (entry.path().extension() != ".lua") continue;
    const size_t at = file.find('@');
    if (at == std::string::npos) continue;
    out.push_back({file.substr(0, at), file.substr(at + 1, file.size() - at - 1 - 4), entry.path()});
  }
  std::sort(out.begin(), out.end(), [](const Reference& a, const Reference& b) { return a.script < b.script; });
  return out;
}

// "redisson-parent-3.31.0" -> "3.31.0"
std::string version_of(const std::string& tag) { return tag.substr(tag.find_last_of('-') + 1); }

TEST(ScriptEras, SplitTakesTheHeaderAndTheFinalNewline) {
  const Split s = split("-- a\n-- b\n\nif x then return 1 end; \n");
  EXPECT_EQ(s.header, "-- a\n-- b\n\n");
  EXPECT_EQ(s.body, "if x then return 1 end; ");  // a trailing space is part of the text
  EXPECT_EQ(split("return 1").body, "return 1");
  EXPECT_EQ(split("-- only\n").body, "");
}

TEST(ScriptEras, EveryScriptIsRedissonsTextAtItsTag) {
  const std::vector<Reference> refs = references();
  ASSERT_GE(refs.size(), 25u);
  for (const Reference& ref : refs) {
    SCOPED_TRACE(ref.script + " @ " + ref.tag);
    const fs::path ours = kScripts / (ref.script + ".lua");
    ASSERT_TRUE(fs::exists(ours)) << ours;
    const Split s = split(read(ours));
    EXPECT_EQ(s.body, read(ref.path));
    // The header says which Redisson it is: the tag's version is named there.
    EXPECT_NE(s.header.find(version_of(ref.tag)), std::string::npos)
        << "the header of " << ours << " does not name " << version_of(ref.tag);
  }
}

TEST(ScriptEras, EveryRedissonScriptHasItsReference) {
  std::set<std::string> pinned;
  for (const Reference& ref : references()) {
    EXPECT_TRUE(pinned.insert(ref.script).second) << ref.script << " has two references";
  }
  for (const auto& entry : fs::directory_iterator(kScripts)) {
    if (entry.path().extension() != ".lua") continue;
    const std::string name = entry.path().stem().string();
    if (kOwn.count(name) != 0) continue;
    EXPECT_EQ(pinned.count(name), 1u) << name << ".lua has no reference text in " << kReference;
  }
}

}  // namespace
}  // namespace locksim::client

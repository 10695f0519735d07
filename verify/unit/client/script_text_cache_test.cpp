// The script text cache never serves a stale file: a rewrite of the same size within the same
// instant is read as written, and its SHA1 follows it. A search's one reading (ScriptTexts) keeps
// what it first read.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "base/sha1.hpp"
#include "client/script_text_cache.hpp"

namespace locksim::client {
namespace {

void write(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

TEST(ScriptTextCache, ARewriteOfTheSameSizeIsReadAsWritten) {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("locksim-text-cache-" + std::to_string(::getpid()) + ".lua")).string();
  write(path, "return 1");
  const auto first = read_script_text(path);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->body, "return 1");
  EXPECT_EQ(first->sha, sha1_hex("return 1"));
  EXPECT_EQ(read_script_text(path), first);  // unchanged bytes: the cached text itself
  write(path, "return 2");                    // same size, same moment
  const auto second = read_script_text(path);
  ASSERT_TRUE(second);
  EXPECT_EQ(second->body, "return 2");
  EXPECT_EQ(second->sha, sha1_hex("return 2"));
  std::filesystem::remove(path);
  EXPECT_EQ(read_script_text(path), nullptr);  // gone: cannot be read
}

// A search's one reading: its worlds all see the text as first read, even if the file changes
// meanwhile, so every schedule runs the same script; a file not there yet is looked for again.
TEST(ScriptTexts, ASearchReadsEachFileOnceAndKeepsThatText) {
  const std::string path =
      (std::filesystem::temp_directory_path() / ("locksim-texts-" + std::to_string(::getpid()) + ".lua")).string();
  std::filesystem::remove(path);
  ScriptTexts texts;
  EXPECT_EQ(texts.read(path), nullptr);
  write(path, "return 1");
  const auto first = texts.read(path);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->body, "return 1");
  write(path, "return 2");
  EXPECT_EQ(texts.read(path), first);
  EXPECT_EQ(read_script_text(path)->body, "return 2");  // a world without the search's reading sees the edit
  std::filesystem::remove(path);
  EXPECT_EQ(texts.read(path), first);
}

}  // namespace
}  // namespace locksim::client

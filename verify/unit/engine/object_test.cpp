// OBJECT (cmd_object.cpp): the encodings Redis would have chosen, and its shared integers.
#include "verify/unit/engine/engine_harness.hpp"

namespace locksim::engine {
namespace {

class Objects : public EngineTest {};

TEST_F(Objects, ObjectEncodingFollowsEachTypesHistory) {
  ASSERT_EQ(run({"SET", "int", "12345"}), Reply::ok());
  ASSERT_EQ(run({"SET", "emb", "hello"}), Reply::ok());
  ASSERT_EQ(run({"SET", "raw", std::string(45, 'x')}), Reply::ok());
  ASSERT_EQ(run({"APPEND", "int", "6"}), integer(6));
  EXPECT_EQ(run({"OBJECT", "ENCODING", "int"}), bulk("raw"));
  ASSERT_EQ(run({"INCR", "int"}), integer(123457));
  EXPECT_EQ(run({"OBJECT", "ENCODING", "int"}), bulk("int"));
  EXPECT_EQ(run({"OBJECT", "ENCODING", "emb"}), bulk("embstr"));
  EXPECT_EQ(run({"OBJECT", "ENCODING", "raw"}), bulk("raw"));
  ASSERT_EQ(run({"RENAME", "int", "moved"}), Reply::ok());
  ASSERT_EQ(run({"APPEND", "moved", ""}), integer(6));
  ASSERT_EQ(run({"RENAME", "moved", "moved2"}), Reply::ok());
  EXPECT_EQ(run({"OBJECT", "ENCODING", "moved2"}), bulk("raw"));

  ASSERT_EQ(run({"HSET", "h", "f", "v"}), integer(1));
  EXPECT_EQ(run({"OBJECT", "ENCODING", "h"}), bulk("listpack"));
  ASSERT_EQ(run({"HSET", "h", "g", std::string(65, 'v')}), integer(1));
  ASSERT_EQ(run({"HDEL", "h", "g"}), integer(1));
  EXPECT_EQ(run({"OBJECT", "ENCODING", "h"}), bulk("hashtable"));

  ASSERT_EQ(run({"RPUSH", "l", "x"}), integer(1));
  EXPECT_EQ(run({"OBJECT", "ENCODING", "l"}), bulk("quicklist"));
  ASSERT_EQ(run({"ZADD", "z", "1", "m"}), integer(1));
  EXPECT_EQ(run({"OBJECT", "ENCODING", "z"}), bulk("listpack"));
  ASSERT_EQ(run({"SADD", "s", "1"}), integer(1));
  EXPECT_EQ(run({"OBJECT", "ENCODING", "s"}), bulk("intset"));
  EXPECT_EQ(run({"OBJECT", "ENCODING", "missing"}), Reply::nil());
}

TEST_F(Objects, ObjectRefcountShowsRedissSharedIntegers) {
  ASSERT_EQ(run({"SET", "small", "9999"}), Reply::ok());
  ASSERT_EQ(run({"SET", "big", "10000"}), Reply::ok());
  ASSERT_EQ(run({"SET", "neg", "-1"}), Reply::ok());
  EXPECT_EQ(run({"OBJECT", "REFCOUNT", "small"}), integer(2147483647));
  EXPECT_EQ(run({"OBJECT", "REFCOUNT", "big"}), integer(1));
  EXPECT_EQ(run({"OBJECT", "REFCOUNT", "neg"}), integer(1));
  EXPECT_EQ(run({"OBJECT", "REFCOUNT", "missing"}), Reply::nil());
}

}  // namespace
}  // namespace locksim::engine

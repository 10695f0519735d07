// Differential: functions (cmd_functions.cpp, functions.cpp, function_lua.cpp). Redis lists
// libraries and a library's functions in its hash tables' order, which changes from run to run:
// a FUNCTION LIST compared here shows one library of one function, or asks for one by name.
#include "verify/support/differential.hpp"

namespace locksim::test {
namespace {

// A library named `name` whose code, after the metadata line, is `body`.
std::string library(const std::string& name, const std::string& body) { return "#!lua name=" + name + "\n" + body; }

std::vector<std::string> load(const std::string& code) { return {"FUNCTION", "LOAD", code}; }

}  // namespace

TEST_F(Differential, FunctionLoadAndCall) {
  expect_same(load(library("lib", "redis.register_function('echo', function(keys, args) return {keys, args, #keys} end)")));
  expect_same({"FCALL", "echo", "2", "k1", "k2", "a1", "a2"});
  expect_same({"FCALL", "ECHO", "0"});
  expect_same({"FCALL", "echo", "0", "a"});
  expect_same({"FCALL_RO", "echo", "0"});
  expect_same({"FCALL", "nope", "0"});
  expect_same({"FCALL", "echo", "x"});
  expect_same({"FCALL", "echo", "-1"});
  expect_same({"FCALL", "echo", "3", "a"});
  expect_same({"FCALL", "echo"});
  expect_same({"FCALL_RO", "nope", "0"});
  expect_same(load(library("lib", "redis.register_function('other', function() return 1 end)")));
  expect_same({"FUNCTION", "LOAD", "REPLACE",
               library("lib", "redis.register_function('other', function(k, a) return redis.call('incr', k[1]) end)")});
  expect_same({"FCALL", "echo", "0"});
  expect_same({"FCALL", "other", "1", "counter"});
  expect_same({"FCALL", "other", "1", "counter"});
  expect_same({"GET", "counter"});
  expect_same({"FUNCTION", "LIST"});
  expect_same({"FUNCTION", "LIST", "WITHCODE"});
  expect_same({"FUNCTION", "LIST", "LIBRARYNAME", "L*"});
  expect_same({"FUNCTION", "LIST", "libraryname", "x*", "withcode"});
  expect_same({"FUNCTION", "STATS"});
  expect_same({"FUNCTION", "DELETE", "lib"});
  expect_same({"FUNCTION", "DELETE", "lib"});
  expect_same({"FCALL", "other", "1", "counter"});
  expect_same({"FUNCTION", "STATS"});
  expect_same({"FUNCTION", "LIST"});
}

TEST_F(Differential, FunctionNamedArgumentsAndFlags) {
  expect_same(load(library("ro", R"(redis.register_function{function_name='get', callback=function(k) return redis.call('get', k[1]) end,
  flags={'no-writes'}, description='reads a key'})")));
  expect_same({"FUNCTION", "LIST"});
  expect_same({"SET", "k", "v"});
  expect_same({"FCALL_RO", "get", "1", "k"});
  expect_same({"FCALL", "get", "1", "k"});
  expect_same(load(library("w", R"(redis.register_function{function_name='set', callback=function(k) return redis.call('set', k[1], 'x') end,
  flags={'NO-WRITES', 'allow-oom', 'allow-stale', 'no-cluster', 'allow-cross-slot-keys'}})")));
  expect_same({"FUNCTION", "LIST", "LIBRARYNAME", "w"});
  expect_same({"FCALL", "set", "1", "k"});
  expect_same({"GET", "k"});
  expect_same(load(library("pub", R"(redis.register_function{function_name='pub', callback=function() return redis.call('publish', 'c', 'm') end,
  flags={'no-writes'}})")));
  expect_same({"FCALL", "pub", "0"});
  expect_same(load(library("wr", "redis.register_function('wr', function(k) return redis.call('set', k[1], 'y') end)")));
  expect_same({"FCALL_RO", "wr", "1", "k"});
  expect_same({"FCALL", "wr", "1", "k"});
  expect_same({"GET", "k"});
  expect_same({"FUNCTION", "STATS"});
}

TEST_F(Differential, FunctionMetadataErrors) {
  expect_same(load("return 1"));
  expect_same(load("#!lua name=x"));
  expect_same(load("#!lua\nredis.register_function('f', function() end)"));
  expect_same(load("#!lua name=a name=b\nredis.register_function('f', function() end)"));
  expect_same(load("#!lua foo=b\nredis.register_function('f', function() end)"));
  expect_same(load("#!lua NAME=up\nredis.register_function('f', function() end)"));
  expect_same(load("#!LUA name=up2\nredis.register_function('g', function() end)"));
  expect_same(load("#!py name=b\nredis.register_function('f', function() end)"));
  expect_same(load("#!lua name=\nredis.register_function('f', function() end)"));
  expect_same(load("#!lua name=a-b\nredis.register_function('f', function() end)"));
  expect_same(load("#!lua name=\"unclosed\nredis.register_function('f', function() end)"));
  expect_same(load("#!lua name=\"q q\"\nredis.register_function('f', function() end)"));
  expect_same(load("#! name=e\nredis.register_function('f', function() end)"));
  expect_same({"FUNCTION", "LOAD", "bogus", library("x", "redis.register_function('f', function() end)")});
  expect_same({"FUNCTION", "LOAD", "REPLACE"});
  expect_same({"FUNCTION", "LOAD"});
  expect_same({"FUNCTION"});
  expect_same({"FUNCTION", "NOSUCH"});
  expect_same({"FUNCTION", "DELETE"});
  expect_same({"FUNCTION", "DELETE", "a", "b"});
  expect_same({"FUNCTION", "STATS", "x"});
  expect_same({"FUNCTION", "FLUSH", "bogus"});
  expect_same({"FUNCTION", "FLUSH", "SYNC", "ASYNC"});
  expect_same({"FUNCTION", "FLUSH", "async"});
  expect_same({"FUNCTION", "FLUSH"});
  expect_same({"FUNCTION", "LIST", "bogus"});
  expect_same({"FUNCTION", "LIST", "LIBRARYNAME"});
  expect_same({"FUNCTION", "LIST", "WITHCODE", "WITHCODE"});
  expect_same({"FUNCTION", "LIST", "LIBRARYNAME", "a", "LIBRARYNAME", "b"});
  expect_same({"FUNCTION", "KILL"});
  expect_same({"FUNCTION", "HELP"});
}

TEST_F(Differential, FunctionLoadErrors) {
  expect_same(load(library("lib", "local x = 1")));
  expect_same(load(library("lib", "return (")));
  expect_same(load(library("lib", "a = 1")));
  expect_same(load(library("lib", "redis.call('ping')")));
  expect_same(load(library("lib", "redis.math.random()")));
  expect_same(load(library("lib", "local t = getmetatable(_G)")));
  expect_same(load(library("lib", "math.random()")));
  expect_same(load(library("lib", "redis.log(redis.LOG_WARNING, 'loading')\nredis.register_function('f', function() return redis.REDIS_VERSION end)")));
  expect_same({"FCALL", "f", "0"});
  expect_same(load(library("lib2", "redis.register_function('f', function() end)")));
  expect_same(load(library("lib2", "redis.register_function('F', function() end)")));
  expect_same(load(library("lib", "redis.register_function('g', function() end)")));
  expect_same({"FUNCTION", "LOAD", "REPLACE", library("lib", "redis.register_function('g', function() return 'g' end)")});
  expect_same({"FCALL", "f", "0"});
  expect_same({"FCALL", "g", "0"});
  expect_same({"FUNCTION", "LOAD", "REPLACE", library("lib", "error('no')")});
  expect_same({"FCALL", "g", "0"});
  const char* bad_registrations[] = {
      "redis.register_function()",
      "redis.register_function('a', function() end, 3)",
      "redis.register_function(1, function() end)",
      "redis.register_function({}, function() end)",
      "redis.register_function('a', 'b')",
      "redis.register_function('a-b', function() end)",
      "redis.register_function('', function() end)",
      "redis.register_function('a', function() end)\nredis.register_function('a', function() end)",
      "redis.register_function('x')",
      "redis.register_function{function_name='a'}",
      "redis.register_function{callback=function() end}",
      "redis.register_function{function_name=1, callback=function() end}",
      "redis.register_function{function_name={}, callback=function() end}",
      "redis.register_function{function_name='a', callback='c'}",
      "redis.register_function{function_name='a', callback=function() end, description={}}",
      "redis.register_function{function_name='a', callback=function() end, flags='no-writes'}",
      "redis.register_function{function_name='a', callback=function() end, flags={'bogus'}}",
      "redis.register_function{function_name='a', callback=function() end, flags={1}}",
      "redis.register_function{function_name='a', callback=function() end, flags={{}}}",
      "redis.register_function{function_name='a', callback=function() end, other=1}",
      "redis.register_function{function_name='a', callback=function() end, [1]=2}",
      "redis.register_function{'a', function() end}",
      "redis.register_function{FUNCTION_NAME='Ab', CALLBACK=function() return 'ab' end}",
  };
  for (const char* body : bad_registrations) {
    SCOPED_TRACE(body);
    expect_same({"FUNCTION", "FLUSH"});
    expect_same(load(library("bad", body)));
  }
  expect_same({"FCALL", "ab", "0"});
}

TEST_F(Differential, FunctionRuntime) {
  expect_same(load(library("rt", R"(
redis.register_function('fails', function() error('boom') end)
redis.register_function('fails_table', function() error({err='XX custom'}) end)
redis.register_function('reply', function() return redis.error_reply('MY error') end)
redis.register_function('status', function() return redis.status_reply('FINE') end)
redis.register_function('keys_global', function() return KEYS end)
redis.register_function('set_global', function() x = 1 end)
redis.register_function('register', function() redis.register_function('z', function() end) end)
redis.register_function('pcall', function() return redis.pcall('incr', 'str') end)
redis.register_function('call', function() return redis.call('incr', 'str') end)
redis.register_function('noscript', function() return redis.call('fcall', 'status', '0') end)
redis.register_function('many', function(k, a) return {#k, #a, k[1], a[1], type(k), type(a)} end)
redis.register_function('rand', function() return math.random(1000) end)
local register = redis.register_function
redis.register_function('register_later', function() register('late', function() end) end)
redis.register_function('globals', function() local mt = getmetatable(_G); return {type(mt), type(mt.__index), type(mt.__newindex), tostring(rawequal(_G, mt.__index))} end)
redis.register_function('globals_index', function() local mt = getmetatable(_G); mt.__index.redis = 1 end)
redis.register_function('globals_write', function() local mt = getmetatable(_G); mt.x = 1 end)
redis.register_function('libraries_mt', function() return {type(getmetatable(string)), type(getmetatable(redis)), type(getmetatable(cjson)), type(getmetatable(math))} end)
)")));
  expect_same({"SET", "str", "text"});
  for (const char* f : {"fails", "fails_table", "reply", "status", "keys_global", "set_global", "register", "pcall",
                        "call", "noscript", "rand", "register_later", "globals", "globals_index", "globals_write", "libraries_mt"}) {
    SCOPED_TRACE(f);
    expect_same({"FCALL", f, "0"});
  }
  expect_same({"FCALL", "many", "1", "k", "a"});
  expect_same({"FCALL", "many", "0"});
  expect_same({"MULTI"});
  expect_same({"FCALL", "status", "0"});
  expect_same({"FCALL", "nope", "0"});
  expect_same({"EXEC"});
  expect_same({"EVAL", "return redis.call('fcall', 'status', '0')", "0"});
  expect_same({"EVAL", "return redis.call('function', 'list')", "0"});
}

}  // namespace locksim::test

namespace locksim::test {

// A payload goes both ways: the live server's (LZF-compressed where it pays) restored on both, and
// the fake's (plain strings) restored on both. Where several libraries clash, the one an error
// names is Redis's hash order: those replies are only checked for their kind.
TEST_F(Differential, FunctionDumpAndRestore) {
  const std::string long_body =
      "-- a comment long enough that Redis compresses the record with LZF, repeated: "
      "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n"
      "redis.register_function('long', function() return 'long' end)";
  expect_same({"FUNCTION", "LOAD", "#!lua name=one\nredis.register_function('one', function() return 1 end)"});
  expect_same({"FUNCTION", "LOAD", "#!lua name=two\n" + long_body});
  auto [fake_dump, live_dump] = both({"FUNCTION", "DUMP"});
  ASSERT_EQ(fake_dump.kind, Reply::Kind::Bulk);
  ASSERT_EQ(live_dump.kind, Reply::Kind::Bulk);
  // redis-server compressed the long record (RDB_ENC_LZF), so the fake reads LZF below.
  ASSERT_NE(live_dump.str.find('\xC3'), std::string::npos);
  ASSERT_EQ(fake_dump.str.find('\xC3'), std::string::npos);
  for (const std::string& payload : {live_dump.str, fake_dump.str}) {
    SCOPED_TRACE(payload == live_dump.str ? "redis-server's payload" : "the fake's payload");
    expect_same({"FUNCTION", "RESTORE", payload, "FLUSH"});
    // Both libraries are there: which one the error names is Redis's hash order.
    for (const char* append : {"", "APPEND"}) {
      std::vector<std::string> argv{"FUNCTION", "RESTORE", payload};
      if (*append) argv.push_back(append);
      const auto [fake, live] = both(argv);
      for (const Reply& reply : {fake, live}) {
        EXPECT_TRUE(reply.is_error() && reply.str.starts_with("ERR Library ") && reply.str.ends_with(" already exists"))
            << reply.str;
      }
    }
    expect_same({"FUNCTION", "RESTORE", payload, "REPLACE"});
    expect_same({"FCALL", "long", "0"});
    expect_same({"FUNCTION", "FLUSH"});
    expect_same({"FUNCTION", "RESTORE", payload, "append"});
    expect_same({"FCALL", "one", "0"});
    expect_same({"FUNCTION", "LOAD", "#!lua name=three\nredis.register_function('three', function() return 3 end)"});
    expect_same({"FUNCTION", "RESTORE", payload, "FLUSH"});
    expect_same({"FCALL", "three", "0"});
    expect_same({"FUNCTION", "LIST", "LIBRARYNAME", "one"});
    expect_same({"FUNCTION", "DELETE", "two"});
    expect_same({"FUNCTION", "LOAD", "#!lua name=other\nredis.register_function('LONG', function() return 0 end)"});
    expect_same({"FUNCTION", "RESTORE", payload, "REPLACE"});
    expect_same({"FCALL", "one", "0"});
    expect_same({"FUNCTION", "RESTORE", payload, "bogus"});
    expect_same({"FUNCTION", "RESTORE", payload, "FLUSH", "x"});
    std::string broken = payload;
    broken[3] = static_cast<char>(broken[3] ^ 1);
    expect_same({"FUNCTION", "RESTORE", broken});
    std::string newer = payload;
    newer[newer.size() - 10] = 11;
    expect_same({"FUNCTION", "RESTORE", newer});
    expect_same({"FUNCTION", "RESTORE", "short"});
    expect_same({"FUNCTION", "FLUSH"});
  }
  auto [empty_fake, empty_live] = both({"FUNCTION", "DUMP"});
  EXPECT_EQ(empty_fake, empty_live);  // nothing to compress: the same bytes
  expect_same({"FUNCTION", "RESTORE", empty_live.str});
  expect_same({"FUNCTION", "DUMP", "x"});
  expect_same({"FUNCTION", "RESTORE"});
}

}  // namespace locksim::test

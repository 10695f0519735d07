// Differential: the libraries Redis 7.0 loads for scripts (lua_cjson.cpp, lua_bit.cpp,
// lua_struct.cpp, lua_cmsgpack.cpp, lua51.cpp). Objects and maps with more than one key are compared
// through decoding or sorting in the script: Redis writes their members in Lua 5.1's hash order and
// the fake in key order (docs/fidelity.md). Never sent to the live server: bit.tohex(x, -2^31),
// which overflows a stack buffer in 7.0.15 (CVE-2024-31449); the unit tests cover it.
#include "verify/support/differential.hpp"

namespace locksim::test {
namespace {

std::vector<std::string> eval(const std::string& body, std::vector<std::string> rest = {"0"}) {
  std::vector<std::string> argv{"EVAL", body};
  argv.insert(argv.end(), rest.begin(), rest.end());
  return argv;
}

// `text` as a Lua string literal's body between single quotes.
std::string lua_quoted(const std::string& text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted + "'";
}

// Runs `body` with `value` bound to the local v.
std::vector<std::string> with(const std::string& value, const std::string& body) {
  return eval("local v = " + value + "\n" + body);
}

}  // namespace

TEST_F(Differential, LibrariesAreLoadedAndReadOnly) {
  for (const char* name : {"cjson", "bit", "struct", "cmsgpack"}) {
    expect_same(eval(std::string("return type(") + name + ")"));
    expect_same(eval(std::string(name) + ".x = 1"));
    expect_same(eval(std::string(name) + ".encode = nil"));
    expect_same(eval(std::string("rawset(") + name + ", 'x', 1)"));
  }
  expect_same(eval("cjson = nil"));
  expect_same(eval("return {type(cjson.encode), type(cjson.decode), type(cjson.null), type(cjson.new)}"));
  expect_same(
      eval("return {cjson._NAME, cjson._VERSION, cmsgpack._NAME, cmsgpack._VERSION, cmsgpack._COPYRIGHT, "
           "cmsgpack._DESCRIPTION}"));
  expect_same(eval("return {type(struct.pack), type(struct.unpack), type(struct.size)}"));
  for (const char* f :
       {"tobit", "tohex", "bnot", "band", "bor", "bxor", "lshift", "rshift", "arshift", "rol", "ror", "bswap"}) {
    expect_same(eval(std::string("return type(bit.") + f + ")"));
  }
  for (const char* f : {"pack", "unpack", "unpack_one", "unpack_limit"}) {
    expect_same(eval(std::string("return type(cmsgpack.") + f + ")"));
  }
  for (const char* f : {"encode_sparse_array", "encode_max_depth", "decode_max_depth", "encode_number_precision",
                        "encode_keep_buffer", "encode_invalid_numbers", "decode_invalid_numbers", "safe"}) {
    expect_same(eval(std::string("return type(cjson.") + f + ")"));
  }
  expect_same(eval("return require"));
  expect_same(eval("return package"));
}

TEST_F(Differential, CjsonEncodesScalarsArraysAndOneKeyObjects) {
  for (const char* value : {"1",
                            "-1",
                            "0",
                            "3.5",
                            "0.1",
                            "1/3",
                            "-1/3",
                            "1e300",
                            "1e-300",
                            "2^53",
                            "2^53 + 1",
                            "2^63",
                            "-2^63",
                            "9007199254740993",
                            "9223372036854775807",
                            "123456789012345",
                            "12345678901234567890",
                            "100000000000000",
                            "1e15",
                            "0.5",
                            "-0.0",
                            "1e14",
                            "99999999999999",
                            "'str'",
                            "''",
                            "true",
                            "false",
                            "cjson.null",
                            "{}",
                            "{1, 2, 3}",
                            "{'a', 'b'}",
                            "{1, 'two', true, false, cjson.null}",
                            "{{1, {2, {3}}}, {}}",
                            "{x = 1}",
                            "{x = {y = {z = {}}}}",
                            "{[1] = 'a', [2] = 'b'}",
                            "{[1] = 'a', [3] = 'c'}",
                            "{[2] = 'b'}",
                            "{[1] = 1, [2] = 2, [4] = 4}",
                            "{[5] = 1}",
                            "{[10] = 1}",
                            "{[11] = 1}",
                            "{[20] = 1, [1] = 1}",
                            "{[0] = 1}",
                            "{[-1] = 1}",
                            "{[1.5] = 1}",
                            "{[2^53] = 1}",
                            "{'a\"b', 'c\\\\d', 'e/f', '\\n\\r\\t\\b\\f'}",
                            "{string.char(0, 1, 31, 127, 128, 255)}",
                            "{'caf\\195\\169'}",
                            "{['key with \"quote\"'] = 'v'}",
                            "{[true] = 1}",
                            "{f = function() end}",
                            "{1, function() end}",
                            "function() end",
                            "0/0",
                            "1/0",
                            "-1/0",
                            "{0/0}",
                            "{{{{{{{{{{{{{{{{{{{{1}}}}}}}}}}}}}}}}}}}}",
                            "{[1] = {a = {1, 2}}}",
                            "{ {x = 1}, {y = 2} }"}) {
    expect_same(with(value, "return cjson.encode(v)"));
  }
  expect_same(eval("return cjson.encode()"));
  expect_same(eval("return cjson.encode(1, 2)"));
  expect_same(eval("return cjson.encode(redis.call('ping'))"));
  expect_same(eval("local t = {} t[1] = t return cjson.encode(t)"));
  expect_same(eval("local t = {} for i = 1, 100 do t[i] = i * 1.5 end return cjson.encode(t)"));
  expect_same(eval("local t = {} for i = 1, 1001 do t = {t} end return cjson.encode(t)"));
  expect_same(eval("local t = {} for i = 1, 999 do t = {t} end return #cjson.encode(t)"));
  expect_same(eval("return cjson.encode(KEYS)", {"2", "k1", "k2"}));
  expect_same(eval("return cjson.encode(ARGV)", {"0", "a", "b"}));
}

TEST_F(Differential, CjsonObjectsWithManyKeysRoundTrip) {
  // Member order differs from Redis (its Lua 5.1 hash order); the members themselves must not.
  for (const char* value : {"{a = 1, b = 2, c = {1, 2, 3}, d = 'x'}", "{['1'] = 'one', two = {three = 3}}",
                            "{a = {b = {c = {d = 'deep'}}}, z = false, n = cjson.null}",
                            "{[1] = 'a', [2] = 'b', x = 'y'}", "{id = 12345678901, score = 0.25, tags = {'x', 'y'}}"}) {
    expect_same(with(value,
                     "local d = cjson.decode(cjson.encode(v)) local keys = {} for k in pairs(d) do keys[#keys + 1] = k "
                     "end table.sort(keys) local out = {} for _, k in ipairs(keys) do out[#out + 1] = k .. '=' .. "
                     "cjson.encode(d[k]) end return out"));
    expect_same(with(value, "return #cjson.encode(v)"));
  }
}

TEST_F(Differential, CjsonDecodes) {
  for (const char* json : {"1",
                           "-1",
                           "0",
                           "-0",
                           "1.5",
                           "1e3",
                           "1E+3",
                           "1e-3",
                           "123456789012345678",
                           "9007199254740993",
                           "12345678901234",
                           "123456789012345",
                           "0.1",
                           "-0.0",
                           "1e400",
                           "-1e400",
                           "\"str\"",
                           "\"\"",
                           "true",
                           "false",
                           "null",
                           "[]",
                           "{}",
                           "[1, 2, 3]",
                           "[1, [2, [3, [4]]]]",
                           "{\"a\": 1}",
                           "{\"a\": {\"b\": [1, {\"c\": null}]}}",
                           "  [ 1 , 2 ]  ",
                           "\"\\u0041\\u00e9\\u20ac\"",
                           "\"\\ud83d\\ude00\"",
                           "\"\\n\\t\\\\\\/\\\"\"",
                           "[null, null]",
                           "{\"1\": \"string key\"}",
                           "[1e2, 2.50, -3]",
                           "NaN",
                           "Infinity",
                           "-Infinity",
                           "0x10",
                           "nan",
                           "inf"}) {
    const std::string quoted = lua_quoted(json);
    expect_same(eval("return cjson.encode(cjson.decode(" + quoted + "))"));
    expect_same(eval("local v = cjson.decode(" + quoted +
                     ") if type(v) == 'table' then v = v[1] end "
                     "return type(v) .. ':' .. tostring(v)"));
    expect_same(eval("local v = cjson.decode(" + quoted +
                     ") if type(v) == 'table' then return 'table' end "
                     "return 'x' .. tostring(v)"));
  }
  // Decoded integral numbers print as 5.1's doubles do, concatenated as well as through tostring.
  expect_same(
      eval("local t = cjson.decode('{\"id\": 7, \"n\": -3, \"f\": 2.5, \"big\": 123456789012345678}') "
           "return {'id:' .. t.id, 'n:' .. t.n, 'f:' .. t.f, 'big:' .. t.big, t.id + 1, t.id / 2}"));
  expect_same(eval("return cjson.decode('[10, 20.5, 30]')"));
  expect_same(eval("return cjson.decode('[\"a\", [\"b\"], {\"c\": 1}]')[2]"));
  expect_same(eval("return cjson.decode('{\"a\": null}').a == cjson.null"));
  expect_same(eval("return #cjson.decode('[1, null, 3]')"));
  expect_same(eval("return cjson.decode(ARGV[1]).name", {"0", "{\"name\": \"from argv\"}"}));
  expect_same(eval("return cjson.decode(5)"));
  expect_same(eval("return cjson.decode(2.5)"));
}

TEST_F(Differential, CjsonDecodeErrors) {
  for (const char* json : {"",
                           "x",
                           "[1, 2",
                           "[1, 2,]",
                           "{\"a\" 1}",
                           "{\"a\": 1,}",
                           "{a: 1}",
                           "[1] [2]",
                           "\"abc",
                           "\"\\q\"",
                           "\"\\u12\"",
                           "\"\\ud800\"",
                           "tru",
                           "nul",
                           "01",
                           "1.",
                           "-",
                           "--1",
                           "[",
                           "]",
                           "{",
                           "}",
                           "{\"a\"}",
                           "{1: 2}",
                           "[1 2]",
                           "\"a\\u0000b\"",
                           "\"tab\there\"",
                           "'single'",
                           "/* c */ 1",
                           "1 // c"}) {
    expect_same(eval("return cjson.decode(" + lua_quoted(json) + ")"));
  }
  expect_same(eval("return cjson.decode()"));
  expect_same(eval("return cjson.decode('1', '2')"));
  expect_same(eval("return cjson.decode({})"));
  expect_same(eval("return cjson.decode(nil)"));
  expect_same(eval("return cjson.decode(cjson.null)"));
  expect_same(eval("return cjson.decode(string.rep('[', 1001) .. string.rep(']', 1001))"));
  expect_same(eval("return #cjson.decode(string.rep('[', 999) .. string.rep(']', 999))"));
  expect_same(eval("return cjson.decode('\\0\\0')"));
  expect_same(eval("return pcall(cjson.decode, '[')"));
  expect_same(eval("local ok, e = pcall(cjson.decode, '{') return e"));
}

TEST_F(Differential, CjsonSettingsLastUntilScriptFlush) {
  expect_same(eval("return {cjson.encode_max_depth(), cjson.decode_max_depth(), cjson.encode_number_precision()}"));
  expect_same(eval("return {cjson.encode_sparse_array()}"));
  expect_same(
      eval("return {tostring(cjson.encode_keep_buffer()), tostring(cjson.encode_invalid_numbers()), "
           "tostring(cjson.decode_invalid_numbers())}"));
  expect_same(eval("return cjson.encode_number_precision(3)"));
  expect_same(eval("return cjson.encode(1/3)"));  // the setting stays for the next script
  expect_same(eval("return cjson.encode_number_precision(0)"));
  expect_same(eval("return cjson.encode_number_precision(15)"));
  expect_same(eval("return cjson.encode_number_precision('x')"));
  expect_same(eval("return cjson.encode_max_depth(2)"));
  expect_same(eval("return cjson.encode({{{1}}})"));
  expect_same(eval("return cjson.encode({{1}})"));
  expect_same(eval("return cjson.decode_max_depth(2)"));
  expect_same(eval("return cjson.decode('[[[1]]]')"));
  expect_same(eval("return tostring(cjson.encode_invalid_numbers(true))"));
  expect_same(eval("return cjson.encode({1/0, -1/0, 0/0})"));
  expect_same(eval("return tostring(cjson.encode_invalid_numbers('null'))"));
  expect_same(eval("return cjson.encode({1/0, 0/0})"));
  expect_same(eval("return tostring(cjson.encode_invalid_numbers('maybe'))"));
  expect_same(eval("return tostring(cjson.decode_invalid_numbers(false))"));
  expect_same(eval("return cjson.decode('NaN')"));
  expect_same(eval("return cjson.decode('0x10')"));
  expect_same(eval("return {cjson.encode_sparse_array(true, 2, 3)}"));
  expect_same(eval("return cjson.encode({[1] = 1, [10] = 10})"));
  expect_same(eval("return {cjson.encode_sparse_array(false, 0)}"));
  expect_same(eval("return cjson.encode({[1] = 1, [1000] = 1000}) == nil"));
  expect_same(eval("return #cjson.encode({[1] = 1, [1000] = 1000})"));
  expect_same(eval("return {cjson.encode_sparse_array(false, -1)}"));
  expect_same(eval("return tostring(cjson.encode_keep_buffer(false))"));
  expect_same(eval("return cjson.encode({1, 2})"));
  expect_same({"SCRIPT", "FLUSH"});
  expect_same(eval("return {cjson.encode(1/3), cjson.encode_max_depth(), cjson.decode_max_depth()}"));
  expect_same(eval("return cjson.encode({[1] = 1, [10] = 10})"));
  expect_same(eval("return cjson.decode('NaN') ~= cjson.decode('NaN')"));
}

// Raised depth limits: Redis's encoder and decoder then stop where Lua 5.1's C stack (8000 slots)
// is full, at a depth that depends on how many objects (two slots a level) the path crosses.
TEST_F(Differential, CjsonDeepNestingStopsWhereLua51StackDoes) {
  expect_same(eval("return {cjson.decode_max_depth(100000), cjson.encode_max_depth(100000)}"));
  for (const char* body :
       {"return cjson.decode(string.rep('[', 9000) .. string.rep(']', 9000))",
        "return #cjson.decode(string.rep('[', 7998) .. string.rep(']', 7998))",
        "return cjson.decode(string.rep('[', 7999) .. string.rep(']', 7999))",
        "return cjson.decode(string.rep('{\"a\":', 5000) .. '1' .. string.rep('}', 5000))",
        "return cjson.decode(string.rep('{\"a\":[', 3000) .. '1' .. string.rep(']}', 3000))",
        "return cjson.decode(string.rep('[', 7997) .. 'x' .. string.rep(']', 7997))",
        "return cjson.decode('x' .. string.rep('[', 9000))", "return cjson.decode(string.rep('[', 100000))",
        "return cjson.decode('[\"[[[[\", ' .. string.rep('[', 8000))", "local t = {} t[1] = t return cjson.encode(t)",
        "local t = {} t.a = t return cjson.encode(t)",
        "local t = {} for i = 1, 7996 do t = {t} end return #cjson.encode(t)",
        "local t = {} for i = 1, 7997 do t = {t} end return cjson.encode(t)",
        "local t = {} for i = 1, 3998 do t = {a = t} end return #cjson.encode(t)",
        "local t = {} for i = 1, 3999 do t = {a = t} end return cjson.encode(t)"}) {
    expect_same(eval(std::string("cjson.decode_max_depth(100000) cjson.encode_max_depth(100000) ") + body));
  }
  expect_same(eval("cjson.decode_max_depth(5000) return cjson.decode(string.rep('[', 6000))"));
  expect_same(eval("cjson.decode_max_depth(4500) return cjson.decode(string.rep('{\"a\":', 4100))"));
}

TEST_F(Differential, CjsonNewInstancesHaveTheirOwnSettings) {
  expect_same(eval("local j = cjson.new() j.encode_number_precision(2) return {j.encode(1/3), cjson.encode(1/3)}"));
  expect_same(eval("local j = cjson.new() return j.decode('[1, 2.5]')"));
  expect_same(eval("local j = cjson.new() return j.encode({x = {1, 2}})"));
  expect_same(eval("local j = cjson.new() return j.decode('[1')"));
  expect_same(eval("local j = cjson.new().new() return j.encode({true})"));
  expect_same(eval("local j = cjson.new() j.x = 1 return j.x"));
}

TEST_F(Differential, BitOps) {
  for (const char* call : {"bit.tobit(1)",
                           "bit.tobit(-1)",
                           "bit.tobit(2^31)",
                           "bit.tobit(2^32)",
                           "bit.tobit(2^32 + 5)",
                           "bit.tobit(2^52)",
                           "bit.tobit(2^53)",
                           "bit.tobit(2^63)",
                           "bit.tobit(-2^31 - 1)",
                           "bit.tobit(1.5)",
                           "bit.tobit(2.5)",
                           "bit.tobit(-1.5)",
                           "bit.tobit(0xffffffff)",
                           "bit.tobit(4294967296 * 3 + 7)",
                           "bit.tobit('12')",
                           "bit.tobit('0x10')",
                           "bit.tobit(9007199254740993)",
                           "bit.tobit(9223372036854775807)",
                           "bit.tobit(0/0)",
                           "bit.tobit(1/0)",
                           "bit.bnot(0)",
                           "bit.bnot(-1)",
                           "bit.bnot(2^31)",
                           "bit.band(0xff, 0x0f)",
                           "bit.band(-1, 2^32 - 1)",
                           "bit.band(1, 3, 5, 7)",
                           "bit.band(5)",
                           "bit.bor(1, 2, 4, 8)",
                           "bit.bor(-2^31, 1)",
                           "bit.bxor(0xff, 0x0f)",
                           "bit.bxor(-1, 1, 2)",
                           "bit.lshift(1, 31)",
                           "bit.lshift(1, 32)",
                           "bit.lshift(1, 33)",
                           "bit.lshift(1, -1)",
                           "bit.lshift(-1, 4)",
                           "bit.rshift(-1, 28)",
                           "bit.rshift(-1, 0)",
                           "bit.rshift(2^31, 31)",
                           "bit.arshift(-256, 4)",
                           "bit.arshift(2^31, 31)",
                           "bit.arshift(256, 4)",
                           "bit.rol(0x12345678, 8)",
                           "bit.rol(-1, 1)",
                           "bit.ror(0x12345678, 8)",
                           "bit.ror(1, 1)",
                           "bit.ror(1, 33)",
                           "bit.bswap(0x12345678)",
                           "bit.bswap(-1)",
                           "bit.bswap(0x80)",
                           "bit.tohex(255)",
                           "bit.tohex(-1)",
                           "bit.tohex(255, 2)",
                           "bit.tohex(255, -2)",
                           "bit.tohex(0x12345678, 4)",
                           "bit.tohex(0x12345678, 12)",
                           "bit.tohex(1, 0)",
                           "bit.tohex(2^32 + 171)",
                           "bit.tohex(-2^31)",
                           "bit.tohex(1, -8)",
                           "bit.tohex(1, -9)",
                           "bit.tohex(1, 2^31 - 1)",
                           "bit.tohex(1, -(2^31 - 1))"}) {
    expect_same(eval(std::string("return ") + call));
    expect_same(eval(std::string("return tostring(") + call + ")"));
    expect_same(eval(std::string("return 'x' .. ") + call));
  }
}

TEST_F(Differential, BitErrors) {
  for (const char* call :
       {"bit.tobit()",          "bit.tobit('x')",          "bit.tobit({})",     "bit.tobit(nil)",
        "bit.tobit(true)",      "bit.tobit(cjson.null)",   "bit.band()",        "bit.band(1, 'x')",
        "bit.band(1, 'x', {})", "bit.bor(1, nil, 2)",      "bit.bxor('a')",     "bit.lshift(1)",
        "bit.lshift(1, 'x')",   "bit.lshift('x', 1)",      "bit.rshift()",      "bit.tohex()",
        "bit.tohex(1, nil)",    "bit.tohex(1, 'x')",       "bit.tohex('x', 1)", "bit.bswap()",
        "bit.rol(1, {})",       "bit.tobit(1, 'ignored')", "bit.bnot(1, {})",   "bit.lshift(1, 2, {})",
        "bit.tohex(1, 2, {})"}) {
    expect_same(eval(std::string("return ") + call));
  }
  expect_same(eval("return pcall(bit.band, 'x')"));
}

TEST_F(Differential, StructPacksAndUnpacks) {
  for (const char* call : {"struct.pack('b', -1)",
                           "struct.pack('B', 255)",
                           "struct.pack('B', 256)",
                           "struct.pack('b', 200)",
                           "struct.pack('h', -2)",
                           "struct.pack('>h', -2)",
                           "struct.pack('<H', 65535)",
                           "struct.pack('i', 1)",
                           "struct.pack('>i', 1)",
                           "struct.pack('>i4', -2)",
                           "struct.pack('<i2', 0x1234)",
                           "struct.pack('>I3', 0x123456)",
                           "struct.pack('l', -1)",
                           "struct.pack('>L', 2^63)",
                           "struct.pack('>L', 2^64)",
                           "struct.pack('>l', 2^63)",
                           "struct.pack('>l', -2^63)",
                           "struct.pack('>l', -2^64)",
                           "struct.pack('>L', -1)",
                           "struct.pack('>i8', 2^53 + 1)",
                           "struct.pack('>i8', 9007199254740993)",
                           "struct.pack('>i8', 9223372036854775807)",
                           "struct.pack('>i', 1.9)",
                           "struct.pack('>i', -1.9)",
                           "struct.pack('>i', 0/0)",
                           "struct.pack('>i16', -1)",
                           "struct.pack('<i16', -1)",
                           "struct.pack('>i12', 2^40)",
                           "struct.pack('T', 5)",
                           "struct.pack('f', 1.5)",
                           "struct.pack('>f', 0.1)",
                           "struct.pack('d', 1.5)",
                           "struct.pack('>d', -0.0)",
                           "struct.pack('<d', 1/0)",
                           "struct.pack('c', 'xyz')",
                           "struct.pack('c3', 'xyz')",
                           "struct.pack('c0', 'hello')",
                           "struct.pack('s', 'hi')",
                           "struct.pack('z')",
                           "struct.pack('x')",
                           "struct.pack('bxh', 1, 2)",
                           "struct.pack('!bxh', 1, 2)",
                           "struct.pack('!4bi', 1, 2)",
                           "struct.pack('!2bd', 1, 2)",
                           "struct.pack('!bd', 1, 2)",
                           "struct.pack('!3b', 1)",
                           "struct.pack('> b < h', 1, 2)",
                           "struct.pack('i33', 1)",
                           "struct.pack('i32', 1)",
                           "struct.pack('i99999999999', 1)",
                           "struct.pack('c5', 'abc')",
                           "struct.pack('b', 'x')",
                           "struct.pack('b')",
                           "struct.pack()",
                           "struct.pack(1)",
                           "struct.pack('c0', 12)",
                           "struct.pack('c0', 2.5)",
                           "struct.pack('c0', 3.0)",
                           "struct.pack('s', {})",
                           "struct.pack('>I', '0x10')",
                           "struct.pack('i0', 5)"}) {
    expect_same(eval(std::string("return ") + call));
  }
  for (const char* call : {"struct.unpack('b', '\\255')",
                           "struct.unpack('B', '\\255')",
                           "struct.unpack('>h', '\\255\\254')",
                           "struct.unpack('<H', '\\255\\255')",
                           "struct.unpack('>i', '\\0\\0\\1\\0')",
                           "struct.unpack('>I', '\\255\\255\\255\\255')",
                           "struct.unpack('>i', '\\255\\255\\255\\255')",
                           "struct.unpack('>l', string.rep('\\255', 8))",
                           "struct.unpack('>L', string.rep('\\255', 8))",
                           "struct.unpack('>L', '\\0\\32\\0\\0\\0\\0\\0\\1')",
                           "struct.unpack('>i16', string.rep('\\255', 16))",
                           "struct.unpack('>I16', string.rep('\\1', 16))",
                           "struct.unpack('>i9', '\\128' .. string.rep('\\0', 8))",
                           "struct.unpack('>i9', string.rep('\\0', 8) .. '\\200')",
                           "struct.unpack('>i3', '\\128\\0\\0')",
                           "struct.unpack('c2', 'abcd')",
                           "struct.unpack('c0', 'abcd')",
                           "struct.unpack('bc0', '\\3abcd')",
                           "struct.unpack('bc0', '\\9abcd')",
                           "struct.unpack('s', 'ab\\0cd')",
                           "struct.unpack('s', 'abcd')",
                           "struct.unpack('ss', 'a\\0b\\0')",
                           "struct.unpack('b', 'ab', 2)",
                           "struct.unpack('b', 'ab', 3)",
                           "struct.unpack('b', 'ab', 0)",
                           "struct.unpack('b', 'ab', -1)",
                           "struct.unpack('b', 'ab', 1.9)",
                           "struct.unpack('b', 'ab', '2')",
                           "struct.unpack('b', 'ab', 'x')",
                           "struct.unpack('>d', struct.pack('>d', 0.1))",
                           "struct.unpack('<f', struct.pack('<f', 0.1))",
                           "struct.unpack('d', struct.pack('d', 3))",
                           "struct.unpack('d', struct.pack('d', 2^53 + 2))",
                           "struct.unpack('!bd', struct.pack('!bd', 1, 2.5))",
                           "struct.unpack('bxb', '\\1\\0\\2')",
                           "struct.unpack('>i', '\\0\\0')",
                           "struct.unpack('q', 'abcdefgh')",
                           "struct.unpack('b')",
                           "struct.unpack()",
                           "struct.unpack('b', {})",
                           "struct.unpack(' ', 'a')",
                           "struct.unpack('', '')",
                           "struct.unpack('!5b', 'a')",
                           "struct.unpack('>l', struct.pack('>l', 2^53 + 1))",
                           "struct.unpack('>l', struct.pack('>l', 123456789012345))"}) {
    expect_same(eval(std::string("return {") + call + "}"));
    expect_same(
        eval(std::string("local t = {") + call + "} for i = 1, #t do t[i] = type(t[i]) .. ':' .. t[i] end return t"));
  }
  for (const char* format : {"b", "B",   "h",   "H",   "i",   "I",   "l",   "L",    "T",    "f",    "d",    "x",
                             "c", "c5",  "i3",  "i16", "bh",  "!bh", "!bd", "!4bd", "!2bi", "bd",   "s",    "c0",
                             "z", "b z", "<>!", "!3",  "i40", "",    " ",   "q",    "!8xd", "bbbd", "!bbbd"}) {
    expect_same(eval(std::string("return struct.size('") + format + "')"));
  }
  expect_same(eval("return struct.size()"));
  expect_same(eval("return struct.size(12)"));
  expect_same(eval("local s = struct.pack('>HBc0s', 513, 3, 'abc', 'zed') return {s, struct.unpack('>HBc0s', s)}"));
}

TEST_F(Differential, CmsgpackPacksAsRedis) {
  for (const char* value : {"0",
                            "1",
                            "127",
                            "128",
                            "255",
                            "256",
                            "65535",
                            "65536",
                            "4294967295",
                            "4294967296",
                            "-1",
                            "-32",
                            "-33",
                            "-128",
                            "-129",
                            "-32768",
                            "-32769",
                            "-2147483648",
                            "-2147483649",
                            "2^53",
                            "2^53 + 1",
                            "2^63",
                            "-2^63",
                            "2^64",
                            "9007199254740993",
                            "9223372036854775807",
                            "-9223372036854775807",
                            "1.5",
                            "0.1",
                            "-0.0",
                            "1/0",
                            "-1/0",
                            "0/0",
                            "3.4e38",
                            "3.5e38",
                            "1e-45",
                            "''",
                            "'x'",
                            "string.rep('a', 31)",
                            "string.rep('a', 32)",
                            "string.rep('a', 255)",
                            "string.rep('a', 256)",
                            "string.rep('a', 65535)",
                            "string.rep('a', 65536)",
                            "true",
                            "false",
                            "nil",
                            "cjson.null",
                            "function() end",
                            "{}",
                            "{1, 2, 3}",
                            "{1, nil, 3}",
                            "{[1] = 1, [3] = 3}",
                            "{[2] = 2}",
                            "{[0] = 0}",
                            "{[1.5] = 1}",
                            "{[-1] = 1}",
                            "{x = 1}",
                            "{[true] = false}",
                            "{[2^31] = 1}",
                            "{[2^31 - 1] = 1}",
                            "{{}}",
                            "{{1, {2, {3}}}}",
                            "{x = {y = {}}}",
                            "{f = function() end}",
                            "{[{}] = 1}"}) {
    expect_same(with(value, "return cmsgpack.pack(v)"));
  }
  expect_same(eval("local t = {} for i = 1, 15 do t[i] = i end return cmsgpack.pack(t)"));
  expect_same(eval("local t = {} for i = 1, 16 do t[i] = i end return cmsgpack.pack(t)"));
  expect_same(eval("local t = {} for i = 1, 65536 do t[i] = 0 end return #cmsgpack.pack(t)"));
  expect_same(eval("local t = {} for i = 1, 70000 do t[i] = 0 end return string.sub(cmsgpack.pack(t), 1, 5)"));
  expect_same(
      eval("local t = {} for i = 1, 16 do t['k' .. i] = 1 end return {#cmsgpack.pack(t), "
           "string.byte(cmsgpack.pack(t), 1, 3)}"));
  expect_same(eval("local t = {} t[1] = t return cmsgpack.pack(t)"));
  expect_same(eval("local t = {} for i = 1, 20 do t = {t} end return cmsgpack.pack(t)"));
  expect_same(eval("local t = {} for i = 1, 20 do t = {x = t} end return cmsgpack.pack(t)"));
  expect_same(eval("return cmsgpack.pack(1, 'a', {2})"));
  expect_same(eval("return cmsgpack.pack(nil, nil)"));
  expect_same(eval("return cmsgpack.pack()"));
  expect_same(eval("return cmsgpack.pack(KEYS, ARGV)", {"1", "k", "a"}));
}

TEST_F(Differential, CmsgpackUnpacks) {
  for (const char* value : {"0",
                            "1",
                            "-1",
                            "127",
                            "128",
                            "-33",
                            "65536",
                            "-2147483649",
                            "4294967296",
                            "2^53",
                            "2^53 + 1",
                            "2^63",
                            "-2^63",
                            "123456789012345",
                            "12345678901234",
                            "1.5",
                            "0.1",
                            "-0.0",
                            "1/0",
                            "'str'",
                            "''",
                            "string.rep('z', 300)",
                            "true",
                            "false",
                            "{}",
                            "{1, 2, 3}",
                            "{1, {2, {3, {}}}}",
                            "{x = 1}",
                            "{x = {y = {z = 'deep'}}}",
                            "{[1] = 'a', [3] = 'c'}",
                            "{a = 1, b = 2, c = 3}",
                            "{1.5, -2.25, 'x', false}"}) {
    expect_same(with(value, "return {cmsgpack.unpack(cmsgpack.pack(v))}"));
    expect_same(with(value,
                     "local r = cmsgpack.unpack(cmsgpack.pack(v)) return type(r) .. ':' .. (type(r) == 'table' and "
                     "#cjson.encode(r) or tostring(r))"));
    expect_same(with(value,
                     "local r = cmsgpack.unpack(cmsgpack.pack(v)) if type(r) ~= 'table' then return 'x' .. r end "
                     "local keys = {} for k in pairs(r) do keys[#keys + 1] = tostring(k) end table.sort(keys) "
                     "return keys"));
  }
  for (const char* bytes : {"'\\204\\255'",
                            "'\\208\\255'",
                            "'\\205\\1\\0'",
                            "'\\209\\255\\0'",
                            "'\\206\\255\\255\\255\\255'",
                            "'\\210\\128\\0\\0\\0'",
                            "'\\207\\255\\255\\255\\255\\255\\255\\255\\255'",
                            "'\\207\\128\\0\\0\\0\\0\\0\\0\\0'",
                            "'\\207\\0\\32\\0\\0\\0\\0\\0\\1'",
                            "'\\211\\255\\255\\255\\255\\255\\255\\255\\254'",
                            "'\\211\\0\\32\\0\\0\\0\\0\\0\\1'",
                            "'\\192'",
                            "'\\195'",
                            "'\\194'",
                            "'\\202\\63\\192\\0\\0'",
                            "'\\203\\63\\248\\0\\0\\0\\0\\0\\0'",
                            "'\\203\\127\\248\\0\\0\\0\\0\\0\\0'",
                            "'\\217\\3abc'",
                            "'\\218\\0\\2ab'",
                            "'\\219\\0\\0\\0\\1a'",
                            "'\\162ab'",
                            "'\\224'",
                            "'\\255'",
                            "'\\127'",
                            "'\\146\\1\\2'",
                            "'\\220\\0\\2\\1\\2'",
                            "'\\221\\0\\0\\0\\1\\7'",
                            "'\\130\\161a\\1\\161b\\2'",
                            "'\\222\\0\\1\\1\\2'",
                            "'\\223\\0\\0\\0\\1\\1\\2'",
                            "'\\145\\192'",
                            "'\\147\\1\\192\\3'",
                            "'\\1\\2\\3'",
                            "'\\145\\145\\145\\1'"}) {
    expect_same(eval(std::string("return {cmsgpack.unpack(") + bytes + ")}"));
    expect_same(eval(std::string("local t = {cmsgpack.unpack(") + bytes +
                     ")} for i = 1, #t do t[i] = type(t[i]) .. ':' .. (type(t[i]) == 'table' and cjson.encode(t[i]) or "
                     "tostring(t[i])) end return t"));
  }
}

TEST_F(Differential, CmsgpackUnpackErrorsAndStreams) {
  for (const char* call : {"cmsgpack.unpack('')",
                           "cmsgpack.unpack('\\204')",
                           "cmsgpack.unpack('\\217\\5ab')",
                           "cmsgpack.unpack('\\193')",
                           "cmsgpack.unpack('\\196\\1a')",
                           "cmsgpack.unpack('\\212\\1\\1')",
                           "cmsgpack.unpack('\\146\\1')",
                           "cmsgpack.unpack('\\129\\192\\1')",
                           "cmsgpack.unpack('\\129\\203\\127\\248\\0\\0\\0\\0\\0\\0\\1')",
                           "cmsgpack.unpack('\\129\\192')",
                           "cmsgpack.unpack('\\129\\1\\192')",
                           "cmsgpack.unpack()",
                           "cmsgpack.unpack({})",
                           "cmsgpack.unpack(5)",
                           "cmsgpack.unpack(cmsgpack.null)",
                           "cmsgpack.unpack_one('\\1\\2\\3')",
                           "cmsgpack.unpack_one('\\1\\2\\3', 1)",
                           "cmsgpack.unpack_one('\\1\\2\\3', 2)",
                           "cmsgpack.unpack_one('\\1\\2\\3', 3)",
                           "cmsgpack.unpack_one('\\1\\2\\3', 4)",
                           "cmsgpack.unpack_one('\\1\\2\\3', -1)",
                           "cmsgpack.unpack_one('\\1', 1.5)",
                           "cmsgpack.unpack_one('\\1\\2', '1')",
                           "cmsgpack.unpack_one('\\1', 'x')",
                           "cmsgpack.unpack_one('')",
                           "cmsgpack.unpack_one('\\204')",
                           "cmsgpack.unpack_limit('\\1\\2\\3', 2)",
                           "cmsgpack.unpack_limit('\\1\\2\\3', 0)",
                           "cmsgpack.unpack_limit('\\1\\2\\3', 0, 1)",
                           "cmsgpack.unpack_limit('\\1\\2\\3', 5)",
                           "cmsgpack.unpack_limit('\\1\\2\\3', 2, 2)",
                           "cmsgpack.unpack_limit('\\1\\2\\3', -1)",
                           "cmsgpack.unpack_limit('\\1\\2\\3', 1, -5)",
                           "cmsgpack.unpack_limit('\\1\\2\\3')",
                           "cmsgpack.unpack_limit('\\1\\2\\3', 'x')",
                           "cmsgpack.unpack_limit('\\1\\2\\3', 1, 7)",
                           "cmsgpack.unpack_limit('\\1\\2\\3', 1.9, 0.5)"}) {
    expect_same(eval(std::string("return {") + call + "}"));
  }
  expect_same(
      eval("local s = cmsgpack.pack(1, 'two', {3}) local out, off = {}, 0 repeat local v off, v = "
           "cmsgpack.unpack_one(s, off) out[#out + 1] = cjson.encode(v) until off == -1 return out"));
  expect_same(eval("local s = string.rep('\\1', 7990) return select('#', cmsgpack.unpack(s))"));
  expect_same(eval("local s = string.rep('\\1', 8010) return select('#', cmsgpack.unpack(s))"));
  expect_same(eval("local s = string.rep('\\145', 5000) .. '\\1' return type(cmsgpack.unpack(s))"));
}

TEST_F(Differential, RedisCallIntegersArriveAsLua51Numbers) {
  for (const char* value : {"1", "-1", "99999999999999", "100000000000000", "123456789012345", "9007199254740992",
                            "9007199254740993", "-9007199254740993", "9223372036854775807", "-9223372036854775808"}) {
    expect_same({"SET", "n", value});
    expect_same(eval("return redis.call('incrby', 'n', 0)"));
    expect_same(eval("return tostring(redis.call('incrby', 'n', 0))"));
    expect_same(eval("return 'x' .. redis.call('incrby', 'n', 0)"));
    expect_same(eval("return redis.call('incrby', 'n', 0) + 1"));
    expect_same(eval("return tostring(redis.call('incrby', 'n', 0) + 1)"));
    expect_same(eval("return tostring(redis.call('incrby', 'n', 0) * 2)"));
    expect_same(eval("return redis.call('incrby', 'n', 0) == tonumber(redis.call('get', 'n'))"));
    expect_same(eval("redis.call('set', 'm', redis.call('incrby', 'n', 0)) return redis.call('get', 'm')"));
    expect_same(eval("return cjson.encode({redis.call('incrby', 'n', 0)})"));
    expect_same(eval("return cmsgpack.pack(redis.call('incrby', 'n', 0))"));
  }
  expect_same(eval("return tostring(123456789012345)"));
  expect_same(eval("return tostring(tonumber('9007199254740993'))"));
  expect_same(eval("return tonumber('9007199254740993') == 9007199254740992"));
  expect_same(eval("return tonumber('123456789012345') + 0.5"));
  expect_same(eval("return tonumber('ff', 16)"));
  expect_same(eval("return tonumber('zz', 99)"));
  expect_same(eval("return tostring(99999999999999)"));
  expect_same(eval("return tostring(-123456789012345)"));
}

}  // namespace locksim::test

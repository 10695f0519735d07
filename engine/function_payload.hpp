#pragma once
// FUNCTION DUMP's payload, as Redis 7.0 writes and reads it: each library's code as an RDB
// function record (RDB_OPCODE_FUNCTION2, then the code as an RDB string), then the RDB version
// (10) and a CRC64 (Jones) of all before it. Written with plain strings, where Redis compresses
// long ones with LZF: the bytes differ, both servers read both.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace locksim::engine::function_payload {

// Redis's crc64 (crc64.c): the Jones polynomial, reflected, from `crc`.
uint64_t crc64(uint64_t crc, std::string_view data);

// The payload holding these libraries' codes.
std::string encode(const std::vector<std::string>& codes);

// What a payload holds: each record's code, in order (a record of 7.0's release candidates is
// turned into today's "#!<engine> name=<name>\n<code>"), or the error FUNCTION RESTORE replies
// (without "ERR ").
struct Decoded {
  std::vector<std::string> codes;
  std::string error;
};
Decoded decode(std::string_view payload);

}  // namespace locksim::engine::function_payload

#pragma once
#include <string>
#include <string_view>

namespace locksim {

// Lower-case hex SHA1, as Redis names scripts (OpenSSL's libcrypto does the hashing).
std::string sha1_hex(std::string_view data);

}  // namespace locksim

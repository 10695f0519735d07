#include "base/sha1.hpp"

#include <openssl/evp.h>

#include "base/assert.hpp"

namespace locksim {

std::string sha1_hex(std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  const int ok = EVP_Digest(data.data(), data.size(), digest, &length, EVP_sha1(), nullptr);
  LS_ASSERT(ok == 1);
  LS_ASSERT(length == 20);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(40, '0');
  for (unsigned int i = 0; i < length; ++i) {
    out[2 * i] = kHex[digest[i] >> 4];
    out[2 * i + 1] = kHex[digest[i] & 0xf];
  }
  return out;
}

}  // namespace locksim

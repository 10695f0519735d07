#pragma once
// hiredis's reply as a Reply: one conversion shared by the live backend, the synchronous
// client and the differential tests, so fake and live replies compare as values.
#include <hiredis/hiredis.h>

#include "base/reply.hpp"

namespace locksim::live {

Reply from_hiredis(const redisReply* reply);

}  // namespace locksim::live

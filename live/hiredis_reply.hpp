#pragma once
// hiredis's reply as an engine::Reply: one conversion shared by the live backend, the synchronous
// client and the differential tests, so fake and live replies compare as values.
#include <hiredis/hiredis.h>

#include "engine/reply.hpp"

namespace locksim::live {

engine::Reply from_hiredis(const redisReply* reply);

}  // namespace locksim::live

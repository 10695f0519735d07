#include "live/hiredis_reply.hpp"

#include <string>

namespace locksim::live {

Reply from_hiredis(const redisReply* reply) {
  if (reply == nullptr) return Reply::error("(hiredis: no reply)");
  switch (reply->type) {
    case REDIS_REPLY_STRING: return Reply::bulk(std::string_view(reply->str, reply->len));
    case REDIS_REPLY_STATUS: return Reply::status(std::string_view(reply->str, reply->len));
    case REDIS_REPLY_ERROR: return Reply::error(std::string_view(reply->str, reply->len));
    case REDIS_REPLY_INTEGER: return Reply::integer_of(reply->integer);
    case REDIS_REPLY_NIL: return Reply::nil();
    case REDIS_REPLY_ARRAY: {
      Reply array = Reply::array();
      for (size_t i = 0; i < reply->elements; ++i) array.elements.push_back(from_hiredis(reply->element[i]));
      return array;
    }
    default: return Reply::error("(hiredis: unexpected reply type " + std::to_string(reply->type) + ")");
  }
}

}  // namespace locksim::live

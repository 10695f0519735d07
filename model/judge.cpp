#include "model/judge.hpp"

namespace locksim::model {

Verdict judge_whole(Judge& judge, const Facts& facts) {
  judge.advance(Settled{static_cast<int64_t>(facts.history().size()), kForever});
  return judge.verdict();
}

}  // namespace locksim::model

#pragma once
// Fencing: per fenced resource (the Write event's `lock`, "" for the one resource), the tokens of
// accepted writes never go down; equal tokens (one holder writing twice) are fine. Writes carrying
// no token (value 0) are not ordered unless `unfenced_is_zero` is set. Anomaly: fencing-order,
// witnessed by the accepted write with the highest token so far and the lower one accepted after it.
#include "model/history.hpp"
#include "model/verdict.hpp"

namespace locksim::model {

struct FencingOptions {
  // Treat an accepted write without a token as token 0, i.e. as going below any fenced write.
  bool unfenced_is_zero = false;
};

Verdict check_fencing(const History& history, const FencingOptions& options = {});

}  // namespace locksim::model
